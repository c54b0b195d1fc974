// Areas, flags and per-query filters on a navigation mesh through the C# package.
using System;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class NavMeshFilterTests
    {
        // Four unit squares, two by two (x, z): P0 = [0,1] x [0,1], P1 = [1,2] x [0,1],
        // P2 = [0,1] x [1,2], P3 = [1,2] x [1,2]. From P0 to P3 through P1 or through P2.
        private static NavMesh FourSquares()
        {
            var vertices = new float[] { 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1, 0, 0, 2, 1, 0, 2, 2, 0, 2 };
            var indices = new uint[] { 0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7 };
            return NavMesh.FromArrays(vertices, indices, new uint[] { 4, 4, 4, 4 });
        }

        private static readonly Vector3d Start = new Vector3d(0.2, 0, 0.6);
        private static readonly Vector3d Goal = new Vector3d(1.5, 0, 1.8);

        private static uint[] Corridor(NavMeshQuery query)
        {
            uint[] polygons = null;
            int count = query.GetPathPolygons(ref polygons);
            Array.Resize(ref polygons, count);
            return polygons;
        }

        [Test]
        public void AreasAndFlagsAreReadAndEdited()
        {
            using (NavMesh mesh = FourSquares())
            {
                Assert.That(mesh.GetArea(2), Is.EqualTo(0));
                Assert.That(mesh.GetFlags(2), Is.EqualTo(0));
                ulong before = mesh.Revision;
                mesh.SetArea(2, 3);
                Assert.That(mesh.GetArea(2), Is.EqualTo(3));
                Assert.That(mesh.Revision, Is.EqualTo(before + 1));
                mesh.SetArea(2, 3);
                Assert.That(mesh.Revision, Is.EqualTo(before + 1), "an edit that changes nothing is no revision");
                mesh.SetFlags(1, 0x5);
                Assert.That(mesh.GetFlags(1), Is.EqualTo(0x5));
                mesh.SetAreaAndFlags(0, 7, 0x2);
                Assert.That(mesh.GetArea(0), Is.EqualTo(7));
                Assert.That(mesh.GetFlags(0), Is.EqualTo(0x2));
                Assert.That(mesh.Revision, Is.EqualTo(before + 3));
            }
        }

        [Test]
        public void BadEditsThrowAndChangeNothing()
        {
            using (NavMesh mesh = FourSquares())
            {
                ulong before = mesh.Revision;
                var error = Assert.Throws<WayfinderException>(() => mesh.SetArea(0, AreaFilter.MaxAreas));
                Assert.That(error.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(error.Message, Is.StringContaining("area 64"));
                error = Assert.Throws<WayfinderException>(() => mesh.SetFlags(4, 1));
                Assert.That(error.Message, Is.StringContaining("polygon 4"));
                Assert.Throws<WayfinderException>(() => mesh.SetAreaAndFlags(9, 1, 1));
                Assert.Throws<ArgumentOutOfRangeException>(() => mesh.GetArea(4));
                Assert.Throws<ArgumentOutOfRangeException>(() => mesh.GetFlags(NavMesh.NoPolygon));
                Assert.That(mesh.Revision, Is.EqualTo(before));
                Assert.That(mesh.GetArea(0), Is.EqualTo(0));
            }
        }

        [Test]
        public void AFilterPricesAreasAndExcludesFlags()
        {
            using (NavMesh mesh = FourSquares())
            using (var query = new NavMeshQuery(mesh))
            {
                Assert.That(query.FindPath(Start, Goal).Found);
                Assert.That(Corridor(query), Is.EqualTo(new uint[] { 0, 2, 3 }), "the straight line crosses P2");

                mesh.SetArea(2, 3);
                var filter = new AreaFilter();
                filter.AreaCosts[3] = 10.0f;
                var options = new NavMeshOptions { Filter = filter };
                Assert.That(query.FindPath(Start, Goal, options).Found, query.Message);
                Assert.That(Corridor(query), Is.EqualTo(new uint[] { 0, 1, 3 }), "P2 priced ten times: around it");
                Vector3d[] points = null;
                Assert.That(query.GetPathPoints(ref points), Is.EqualTo(3));
                Assert.That(points[1].X, Is.EqualTo(1.0).Within(1e-9));
                Assert.That(points[1].Z, Is.EqualTo(1.0).Within(1e-9));

                filter.AreaCosts[3] = 0.0f;
                Assert.That(query.FindPath(Start, Goal, options).Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(query.Message, Is.StringContaining("area 3"));

                mesh.SetAreaAndFlags(2, 0, 0);
                mesh.SetFlags(1, 0x1);
                var doors = new NavMeshOptions { Filter = new AreaFilter { ExcludeFlags = 0x1 } };
                Assert.That(query.FindPath(Start, Goal, doors).Found);
                Assert.That(Corridor(query), Is.EqualTo(new uint[] { 0, 2, 3 }));
                mesh.SetFlags(2, 0x1);
                Assert.That(query.FindPath(Start, Goal, doors).Status, Is.EqualTo(SearchStatus.NoPath));
                Assert.That(query.FindPath(Start, Goal).Found, "without the filter the doors are open");
            }
        }

        [Test]
        public void ABatchTakesEachRequestsFilter()
        {
            using (NavMesh mesh = FourSquares())
            using (var batch = new PathBatch())
            {
                mesh.SetFlags(2, 0x1);
                var doors = new NavMeshOptions { Filter = new AreaFilter { ExcludeFlags = 0x1 } };
                var requests = new[] { new NavMeshRequest(Start, Goal, doors), new NavMeshRequest(Start, Goal) };
                batch.SolveNavMesh(mesh, requests, 2, 2);
                uint[] nodes = null;
                Assert.That(batch.GetPathNodes(0, ref nodes), Is.EqualTo(3));
                Assert.That(nodes[1], Is.EqualTo(1));
                Assert.That(batch.GetPathNodes(1, ref nodes), Is.EqualTo(3));
                Assert.That(nodes[1], Is.EqualTo(2));
            }
        }
    }
}
