// Search options: classes with the C++ defaults (read from the C API's init functions), reused
// across queries. Each call copies them into the C struct on the stack, so passing options
// allocates nothing.
using System;

namespace Wayfinder
{
    public enum GridAlgorithm
    {
        BreadthFirst = 0,
        Dijkstra = 1,
        AStar = 2,
        WeightedAStar = 3,
        GreedyBestFirst = 4,
        BidirectionalAStar = 5,
        IdaStar = 6,
        JumpPoint = 7,
        CrashRight = 8,
        CrashLeft = 9,
        CrashAuto = 10,
        CrashFourWay = 11,
        Divide = 12,
        /// <summary>JPS+, over the jump table of a <see cref="GridDerivedData"/>.</summary>
        JumpPointPlus = 13,
        /// <summary>HPA* (near-optimal), over the cluster hierarchy of a <see cref="GridDerivedData"/>.</summary>
        Hierarchical = 14,
    }

    public enum DiagonalMode
    {
        Never = 0,
        AtLeastOneWalkable = 1,
        /// <summary>The MovingAI rule, the default.</summary>
        OnlyIfNoObstacles = 2,
        Always = 3,
    }

    public enum Heuristic
    {
        Automatic = 0,
        Octile = 1,
        Euclidean = 2,
        Manhattan = 3,
        Chebyshev = 4,
    }

    public enum CorridorNodes
    {
        PolygonCentroids = 0,
        /// <summary>The default: corridors close to the shortest.</summary>
        EdgePoints = 1,
        /// <summary>
        /// No corridor search: the exact shortest path (its x-z length is the cost; C++
        /// CorridorNodes::optimal, after Polyanya); the path's polygons are those it crosses. A
        /// mesh with off-mesh links or a filter with area costs other than 1 is SearchStatus.InvalidInput.
        /// </summary>
        Optimal = 2,
    }

    public enum VoxelAlgorithm
    {
        Dijkstra = 0,
        AStar = 1,
        WeightedAStar = 2,
        GreedyBestFirst = 3,
        /// <summary>Optimal; flying profiles only.</summary>
        JumpPoint = 4,
        /// <summary>Near-optimal, over the <see cref="VoxelHierarchy"/> given to the query.</summary>
        Hierarchical = 5,
    }

    public enum BlockKind : byte
    {
        Air = 0,
        Solid = 1,
        Water = 2,
        Ladder = 3,
    }

    /// <summary>Limits and fallbacks every query has (C++ QueryOptions, C wf_query_limits).</summary>
    public sealed class QueryLimits
    {
        /// <summary>No limit on expansions (C WF_UNLIMITED_EXPANSIONS).</summary>
        public const ulong UnlimitedExpansions = ulong.MaxValue;

        public QueryLimits()
        {
            MaxExpansions = UnlimitedExpansions;
            MaxCost = double.PositiveInfinity;
            MaxMilliseconds = 0.0;
            ReturnPartial = true;
            PartialWhenUnreachable = false;
        }

        public ulong MaxExpansions { get; set; }
        /// <summary>Stop once no cheaper path can exist (infinity: no limit).</summary>
        public double MaxCost { get; set; }
        /// <summary>The search's total time in milliseconds (0: no limit).</summary>
        public double MaxMilliseconds { get; set; }
        /// <summary>On budget exhaustion, a partial path (true, the default) or none.</summary>
        public bool ReturnPartial { get; set; }
        /// <summary>A partial path instead of NoPath.</summary>
        public bool PartialWhenUnreachable { get; set; }

        internal NativeQueryLimits ToNative()
        {
            return new NativeQueryLimits
            {
                MaxExpansions = MaxExpansions,
                MaxCost = MaxCost,
                MaxMilliseconds = MaxMilliseconds,
                ReturnPartial = ReturnPartial ? 1 : 0,
                PartialWhenUnreachable = PartialWhenUnreachable ? 1 : 0,
            };
        }
    }

    /// <summary>
    /// What the options of every search have (C++ QueryOptions, from which the C++ search options
    /// derive): its limits and fallbacks.
    /// </summary>
    public abstract class SearchOptions
    {
        internal SearchOptions() { Limits = new QueryLimits(); }

        /// <summary>Limits and fallbacks (null: the defaults).</summary>
        public QueryLimits Limits { get; set; }

        internal NativeQueryLimits NativeLimits() { return (Limits ?? new QueryLimits()).ToNative(); }
    }

