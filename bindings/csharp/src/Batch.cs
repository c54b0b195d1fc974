// Batches: many requests on one world, answered on several threads (C++ solve_batch, C wf_batch).
using System;

namespace Wayfinder
{
    /// <summary>A grid request of a batch (C wf_grid_request).</summary>
    public struct GridRequest
    {
        public GridCell Start;
        public GridCell Goal;
        /// <summary>null: the defaults.</summary>
        public GridOptions Options;

        public GridRequest(GridCell start, GridCell goal, GridOptions options = null) { Start = start; Goal = goal; Options = options; }
    }

    /// <summary>A navigation mesh request of a batch (C wf_navmesh_request).</summary>
    public struct NavMeshRequest
    {
        public Vector3d Start;
        public Vector3d Goal;
        /// <summary>null: the defaults.</summary>
        public NavMeshOptions Options;

        public NavMeshRequest(Vector3d start, Vector3d goal, NavMeshOptions options = null) { Start = start; Goal = goal; Options = options; }
    }

    /// <summary>A voxel request of a batch (C wf_voxel_request); the agent is Options.Profile, else a walker.</summary>
    public struct VoxelRequest
    {
        public VoxelPosition Start;
        public VoxelPosition Goal;
        public VoxelOptions Options;

        public VoxelRequest(VoxelPosition start, VoxelPosition goal, VoxelOptions options = null) { Start = start; Goal = goal; Options = options; }
    }

    /// <summary>
    /// Answers many requests on one world on several threads (C wf_batch). It holds the results
    /// of its latest solve; one per thread. Its native request arrays are kept and reused, so a
    /// warm batch of the same size allocates nothing.
    /// </summary>
    public sealed unsafe class PathBatch : IDisposable
    {
        private readonly BatchHandle handle;
        private NativeGridRequest[] gridRequests;
        private NativeGridOptionsBlock[] gridOptions;
        private NativeNavMeshRequest[] meshRequests;
        private NativeNavMeshOptionsBlock[] meshOptions;
        private NativeVoxelRequest[] voxelRequests;
        private NativeVoxelOptionsBlock[] voxelOptions;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal BatchHandle Handle { get { handle.ThrowIfDisposed("PathBatch"); return handle; } }

        public PathBatch()
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr batch;
            Native.CheckCreated(NativeMethods.wf_batch_create(out batch, error, Native.Capacity(error)), error);
            handle = new BatchHandle();
            handle.Adopt(batch, null);
        }

        private static void CheckRange<T>(T[] requests, int count)
        {
            if (requests == null) throw new ArgumentNullException("requests");
            if (count < 0 || count > requests.Length) throw new ArgumentOutOfRangeException("count", "count " + count + " is not within the " + requests.Length + " requests");
        }

        /// <summary>
        /// Answers requests[0 .. count) on `threads` threads (0: one per core); result i answers
        /// request i (C wf_batch_solve_grid_derived; derived: what JPS+ and HPA* requests read, or null).
        /// </summary>
        public void SolveGrid(GridMap map, GridRequest[] requests, int count, int threads = 0, GridDerivedData derived = null)
        {
            if (map == null) throw new ArgumentNullException("map");
            CheckRange(requests, count);
            Native.Reserve(ref gridRequests, count);
            Native.Reserve(ref gridOptions, count);
            Status status;
            fixed (NativeGridRequest* native = gridRequests)
            fixed (NativeGridOptionsBlock* blocks = gridOptions)
            {
                for (int i = 0; i < count; ++i)
                {
                    native[i].StartX = requests[i].Start.X;
                    native[i].StartY = requests[i].Start.Y;
                    native[i].GoalX = requests[i].Goal.X;
                    native[i].GoalY = requests[i].Goal.Y;
                    native[i].Options = NativeGridOptionsBlock.Prepare(requests[i].Options, blocks + i);
                }
                status = derived == null
                    ? NativeMethods.wf_batch_solve_grid(Handle, map.Handle, native, (UIntPtr)(uint)count, (uint)Math.Max(threads, 0))
                    : NativeMethods.wf_batch_solve_grid_derived(Handle, map.Handle, derived.Handle, native, (UIntPtr)(uint)count,
                                                                (uint)Math.Max(threads, 0));
            }
            Native.Check(status, Handle);
        }

