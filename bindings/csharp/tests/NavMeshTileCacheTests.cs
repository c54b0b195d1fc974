// Temporary obstacles through the C# package: a tiled mesh built from a small level, walls and
// pillars added, removed and rebuilt, the cache saved with its mesh and loaded back.
using System;
using System.IO;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class NavMeshTileCacheTests
    {
        // A 20 x 20 floor with a 4 x 4 block, 2 high, in its middle.
        private const string LevelObj =
            "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\n" +
            "v 8 0 8\nv 12 0 8\nv 12 0 12\nv 8 0 12\nv 8 2 8\nv 12 2 8\nv 12 2 12\nv 8 2 12\n" +
            "f 1 3 2\nf 1 4 3\n" +
            "f 9 11 10\nf 9 12 11\nf 5 6 10\nf 5 10 9\nf 6 7 11\nf 6 11 10\nf 7 8 12\nf 7 12 11\nf 8 5 9\nf 8 9 12\n";

        private static readonly Vector3d Start = new Vector3d(1, 0, 10);
        private static readonly Vector3d Goal = new Vector3d(19, 0, 10);
        private static readonly Vector3d WallMin = new Vector3d(14, -1, -1);
        private static readonly Vector3d WallMax = new Vector3d(15, 3, 21);
        private static readonly Vector3d Pillar = new Vector3d(16, 0, 10);

        private string level;

        [SetUp]
        public void WriteLevel()
        {
            level = Path.Combine(Path.GetTempPath(), "wayfinder_csharp_cache_" + Guid.NewGuid().ToString("N") + ".obj");
            File.WriteAllText(level, LevelObj);
        }

        [TearDown]
        public void RemoveLevel() { File.Delete(level); }

        // The cache with tiles of 16 cells; a native library built without Recast skips the test.
        private NavMeshTileCache Build()
        {
            try
            {
                return NavMeshTileCache.BuildObj(level, new AgentSettings { TileSize = 16 });
            }
            catch (WayfinderException e)
            {
                if (e.Status == Status.InternalError && e.Message.Contains("Recast")) Assert.Ignore(e.Message);
                throw;
            }
        }

        [Test]
        public void ObstaclesCutAndRestoreThePath()
        {
            using (NavMeshTileCache cache = Build())
            using (NavMesh mesh = cache.Mesh)
            using (var query = new NavMeshQuery(mesh))
            {
                PathResult free = query.FindPath(Start, Goal);
                Assert.That(free.Found, query.Message);
                Vector3d[] freePoints = null;
                int freeCount = query.GetPathPoints(ref freePoints);

                // The wall cuts the floor in two: no path until it goes.
                uint wall = cache.AddBox(WallMin, WallMax);
                int pending;
                Assert.That(cache.Update(0, out pending), Is.GreaterThanOrEqualTo(1));
                Assert.That(pending, Is.EqualTo(0));
                Assert.That(query.FindPath(Start, Goal).Found, Is.False);

                // A budget of one tile leaves the rest queued.
                cache.Remove(wall);
                Assert.That(cache.Update(1, out pending), Is.EqualTo(1));
                cache.Update();
                PathResult again = query.FindPath(Start, Goal);
                Assert.That(again.Found, query.Message);
                Assert.That(again.Cost, Is.EqualTo(free.Cost));
                Vector3d[] points = null;
                Assert.That(query.GetPathPoints(ref points), Is.EqualTo(freeCount));
                for (int i = 0; i < freeCount; ++i) Assert.That(points[i], Is.EqualTo(freePoints[i]));

                // A pillar in the way: the path goes round it.
                uint post = cache.AddCylinder(Pillar, 1.5, 2.0);
                Assert.That(post, Is.Not.EqualTo(wall));
                Assert.That(cache.Update(), Is.GreaterThanOrEqualTo(1));
                PathResult round = query.FindPath(Start, Goal);
                Assert.That(round.Found, query.Message);
                Assert.That(round.Cost, Is.GreaterThan(free.Cost));
            }
        }

        [Test]
        public void ASavedCacheGoesOnAsTheOneInMemory()
        {
            string baked = Path.Combine(Path.GetTempPath(), "wayfinder_csharp_cache_" + Guid.NewGuid().ToString("N") + ".wfnav");
            try
            {
                using (NavMeshTileCache cache = Build())
                using (NavMesh mesh = cache.Mesh)
                using (var query = new NavMeshQuery(mesh))
                {
                    cache.SaveWfnav(baked);
                    using (NavMeshTileCache loaded = NavMeshTileCache.LoadWfnav(baked))
                    using (NavMesh loadedMesh = loaded.Mesh)
                    using (var loadedQuery = new NavMeshQuery(loadedMesh))
                    {
                        var otherPillar = new Vector3d(5, 0, 10);
                        cache.AddCylinder(otherPillar, 1.0, 2.0);
                        loaded.AddCylinder(otherPillar, 1.0, 2.0);
                        cache.Update();
                        Assert.That(loaded.Update(), Is.GreaterThanOrEqualTo(1));
                        PathResult here = query.FindPath(Start, Goal);
                        PathResult there = loadedQuery.FindPath(Start, Goal);
                        Assert.That(there.Found, loadedQuery.Message);
                        Assert.That(there.Cost, Is.EqualTo(here.Cost));
                    }
                    // A file with the mesh alone has no cache to load.
                    mesh.SaveWfnav(baked);
                    var e = Assert.Throws<WayfinderException>(() => NavMeshTileCache.LoadWfnav(baked));
                    Assert.That(e.Status, Is.EqualTo(Status.LoadError));
                    Assert.That(e.Message, Is.StringContaining("no tile cache section"));
                }
            }
            finally
            {
                File.Delete(baked);
            }
        }

        [Test]
        public void BadObstaclesAndSettingsAreRefused()
        {
            using (NavMeshTileCache cache = Build())
            using (NavMesh mesh = cache.Mesh)
            {
                var e = Assert.Throws<WayfinderException>(() => cache.AddCylinder(Pillar, -1.0, 2.0));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(e.Message, Is.StringContaining("radius"));
                Assert.That(Assert.Throws<WayfinderException>(() => cache.AddBox(WallMax, WallMin)).Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(Assert.Throws<WayfinderException>(() => cache.AddCylinder(new Vector3d(double.NaN, 0, 0), 1, 1)).Status,
                            Is.EqualTo(Status.InvalidArgument));
                uint box = cache.AddBox(WallMin, WallMax);
                cache.Remove(box);
                Assert.That(Assert.Throws<WayfinderException>(() => cache.Remove(box)).Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(Assert.Throws<WayfinderException>(() => cache.Remove(12345)).Status, Is.EqualTo(Status.InvalidArgument));
                Assert.Throws<ArgumentOutOfRangeException>(() => cache.Update(-1));
            }
            var zero = Assert.Throws<WayfinderException>(() => NavMeshTileCache.BuildObj(level, new AgentSettings { TileSize = 0 }));
            Assert.That(zero.Status, Is.EqualTo(Status.InvalidArgument));
            Assert.That(Assert.Throws<WayfinderException>(() => NavMeshTileCache.BuildObj(level + ".missing")).Status, Is.EqualTo(Status.LoadError));
        }

        [Test]
        public void DisposalIsSafeInAnyOrder()
        {
            NavMeshTileCache cache = Build();
            NavMesh mesh = cache.Mesh;
            var query = new NavMeshQuery(mesh);
            mesh.Dispose();
            Assert.That(query.FindPath(Start, Goal).Found, query.Message);
            cache.AddBox(WallMin, WallMax);
            Assert.Throws<ObjectDisposedException>(() => cache.Update());
            cache.Dispose();
            cache.Dispose();
            Assert.Throws<ObjectDisposedException>(() => cache.AddBox(WallMin, WallMax));
            Assert.Throws<ObjectDisposedException>(() => cache.Update());
            query.Dispose();
        }
    }
}
