// Disposal: Dispose twice is harmless, a use after Dispose is an ObjectDisposedException, a world
// disposed before its queries lives on until they are gone, and forgotten handles are freed by
// the finalizers without leaking.
using System;
using System.IO;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class DisposalTests
    {
        [Test]
        public void DisposingTwiceIsHarmless()
        {
            var map = new GridMap(4, 4);
            var query = new GridQuery(map);
            var derived = new GridDerivedData(map);
            query.Dispose();
            query.Dispose();
            derived.Dispose();
            derived.Dispose();
            map.Dispose();
            map.Dispose();
            var mesh = NavMeshTests.LShape();
            mesh.Dispose();
            mesh.Dispose();
            var world = VoxelTests.Room();
            var hierarchy = new VoxelHierarchy(world);
            hierarchy.Dispose();
            hierarchy.Dispose();
            world.Dispose();
            world.Dispose();
            var batch = new PathBatch();
            batch.Dispose();
            batch.Dispose();
        }

        [Test]
        public void UseAfterDisposeIsObjectDisposed()
        {
            var map = new GridMap(4, 4);
            var query = new GridQuery(map);
            query.Dispose();
            var e = Assert.Throws<ObjectDisposedException>(() => query.FindPath(0, 0, 3, 3));
            Assert.That(e.ObjectName, Is.EqualTo("GridQuery"));
            Assert.Throws<ObjectDisposedException>(() => { var unused = query.Message; });
            map.Dispose();
            Assert.Throws<ObjectDisposedException>(() => map.SetPassable(0, 0, 1, 1, false));
            Assert.Throws<ObjectDisposedException>(() => { var unused = map.Revision; });
            Assert.Throws<ObjectDisposedException>(() => new GridQuery(map));

            NavMesh mesh = NavMeshTests.LShape();
            var meshQuery = new NavMeshQuery(mesh);
            meshQuery.Dispose();
            mesh.Dispose();
            Assert.Throws<ObjectDisposedException>(() => meshQuery.FindPath(new Vector3d(2, 0, 2), new Vector3d(18, 0, 18)));
            Assert.Throws<ObjectDisposedException>(() => mesh.Locate(new Vector3d(2, 0, 2)));

            VoxelWorld world = VoxelTests.Room();
            var voxelQuery = new VoxelQuery(world);
            voxelQuery.Dispose();
            world.Dispose();
            Assert.Throws<ObjectDisposedException>(() => voxelQuery.GetResult());
            Assert.Throws<ObjectDisposedException>(() => world.SetBlock(1, 1, 1, BlockKind.Solid));
            Assert.Throws<ObjectDisposedException>(() => new VoxelHierarchy(world));

            var batch = new PathBatch();
            batch.Dispose();
            Assert.Throws<ObjectDisposedException>(() => { var unused = batch.Count; });
        }

        [Test]
        public void AWorldDisposedFirstLivesUntilItsQueriesAreGone()
        {
            var map = new GridMap(16, 16);
            var first = new GridQuery(map);
            var second = new GridQuery(map);
            var derived = new GridDerivedData(map, new GridOptions { Algorithm = GridAlgorithm.JumpPointPlus });
            map.Dispose();
            map.Dispose();  // twice: must not free the grid under its queries
            Assert.That(first.FindPath(0, 0, 15, 15).Found);
            first.Dispose();
            second.SetDerived(derived);
            derived.Dispose();
            Assert.That(second.FindPath(0, 0, 15, 15, new GridOptions { Algorithm = GridAlgorithm.JumpPointPlus }).Found);
            second.Dispose();

            VoxelWorld world = VoxelTests.Room();
            var voxelQuery = new VoxelQuery(world);
            var hierarchy = new VoxelHierarchy(world);
            world.Dispose();
            voxelQuery.SetHierarchy(hierarchy);
            hierarchy.Dispose();
            Assert.That(voxelQuery.FindPath(new VoxelPosition(2, 1, 2), new VoxelPosition(10, 1, 2),
                                            new VoxelOptions { Algorithm = VoxelAlgorithm.Hierarchical }).Found);
            voxelQuery.Dispose();
        }

        private static long ResidentBytes()
        {
            foreach (string line in File.ReadAllLines("/proc/self/status"))
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                    return long.Parse(line.Substring(6).Trim().Split(' ')[0]) * 1024;
            Assert.Ignore("no /proc/self/status: resident memory cannot be read here");
            return 0;
        }

        private static void MakeAndForget(int count)
        {
            for (int i = 0; i < count; ++i)
            {
                // About 8 MB of cells each, never disposed; the query holds the grid.
                var map = new GridMap(1024, 1024);
                var query = new GridQuery(map);
                query.FindPath(0, 0, 3, 3);
            }
        }

        [Test]
        public void ForgottenHandlesAreFreedByTheFinalizers()
        {
            MakeAndForget(5);
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            long before = ResidentBytes();
            for (int round = 0; round < 10; ++round)
            {
                MakeAndForget(10);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
            long grown = ResidentBytes() - before;
            // 100 grids of several MB each were made; leaked, they would hold hundreds of MB.
            Console.WriteLine("resident memory grew by {0:F1} MB over 100 forgotten grids", grown / 1048576.0);
            Assert.That(grown, Is.LessThan(64L * 1024 * 1024));
        }
    }
}
