// Navigation meshes (C++ NavMesh, NavMeshQuery; C wf_navmesh, wf_navmesh_query).
using System;
using System.Runtime.InteropServices;

namespace Wayfinder
{
    /// <summary>Where a point lies on a mesh (C wf_navmesh_locate's outputs).</summary>
    public struct MeshLocation
    {
        /// <summary>The polygon (<see cref="NavMesh.NoPolygon"/> when none).</summary>
        public uint Polygon;
        /// <summary>The point moved onto the polygon.</summary>
        public Vector3d Point;
        public bool Valid { get { return Polygon != NavMesh.NoPolygon; } }
    }

    /// <summary>
    /// An off-mesh link (C++ OffMeshLink, C wf_off_mesh_link, docs/navmesh.md "Off-mesh links"): a
    /// jump, a ladder or a teleporter between two points of the mesh, taken without walking
    /// between them. Start from <see cref="Defaults"/>.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct OffMeshLink
    {
        /// <summary>The ends (y up).</summary>
        public Vector3d Start, End;
        /// <summary>How far (3D) an end may be moved onto the mesh (1).</summary>
        public double Radius;
        /// <summary>Before its area's multiplier; below 0: its length (-1); less than its length is raised to it.</summary>
        public double Cost;
        private int bidirectional;
        /// <summary>Below <see cref="AreaFilter.MaxAreas"/> (0).</summary>
        public byte Area;
        /// <summary>Read by filters as a polygon's (0).</summary>
        public ushort Flags;
        /// <summary>The caller's own number (0).</summary>
        public uint UserId;

        /// <summary>Both ways (true) or start to end only.</summary>
        public bool Bidirectional { get { return bidirectional != 0; } set { bidirectional = value ? 1 : 0; } }

        /// <summary>The defaults of C++ OffMeshLink: both ways, radius 1, cost its length (C wf_off_mesh_link_init).</summary>
        public static unsafe OffMeshLink Defaults()
        {
            OffMeshLink link;
            NativeMethods.wf_off_mesh_link_init(&link);
            return link;
        }

        /// <summary>A link from `start` to `end` with the other fields' defaults.</summary>
        public static OffMeshLink Between(Vector3d start, Vector3d end, bool bidirectional = true)
        {
            OffMeshLink link = Defaults();
            link.Start = start;
            link.End = end;
            link.Bidirectional = bidirectional;
            return link;
        }
    }

    /// <summary>An off-mesh link a path takes (C++ PathLinkStep, C wf_path_link).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PathLink
    {
        /// <summary>Index in the path's points of the link's start; its end is the next point.</summary>
        public uint Waypoint;
        /// <summary>Index in the path's polygons of the one it leaves; the next is where it lands.</summary>
        public uint Polygon;
        /// <summary>The link's id.</summary>
        public uint Link;
        private int reverse;

        /// <summary>A two-way link taken from its end to its start.</summary>
        public bool Reverse { get { return reverse != 0; } }
    }

    /// <summary>What a build from level geometry did (C++ NavMeshBuildReport, C wf_navmesh_build_report).</summary>
    public struct NavMeshBuildReport
    {
        internal NavMeshBuildReport(NativeNavMeshBuildReport report)
        {
            InputTriangles = (long)report.InputTriangles.ToUInt64();
            WalkableTriangles = (long)report.WalkableTriangles.ToUInt64();
            GridWidth = report.GridWidth;
            GridDepth = report.GridDepth;
            Tiles = report.Tiles;
            Polygons = (long)report.Polygons.ToUInt64();
            Vertices = (long)report.Vertices.ToUInt64();
            DetailTriangles = (long)report.DetailTriangles.ToUInt64();
            BorderVerticesAdded = (long)report.BorderVerticesAdded.ToUInt64();
            Milliseconds = report.Milliseconds;
        }

