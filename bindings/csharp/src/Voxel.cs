// Voxel worlds (C++ VoxelWorld, VoxelQuery, VoxelHierarchy; C wf_voxel_world, wf_voxel_query,
// wf_voxel_hierarchy).
using System;
using System.Runtime.InteropServices;

namespace Wayfinder
{
    /// <summary>
    /// A world of blocks (C++ VoxelWorld), y up. Any number of threads may search it at once,
    /// each with its own <see cref="VoxelQuery"/>; edits need it to themselves. Disposing it
    /// while queries or hierarchies on it live is allowed: it is freed with the last of them.
    /// </summary>
    public sealed unsafe class VoxelWorld : IDisposable
    {
        private readonly VoxelWorldHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal VoxelWorldHandle Handle { get { handle.ThrowIfDisposed("VoxelWorld"); return handle; } }

        private VoxelWorld(IntPtr world)
        {
            handle = new VoxelWorldHandle();
            handle.Adopt(world, null);
            int x, y, z;
            Native.CheckRead(NativeMethods.wf_voxel_world_size(handle, out x, out y, out z), "wf_voxel_world_size failed");
            SizeX = x;
            SizeY = y;
            SizeZ = z;
        }

        /// <summary>
        /// A world of sizeX * sizeY * sizeZ blocks (C wf_voxel_world_create): blocks null for all
        /// air, else one kind per position at index (y * sizeZ + z) * sizeX + x.
        /// </summary>
        public VoxelWorld(int sizeX, int sizeY, int sizeZ, BlockKind[] blocks = null) : this(Create(sizeX, sizeY, sizeZ, blocks)) { }

        private static IntPtr Create(int sizeX, int sizeY, int sizeZ, BlockKind[] blocks)
        {
            if (blocks != null && blocks.LongLength != (long)Math.Max(sizeX, 0) * Math.Max(sizeY, 0) * Math.Max(sizeZ, 0))
                throw new ArgumentException("blocks has " + blocks.Length + " entries, not sizeX * sizeY * sizeZ", "blocks");
            byte[] error = Native.ErrorBuffer();
            IntPtr world;
            fixed (BlockKind* p = blocks)
                Native.CheckCreated(NativeMethods.wf_voxel_world_create(sizeX, sizeY, sizeZ, (byte*)p, out world, error, Native.Capacity(error)), error);
            return world;
        }

        /// <summary>
        /// A world whose blocks `blockAt(x, y, z)` gives, called once per position (C
        /// wf_voxel_world_create_from_callback). An exception thrown by blockAt is rethrown here.
        /// </summary>
        public static VoxelWorld FromFunction(int sizeX, int sizeY, int sizeZ, Func<int, int, int, BlockKind> blockAt)
        {
            if (blockAt == null) throw new ArgumentNullException("blockAt");
            Exception thrown = null;
            // An exception must not unwind through the C++ frames: it is kept and rethrown once
            // the C call has returned, and the remaining positions read as air.
            NativeBlockAt callback = (userData, x, y, z) =>
            {
                if (thrown != null) return 0;
                try
                {
                    return (int)blockAt(x, y, z);
                }
                catch (Exception e)
                {
                    thrown = e;
                    return 0;
                }
            };
            byte[] error = Native.ErrorBuffer();
            IntPtr world;
            Status status = NativeMethods.wf_voxel_world_create_from_callback(sizeX, sizeY, sizeZ, callback, IntPtr.Zero, out world,
                                                                              error, Native.Capacity(error));
            GC.KeepAlive(callback);
            if (thrown != null)
            {
                if (status == Status.Ok) NativeMethods.wf_voxel_world_destroy(world);
                throw new InvalidOperationException("blockAt threw: " + thrown.Message, thrown);
            }
            Native.CheckCreated(status, error);
            return new VoxelWorld(world);
        }

        /// <summary>
        /// Reads a MagicaVoxel .vox file (C wf_voxel_world_load_vox); colourKinds (null: every
        /// colour solid) gives the kind of each of the 256 colour indices (index 0 is always air).
        /// </summary>
        public static VoxelWorld LoadVox(string path, BlockKind[] colourKinds = null)
        {
            if (colourKinds != null && colourKinds.Length != 256) throw new ArgumentException("colourKinds needs 256 entries", "colourKinds");
            byte[] error = Native.ErrorBuffer();
            IntPtr world;
            fixed (BlockKind* p = colourKinds)
                Native.CheckCreated(NativeMethods.wf_voxel_world_load_vox(Native.Utf8Path(path), (byte*)p, out world, error, Native.Capacity(error)), error);
            return new VoxelWorld(world);
        }

