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
    }
}
