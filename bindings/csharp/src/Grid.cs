// Grids (C++ GridMap, GridQuery, GridDerivedData; C wf_grid, wf_grid_query, wf_grid_derived).
using System;

namespace Wayfinder
{
    /// <summary>One cell's contents (C wf_grid_cell's outputs).</summary>
    public struct GridCellInfo
    {
        public bool Passable;
        /// <summary>The cost multiplier (0 when blocked).</summary>
        public float Cost;
        public byte Area;
        public ushort Flags;
    }

    /// <summary>
    /// A grid of cells (C++ GridMap). Any number of threads may search it at once, each with its
    /// own <see cref="GridQuery"/>; edits need it to themselves. Disposing it while queries on it
    /// live is allowed: the cells are freed with the last of them.
    /// </summary>
    public sealed class GridMap : IDisposable
    {
        private readonly GridHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal GridHandle Handle { get { handle.ThrowIfDisposed("GridMap"); return handle; } }

        private GridMap(GridHandle handle)
        {
            this.handle = handle;
            int width, height;
            Native.CheckRead(NativeMethods.wf_grid_size(handle, out width, out height), "wf_grid_size failed");
            Width = width;
            Height = height;
        }

        /// <summary>A width x height grid, every cell passable at cost 1 (C wf_grid_create).</summary>
        public GridMap(int width, int height) : this(Create(width, height)) { }

        private static GridHandle Create(int width, int height)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr grid;
            Native.CheckCreated(NativeMethods.wf_grid_create(width, height, out grid, error, Native.Capacity(error)), error);
            GridHandle created = new GridHandle();
            created.Adopt(grid, null);
            return created;
        }

        /// <summary>
        /// A grid from row-major arrays of width * height cells (index y * width + x): passable[i]
        /// for a passable cell; costs[i] its cost multiplier (> 0; infinity blocks the cell), or
        /// costs null for 1 everywhere (C wf_grid_create_from_cells, C++ GridMap::from_costs).
        /// </summary>
        public static GridMap FromCells(int width, int height, bool[] passable, float[] costs = null)
        {
            if (passable == null) throw new ArgumentNullException("passable");
            long cells = (long)Math.Max(width, 0) * Math.Max(height, 0);
            if (passable.Length != cells) throw new ArgumentException("passable has " + passable.Length + " entries, not width * height = " + cells, "passable");
            if (costs != null && costs.Length != cells) throw new ArgumentException("costs has " + costs.Length + " entries, not width * height = " + cells, "costs");
            byte[] bytes = new byte[passable.Length];
            for (int i = 0; i < bytes.Length; ++i) bytes[i] = passable[i] ? (byte)1 : (byte)0;
            byte[] error = Native.ErrorBuffer();
            IntPtr grid;
            Native.CheckCreated(NativeMethods.wf_grid_create_from_cells(width, height, bytes, costs, out grid, error, Native.Capacity(error)), error);
            GridHandle created = new GridHandle();
            created.Adopt(grid, null);
            return new GridMap(created);
        }

