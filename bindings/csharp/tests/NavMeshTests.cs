// Navigation meshes through the C# package, on meshes made from arrays.
using System;
using System.IO;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class NavMeshTests
    {
        // An L of three squares on the ground (y = 0): (0..10, 0..10), (10..20, 0..10), (10..20, 10..20).
        internal static NavMesh LShape()
        {
            var vertices = new float[]
            {
                0, 0, 0, 10, 0, 0, 20, 0, 0, 0, 0, 10, 10, 0, 10, 20, 0, 10, 10, 0, 20, 20, 0, 20,
            };
            var indices = new uint[] { 0, 3, 4, 1, 1, 4, 5, 2, 4, 6, 7, 5 };
            var sizes = new uint[] { 4, 4, 4 };
            return NavMesh.FromArrays(vertices, indices, sizes);
        }

        [Test]
        public void APathTurnsAroundTheCorner()
        {
            using (NavMesh mesh = LShape())
            using (var query = new NavMeshQuery(mesh))
            {
                Assert.That(mesh.PolygonCount, Is.EqualTo(3));
                Assert.That(mesh.VertexCount, Is.EqualTo(8));
                Assert.That(mesh.RegionCount, Is.EqualTo(1));
                var start = new Vector3d(2, 0, 2);
                var goal = new Vector3d(18, 0, 18);
                PathResult path = query.FindPath(start, goal);
                Assert.That(path.Found, query.Message);
                Vector3d[] points = null;
                int count = query.GetPathPoints(ref points);
                Assert.That(count, Is.EqualTo(3));
                Assert.That(points[0], Is.EqualTo(start));
                Assert.That(points[1].X, Is.EqualTo(10.0).Within(1e-9));
                Assert.That(points[1].Z, Is.EqualTo(10.0).Within(1e-9));
                Assert.That(points[2], Is.EqualTo(goal));
                Assert.That(path.Cost, Is.EqualTo(2 * Math.Sqrt(64 + 64)).Within(1e-9));
                uint[] polygons = null;
                Assert.That(query.GetPathPolygons(ref polygons), Is.EqualTo(3));
                Assert.That(polygons[0], Is.EqualTo(0));
                Assert.That(polygons[2], Is.EqualTo(2));
            }
        }

        [Test]
        public void LocateFindsThePolygonUnderAPoint()
        {
            using (NavMesh mesh = LShape())
            {
                MeshLocation on = mesh.Locate(new Vector3d(15, 1, 15));
                Assert.That(on.Valid);
                Assert.That(on.Polygon, Is.EqualTo(2));
                Assert.That(on.Point.Y, Is.EqualTo(0.0).Within(1e-9));
                Assert.That(mesh.Locate(new Vector3d(5, 0, 15)).Polygon, Is.EqualTo(NavMesh.NoPolygon));
            }
        }

        [Test]
        public void ASavedMeshLoadsBackAnsweringTheSame()
        {
            string saved = Path.Combine(Path.GetTempPath(), "wayfinder_csharp_" + Guid.NewGuid().ToString("N") + ".wfnav");
            string cut = Path.ChangeExtension(saved, ".cut.wfnav");
            try
            {
                var start = new Vector3d(2, 0, 2);
                var goal = new Vector3d(18, 0, 18);
                PathResult before;
                Vector3d[] pointsBefore = null;
                uint[] polygonsBefore = null;
                using (NavMesh mesh = LShape())
                using (var query = new NavMeshQuery(mesh))
                {
                    mesh.SaveWfnav(saved);
                    string unwritable = Path.Combine(saved + ".missing", "mesh.wfnav");
                    var refused = Assert.Throws<WayfinderException>(() => mesh.SaveWfnav(unwritable));
                    Assert.That(refused.Status, Is.EqualTo(Status.LoadError));
                    Assert.That(refused.Message, Is.StringContaining(unwritable));
                    before = query.FindPath(start, goal);
                    Assert.That(before.Found, query.Message);
                    query.GetPathPoints(ref pointsBefore);
                    query.GetPathPolygons(ref polygonsBefore);
                }
                using (NavMesh loaded = NavMesh.LoadWfnav(saved))
                using (var query = new NavMeshQuery(loaded))
                {
                    Assert.That(loaded.PolygonCount, Is.EqualTo(3));
                    Assert.That(loaded.VertexCount, Is.EqualTo(8));
                    Assert.That(loaded.RegionCount, Is.EqualTo(1));
                    PathResult after = query.FindPath(start, goal);
                    Assert.That(after.Status, Is.EqualTo(before.Status));
                    Assert.That(after.Cost, Is.EqualTo(before.Cost));
                    Vector3d[] points = null;
                    uint[] polygons = null;
                    Assert.That(query.GetPathPoints(ref points), Is.EqualTo(before.PointCount));
                    Assert.That(query.GetPathPolygons(ref polygons), Is.EqualTo(before.NodeCount));
                    for (int i = 0; i < before.PointCount; ++i) Assert.That(points[i], Is.EqualTo(pointsBefore[i]));
                    for (int i = 0; i < before.NodeCount; ++i) Assert.That(polygons[i], Is.EqualTo(polygonsBefore[i]));
                }

                byte[] bytes = File.ReadAllBytes(saved);
                using (FileStream half = File.Create(cut)) half.Write(bytes, 0, bytes.Length / 2);
                var truncated = Assert.Throws<WayfinderException>(() => NavMesh.LoadWfnav(cut));
                Assert.That(truncated.Status, Is.EqualTo(Status.LoadError));
                Assert.That(truncated.Message, Is.StringContaining(cut));
                Assert.That(truncated.Message, Is.StringContaining("truncated"));
            }
            finally
            {
                File.Delete(saved);
                File.Delete(cut);
            }
        }

        [Test]
        public void SteppedSearchAndOptions()
        {
            using (NavMesh mesh = LShape())
            using (var query = new NavMeshQuery(mesh))
            {
                var options = new NavMeshOptions { Nodes = CorridorNodes.PolygonCentroids, SnapDistance = 3 };
                Assert.That(new NavMeshOptions().HeightTolerance, Is.EqualTo(4.0));
                SearchStatus status = query.Begin(new Vector3d(2, 0, 2), new Vector3d(18, 0, 18), options);
                while (status == SearchStatus.InProgress) status = query.Step(1);
                Assert.That(status, Is.EqualTo(SearchStatus.Found));
                Assert.That(query.GetResult().PointCount, Is.EqualTo(3));
                // Snapping moves a start just off the mesh onto it.
                Assert.That(query.FindPath(new Vector3d(-1, 0, 2), new Vector3d(18, 0, 18), options).Found, query.Message);
                Assert.That(query.FindPath(new Vector3d(-1, 0, 2), new Vector3d(18, 0, 18)).Status, Is.EqualTo(SearchStatus.InvalidInput));
            }
        }

        [Test]
        public void OptimalPathsAreTheExactShortest()
        {
            using (NavMesh mesh = LShape())
            using (var query = new NavMeshQuery(mesh))
            {
                var options = new NavMeshOptions { Nodes = CorridorNodes.Optimal };
                PathResult path = query.FindPath(new Vector3d(2, 0, 2), new Vector3d(12, 0, 18), options);
                Assert.That(path.Found, query.Message);
                // Around the corner (10, 10): legs of length sqrt(8^2 + 8^2) and sqrt(2^2 + 8^2).
                Assert.That(path.Cost, Is.EqualTo(Math.Sqrt(128.0) + Math.Sqrt(68.0)).Within(1e-9));
                Vector3d[] points = null;
                Assert.That(query.GetPathPoints(ref points), Is.EqualTo(3));
                Assert.That(points[1].X, Is.EqualTo(10.0).Within(1e-9));
                Assert.That(points[1].Z, Is.EqualTo(10.0).Within(1e-9));
            }
        }

        /// <summary>Two floors, x 0 to 10 and x 20 to 30 (z 0 to 10), not joined.</summary>
        private static NavMesh TwoFloors()
        {
            var vertices = new float[] { 0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10, 20, 0, 0, 30, 0, 0, 30, 0, 10, 20, 0, 10 };
            return NavMesh.FromArrays(vertices, new uint[] { 0, 3, 2, 1, 4, 7, 6, 5 }, new uint[] { 4, 4 });
        }

        [Test]
        public void OffMeshLinksJoinFloorsAndPathsNameThem()
        {
            string file = Path.Combine(Path.GetTempPath(), "wayfinder_csharp_links_" + Guid.NewGuid().ToString("N") + ".txt");
            try
            {
                using (NavMesh mesh = TwoFloors())
                using (var query = new NavMeshQuery(mesh))
                {
                    var west = new Vector3d(2, 0, 5);
                    var east = new Vector3d(28, 0, 5);
                    Assert.That(mesh.OffMeshLinkCount, Is.EqualTo(0));
                    Assert.That(query.FindPath(west, east).Status, Is.EqualTo(SearchStatus.NoPath));

                    OffMeshLink link = OffMeshLink.Defaults();
                    Assert.That(link.Bidirectional, Is.True);
                    Assert.That(link.Radius, Is.EqualTo(1.0));
                    Assert.That(link.Cost, Is.EqualTo(-1.0));
                    link = OffMeshLink.Between(new Vector3d(9, 0, 5), new Vector3d(21, 0, 5));
                    link.UserId = 42;
                    uint id = mesh.AddOffMeshLink(link);
                    Assert.That(id, Is.EqualTo(0u));
                    Assert.That(mesh.OffMeshLinkCount, Is.EqualTo(1));

                    Assert.That(query.FindPath(west, east).Found, query.Message);
                    PathLink[] links = null;
                    Assert.That(query.GetPathLinks(ref links), Is.EqualTo(1));
                    Assert.That(links[0].Link, Is.EqualTo(id));
                    Assert.That(links[0].Reverse, Is.False);
                    Vector3d[] points = null;
                    query.GetPathPoints(ref points);
                    Assert.That(points[links[0].Waypoint].X, Is.EqualTo(9.0).Within(1e-6));
                    Assert.That(points[links[0].Waypoint + 1].X, Is.EqualTo(21.0).Within(1e-6));
                    // Back the other way: the two-way link taken from its end.
                    Assert.That(query.FindPath(east, west).Found, query.Message);
                    Assert.That(query.GetPathLinks(ref links), Is.EqualTo(1));
                    Assert.That(links[0].Reverse, Is.True);
                    // Exact paths do not take links: the mesh now has some.
                    Assert.That(query.FindPath(west, east, new NavMeshOptions { Nodes = CorridorNodes.Optimal }).Status,
                                Is.EqualTo(SearchStatus.InvalidInput));

                    // A link with no mesh near an end is refused, nothing added.
                    var e = Assert.Throws<WayfinderException>(() => mesh.AddOffMeshLink(OffMeshLink.Between(new Vector3d(9, 0, 5), new Vector3d(15, 0, 50))));
                    Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                    Assert.That(e.Message, Is.Not.Empty);
                    Assert.That(mesh.OffMeshLinkCount, Is.EqualTo(1));

                    File.WriteAllText(file, "9 0 8 21 0 8 oneway cost=20\n");
                    Assert.That(mesh.AddOffMeshLinksFile(file), Is.EqualTo(1));
                    Assert.That(mesh.OffMeshLinkCount, Is.EqualTo(2));
                    File.WriteAllText(file, "9 0 8 21 0\n");
                    e = Assert.Throws<WayfinderException>(() => mesh.AddOffMeshLinksFile(file));
                    Assert.That(e.Status, Is.EqualTo(Status.LoadError));
                    Assert.That(e.Message, Is.StringContaining(file));
                    Assert.That(mesh.OffMeshLinkCount, Is.EqualTo(2));
                }
            }
            finally
            {
                File.Delete(file);
            }
        }
    

        // A 20 x 20 floor with a 4 x 4 block, 2 high, in its middle, as a game holds it (arrays)
        // and as its OBJ file (the same vertices, faces 1-based).
        private static readonly float[] BoxLevelVertices =
        {
            0, 0, 0, 20, 0, 0, 20, 0, 20, 0, 0, 20, 8, 0, 8, 12, 0, 8, 12, 0, 12, 8, 0, 12, 8, 2, 8, 12, 2, 8, 12, 2, 12, 8, 2, 12,
        };
        private static readonly int[] BoxLevelTriangles =
        {
            0, 2, 1, 0, 3, 2, 8, 10, 9, 8, 11, 10, 4, 5, 9, 4, 9, 8, 5, 6, 10, 5, 10, 9, 6, 7, 11, 6, 11, 10, 7, 4, 8, 7, 8, 11,
        };

        /// <summary>A level's arrays as OBJ text: "v" lines with the floats as they are, 1-based "f" lines.</summary>
        internal static string ObjText(float[] vertices, int[] triangles)
        {
            var text = new System.Text.StringBuilder();
            var invariant = System.Globalization.CultureInfo.InvariantCulture;
            for (int i = 0; i < vertices.Length; i += 3)
                text.AppendFormat(invariant, "v {0:R} {1:R} {2:R}\n", vertices[i], vertices[i + 1], vertices[i + 2]);
            for (int i = 0; i < triangles.Length; i += 3)
                text.AppendFormat(invariant, "f {0} {1} {2}\n", triangles[i] + 1, triangles[i + 1] + 1, triangles[i + 2] + 1);
            return text.ToString();
        }

        /// <summary>The mesh of a level's arrays; a native library built without Recast skips the test.</summary>
        internal static NavMesh BuildOrSkip(float[] vertices, int[] triangles, AgentSettings settings, out NavMeshBuildReport report)
        {
            try
            {
                return NavMesh.BuildGeometry(vertices, triangles, settings, out report);
            }
            catch (WayfinderException e)
            {
                if (e.Status == Status.InternalError && e.Message.Contains("Recast")) Assert.Ignore(e.Message);
                throw;
            }
        }

        /// <summary>The cost and waypoints of one path on a mesh.</summary>
        internal static Vector3d[] PathOn(NavMesh mesh, Vector3d start, Vector3d goal, out double cost)
        {
            using (var query = new NavMeshQuery(mesh))
            {
                PathResult path = query.FindPath(start, goal);
                Assert.That(path.Found, query.Message);
                cost = path.Cost;
                Vector3d[] points = null;
                Array.Resize(ref points, query.GetPathPoints(ref points));
                return points;
            }
        }

        [Test]
        public void ALevelsArraysBuildTheMeshItsObjFileBuilds()
        {
            string file = Path.Combine(Path.GetTempPath(), "wayfinder_csharp_box_level_" + Guid.NewGuid().ToString("N") + ".obj");
            var start = new Vector3d(1, 0, 10);
            var goal = new Vector3d(19, 0, 10);
            NavMeshBuildReport report;
            try
            {
                File.WriteAllText(file, ObjText(BoxLevelVertices, BoxLevelTriangles));
                using (NavMesh fromArrays = BuildOrSkip(BoxLevelVertices, BoxLevelTriangles, new AgentSettings(), out report))
                using (NavMesh fromFile = NavMesh.BuildObj(file, new AgentSettings()))
                {
                    Assert.That(fromArrays.PolygonCount, Is.GreaterThanOrEqualTo(2));
                    Assert.That(fromArrays.PolygonCount, Is.EqualTo(fromFile.PolygonCount));
                    Assert.That(fromArrays.VertexCount, Is.EqualTo(fromFile.VertexCount));
                    double arraysCost, fileCost;
                    Vector3d[] arraysPath = PathOn(fromArrays, start, goal, out arraysCost);
                    Vector3d[] filePath = PathOn(fromFile, start, goal, out fileCost);
                    Assert.That(arraysCost, Is.InRange(18.0, 24.0), "around the block, not through it");
                    Assert.That(arraysCost, Is.EqualTo(fileCost));
                    Assert.That(arraysPath, Is.EqualTo(filePath));
                    // The report: every triangle read, the floor and the block's top walkable, one piece.
                    Assert.That(report.InputTriangles, Is.EqualTo(12));
                    Assert.That(report.WalkableTriangles, Is.EqualTo(4));
                    Assert.That(report.Tiles, Is.EqualTo(1));
                    Assert.That(report.GridWidth, Is.EqualTo(67));
                    Assert.That(report.GridDepth, Is.EqualTo(67));
                    Assert.That(report.Polygons, Is.GreaterThanOrEqualTo(2));
                    Assert.That(report.Vertices, Is.GreaterThanOrEqualTo(3));
                    Assert.That(report.DetailTriangles, Is.GreaterThanOrEqualTo(report.Polygons));
                    Assert.That(report.BorderVerticesAdded, Is.EqualTo(0));
                    Assert.That(report.Milliseconds, Is.GreaterThanOrEqualTo(0.0));
                }
                // Settings null: the defaults; tiles counted in the report.
                using (NavMesh defaults = NavMesh.BuildGeometry(BoxLevelVertices, BoxLevelTriangles))
                using (NavMesh tiled = NavMesh.BuildGeometry(BoxLevelVertices, BoxLevelTriangles, new AgentSettings { TileSize = 16 }, out report))
                {
                    Assert.That(defaults.PolygonCount, Is.GreaterThanOrEqualTo(2));
                    Assert.That(report.Tiles, Is.EqualTo(25));
                    double cost;
                    PathOn(tiled, start, goal, out cost);
                    Assert.That(cost, Is.InRange(18.0, 24.0));
                }
            }
            finally
            {
                File.Delete(file);
            }
        }

        /// <summary>Asserts that building from the arrays throws a WayfinderException (InvalidArgument) whose message says `words`.</summary>
        private static void AssertRefused(float[] vertices, int[] triangles, AgentSettings settings, string words)
        {
            var e = Assert.Throws<WayfinderException>(() => NavMesh.BuildGeometry(vertices, triangles, settings));
            Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument), e.Message);
            Assert.That(e.Message, Is.StringContaining(words));
        }

        [Test]
        public void BadLevelArraysAreRefusedNamingWhatToFix()
        {
            float[] withNaN = (float[])BoxLevelVertices.Clone();
            withNaN[3 * 4 + 1] = float.NaN;
            float[] withInfinity = (float[])BoxLevelVertices.Clone();
            withInfinity[3 * 7 + 2] = float.PositiveInfinity;
            // The arrays are checked before Recast is needed: these hold with or without it.
            AssertRefused(new float[0], BoxLevelTriangles, null, "vertex_count is 0");
            AssertRefused(BoxLevelVertices, new int[0], null, "triangle_count is 0");
            AssertRefused(withNaN, BoxLevelTriangles, null, "vertex 4 has y = NaN (vertices[13])");
            AssertRefused(withInfinity, BoxLevelTriangles, null, "vertex 7 has z = inf");
            AssertRefused(BoxLevelVertices, new[] { 0, 2, 1, 0, 3, 12 }, null, "triangle 1 has corner 12 (triangles[5]), not a vertex index from 0 to 11");
            AssertRefused(BoxLevelVertices, new[] { 0, 2, 1, -1, 3, 2 }, null, "triangle 1 has corner -1 (triangles[3])");
            Assert.Throws<ArgumentNullException>(() => NavMesh.BuildGeometry(null, BoxLevelTriangles));
            Assert.Throws<ArgumentNullException>(() => NavMesh.BuildGeometry(BoxLevelVertices, null));
            Assert.Throws<ArgumentException>(() => NavMesh.BuildGeometry(new float[4], BoxLevelTriangles));
            Assert.Throws<ArgumentException>(() => NavMesh.BuildGeometry(BoxLevelVertices, new int[4]));
            // Degenerate settings, named by field (with Recast: without it the build is refused first).
            NavMeshBuildReport report;
            BuildOrSkip(BoxLevelVertices, BoxLevelTriangles, null, out report).Dispose();
            AssertRefused(BoxLevelVertices, BoxLevelTriangles, new AgentSettings { CellSize = 0 }, "cell_size");
            AssertRefused(BoxLevelVertices, BoxLevelTriangles, new AgentSettings { AgentHeight = double.NaN }, "agent_height");
            AssertRefused(BoxLevelVertices, BoxLevelTriangles, new AgentSettings { AgentRadius = -1 }, "agent_radius");
            AssertRefused(BoxLevelVertices, BoxLevelTriangles, new AgentSettings { VerticesPerPolygon = 2 }, "vertices_per_polygon");
            AssertRefused(BoxLevelVertices, BoxLevelTriangles, new AgentSettings { TileSize = 3 }, "tile_size");
        }
    }
}
