// The C API's handles as SafeHandles. The runtime releases a handle exactly once: on Dispose,
// or by its finalizer when Dispose was forgotten, and never while a P/Invoke call is using it.
// A handle that needs another to stay alive (a query its world, derived data its grid, a
// hierarchy its voxel world, a crowd its mesh or grid) holds a reference count on it (DangerousAddRef), so the world is
// destroyed only after the last of them, whatever order Dispose or the finalizers run in: the
// C API's WF_IN_USE then never arises from C#.
//
// Disposal is guarded here rather than left to SafeHandle alone: Mono's SafeHandle (6.8) drops
// a reference on every Dispose, so a second Dispose of a world that queries still hold would free
// it under them, and it keeps a disposed handle usable while references remain. The flag below
// makes Dispose count once and every later use an ObjectDisposedException, on every runtime.
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Wayfinder
{
    /// <summary>A C API handle; released by its destroy function.</summary>
    internal abstract class WayfinderHandle : SafeHandle
    {
        // The handle this one keeps alive (its world), or null.
        private SafeHandle parent;
        // 1 once Dispose ran (explicitly or from the finalizer).
        private int disposed;

        protected WayfinderHandle() : base(IntPtr.Zero, true) { }

        /// <summary>ObjectDisposedException once disposed, naming the public class that owns the handle.</summary>
        internal void ThrowIfDisposed(string owner)
        {
            if (Volatile.Read(ref disposed) != 0) throw new ObjectDisposedException(owner);
        }

        protected override void Dispose(bool disposing)
        {
            if (Interlocked.Exchange(ref disposed, 1) != 0) return;
            base.Dispose(disposing);
        }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>Takes ownership of a handle the C API made, keeping `parent` alive until it is released.</summary>
        internal void Adopt(IntPtr value, SafeHandle owner)
        {
            if (owner != null)
            {
                bool added = false;
                try
                {
                    owner.DangerousAddRef(ref added);
                }
                catch
                {
                    Destroy(value);
                    throw;
                }
                parent = owner;
            }
            SetHandle(value);
        }

        protected override bool ReleaseHandle()
        {
            bool released = Destroy(handle);
            SafeHandle owner = parent;
            parent = null;
            if (owner != null) owner.DangerousRelease();
            return released;
        }

        /// <summary>Calls the C destroy function.</summary>
        protected abstract bool Destroy(IntPtr value);
    }

    internal sealed class GridHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { return NativeMethods.wf_grid_destroy(value) == Status.Ok; }
    }

    internal sealed class GridQueryHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_grid_query_destroy(value); return true; }
    }

    internal sealed class GridDerivedHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_grid_derived_destroy(value); return true; }
    }

    internal sealed class NavMeshHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { return NativeMethods.wf_navmesh_destroy(value) == Status.Ok; }
    }

    internal sealed class NavMeshQueryHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_navmesh_query_destroy(value); return true; }
    }

    internal sealed class NavMeshTileCacheHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { return NativeMethods.wf_navmesh_tile_cache_destroy(value) == Status.Ok; }
    }

    internal sealed class CrowdHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_crowd_destroy(value); return true; }
    }

    internal sealed class CrowdFlowFieldHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_crowd_flow_field_destroy(value); return true; }
    }

    internal sealed class VoxelWorldHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { return NativeMethods.wf_voxel_world_destroy(value) == Status.Ok; }
    }

    internal sealed class VoxelQueryHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_voxel_query_destroy(value); return true; }
    }

    internal sealed class VoxelHierarchyHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_voxel_hierarchy_destroy(value); return true; }
    }

    internal sealed class VoxelFootprintHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_voxel_footprint_destroy(value); return true; }
    }

    internal sealed class BatchHandle : WayfinderHandle
    {
        protected override bool Destroy(IntPtr value) { NativeMethods.wf_batch_destroy(value); return true; }
    }
}