    /// <summary>
    /// Per-query area costs and flag masks (C++ AreaFilter, C wf_area_filter): a cell in area a
    /// costs AreaCosts[a] times more (infinity: never entered); a cell with flags is usable only
    /// if it shares one with IncludeFlags, and never if it has one of ExcludeFlags.
    /// </summary>
    public sealed class AreaFilter
    {
        /// <summary>Areas are 0 to MaxAreas - 1 (C WF_MAX_AREAS).</summary>
        public const int MaxAreas = 64;

        private readonly float[] areaCosts = new float[MaxAreas];

        /// <summary>Costs 1 everywhere, every flag included, none excluded: a filter that changes nothing.</summary>
        public AreaFilter()
        {
            for (int i = 0; i < MaxAreas; ++i) areaCosts[i] = 1.0f;
            IncludeFlags = 0xFFFF;
            ExcludeFlags = 0;
        }

        /// <summary>The cost multiplier of each area (MaxAreas entries).</summary>
        public float[] AreaCosts { get { return areaCosts; } }
        public ushort IncludeFlags { get; set; }
        public ushort ExcludeFlags { get; set; }

        /// <summary>
        /// The C filter an options struct points to: `filter` copied into `storage` (which lives
        /// beside the options, on the caller's stack or in a pinned array), or null for no filter.
        /// </summary>
        internal static unsafe NativeAreaFilter* Place(AreaFilter filter, NativeAreaFilter* storage)
        {
            if (filter == null) return null;
            filter.CopyTo(storage);
            return storage;
        }

        internal unsafe void CopyTo(NativeAreaFilter* native)
        {
            for (int i = 0; i < MaxAreas; ++i) native->AreaCosts[i] = areaCosts[i];
            native->IncludeFlags = IncludeFlags;
            native->ExcludeFlags = ExcludeFlags;
        }
    }

    /// <summary>Grid search options (C++ GridSearchOptions, C wf_grid_options).</summary>
    public sealed class GridOptions : SearchOptions
    {
        // The C struct holds the values (its limits and filter pointer are filled in by ToNative
        // and the caller), so the defaults are the C API's own.
        private NativeGridOptions values;

        public GridOptions()
        {
            unsafe { fixed (NativeGridOptions* defaults = &values) NativeMethods.wf_grid_options_init(defaults); }
        }

        /// <summary>AStar by default.</summary>
        public GridAlgorithm Algorithm { get { return values.Algorithm; } set { values.Algorithm = value; } }
        /// <summary>OnlyIfNoObstacles (the MovingAI rule) by default.</summary>
        public DiagonalMode Diagonal { get { return values.Diagonal; } set { values.Diagonal = value; } }
        public Heuristic Heuristic { get { return values.Heuristic; } set { values.Heuristic = value; } }
        /// <summary>Weighted A*'s heuristic weight (at least 1; default 2).</summary>
        public double Weight { get { return values.Weight; } set { values.Weight = value; } }
        /// <summary>The reactive walkers' move limit (0: 4 times the cells).</summary>
        public ulong WalkerStepLimit { get { return values.WalkerStepLimit; } set { values.WalkerStepLimit = value; } }
        /// <summary>Area costs and flags (null: none).</summary>
        public AreaFilter Filter { get; set; }

        /// <summary>The C struct; its filter pointer is set by the caller, who owns the filter's storage.</summary>
        internal NativeGridOptions ToNative()
        {
            NativeGridOptions native = values;
            native.Limits = NativeLimits();
            return native;
        }
    }

    /// <summary>Navigation mesh search options (C++ NavMeshSearchOptions, C wf_navmesh_options).</summary>
    public sealed class NavMeshOptions : SearchOptions
    {
        // The C struct holds the values (its limits are filled in by ToNative).
        private NativeNavMeshOptions values;

        public NavMeshOptions()
        {
            unsafe { fixed (NativeNavMeshOptions* defaults = &values) NativeMethods.wf_navmesh_options_init(defaults); }
        }