        /// <summary>Reads a MovingAI .map file (C wf_grid_load_movingai).</summary>
        public static GridMap LoadMovingAI(string path)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr grid;
            Native.CheckCreated(NativeMethods.wf_grid_load_movingai(Native.Utf8Path(path), out grid, error, Native.Capacity(error)), error);
            GridHandle created = new GridHandle();
            created.Adopt(grid, null);
            return new GridMap(created);
        }

        public int Width { get; private set; }
        public int Height { get; private set; }

        /// <summary>Moves with every edit that changes a cell (C wf_grid_revision).</summary>
        public ulong Revision
        {
            get
            {
                ulong revision;
                Native.CheckRead(NativeMethods.wf_grid_revision(Handle, out revision), "wf_grid_revision failed");
                return revision;
            }
        }

        /// <summary>Whether (x, y) lies inside the grid.</summary>
        public bool Contains(int x, int y) { return x >= 0 && y >= 0 && x < Width && y < Height; }

        /// <summary>One cell (C wf_grid_cell). ArgumentOutOfRangeException outside the grid.</summary>
        public GridCellInfo GetCell(int x, int y)
        {
            if (!Contains(x, y))
                throw new ArgumentOutOfRangeException("x", "cell (" + x + ", " + y + ") is outside the " + Width + " x " + Height + " grid");
            int passable;
            GridCellInfo cell;
            Native.CheckRead(NativeMethods.wf_grid_cell(Handle, x, y, out passable, out cell.Cost, out cell.Area, out cell.Flags), "wf_grid_cell failed");
            cell.Passable = passable != 0;
            return cell;
        }

        /// <summary>Whether a cell is passable (false outside the grid).</summary>
        public bool IsPassable(int x, int y) { return Contains(x, y) && GetCell(x, y).Passable; }

        // Edits of the rectangle [x, x + width) x [y, y + height), which must lie inside the grid;
        // no query may be running (a stepped one ends with SearchStatus.WorldChanged).

        /// <summary>C wf_grid_set_passable.</summary>
        public void SetPassable(int x, int y, int width, int height, bool passable)
        {
            Native.Check(NativeMethods.wf_grid_set_passable(Handle, x, y, width, height, passable ? 1 : 0), Handle);
        }

        /// <summary>Makes the cells passable with this cost (finite, > 0; C wf_grid_set_cost).</summary>
        public void SetCost(int x, int y, int width, int height, float cost)
        {
            Native.Check(NativeMethods.wf_grid_set_cost(Handle, x, y, width, height, cost), Handle);
        }

        /// <summary>Area below <see cref="AreaFilter.MaxAreas"/> (C wf_grid_set_area).</summary>
        public void SetArea(int x, int y, int width, int height, byte area)
        {
            Native.Check(NativeMethods.wf_grid_set_area(Handle, x, y, width, height, area), Handle);
        }

        /// <summary>C wf_grid_set_flags.</summary>
        public void SetFlags(int x, int y, int width, int height, ushort flags)
        {
            Native.Check(NativeMethods.wf_grid_set_flags(Handle, x, y, width, height, flags), Handle);
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>The C options and the filter they point to, together on the caller's stack.</summary>
    internal unsafe struct NativeGridOptionsBlock
    {
        public NativeGridOptions Options;
        public NativeAreaFilter Filter;

        /// <summary>`options` in `block` (null for null: the defaults).</summary>
        internal static NativeGridOptions* Prepare(GridOptions options, NativeGridOptionsBlock* block)
        {
            if (options == null) return null;
            block->Options = options.ToNative();
            block->Options.Filter = AreaFilter.Place(options.Filter, &block->Filter);
            return &block->Options;
        }
    }

    /// <summary>
    /// Searches on one grid (C++ GridQuery, C wf_grid_query): whole searches, stepped searches,
    /// and the latest path copied into the caller's arrays. One per thread; it keeps its grid
    /// alive. Once warm (its arrays grown to the paths' sizes), a search allocates nothing.
    /// </summary>
    public sealed unsafe class GridQuery : IDisposable
    {
        private readonly GridQueryHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal GridQueryHandle Handle { get { handle.ThrowIfDisposed("GridQuery"); return handle; } }

        public GridQuery(GridMap map)
        {
            if (map == null) throw new ArgumentNullException("map");
            byte[] error = Native.ErrorBuffer();
            IntPtr query;
            Native.CheckCreated(NativeMethods.wf_grid_query_create(map.Handle, out query, error, Native.Capacity(error)), error);
            handle = new GridQueryHandle();
            handle.Adopt(query, map.Handle);
            Map = map;
        }

        /// <summary>The grid searched.</summary>
        public GridMap Map { get; private set; }

        /// <summary>
        /// A whole search (C wf_grid_query_find_path; options null: A*, MovingAI rules). A bad
        /// query (a blocked start, a cell outside) is a result with SearchStatus.InvalidInput and
        /// the reason in <see cref="Message"/>, not an exception.
        /// </summary>
        public PathResult FindPath(int startX, int startY, int goalX, int goalY, GridOptions options = null)
        {
            NativePathResult result;
            GridQueryHandle live = Handle;
            Status status;
            if (options == null)
            {
                status = NativeMethods.wf_grid_query_find_path(live, startX, startY, goalX, goalY, null, &result);
            }
            else
            {
                NativeGridOptionsBlock block;
                status = NativeMethods.wf_grid_query_find_path(live, startX, startY, goalX, goalY, NativeGridOptionsBlock.Prepare(options, &block), &result);
            }
            Native.Check(status, live);
            return new PathResult(result);
        }

        public PathResult FindPath(GridCell start, GridCell goal, GridOptions options = null)
        {
            return FindPath(start.X, start.Y, goal.X, goal.Y, options);
        }

        /// <summary>Starts a stepped search (C wf_grid_query_begin); then <see cref="Step"/> until it is no longer InProgress.</summary>
        public SearchStatus Begin(int startX, int startY, int goalX, int goalY, GridOptions options = null)
        {
            NativeGridOptionsBlock block;
            SearchStatus status;
            Native.Check(NativeMethods.wf_grid_query_begin(Handle, startX, startY, goalX, goalY,
                                                           NativeGridOptionsBlock.Prepare(options, &block), &status), Handle);
            return status;
        }

        /// <summary>
        /// One step (C wf_grid_query_step): stops after maxExpansions or about maxMilliseconds
        /// (QueryLimits.UnlimitedExpansions and 0: no limit).
        /// </summary>
        public SearchStatus Step(ulong maxExpansions, double maxMilliseconds = 0.0)
        {
            SearchStatus status;
            Native.Check(NativeMethods.wf_grid_query_step(Handle, maxExpansions, maxMilliseconds, &status), Handle);
            return status;
        }

        /// <summary>The stepped search's result so far (C wf_grid_query_result); the path methods then read it.</summary>
        public PathResult GetResult()
        {
            NativePathResult result;
            Native.Check(NativeMethods.wf_grid_query_result(Handle, &result), Handle);
            return new PathResult(result);
        }

        /// <summary>
        /// The latest result's cells, copied into `cells` (grown when too short, else reused);
        /// returns their number (C wf_grid_query_path_cells).
        /// </summary>
        public int GetPathCells(ref GridCell[] cells) { return Native.CopyOut(Handle, UIntPtr.Zero, ref cells, PathCells); }

        // The C call as a delegate made once, so that a copy into a warm array allocates nothing.
        private static readonly Native.CopyCall<GridCell> PathCells = (query, index, cells, count) =>
        {
            fixed (GridCell* p = cells)
                return NativeMethods.wf_grid_query_path_cells((GridQueryHandle)query, p, Native.Capacity(cells), count);
        };

        /// <summary>Why the latest query was invalid or a walker failed; usually empty (C wf_grid_query_message).</summary>
        public string Message { get { return Native.Message(Handle, NativeMethods.wf_grid_query_message); } }

        /// <summary>
        /// Records the events of this query's later searches (each search replaces the last one's),
        /// keeping at most maxEvents of them (the rest are counted); 0 stops recording
        /// (C wf_grid_query_set_trace).
        /// </summary>
        public void SetTrace(int maxEvents)
        {
            Native.Check(NativeMethods.wf_grid_query_set_trace(Handle, Native.Size(maxEvents, "maxEvents")), Handle);
        }

        /// <summary>
        /// The events kept of the latest search, copied into `events` (grown when too short, else
        /// reused); returns their number (C wf_grid_query_trace).
        /// </summary>
        public int GetTrace(ref SearchTraceEvent[] events)
        {
            long recorded;
            return SearchTraces.Read(Handle, SearchTraces.Grid, ref events, out recorded);
        }

        /// <summary>As <see cref="GetTrace(ref SearchTraceEvent[])"/>; `recorded` counts every event, kept or not.</summary>
        public int GetTrace(ref SearchTraceEvent[] events, out long recorded)
        {
            return SearchTraces.Read(Handle, SearchTraces.Grid, ref events, out recorded);
        }

        /// <summary>
        /// The derived data the query's JPS+ and HPA* searches read (null: none; C
        /// wf_grid_query_set_derived). The query keeps its own copy.
        /// </summary>
        public void SetDerived(GridDerivedData derived)
        {
            if (derived == null) Native.Check(NativeMethods.wf_grid_query_clear_derived(Handle, IntPtr.Zero), Handle);
            else Native.Check(NativeMethods.wf_grid_query_set_derived(Handle, derived.Handle), Handle);
        }

        /// <summary>
        /// Searches from now on are for a k x k agent (1 to 255; 1, the default, is one cell; C
        /// wf_grid_query_set_agent_size, C++ GridSearchOptions::agent_size) whose position is its
        /// top-left cell: start, goal and path cells are top-left cells, and every cell of the body
        /// must be passable. Sizes above 1 read derived data holding that size
        /// (<see cref="GridDerivedData.AddAgentSize"/>, then <see cref="SetDerived"/>); without it a
        /// search is SearchStatus.InvalidInput saying what to build. Breadth-first and the walkers
        /// refuse sizes above 1. A size outside 1..255 throws, nothing changed.
        /// </summary>
        public void SetAgentSize(int agentSize)
        {
            Native.Check(NativeMethods.wf_grid_query_set_agent_size(Handle, agentSize), Handle);
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// What grid queries read besides the grid: JPS+'s jump table, HPA*'s hierarchy (C++
    /// GridDerivedData, C wf_grid_derived). Read-only once built, shared by any number of
    /// queries; it keeps its grid alive.
    /// </summary>
    public sealed unsafe class GridDerivedData : IDisposable
    {
        private readonly GridDerivedHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal GridDerivedHandle Handle { get { handle.ThrowIfDisposed("GridDerivedData"); return handle; } }

        /// <summary>Builds what queries with `options` (null: the defaults) read, for the grid as it is now.</summary>
        public GridDerivedData(GridMap map, GridOptions options = null)
        {
            if (map == null) throw new ArgumentNullException("map");
            byte[] error = Native.ErrorBuffer();
            IntPtr derived;
            NativeGridOptionsBlock block;
            Native.CheckCreated(NativeMethods.wf_grid_derived_create(map.Handle, NativeGridOptionsBlock.Prepare(options, &block), out derived,
                                                                     error, Native.Capacity(error)), error);
            handle = new GridDerivedHandle();
            handle.Adopt(derived, map.Handle);
        }

        /// <summary>
        /// Adds what `options` need and rebuilds what the grid's edits made stale (C
        /// wf_grid_derived_update); give it to the queries again afterwards.
        /// </summary>
        public void Update(GridOptions options = null)
        {
            NativeGridOptionsBlock block;
            Native.Check(NativeMethods.wf_grid_derived_update(Handle, NativeGridOptionsBlock.Prepare(options, &block)), Handle);
        }

        /// <summary>
        /// Adds what searches with `options` (null: the defaults) for k x k agents read (the
        /// clearance, and for JPS, JPS+ and HPA* the body map and its jump table or hierarchy), for
        /// the grid as it is now (C wf_grid_derived_add_agent_size); give it to the queries again
        /// afterwards. A size outside 1..255 throws.
        /// </summary>
        public void AddAgentSize(int agentSize, GridOptions options = null)
        {
            NativeGridOptionsBlock block;
            Native.Check(NativeMethods.wf_grid_derived_add_agent_size(Handle, NativeGridOptionsBlock.Prepare(options, &block), agentSize),
                         Handle);
        }

        public void Dispose() { handle.Dispose(); }
    }
}