        public long InputTriangles { get; private set; }
        /// <summary>Triangles no steeper than the settings' MaxSlopeDegrees.</summary>
        public long WalkableTriangles { get; private set; }
        /// <summary>Voxels along x.</summary>
        public int GridWidth { get; private set; }
        /// <summary>Voxels along z.</summary>
        public int GridDepth { get; private set; }
        /// <summary>Tiles built (1 for a level built in one piece).</summary>
        public int Tiles { get; private set; }
        /// <summary>Polygons, vertices and detail triangles built (before the mesh splits or drops any).</summary>
        public long Polygons { get; private set; }
        public long Vertices { get; private set; }
        public long DetailTriangles { get; private set; }
        /// <summary>Vertices added to polygon edges along tile borders.</summary>
        public long BorderVerticesAdded { get; private set; }
        /// <summary>Wall time of the build.</summary>
        public double Milliseconds { get; private set; }
    }

    /// <summary>
    /// A navigation mesh (C++ NavMesh). Any number of threads may search it at once, each with
    /// its own <see cref="NavMeshQuery"/>. Disposing it while queries on it live is allowed: the
    /// mesh is freed with the last of them.
    /// </summary>
    public sealed unsafe class NavMesh : IDisposable
    {
        /// <summary>A polygon id meaning "none" (C WF_NO_POLYGON).</summary>
        public const uint NoPolygon = uint.MaxValue;

        private readonly NavMeshHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal NavMeshHandle Handle { get { handle.ThrowIfDisposed("NavMesh"); return handle; } }

        internal NavMesh(IntPtr mesh)
        {
            handle = new NavMeshHandle();
            handle.Adopt(mesh, null);
            UIntPtr vertices, polygons, regions;
            Native.CheckRead(NativeMethods.wf_navmesh_counts(handle, out vertices, out polygons, out regions), "wf_navmesh_counts failed");
            VertexCount = Native.Count(vertices);
            PolygonCount = Native.Count(polygons);
            RegionCount = Native.Count(regions);
        }

        /// <summary>Reads a Wavefront OBJ file, y up (or z up; C wf_navmesh_load_obj).</summary>
        public static NavMesh LoadObj(string path, bool zUp = false)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr mesh;
            Native.CheckCreated(NativeMethods.wf_navmesh_load_obj(Native.Utf8Path(path), zUp ? 1 : 0, out mesh, error, Native.Capacity(error)), error);
            return new NavMesh(mesh);
        }