        public CorridorNodes Nodes { get { return values.Nodes; } set { values.Nodes = value; } }
        /// <summary>The heuristic weight (1: A*).</summary>
        public double Weight { get { return values.Weight; } set { values.Weight = value; } }
        /// <summary>How far above or below a polygon a point still lies on it (world units; 4).</summary>
        public double HeightTolerance { get { return values.HeightTolerance; } set { values.HeightTolerance = value; } }
        /// <summary>Move an off-mesh start or goal this far onto the mesh (0: refuse).</summary>
        public double SnapDistance { get { return values.SnapDistance; } set { values.SnapDistance = value; } }
        /// <summary>
        /// Area costs and flags (null: none; C wf_navmesh_options.filter): the corridor never
        /// enters a polygon (nor takes a link) the filter refuses, and a polygon's steps cost its
        /// area's multiplier times more. A start or goal only on refused polygons, or a cost that
        /// is not above 0, is SearchStatus.InvalidInput with the reason in the query's message.
        /// </summary>
        public AreaFilter Filter { get; set; }

        /// <summary>The C struct; its filter pointer is set by the caller, who owns the filter's storage.</summary>
        internal NativeNavMeshOptions ToNative()
        {
            NativeNavMeshOptions native = values;
            native.Limits = NativeLimits();
            return native;
        }
    }

    /// <summary>
    /// How a navigation mesh is built from level geometry (C++ AgentSettings, C
    /// wf_agent_settings): Recast's voxel sizes and the agent's size and reach, in world units.
    /// </summary>
    public sealed class AgentSettings
    {
        private NativeAgentSettings values;

        /// <summary>The C++ defaults (cells of 0.3 by 0.2, an agent 2 high and 0.6 wide, ...).</summary>
        public AgentSettings() { NativeMethods.wf_agent_settings_init(out values); }

        /// <summary>Voxel size across (0.3).</summary>
        public double CellSize { get { return values.CellSize; } set { values.CellSize = value; } }
        /// <summary>Voxel size up (0.2).</summary>
        public double CellHeight { get { return values.CellHeight; } set { values.CellHeight = value; } }
        public double AgentHeight { get { return values.AgentHeight; } set { values.AgentHeight = value; } }
        public double AgentRadius { get { return values.AgentRadius; } set { values.AgentRadius = value; } }
        /// <summary>The highest step the agent climbs.</summary>
        public double MaxClimb { get { return values.MaxClimb; } set { values.MaxClimb = value; } }
        /// <summary>The steepest walkable slope, in degrees (45).</summary>
        public double MaxSlopeDegrees { get { return values.MaxSlopeDegrees; } set { values.MaxSlopeDegrees = value; } }
        public int RegionMinSize { get { return values.RegionMinSize; } set { values.RegionMinSize = value; } }
        public int RegionMergeSize { get { return values.RegionMergeSize; } set { values.RegionMergeSize = value; } }
        public double EdgeMaxLength { get { return values.EdgeMaxLength; } set { values.EdgeMaxLength = value; } }
        public double EdgeMaxError { get { return values.EdgeMaxError; } set { values.EdgeMaxError = value; } }
        /// <summary>3 to 12 (6).</summary>
        public int VerticesPerPolygon { get { return values.VerticesPerPolygon; } set { values.VerticesPerPolygon = value; } }
        public double DetailSampleDistance { get { return values.DetailSampleDistance; } set { values.DetailSampleDistance = value; } }
        public double DetailSampleMaxError { get { return values.DetailSampleMaxError; } set { values.DetailSampleMaxError = value; } }
        /// <summary>Cells per tile side (0: the level in one piece).</summary>
        public int TileSize { get { return values.TileSize; } set { values.TileSize = value; } }

        internal NativeAgentSettings ToNative() { return values; }
    }

    /// <summary>What a voxel agent can do (C++ MovementProfile, C wf_movement_profile; docs/voxel.md).</summary>
    public sealed class MovementProfile
    {
        private NativeMovementProfile values;

        private MovementProfile(NativeMovementProfile values) { this.values = values; }

        /// <summary>A person-sized walker (the default agent).</summary>
        public static MovementProfile Walker()
        {
            NativeMovementProfile values;
            NativeMethods.wf_movement_profile_walker(out values);
            return new MovementProfile(values);
        }

        /// <summary>A one-block flyer, as in the MovingAI voxel benchmark.</summary>
        public static MovementProfile Flyer()
        {
            NativeMovementProfile values;
            NativeMethods.wf_movement_profile_flyer(out values);
            return new MovementProfile(values);
        }

