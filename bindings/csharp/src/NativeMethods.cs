// The C API (bindings/c/include/wayfinder.h) as P/Invoke declarations, one per wf_ function, and
// its structs with the same layout. Internal: users see the classes built on it.
using System;
using System.Runtime.InteropServices;

namespace Wayfinder
{
    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeSearchStats
    {
        public ulong Expanded, Generated, PeakOpen;
        public double Microseconds;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct NativePathResult
    {
        public SearchStatus Status;
        public StopReason Reason;
        public double Cost;
        public UIntPtr NodeCount, PointCount;
        public NativeSearchStats Stats;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeQueryLimits
    {
        public ulong MaxExpansions;
        public double MaxCost, MaxMilliseconds;
        public int ReturnPartial, PartialWhenUnreachable;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeAreaFilter
    {
        public fixed float AreaCosts[AreaFilter.MaxAreas];
        public ushort IncludeFlags, ExcludeFlags;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeGridOptions
    {
        public NativeQueryLimits Limits;
        public GridAlgorithm Algorithm;
        public DiagonalMode Diagonal;
        public Heuristic Heuristic;
        public double Weight;
        public ulong WalkerStepLimit;
        public NativeAreaFilter* Filter;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeNavMeshOptions
    {
        public NativeQueryLimits Limits;
        public CorridorNodes Nodes;
        public double Weight, HeightTolerance, SnapDistance;
        public NativeAreaFilter* Filter;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeAgentSettings
    {
        public double CellSize, CellHeight, AgentHeight, AgentRadius, MaxClimb, MaxSlopeDegrees;
        public int RegionMinSize, RegionMergeSize;
        public double EdgeMaxLength, EdgeMaxError;
        public int VerticesPerPolygon;
        public double DetailSampleDistance, DetailSampleMaxError;
        public int TileSize;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeNavMeshBuildReport
    {
        public UIntPtr InputTriangles, WalkableTriangles;
        public int GridWidth, GridDepth, Tiles;
        public UIntPtr Polygons, Vertices, DetailTriangles, BorderVerticesAdded;
        public double Milliseconds;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeMovementProfile
    {
        public int AgentHeight, WalkDirections, StepHeight, JumpHeight, JumpDistance, MaxFall;
        public int Swim, Climb, Fly;
        public int AgentWidth;
        public double WalkCost, DiagonalCost, StepUpCost, JumpCost, FallCost, SwimCost, ClimbCost, FlyCost;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeVoxelOptions
    {
        public NativeQueryLimits Limits;
        public VoxelAlgorithm Algorithm;
        public double Weight;
        public NativeMovementProfile* Profile;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeVoxelHierarchyOptions
    {
        public int ClusterSize, ClusterHeight, LongEntrance, BuildThreads;
        public ulong MaxPlaces;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeGridRequest
    {
        public int StartX, StartY, GoalX, GoalY;
        public NativeGridOptions* Options;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeNavMeshRequest
    {
        public Vector3d Start, Goal;
        public NativeNavMeshOptions* Options;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct NativeVoxelRequest
    {
        public VoxelPosition Start, Goal;
        public NativeVoxelOptions* Options;
    }

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int NativeBlockAt(IntPtr userData, int x, int y, int z);

    internal static unsafe class NativeMethods
    {
        // The search calls' outputs are pointers to the caller's locals rather than `out`
        // parameters, so that the marshaller has nothing to copy back on the hot path.

        // The shared library's name without prefix and suffix: the runtime looks for
        // libwayfinder_c.so (Linux), libwayfinder_c.dylib (macOS) or wayfinder_c.dll (Windows).
        internal const string Library = "wayfinder_c";

        // ---- Common ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr wf_version();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr wf_last_error(SafeHandle handle);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr wf_status_name(Status status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr wf_search_status_name(SearchStatus status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_area_filter_init(NativeAreaFilter* filter);

        // ---- Grids ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_grid_options_init(NativeGridOptions* options);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_create(int width, int height, out IntPtr grid, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_create_from_cells(int width, int height, byte[] passable, float[] costs,
                                                                out IntPtr grid, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_load_movingai(byte[] utf8Path, out IntPtr grid, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_destroy(IntPtr grid);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_size(GridHandle grid, out int width, out int height);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_cell(GridHandle grid, int x, int y, out int passable, out float cost,
                                                   out byte area, out ushort flags);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_revision(GridHandle grid, out ulong revision);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_set_passable(GridHandle grid, int x, int y, int width, int height, int passable);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_set_cost(GridHandle grid, int x, int y, int width, int height, float cost);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_set_area(GridHandle grid, int x, int y, int width, int height, byte area);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_set_flags(GridHandle grid, int x, int y, int width, int height, ushort flags);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_create(GridHandle grid, out IntPtr query, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_grid_query_destroy(IntPtr query);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_find_path(GridQueryHandle query, int startX, int startY, int goalX, int goalY,
                                                              NativeGridOptions* options, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_begin(GridQueryHandle query, int startX, int startY, int goalX, int goalY,
                                                          NativeGridOptions* options, SearchStatus* status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_step(GridQueryHandle query, ulong maxExpansions, double maxMilliseconds,
                                                         SearchStatus* status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_result(GridQueryHandle query, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_path_cells(GridQueryHandle query, GridCell* xy, UIntPtr capacity, UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_message(SafeHandle query, byte* text, UIntPtr capacity, out UIntPtr length);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_set_trace(SafeHandle query, UIntPtr maxEvents);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_trace(SafeHandle query, SearchTraceEvent* events, UIntPtr capacity, UIntPtr* count,
                                                      UIntPtr* recorded);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_derived_create(GridHandle grid, NativeGridOptions* options, out IntPtr derived,
                                                             byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_derived_update(GridDerivedHandle derived, NativeGridOptions* options);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_grid_derived_destroy(IntPtr derived);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_set_derived(GridQueryHandle query, GridDerivedHandle derived);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "wf_grid_query_set_derived")]
        internal static extern Status wf_grid_query_clear_derived(GridQueryHandle query, IntPtr none);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_query_set_agent_size(GridQueryHandle query, int agentSize);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_grid_derived_add_agent_size(GridDerivedHandle derived, NativeGridOptions* options, int agentSize);

        // ---- Navigation meshes ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_navmesh_options_init(NativeNavMeshOptions* options);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_load_obj(byte[] utf8Path, int zUp, out IntPtr mesh, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_load_polyanya(byte[] utf8Path, out IntPtr mesh, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_load_wfnav(byte[] utf8Path, out IntPtr mesh, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_save_wfnav(NavMeshHandle mesh, byte[] utf8Path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_create(float[] vertices, UIntPtr vertexCount, UIntPtr strideBytes, uint[] indices,
                                                        UIntPtr indexCount, uint[] polygonSizes, UIntPtr polygonCount,
                                                        out IntPtr mesh, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_agent_settings_init(out NativeAgentSettings settings);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_build_obj(byte[] utf8Path, int zUp, ref NativeAgentSettings settings, out IntPtr mesh,
                                                           byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_build_geometry(float[] vertices, UIntPtr vertexCount, int[] triangles, UIntPtr triangleCount,
                                                                ref NativeAgentSettings settings, out NativeNavMeshBuildReport report,
                                                                out IntPtr mesh, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_destroy(IntPtr mesh);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_counts(NavMeshHandle mesh, out UIntPtr vertices, out UIntPtr polygons, out UIntPtr regions);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_revision(NavMeshHandle mesh, out ulong revision);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_polygon_area(NavMeshHandle mesh, uint polygon, out byte area, out ushort flags);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_set_area(NavMeshHandle mesh, uint polygon, byte area);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_set_flags(NavMeshHandle mesh, uint polygon, ushort flags);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_set_area_and_flags(NavMeshHandle mesh, uint polygon, byte area, ushort flags);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_locate(NavMeshHandle mesh, ref Vector3d point, double heightTolerance,
                                                        out uint polygon, out Vector3d located);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_off_mesh_link_init(OffMeshLink* link);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_add_off_mesh_link(NavMeshHandle mesh, OffMeshLink* link, uint* linkId);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_add_off_mesh_links_file(NavMeshHandle mesh, byte[] utf8Path, UIntPtr* added);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_off_mesh_link_count(NavMeshHandle mesh, UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_create(NavMeshHandle mesh, out IntPtr query, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_navmesh_query_destroy(IntPtr query);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_find_path(NavMeshQueryHandle query, ref Vector3d start, ref Vector3d goal,
                                                                 NativeNavMeshOptions* options, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_begin(NavMeshQueryHandle query, ref Vector3d start, ref Vector3d goal,
                                                             NativeNavMeshOptions* options, SearchStatus* status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_step(NavMeshQueryHandle query, ulong maxExpansions, double maxMilliseconds,
                                                            SearchStatus* status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_result(NavMeshQueryHandle query, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_path_points(NavMeshQueryHandle query, Vector3d* xyz, UIntPtr capacity,
                                                                   UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_path_polygons(NavMeshQueryHandle query, uint* polygons, UIntPtr capacity,
                                                                     UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_path_links(NavMeshQueryHandle query, PathLink* links, UIntPtr capacity,
                                                                  UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_message(SafeHandle query, byte* text, UIntPtr capacity, out UIntPtr length);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_set_trace(SafeHandle query, UIntPtr maxEvents);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_query_trace(SafeHandle query, SearchTraceEvent* events, UIntPtr capacity, UIntPtr* count,
                                                      UIntPtr* recorded);

        // ---- Tile caches (temporary obstacles) ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_create_obj(byte[] utf8Path, int zUp, NativeAgentSettings* settings,
                                                                       out IntPtr cache, out IntPtr mesh, byte[] error,
                                                                       UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_destroy(IntPtr cache);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_add_cylinder(NavMeshTileCacheHandle cache, Vector3d* bottom, double radius,
                                                                         double height, uint* obstacleId);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_add_box(NavMeshTileCacheHandle cache, Vector3d* min, Vector3d* max,
                                                                    uint* obstacleId);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_remove(NavMeshTileCacheHandle cache, uint obstacleId);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_update(NavMeshTileCacheHandle cache, NavMeshHandle mesh, UIntPtr maxTiles,
                                                                   UIntPtr* tilesRebuilt, UIntPtr* tilesPending);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_save_wfnav(NavMeshTileCacheHandle cache, NavMeshHandle mesh, byte[] utf8Path);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_navmesh_tile_cache_load_wfnav(byte[] utf8Path, out IntPtr cache, out IntPtr mesh, byte[] error,
                                                                       UIntPtr errorCapacity);

        // ---- Crowds ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_crowd_settings_init(CrowdSettings* settings);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_crowd_agent_settings_init(CrowdAgentSettings* settings);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_create(NavMeshHandle mesh, CrowdSettings* settings, out IntPtr crowd, byte[] error,
                                                      UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_create_grid(GridHandle grid, CrowdSettings* settings, int jumpPoint, out IntPtr crowd,
                                                           byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_crowd_destroy(IntPtr crowd);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_add_agent(CrowdHandle crowd, Vector3d* position, CrowdAgentSettings* settings, uint* agentId);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_remove_agent(CrowdHandle crowd, uint agentId);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_set_target(CrowdHandle crowd, uint agentId, Vector3d* target);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_set_velocity_target(CrowdHandle crowd, uint agentId, double* velocityXz);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_update(CrowdHandle crowd, double dt);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_agent_count(CrowdHandle crowd, UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_read_agents(CrowdHandle crowd, uint* ids, Vector3d* positionsXyz, double* velocitiesXz,
                                                           CrowdAgentState* states, UIntPtr capacity, UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_agent_link(CrowdHandle crowd, uint agentId, int* onLink, CrowdLinkCrossing* crossing,
                                                          CrowdLinkEvent* linkEvent);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_agent_path_requests(CrowdHandle crowd, uint agentId, uint* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_flow_field_create(CrowdHandle crowd, GridCell* goalsXy, UIntPtr goalCount, out IntPtr field,
                                                                 byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_crowd_flow_field_destroy(IntPtr field);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_crowd_set_flow_target(CrowdHandle crowd, uint agentId, CrowdFlowFieldHandle field);

        // ---- Voxel worlds ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_movement_profile_walker(out NativeMovementProfile profile);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_movement_profile_flyer(out NativeMovementProfile profile);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_voxel_options_init(NativeVoxelOptions* options);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_create(int sizeX, int sizeY, int sizeZ, byte* blocks, out IntPtr world,
                                                            byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_create_from_callback(int sizeX, int sizeY, int sizeZ, NativeBlockAt blockAt,
                                                                          IntPtr userData, out IntPtr world, byte[] error,
                                                                          UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_load_vox(byte[] utf8Path, byte* colourKinds, out IntPtr world, byte[] error,
                                                              UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_load_3dmap(byte[] utf8Path, out IntPtr world, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_destroy(IntPtr world);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_size(VoxelWorldHandle world, out int sizeX, out int sizeY, out int sizeZ);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_block(VoxelWorldHandle world, int x, int y, int z, out int kind);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_revision(VoxelWorldHandle world, out ulong revision);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_world_set_block(VoxelWorldHandle world, int x, int y, int z, int kind);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_create(VoxelWorldHandle world, NativeMovementProfile* profile, out IntPtr query,
                                                            byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_voxel_query_destroy(IntPtr query);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_find_path(VoxelQueryHandle query, ref VoxelPosition start, ref VoxelPosition goal,
                                                               NativeVoxelOptions* options, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_begin(VoxelQueryHandle query, ref VoxelPosition start, ref VoxelPosition goal,
                                                           NativeVoxelOptions* options, SearchStatus* status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_step(VoxelQueryHandle query, ulong maxExpansions, double maxMilliseconds,
                                                          SearchStatus* status);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_result(VoxelQueryHandle query, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_voxel_hierarchy_options_init(out NativeVoxelHierarchyOptions options);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_hierarchy_create(VoxelWorldHandle world, NativeMovementProfile* profile,
                                                                ref NativeVoxelHierarchyOptions options, out IntPtr hierarchy,
                                                                byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_voxel_hierarchy_destroy(IntPtr hierarchy);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_hierarchy_size(VoxelHierarchyHandle hierarchy, out UIntPtr nodes, out UIntPtr memoryBytes);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_hierarchy_update(VoxelHierarchyHandle hierarchy, VoxelWorldHandle world, out UIntPtr clustersRebuilt);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_set_hierarchy(VoxelQueryHandle query, VoxelHierarchyHandle hierarchy);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "wf_voxel_query_set_hierarchy")]
        internal static extern Status wf_voxel_query_clear_hierarchy(VoxelQueryHandle query, IntPtr none);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_footprint_create(VoxelWorldHandle world, NativeMovementProfile* profile,
                                                                out IntPtr footprint, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_voxel_footprint_destroy(IntPtr footprint);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_footprint_update(VoxelFootprintHandle footprint, out UIntPtr blocksChanged);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_set_footprint(VoxelQueryHandle query, VoxelFootprintHandle footprint);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "wf_voxel_query_set_footprint")]
        internal static extern Status wf_voxel_query_clear_footprint(VoxelQueryHandle query, IntPtr none);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_path_blocks(VoxelQueryHandle query, VoxelPosition* xyz, UIntPtr capacity,
                                                                 UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_message(SafeHandle query, byte* text, UIntPtr capacity, out UIntPtr length);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_set_trace(SafeHandle query, UIntPtr maxEvents);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_voxel_query_trace(SafeHandle query, SearchTraceEvent* events, UIntPtr capacity, UIntPtr* count,
                                                      UIntPtr* recorded);

        // ---- Batches ----
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_create(out IntPtr batch, byte[] error, UIntPtr errorCapacity);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void wf_batch_destroy(IntPtr batch);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_solve_grid_derived(BatchHandle batch, GridHandle grid, GridDerivedHandle derived,
                                                                  NativeGridRequest* requests, UIntPtr count, uint threads);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_solve_grid(BatchHandle batch, GridHandle grid, NativeGridRequest* requests,
                                                          UIntPtr count, uint threads);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_solve_navmesh(BatchHandle batch, NavMeshHandle mesh, NativeNavMeshRequest* requests,
                                                             UIntPtr count, uint threads);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_solve_voxel(BatchHandle batch, VoxelWorldHandle world, NativeVoxelRequest* requests,
                                                           UIntPtr count, uint threads);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_count(BatchHandle batch, UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_result(BatchHandle batch, UIntPtr index, NativePathResult* result);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_path_nodes(BatchHandle batch, UIntPtr index, uint* nodes, UIntPtr capacity,
                                                          UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_path_points(BatchHandle batch, UIntPtr index, Vector3d* xyz, UIntPtr capacity,
                                                           UIntPtr* count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status wf_batch_message(BatchHandle batch, UIntPtr index, byte* text, UIntPtr capacity,
                                                       out UIntPtr length);
    }
}