        /// <summary>Reads a Polyanya "mesh 2" file (C wf_navmesh_load_polyanya).</summary>
        public static NavMesh LoadPolyanya(string path)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr mesh;
            Native.CheckCreated(NativeMethods.wf_navmesh_load_polyanya(Native.Utf8Path(path), out mesh, error, Native.Capacity(error)), error);
            return new NavMesh(mesh);
        }

        /// <summary>
        /// Reads a baked navmesh file (.wfnav, written by <see cref="SaveWfnav"/> or `wayfinder mesh
        /// build -o LEVEL.wfnav`; C wf_navmesh_load_wfnav): the mesh as it was saved, answering
        /// every query as it did. A damaged, truncated or foreign file throws a WayfinderException
        /// (LoadError) whose message names the file and the byte where the problem is.
        /// </summary>
        public static NavMesh LoadWfnav(string path)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr mesh;
            Native.CheckCreated(NativeMethods.wf_navmesh_load_wfnav(Native.Utf8Path(path), out mesh, error, Native.Capacity(error)), error);
            return new NavMesh(mesh);
        }

        /// <summary>
        /// Writes the mesh as a baked navmesh file, replacing `path` (C wf_navmesh_save_wfnav). The
        /// mesh is only read, so queries may run on other threads meanwhile; one thread at a time
        /// saves a given mesh. A file that cannot be written throws a WayfinderException (LoadError)
        /// naming it.
        /// </summary>
        public void SaveWfnav(string path)
        {
            byte[] utf8Path = Native.Utf8Path(path);
            Native.Check(NativeMethods.wf_navmesh_save_wfnav(Handle, utf8Path), Handle);
        }

        /// <summary>
        /// Builds a navigation mesh from a level's geometry in a Wavefront OBJ file (y up, or z
        /// up) for an agent (settings null: the defaults), with Recast (C wf_navmesh_build_obj,
        /// C++ build_navmesh_geometry). A native library built without Recast throws a
        /// WayfinderException (InternalError) saying so.
        /// </summary>
        public static NavMesh BuildObj(string path, AgentSettings settings = null, bool zUp = false)
        {
            byte[] error = Native.ErrorBuffer();
            IntPtr mesh;
            NativeAgentSettings native = (settings ?? new AgentSettings()).ToNative();
            Native.CheckCreated(NativeMethods.wf_navmesh_build_obj(Native.Utf8Path(path), zUp ? 1 : 0, ref native, out mesh, error,
                                                                   Native.Capacity(error)), error);
            return new NavMesh(mesh);
        }

        /// <summary>
        /// Builds a navigation mesh from a level's geometry given as arrays, as a game engine
        /// holds them (C wf_navmesh_build_geometry, C++ build_navmesh_geometry, with Recast):
        /// vertices as packed x, y, z floats (y up), triangles as vertex indices, three a triangle
        /// (either winding); settings null: the defaults. Arrays the library cannot build from throw
        /// a WayfinderException (InvalidArgument) whose message names what to fix: an empty array,
        /// a NaN or infinite coordinate (the vertex and axis), an index negative or out of range
        /// (the triangle and index), bad settings (the field). A null array is an
        /// ArgumentNullException, a length not a multiple of 3 an ArgumentException. A native
        /// library built without Recast throws a WayfinderException (InternalError) saying so.
        /// </summary>
        public static NavMesh BuildGeometry(float[] vertices, int[] triangles, AgentSettings settings = null)
        {
            NavMeshBuildReport report;
            return BuildGeometry(vertices, triangles, settings, out report);
        }

        /// <summary>As <see cref="BuildGeometry(float[], int[], AgentSettings)"/>, with what the build did.</summary>
        public static NavMesh BuildGeometry(float[] vertices, int[] triangles, AgentSettings settings, out NavMeshBuildReport report)
        {
            if (vertices == null) throw new ArgumentNullException("vertices");
            if (triangles == null) throw new ArgumentNullException("triangles");
            if (vertices.Length % 3 != 0) throw new ArgumentException("vertices holds " + vertices.Length + " floats, not x, y, z triples", "vertices");
            if (triangles.Length % 3 != 0) throw new ArgumentException("triangles holds " + triangles.Length + " indices, not three a triangle", "triangles");
            byte[] error = Native.ErrorBuffer();
            IntPtr mesh;
            NativeAgentSettings native = (settings ?? new AgentSettings()).ToNative();
            NativeNavMeshBuildReport built;
            Native.CheckCreated(NativeMethods.wf_navmesh_build_geometry(vertices, (UIntPtr)(uint)(vertices.Length / 3), triangles,
                                                                        (UIntPtr)(uint)(triangles.Length / 3), ref native, out built,
                                                                        out mesh, error, Native.Capacity(error)), error);
            report = new NavMeshBuildReport(built);
            return new NavMesh(mesh);
        }

        /// <summary>
        /// A mesh from arrays (C wf_navmesh_create): vertices as packed x, y, z floats (y up);
        /// polygon i is the next polygonSizes[i] entries of indices.
        /// </summary>
        public static NavMesh FromArrays(float[] vertices, uint[] indices, uint[] polygonSizes)
        {
            if (vertices == null) throw new ArgumentNullException("vertices");
            if (indices == null) throw new ArgumentNullException("indices");
            if (polygonSizes == null) throw new ArgumentNullException("polygonSizes");
            if (vertices.Length % 3 != 0) throw new ArgumentException("vertices holds " + vertices.Length + " floats, not x, y, z triples", "vertices");
            byte[] error = Native.ErrorBuffer();
            IntPtr mesh;
            Native.CheckCreated(NativeMethods.wf_navmesh_create(vertices, (UIntPtr)(uint)(vertices.Length / 3), UIntPtr.Zero, indices,
                                                                (UIntPtr)(uint)indices.Length, polygonSizes, (UIntPtr)(uint)polygonSizes.Length,
                                                                out mesh, error, Native.Capacity(error)), error);
            return new NavMesh(mesh);
        }

        /// <summary>Counts after building (concave polygons split, degenerate ones dropped).</summary>
        public int VertexCount { get; private set; }
        public int PolygonCount { get; private set; }
        /// <summary>Connected parts of the mesh.</summary>
        public int RegionCount { get; private set; }

        /// <summary>The polygon under or over a point within heightTolerance, and the point on it (C wf_navmesh_locate).</summary>
        public MeshLocation Locate(Vector3d point, double heightTolerance = 4.0)
        {
            MeshLocation location;
            Native.CheckRead(NativeMethods.wf_navmesh_locate(Handle, ref point, heightTolerance, out location.Polygon, out location.Point),
                             "wf_navmesh_locate failed");
            return location;
        }

        /// <summary>Incremented by every edit that changes the mesh: areas, flags, off-mesh links, tiles (C wf_navmesh_revision).</summary>
        public ulong Revision
        {
            get
            {
                ulong revision;
                Native.CheckRead(NativeMethods.wf_navmesh_revision(Handle, out revision), "wf_navmesh_revision failed");
                return revision;
            }
        }

        /// <summary>A polygon's area (C wf_navmesh_polygon_area). ArgumentOutOfRangeException for an id not below the polygon count.</summary>
        public byte GetArea(uint polygon)
        {
            byte area;
            ushort flags;
            ReadPolygon(polygon, out area, out flags);
            return area;
        }

        /// <summary>A polygon's flags (C wf_navmesh_polygon_area). ArgumentOutOfRangeException for an id not below the polygon count.</summary>
        public ushort GetFlags(uint polygon)
        {
            byte area;
            ushort flags;
            ReadPolygon(polygon, out area, out flags);
            return flags;
        }

        private void ReadPolygon(uint polygon, out byte area, out ushort flags)
        {
            if (NativeMethods.wf_navmesh_polygon_area(Handle, polygon, out area, out flags) != Status.Ok)
                throw new ArgumentOutOfRangeException("polygon", "polygon " + polygon + " is not in the mesh (it has " + PolygonCount + " polygons)");
        }

        /// <summary>
        /// Sets a polygon's area, below <see cref="AreaFilter.MaxAreas"/> (C wf_navmesh_set_area).
        /// An edit: the revision goes up when the polygon changes; no search or crowd update on
        /// the mesh may be running (a stepped search ends with SearchStatus.WorldChanged). A
        /// polygon not in the mesh or a bad area throws a WayfinderException (InvalidArgument),
        /// nothing changed.
        /// </summary>
        public void SetArea(uint polygon, byte area)
        {
            Native.Check(NativeMethods.wf_navmesh_set_area(Handle, polygon, area), Handle);
        }

        /// <summary>Sets a polygon's flags, as <see cref="SetArea"/> (C wf_navmesh_set_flags).</summary>
        public void SetFlags(uint polygon, ushort flags)
        {
            Native.Check(NativeMethods.wf_navmesh_set_flags(Handle, polygon, flags), Handle);
        }

        /// <summary>Both at once, as one edit (C wf_navmesh_set_area_and_flags).</summary>
        public void SetAreaAndFlags(uint polygon, byte area, ushort flags)
        {
            Native.Check(NativeMethods.wf_navmesh_set_area_and_flags(Handle, polygon, area, flags), Handle);
        }

        /// <summary>
        /// Places the link's ends on the mesh and adds it; returns its id (0, 1, ... in the order
        /// links are added, after a baked file's own; C wf_navmesh_add_off_mesh_link). An end with
        /// no mesh within the radius, a non-finite point, a bad cost, radius or area throws,
        /// nothing changed. An edit: no search or crowd update on the mesh may be running.
        /// </summary>
        public uint AddOffMeshLink(OffMeshLink link)
        {
            uint id;
            Native.Check(NativeMethods.wf_navmesh_add_off_mesh_link(Handle, &link, &id), Handle);
            return id;
        }

        /// <summary>
        /// Adds every link of a links file (one a line, as `wayfinder mesh path --links` reads it;
        /// C wf_navmesh_add_off_mesh_links_file); returns how many. A malformed file (LoadError) or
        /// a link that cannot be placed (InvalidArgument) throws naming the line, and then no link
        /// of the file is added.
        /// </summary>
        public int AddOffMeshLinksFile(string path)
        {
            byte[] utf8Path = Native.Utf8Path(path);
            UIntPtr added;
            Native.Check(NativeMethods.wf_navmesh_add_off_mesh_links_file(Handle, utf8Path, &added), Handle);
            return Native.Count(added);
        }

        /// <summary>The number of off-mesh links (C wf_navmesh_off_mesh_link_count).</summary>
        public int OffMeshLinkCount
        {
            get
            {
                UIntPtr count;
                Native.CheckRead(NativeMethods.wf_navmesh_off_mesh_link_count(Handle, &count), "wf_navmesh_off_mesh_link_count failed");
                return Native.Count(count);
            }
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>The C options and the filter they point to, together on the caller's stack.</summary>
    internal unsafe struct NativeNavMeshOptionsBlock
    {
        public NativeNavMeshOptions Options;
        public NativeAreaFilter Filter;

        /// <summary>`options` in `block` (null for null: the defaults).</summary>
        internal static NativeNavMeshOptions* Prepare(NavMeshOptions options, NativeNavMeshOptionsBlock* block)
        {
            if (options == null) return null;
            block->Options = options.ToNative();
            block->Options.Filter = AreaFilter.Place(options.Filter, &block->Filter);
            return &block->Options;
        }
    }

    /// <summary>
    /// Searches on one mesh (C++ NavMeshQuery, C wf_navmesh_query). One per thread; it keeps its
    /// mesh alive. Once warm, a search allocates nothing.
    /// </summary>
    public sealed unsafe class NavMeshQuery : IDisposable
    {
        private readonly NavMeshQueryHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal NavMeshQueryHandle Handle { get { handle.ThrowIfDisposed("NavMeshQuery"); return handle; } }

        public NavMeshQuery(NavMesh mesh)
        {
            if (mesh == null) throw new ArgumentNullException("mesh");
            byte[] error = Native.ErrorBuffer();
            IntPtr query;
            Native.CheckCreated(NativeMethods.wf_navmesh_query_create(mesh.Handle, out query, error, Native.Capacity(error)), error);
            handle = new NavMeshQueryHandle();
            handle.Adopt(query, mesh.Handle);
            Mesh = mesh;
        }

        public NavMesh Mesh { get; private set; }

        /// <summary>A whole search (C wf_navmesh_query_find_path); a point off the mesh is SearchStatus.InvalidInput.</summary>
        public PathResult FindPath(Vector3d start, Vector3d goal, NavMeshOptions options = null)
        {
            NativeNavMeshOptionsBlock block;
            NativePathResult result;
            Native.Check(NativeMethods.wf_navmesh_query_find_path(Handle, ref start, ref goal, NativeNavMeshOptionsBlock.Prepare(options, &block), &result),
                         Handle);
            return new PathResult(result);
        }

        /// <summary>Starts a stepped search (C wf_navmesh_query_begin).</summary>
        public SearchStatus Begin(Vector3d start, Vector3d goal, NavMeshOptions options = null)
        {
            NativeNavMeshOptionsBlock block;
            SearchStatus status;
            Native.Check(NativeMethods.wf_navmesh_query_begin(Handle, ref start, ref goal, NativeNavMeshOptionsBlock.Prepare(options, &block), &status),
                         Handle);
            return status;
        }

        /// <summary>One step (C wf_navmesh_query_step).</summary>
        public SearchStatus Step(ulong maxExpansions, double maxMilliseconds = 0.0)
        {
            SearchStatus status;
            Native.Check(NativeMethods.wf_navmesh_query_step(Handle, maxExpansions, maxMilliseconds, &status), Handle);
            return status;
        }

        /// <summary>The stepped search's result so far (C wf_navmesh_query_result).</summary>
        public PathResult GetResult()
        {
            NativePathResult result;
            Native.Check(NativeMethods.wf_navmesh_query_result(Handle, &result), Handle);
            return new PathResult(result);
        }

        /// <summary>The waypoints (start, turns, goal) into `points` (grown when too short); returns their number.</summary>
        public int GetPathPoints(ref Vector3d[] points) { return Native.CopyOut(Handle, UIntPtr.Zero, ref points, PathPoints); }

        // The C call as a delegate made once, so that a copy into a warm array allocates nothing.
        private static readonly Native.CopyCall<Vector3d> PathPoints = (query, index, points, count) =>
        {
            fixed (Vector3d* p = points)
                return NativeMethods.wf_navmesh_query_path_points((NavMeshQueryHandle)query, p, Native.Capacity(points), count);
        };

        /// <summary>The corridor's polygon ids into `polygons` (grown when too short); returns their number.</summary>
        public int GetPathPolygons(ref uint[] polygons) { return Native.CopyOut(Handle, UIntPtr.Zero, ref polygons, PathPolygons); }

        private static readonly Native.CopyCall<uint> PathPolygons = (query, index, polygons, count) =>
        {
            fixed (uint* p = polygons)
                return NativeMethods.wf_navmesh_query_path_polygons((NavMeshQueryHandle)query, p, Native.Capacity(polygons), count);
        };

        /// <summary>The off-mesh links the path takes, in order, into `links` (grown when too short); returns their number.</summary>
        public int GetPathLinks(ref PathLink[] links) { return Native.CopyOut(Handle, UIntPtr.Zero, ref links, PathLinks); }

        private static readonly Native.CopyCall<PathLink> PathLinks = (query, index, links, count) =>
        {
            fixed (PathLink* p = links)
                return NativeMethods.wf_navmesh_query_path_links((NavMeshQueryHandle)query, p, Native.Capacity(links), count);
        };

        /// <summary>Why the latest query was invalid; usually empty (C wf_navmesh_query_message).</summary>
        public string Message { get { return Native.Message(Handle, NativeMethods.wf_navmesh_query_message); } }

        /// <summary>
        /// Records the events of this query's later searches (each search replaces the last one's),
        /// keeping at most maxEvents of them (the rest are counted); 0 stops recording
        /// (C wf_navmesh_query_set_trace).
        /// </summary>
        public void SetTrace(int maxEvents)
        {
            Native.Check(NativeMethods.wf_navmesh_query_set_trace(Handle, Native.Size(maxEvents, "maxEvents")), Handle);
        }

        /// <summary>
        /// The events kept of the latest search, copied into `events` (grown when too short, else
        /// reused); returns their number (C wf_navmesh_query_trace).
        /// </summary>
        public int GetTrace(ref SearchTraceEvent[] events)
        {
            long recorded;
            return SearchTraces.Read(Handle, SearchTraces.NavMesh, ref events, out recorded);
        }

        /// <summary>As <see cref="GetTrace(ref SearchTraceEvent[])"/>; `recorded` counts every event, kept or not.</summary>
        public int GetTrace(ref SearchTraceEvent[] events, out long recorded)
        {
            return SearchTraces.Read(Handle, SearchTraces.NavMesh, ref events, out recorded);
        }

        public void Dispose() { handle.Dispose(); }
    }
}