        public int AgentHeight { get { return values.AgentHeight; } set { values.AgentHeight = value; } }
        public int WalkDirections { get { return values.WalkDirections; } set { values.WalkDirections = value; } }
        public int StepHeight { get { return values.StepHeight; } set { values.StepHeight = value; } }
        public int JumpHeight { get { return values.JumpHeight; } set { values.JumpHeight = value; } }
        public int JumpDistance { get { return values.JumpDistance; } set { values.JumpDistance = value; } }
        public int MaxFall { get { return values.MaxFall; } set { values.MaxFall = value; } }
        public bool Swim { get { return values.Swim != 0; } set { values.Swim = value ? 1 : 0; } }
        public bool Climb { get { return values.Climb != 0; } set { values.Climb = value ? 1 : 0; } }
        public bool Fly { get { return values.Fly != 0; } set { values.Fly = value ? 1 : 0; } }
        /// <summary>Columns across the agent's square footprint, 1 to 3 (1 in Walker and Flyer): a
        /// walker's body is AgentWidth x AgentWidth columns of AgentHeight blocks, a flyer's a cube
        /// of AgentWidth blocks. A query given another width throws a WayfinderException
        /// (InvalidArgument).</summary>
        public int AgentWidth { get { return values.AgentWidth; } set { values.AgentWidth = value; } }
        public double WalkCost { get { return values.WalkCost; } set { values.WalkCost = value; } }
        public double DiagonalCost { get { return values.DiagonalCost; } set { values.DiagonalCost = value; } }
        public double StepUpCost { get { return values.StepUpCost; } set { values.StepUpCost = value; } }
        public double JumpCost { get { return values.JumpCost; } set { values.JumpCost = value; } }
        public double FallCost { get { return values.FallCost; } set { values.FallCost = value; } }
        public double SwimCost { get { return values.SwimCost; } set { values.SwimCost = value; } }
        public double ClimbCost { get { return values.ClimbCost; } set { values.ClimbCost = value; } }
        public double FlyCost { get { return values.FlyCost; } set { values.FlyCost = value; } }

        internal NativeMovementProfile ToNative() { return values; }
    }

    /// <summary>Voxel search options (C++ VoxelSearchOptions, C wf_voxel_options).</summary>
    public sealed class VoxelOptions : SearchOptions
    {
        // The C struct holds the values (its limits and profile pointer are filled in by ToNative
        // and the caller).
        private NativeVoxelOptions values;

        public VoxelOptions()
        {
            unsafe { fixed (NativeVoxelOptions* defaults = &values) NativeMethods.wf_voxel_options_init(defaults); }
        }

        /// <summary>AStar by default.</summary>
        public VoxelAlgorithm Algorithm { get { return values.Algorithm; } set { values.Algorithm = value; } }
        /// <summary>Weighted A*'s heuristic weight (default 2).</summary>
        public double Weight { get { return values.Weight; } set { values.Weight = value; } }
        /// <summary>The agent for this search (null: the query's own).</summary>
        public MovementProfile Profile { get; set; }

        /// <summary>The C struct; its profile pointer is set by the caller, who owns the profile's storage.</summary>
        internal NativeVoxelOptions ToNative()
        {
            NativeVoxelOptions native = values;
            native.Limits = NativeLimits();
            return native;
        }
    }

    /// <summary>How a <see cref="VoxelHierarchy"/> is built (C wf_voxel_hierarchy_options).</summary>
    public sealed class VoxelHierarchyOptions
    {
        private NativeVoxelHierarchyOptions values;

        public VoxelHierarchyOptions() { NativeMethods.wf_voxel_hierarchy_options_init(out values); }

        /// <summary>Blocks across a cluster (4 to 64; 16).</summary>
        public int ClusterSize { get { return values.ClusterSize; } set { values.ClusterSize = value; } }
        /// <summary>Blocks high (0: the world's height for walkers, ClusterSize for flyers; else 4 to 256).</summary>
        public int ClusterHeight { get { return values.ClusterHeight; } set { values.ClusterHeight = value; } }
        public int LongEntrance { get { return values.LongEntrance; } set { values.LongEntrance = value; } }
        /// <summary>Threads for the build (1 to 64).</summary>
        public int BuildThreads { get { return values.BuildThreads; } set { values.BuildThreads = value; } }
        /// <summary>Refuse a build that would store more places (0: no limit).</summary>
        public ulong MaxPlaces { get { return values.MaxPlaces; } set { values.MaxPlaces = value; } }

        internal NativeVoxelHierarchyOptions ToNative() { return values; }
    }
}