        /// <summary>Reads a MovingAI .3dmap file (C wf_voxel_world_load_3dmap).</summary>
        public static VoxelWorld Load3dMap(string path)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr world;
            Native.CheckCreated(NativeMethods.wf_voxel_world_load_3dmap(Native.Utf8Path(path), out world, error, Native.Capacity(error)), error);
            return new VoxelWorld(world);
        }

        public int SizeX { get; private set; }
        public int SizeY { get; private set; }
        public int SizeZ { get; private set; }

        /// <summary>The block at a position (air outside the world; C wf_voxel_world_block).</summary>
        public BlockKind GetBlock(int x, int y, int z)
        {
            int kind;
            Native.CheckRead(NativeMethods.wf_voxel_world_block(Handle, x, y, z, out kind), "wf_voxel_world_block failed");
            return (BlockKind)kind;
        }

        /// <summary>An edit (C wf_voxel_world_set_block): needs the world to itself.</summary>
        public void SetBlock(int x, int y, int z, BlockKind kind)
        {
            Native.Check(NativeMethods.wf_voxel_world_set_block(Handle, x, y, z, (int)kind), Handle);
        }

        /// <summary>Moves with every edit (C wf_voxel_world_revision).</summary>
        public ulong Revision
        {
            get
            {
                ulong revision;
                Native.CheckRead(NativeMethods.wf_voxel_world_revision(Handle, out revision), "wf_voxel_world_revision failed");
                return revision;
            }
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>The C options and the profile they point to, together on the caller's stack.</summary>
    internal unsafe struct NativeVoxelOptionsBlock
    {
        public NativeVoxelOptions Options;
        public NativeMovementProfile Profile;

        internal static NativeVoxelOptions* Prepare(VoxelOptions options, NativeVoxelOptionsBlock* block)
        {
            if (options == null) return null;
            block->Options = options.ToNative();
            if (options.Profile != null)
            {
                block->Profile = options.Profile.ToNative();
                block->Options.Profile = &block->Profile;
            }
            return &block->Options;
        }
    }

    /// <summary>
    /// Searches on one voxel world for one agent (C++ VoxelQuery, C wf_voxel_query). One per
    /// thread; it keeps its world alive. Once warm, a search allocates nothing.
    /// </summary>
    public sealed unsafe class VoxelQuery : IDisposable
    {
        private readonly VoxelQueryHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal VoxelQueryHandle Handle { get { handle.ThrowIfDisposed("VoxelQuery"); return handle; } }

        /// <summary>A query for an agent (profile null: a walker; C wf_voxel_query_create).</summary>
        public VoxelQuery(VoxelWorld world, MovementProfile profile = null)
        {
            if (world == null) throw new ArgumentNullException("world");
            byte[] error = Native.ErrorBuffer();
            IntPtr query;
            NativeMovementProfile native = profile == null ? default(NativeMovementProfile) : profile.ToNative();
            Native.CheckCreated(NativeMethods.wf_voxel_query_create(world.Handle, profile == null ? null : &native, out query, error,
                                                                    Native.Capacity(error)), error);
            handle = new VoxelQueryHandle();
            handle.Adopt(query, world.Handle);
            World = world;
        }

        public VoxelWorld World { get; private set; }

        /// <summary>A whole search (C wf_voxel_query_find_path).</summary>
        public PathResult FindPath(VoxelPosition start, VoxelPosition goal, VoxelOptions options = null)
        {
            NativeVoxelOptionsBlock block;
            NativePathResult result;
            Native.Check(NativeMethods.wf_voxel_query_find_path(Handle, ref start, ref goal, NativeVoxelOptionsBlock.Prepare(options, &block),
                                                                &result), Handle);
            return new PathResult(result);
        }

        /// <summary>Starts a stepped search (C wf_voxel_query_begin).</summary>
        public SearchStatus Begin(VoxelPosition start, VoxelPosition goal, VoxelOptions options = null)
        {
            NativeVoxelOptionsBlock block;
            SearchStatus status;
            Native.Check(NativeMethods.wf_voxel_query_begin(Handle, ref start, ref goal, NativeVoxelOptionsBlock.Prepare(options, &block),
                                                            &status), Handle);
            return status;
        }

        /// <summary>One step (C wf_voxel_query_step).</summary>
        public SearchStatus Step(ulong maxExpansions, double maxMilliseconds = 0.0)
        {
            SearchStatus status;
            Native.Check(NativeMethods.wf_voxel_query_step(Handle, maxExpansions, maxMilliseconds, &status), Handle);
            return status;
        }

        /// <summary>The stepped search's result so far (C wf_voxel_query_result).</summary>
        public PathResult GetResult()
        {
            NativePathResult result;
            Native.Check(NativeMethods.wf_voxel_query_result(Handle, &result), Handle);
            return new PathResult(result);
        }

        /// <summary>The path's blocks (the agent's feet) into `blocks` (grown when too short); returns their number.</summary>
        public int GetPathBlocks(ref VoxelPosition[] blocks) { return Native.CopyOut(Handle, UIntPtr.Zero, ref blocks, PathBlocks); }

        // The C call as a delegate made once, so that a copy into a warm array allocates nothing.
        private static readonly Native.CopyCall<VoxelPosition> PathBlocks = (query, index, blocks, count) =>
        {
            fixed (VoxelPosition* p = blocks)
                return NativeMethods.wf_voxel_query_path_blocks((VoxelQueryHandle)query, p, Native.Capacity(blocks), count);
        };

        /// <summary>Why the latest query was invalid; usually empty (C wf_voxel_query_message).</summary>
        public string Message { get { return Native.Message(Handle, NativeMethods.wf_voxel_query_message); } }

        /// <summary>
        /// Records the events of this query's later searches (each search replaces the last one's),
        /// keeping at most maxEvents of them (the rest are counted); 0 stops recording
        /// (C wf_voxel_query_set_trace).
        /// </summary>
        public void SetTrace(int maxEvents)
        {
            Native.Check(NativeMethods.wf_voxel_query_set_trace(Handle, Native.Size(maxEvents, "maxEvents")), Handle);
        }

        /// <summary>
        /// The events kept of the latest search, copied into `events` (grown when too short, else
        /// reused); returns their number (C wf_voxel_query_trace).
        /// </summary>
        public int GetTrace(ref SearchTraceEvent[] events)
        {
            long recorded;
            return SearchTraces.Read(Handle, SearchTraces.Voxel, ref events, out recorded);
        }

        /// <summary>As <see cref="GetTrace(ref SearchTraceEvent[])"/>; `recorded` counts every event, kept or not.</summary>
        public int GetTrace(ref SearchTraceEvent[] events, out long recorded)
        {
            return SearchTraces.Read(Handle, SearchTraces.Voxel, ref events, out recorded);
        }

        /// <summary>The hierarchy VoxelAlgorithm.Hierarchical searches (null: none; C wf_voxel_query_set_hierarchy).</summary>
        public void SetHierarchy(VoxelHierarchy hierarchy)
        {
            if (hierarchy == null) Native.Check(NativeMethods.wf_voxel_query_clear_hierarchy(Handle, IntPtr.Zero), Handle);
            else Native.Check(NativeMethods.wf_voxel_query_set_hierarchy(Handle, hierarchy.Handle), Handle);
        }

        /// <summary>
        /// The footprint world this query's wide agents (MovementProfile.AgentWidth 2 or 3) are
        /// searched on (null: the query makes its own; C wf_voxel_query_set_footprint). One of
        /// another width or kind of agent, or one behind its world's edits, makes such a search
        /// SearchStatus.InvalidInput with the reason in <see cref="Message"/>.
        /// </summary>
        public void SetFootprint(VoxelFootprint footprint)
        {
            if (footprint == null) Native.Check(NativeMethods.wf_voxel_query_clear_footprint(Handle, IntPtr.Zero), Handle);
            else Native.Check(NativeMethods.wf_voxel_query_set_footprint(Handle, footprint.Handle), Handle);
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// The footprint world of a voxel world for agents wider than one block (C++ VoxelFootprint,
    /// C wf_voxel_footprint): what their searches run on, built once for a width (2 or 3) and a
    /// kind of agent and shared read-only by any number of queries (<see
    /// cref="VoxelQuery.SetFootprint"/>), so that they hold one copy (about one byte per block of
    /// the world) instead of one each. Brought up to date after the world's edits by <see
    /// cref="Update"/>; it keeps its world alive.
    /// </summary>
    public sealed unsafe class VoxelFootprint : IDisposable
    {
        private readonly VoxelFootprintHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal VoxelFootprintHandle Handle { get { handle.ThrowIfDisposed("VoxelFootprint"); return handle; } }

        /// <summary>
        /// Builds the footprint world for the profile's AgentWidth and kind (C
        /// wf_voxel_footprint_create). A width of 1 (such agents search the world itself) or a
        /// world too small for the agent: a WayfinderException (InvalidArgument) saying why.
        /// </summary>
        public VoxelFootprint(VoxelWorld world, MovementProfile profile)
        {
            if (world == null) throw new ArgumentNullException("world");
            if (profile == null) throw new ArgumentNullException("profile");
            byte[] error = Native.ErrorBuffer();
            IntPtr footprint;
            NativeMovementProfile nativeProfile = profile.ToNative();
            Native.CheckCreated(NativeMethods.wf_voxel_footprint_create(world.Handle, &nativeProfile, out footprint, error,
                                                                        Native.Capacity(error)), error);
            handle = new VoxelFootprintHandle();
            handle.Adopt(footprint, world.Handle);
        }

        /// <summary>
        /// Brings the footprint up to date after edits of its world (C wf_voxel_footprint_update):
        /// only the footprint blocks an edited block can reach are computed again. Returns how
        /// many footprint blocks changed, 0 when the world was not edited. An edit of the
        /// footprint: no query may search it meanwhile, in any thread.
        /// </summary>
        public long Update()
        {
            UIntPtr changed;
            Native.Check(NativeMethods.wf_voxel_footprint_update(Handle, out changed), Handle);
            return (long)changed.ToUInt64();
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// A voxel world's cluster hierarchy for one agent (C++ VoxelHierarchy, C
    /// wf_voxel_hierarchy), for near-optimal searches on large worlds. Shared read-only by any
    /// number of queries, and brought up to date after the world's edits by <see cref="Update"/>;
    /// it keeps its world alive.
    /// </summary>
    public sealed unsafe class VoxelHierarchy : IDisposable
    {
        private readonly VoxelHierarchyHandle handle;
        // The world it was built on, whose edits Update catches up with.
        private readonly VoxelWorld world;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal VoxelHierarchyHandle Handle { get { handle.ThrowIfDisposed("VoxelHierarchy"); return handle; } }

        /// <summary>Builds the hierarchy (profile null: a walker; options null: the defaults; C wf_voxel_hierarchy_create).</summary>
        public VoxelHierarchy(VoxelWorld world, MovementProfile profile = null, VoxelHierarchyOptions options = null)
        {
            if (world == null) throw new ArgumentNullException("world");
            byte[] error = Native.ErrorBuffer();
            IntPtr hierarchy;
            NativeMovementProfile nativeProfile = profile == null ? default(NativeMovementProfile) : profile.ToNative();
            NativeVoxelHierarchyOptions nativeOptions = (options ?? new VoxelHierarchyOptions()).ToNative();
            Native.CheckCreated(NativeMethods.wf_voxel_hierarchy_create(world.Handle, profile == null ? null : &nativeProfile, ref nativeOptions,
                                                                        out hierarchy, error, Native.Capacity(error)), error);
            handle = new VoxelHierarchyHandle();
            handle.Adopt(hierarchy, world.Handle);
            this.world = world;
            ReadSize();
        }

        private void ReadSize()
        {
            UIntPtr nodes, bytes;
            Native.CheckRead(NativeMethods.wf_voxel_hierarchy_size(handle, out nodes, out bytes), "wf_voxel_hierarchy_size failed");
            NodeCount = (long)nodes.ToUInt64();
            MemoryBytes = (long)bytes.ToUInt64();
        }

        /// <summary>Abstract nodes (as of the build or the last <see cref="Update"/>).</summary>
        public long NodeCount { get; private set; }
        /// <summary>The bytes the hierarchy holds (as of the build or the last <see cref="Update"/>).</summary>
        public long MemoryBytes { get; private set; }

        /// <summary>
        /// Brings the hierarchy up to date after edits of its world (C wf_voxel_hierarchy_update,
        /// C++ VoxelHierarchy::update): only the clusters near the blocks edited since its build or
        /// last update are redone, and it then answers as a hierarchy built afresh on the edited
        /// world; until then hierarchical searches answer SearchStatus.InvalidInput. The queries
        /// given it (<see cref="VoxelQuery.SetHierarchy"/>) see it current again. Returns the
        /// clusters redone, 0 when the world was not edited. An edit of the hierarchy: no query may
        /// search it meanwhile, in any thread. Throws an ObjectDisposedException once the world it
        /// was built on is disposed, and a WayfinderException (OutOfMemory) past the options'
        /// MaxPlaces, the hierarchy left as it was.
        /// </summary>
        public int Update()
        {
            UIntPtr rebuilt;
            Native.Check(NativeMethods.wf_voxel_hierarchy_update(Handle, world.Handle, out rebuilt), Handle);
            ReadSize();
            return Native.Count(rebuilt);
        }

        public void Dispose() { handle.Dispose(); }
    }
}
