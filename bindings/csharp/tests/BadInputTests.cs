// Bad input: missing and malformed files, starts outside the world, NaN, bad options and
// arrays. A bad query is a result (SearchStatus.InvalidInput with the library's message); a bad
// call is an exception carrying the library's text.
using System;
using System.IO;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class BadInputTests
    {
        [Test]
        public void MissingFilesAreLoadErrorsNamingTheFile()
        {
            const string missing = "/nonexistent/wayfinder/missing";
            TestDelegate[] loads =
            {
                () => GridMap.LoadMovingAI(missing + ".map"),
                () => NavMesh.LoadObj(missing + ".obj"),
                () => NavMesh.LoadPolyanya(missing + ".mesh"),
                () => VoxelWorld.LoadVox(missing + ".vox"),
                () => VoxelWorld.Load3dMap(missing + ".3dmap"),
            };
            foreach (TestDelegate load in loads)
            {
                var e = Assert.Throws<WayfinderException>(load);
                Assert.That(e.Status, Is.EqualTo(Status.LoadError));
                Assert.That(e.Message, Is.StringContaining(missing));
            }
        }

        [Test]
        public void AMalformedFileSaysWhere()
        {
            string path = Path.Combine(Path.GetTempPath(), "wayfinder_csharp_bad_" + Guid.NewGuid().ToString("N") + ".map");
            File.WriteAllText(path, "type octile\nheight two\nwidth 3\nmap\n...\n...\n");
            try
            {
                var e = Assert.Throws<WayfinderException>(() => GridMap.LoadMovingAI(path));
                Assert.That(e.Status, Is.EqualTo(Status.LoadError));
                Assert.That(e.Message, Is.StringContaining(path));
            }
            finally
            {
                File.Delete(path);
            }
        }

        [Test]
        public void AStartOutsideTheGridIsAnInvalidQuery()
        {
            using (var map = new GridMap(8, 8))
            using (var query = new GridQuery(map))
            {
                PathResult path = query.FindPath(-1, 0, 5, 5);
                Assert.That(path.Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(path.Found, Is.False);
                Assert.That(query.Message, Is.StringContaining("outside"));
                map.SetPassable(5, 5, 1, 1, false);
                Assert.That(query.FindPath(0, 0, 5, 5).Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(query.Message, Is.Not.Empty);
            }
        }

        [Test]
        public void StartsOutsideMeshesAndVoxelWorlds()
        {
            using (NavMesh mesh = NavMeshTests.LShape())
            using (var meshQuery = new NavMeshQuery(mesh))
            using (VoxelWorld world = VoxelTests.Room())
            using (var voxelQuery = new VoxelQuery(world))
            {
                Assert.That(meshQuery.FindPath(new Vector3d(100, 0, 100), new Vector3d(2, 0, 2)).Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(meshQuery.Message, Is.Not.Empty);
                Assert.That(voxelQuery.FindPath(new VoxelPosition(-5, 1, 1), new VoxelPosition(2, 1, 2)).Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(voxelQuery.Message, Is.Not.Empty);
            }
        }

        [Test]
        public void NaNIsRefused()
        {
            using (NavMesh mesh = NavMeshTests.LShape())
            using (var query = new NavMeshQuery(mesh))
            using (var map = new GridMap(8, 8))
            using (var gridQuery = new GridQuery(map))
            {
                // A NaN point is a bad query; a NaN option is a bad call, named by its field.
                PathResult path = query.FindPath(new Vector3d(double.NaN, 0, 2), new Vector3d(18, 0, 18));
                Assert.That(path.Status, Is.EqualTo(SearchStatus.InvalidInput));
                var options = new GridOptions();
                options.Limits.MaxMilliseconds = double.NaN;
                var e = Assert.Throws<WayfinderException>(() => gridQuery.FindPath(0, 0, 7, 7, options));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(e.Message, Is.StringContaining("max_milliseconds"));
                Assert.Throws<WayfinderException>(() => map.SetCost(0, 0, 1, 1, float.NaN));
                var meshOptions = new NavMeshOptions();
                meshOptions.Limits.MaxCost = double.NaN;
                Assert.Throws<WayfinderException>(() => query.FindPath(new Vector3d(2, 0, 2), new Vector3d(18, 0, 18), meshOptions));
            }
        }

        [Test]
        public void BadOptionsAndEditsAreExceptions()
        {
            using (var map = new GridMap(8, 8))
            using (var query = new GridQuery(map))
            {
                var e = Assert.Throws<WayfinderException>(() => query.FindPath(0, 0, 7, 7, new GridOptions { Algorithm = (GridAlgorithm)99 }));
                Assert.That(e.Message, Is.StringContaining("options.algorithm is 99"));
                Assert.That(query.FindPath(0, 0, 7, 7, new GridOptions { Algorithm = GridAlgorithm.WeightedAStar, Weight = 0.5 }).Status,
                            Is.EqualTo(SearchStatus.InvalidInput), "a weight below 1 is a bad query");
                e = Assert.Throws<WayfinderException>(() => map.SetPassable(6, 6, 5, 5, false));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(e.Message, Is.Not.Empty);
                Assert.Throws<WayfinderException>(() => map.SetArea(0, 0, 1, 1, 200));
                // The query still works after the refused calls.
                Assert.That(query.FindPath(0, 0, 7, 7).Found);
            }
        }

        [Test]
        public void BadSizesAndArrays()
        {
            var e = Assert.Throws<WayfinderException>(() => new GridMap(-3, 4));
            Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
            Assert.That(e.Message, Is.Not.Empty);
            Assert.Throws<ArgumentException>(() => GridMap.FromCells(3, 3, new bool[8]));
            Assert.Throws<ArgumentException>(() => GridMap.FromCells(2, 2, new bool[4], new float[3]));
            Assert.Throws<ArgumentNullException>(() => GridMap.FromCells(2, 2, null));
            Assert.Throws<WayfinderException>(() => GridMap.FromCells(2, 1, new[] { true, true }, new[] { 1f, -2f }));
            Assert.Throws<ArgumentException>(() => NavMesh.FromArrays(new float[4], new uint[3], new uint[] { 3 }));
            var mesh = Assert.Throws<WayfinderException>(() => NavMesh.FromArrays(new float[9], new uint[] { 0, 1, 7 }, new uint[] { 3 }));
            Assert.That(mesh.Status, Is.EqualTo(Status.LoadError));
            Assert.Throws<ArgumentException>(() => new VoxelWorld(2, 2, 2, new BlockKind[7]));
            Assert.Throws<WayfinderException>(() => new VoxelWorld(0, 2, 2));
            Assert.Throws<ArgumentNullException>(() => GridMap.LoadMovingAI(null));
            Assert.Throws<ArgumentNullException>(() => new GridQuery(null));
        }
    }
}