        /// <summary>As <see cref="SolveGrid"/>, on a navigation mesh (C wf_batch_solve_navmesh).</summary>
        public void SolveNavMesh(NavMesh mesh, NavMeshRequest[] requests, int count, int threads = 0)
        {
            if (mesh == null) throw new ArgumentNullException("mesh");
            CheckRange(requests, count);
            Native.Reserve(ref meshRequests, count);
            Native.Reserve(ref meshOptions, count);
            Status status;
            fixed (NativeNavMeshRequest* native = meshRequests)
            fixed (NativeNavMeshOptionsBlock* blocks = meshOptions)
            {
                for (int i = 0; i < count; ++i)
                {
                    native[i].Start = requests[i].Start;
                    native[i].Goal = requests[i].Goal;
                    native[i].Options = NativeNavMeshOptionsBlock.Prepare(requests[i].Options, blocks + i);
                }
                status = NativeMethods.wf_batch_solve_navmesh(Handle, mesh.Handle, native, (UIntPtr)(uint)count, (uint)Math.Max(threads, 0));
            }
            Native.Check(status, Handle);
        }

        /// <summary>As <see cref="SolveGrid"/>, in a voxel world (C wf_batch_solve_voxel).</summary>
        public void SolveVoxel(VoxelWorld world, VoxelRequest[] requests, int count, int threads = 0)
        {
            if (world == null) throw new ArgumentNullException("world");
            CheckRange(requests, count);
            Native.Reserve(ref voxelRequests, count);
            Native.Reserve(ref voxelOptions, count);
            Status status;
            fixed (NativeVoxelRequest* native = voxelRequests)
            fixed (NativeVoxelOptionsBlock* blocks = voxelOptions)
            {
                for (int i = 0; i < count; ++i)
                {
                    native[i].Start = requests[i].Start;
                    native[i].Goal = requests[i].Goal;
                    native[i].Options = NativeVoxelOptionsBlock.Prepare(requests[i].Options, blocks + i);
                }
                status = NativeMethods.wf_batch_solve_voxel(Handle, world.Handle, native, (UIntPtr)(uint)count, (uint)Math.Max(threads, 0));
            }
            Native.Check(status, Handle);
        }

        /// <summary>The number of results of the latest solve (C wf_batch_count).</summary>
        public int Count
        {
            get
            {
                UIntPtr count;
                Native.Check(NativeMethods.wf_batch_count(Handle, &count), Handle);
                return Native.Count(count);
            }
        }

        /// <summary>Result `index` (C wf_batch_result).</summary>
        public PathResult GetResult(int index)
        {
            NativePathResult result;
            Native.Check(NativeMethods.wf_batch_result(Handle, Index(index), &result), Handle);
            return new PathResult(result);
        }

        /// <summary>Result `index`'s nodes (grid cell ids y * width + x, corridor polygons, or packed voxel ids); returns their number.</summary>
        public int GetPathNodes(int index, ref uint[] nodes) { return Native.CopyOut(Handle, Index(index), ref nodes, PathNodes); }

        // The C call as a delegate made once, so that a copy into a warm array allocates nothing.
        private static readonly Native.CopyCall<uint> PathNodes = (batch, index, nodes, count) =>
        {
            fixed (uint* p = nodes)
                return NativeMethods.wf_batch_path_nodes((BatchHandle)batch, index, p, Native.Capacity(nodes), count);
        };

        /// <summary>Result `index`'s points (cell centres, waypoints, block positions); returns their number.</summary>
        public int GetPathPoints(int index, ref Vector3d[] points) { return Native.CopyOut(Handle, Index(index), ref points, PathPoints); }

        private static readonly Native.CopyCall<Vector3d> PathPoints = (batch, index, points, count) =>
        {
            fixed (Vector3d* p = points)
                return NativeMethods.wf_batch_path_points((BatchHandle)batch, index, p, Native.Capacity(points), count);
        };

        /// <summary>Result `index`'s message (C wf_batch_message).</summary>
        public string GetMessage(int index)
        {
            UIntPtr length;
            Native.Check(NativeMethods.wf_batch_message(Handle, Index(index), null, UIntPtr.Zero, out length), Handle);
            int size = Native.Count(length);
            if (size == 0) return "";
            byte[] text = new byte[size + 1];
            fixed (byte* p = text)
            {
                Native.Check(NativeMethods.wf_batch_message(Handle, Index(index), p, (UIntPtr)(uint)text.Length, out length), Handle);
                return Native.Utf8(p, Native.Count(length));
            }
        }

        private static UIntPtr Index(int index)
        {
            // A negative index becomes one the C API refuses as out of range.
            return index < 0 ? new UIntPtr(ulong.MaxValue) : (UIntPtr)(uint)index;
        }

        public void Dispose() { handle.Dispose(); }
    }
}
