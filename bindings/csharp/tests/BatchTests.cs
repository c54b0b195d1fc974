// Batches through the C# package: the same answers as one query at a time, per-request options,
// and a bad option failing the whole call.
using System;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class BatchTests
    {
        [Test]
        public void GridBatchAnswersAsSingleQueries()
        {
            using (var map = new GridMap(30, 30))
            using (var query = new GridQuery(map))
            using (var batch = new PathBatch())
            {
                map.SetPassable(10, 0, 1, 25, false);
                var requests = new GridRequest[40];
                for (int i = 0; i < requests.Length; ++i)
                    requests[i] = new GridRequest(new GridCell(i % 9, i % 30), new GridCell(29 - i % 5, (7 * i) % 30),
                                                  i % 2 == 0 ? null : new GridOptions { Algorithm = GridAlgorithm.JumpPoint });
                batch.SolveGrid(map, requests, requests.Length, 2);
                Assert.That(batch.Count, Is.EqualTo(requests.Length));
                uint[] nodes = null;
                Vector3d[] points = null;
                for (int i = 0; i < requests.Length; ++i)
                {
                    PathResult single = query.FindPath(requests[i].Start, requests[i].Goal, requests[i].Options);
                    PathResult batched = batch.GetResult(i);
                    Assert.That(batched.Status, Is.EqualTo(single.Status), "request " + i);
                    Assert.That(batched.Cost, Is.EqualTo(single.Cost).Within(1e-9), "request " + i);
                    int count = batch.GetPathNodes(i, ref nodes);
                    Assert.That(count, Is.EqualTo(single.NodeCount));
                    Assert.That(nodes[0], Is.EqualTo((uint)(requests[i].Start.Y * 30 + requests[i].Start.X)));
                    Assert.That(batch.GetPathPoints(i, ref points), Is.EqualTo(single.PointCount));
                    Assert.That(batch.GetMessage(i), Is.EqualTo(""));
                }
                // Fewer requests than the array holds.
                batch.SolveGrid(map, requests, 3);
                Assert.That(batch.Count, Is.EqualTo(3));
            }
        }

        [Test]
        public void GridBatchWithDerivedData()
        {
            using (var map = new GridMap(20, 20))
            using (var derived = new GridDerivedData(map, new GridOptions { Algorithm = GridAlgorithm.JumpPointPlus }))
            using (var batch = new PathBatch())
            {
                var options = new GridOptions { Algorithm = GridAlgorithm.JumpPointPlus };
                var requests = new[] { new GridRequest(new GridCell(0, 0), new GridCell(19, 19), options) };
                batch.SolveGrid(map, requests, 1, 1, derived);
                Assert.That(batch.GetResult(0).Cost, Is.EqualTo(19 * Math.Sqrt(2)).Within(1e-9));
                batch.SolveGrid(map, requests, 1, 1);
                Assert.That(batch.GetResult(0).Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(batch.GetMessage(0), Is.Not.Empty);
            }
        }

        [Test]
        public void MeshAndVoxelBatches()
        {
            using (NavMesh mesh = NavMeshTests.LShape())
            using (VoxelWorld world = VoxelTests.Room())
            using (var batch = new PathBatch())
            {
                var meshRequests = new[]
                {
                    new NavMeshRequest(new Vector3d(2, 0, 2), new Vector3d(18, 0, 18)),
                    new NavMeshRequest(new Vector3d(2, 0, 2), new Vector3d(5, 0, 15)),
                };
                batch.SolveNavMesh(mesh, meshRequests, 2);
                Assert.That(batch.GetResult(0).Found);
                Assert.That(batch.GetResult(1).Status, Is.EqualTo(SearchStatus.InvalidInput), "the goal is off the mesh");
                var voxelRequests = new[]
                {
                    new VoxelRequest(new VoxelPosition(2, 1, 2), new VoxelPosition(10, 1, 2)),
                    new VoxelRequest(new VoxelPosition(2, 1, 2), new VoxelPosition(10, 1, 2), new VoxelOptions { Profile = MovementProfile.Flyer() }),
                };
                batch.SolveVoxel(world, voxelRequests, 2);
                Assert.That(batch.GetResult(0).Found);
                Assert.That(batch.GetResult(1).Cost, Is.LessThan(batch.GetResult(0).Cost), "the flyer goes over the wall");
            }
        }

        [Test]
        public void ABadOptionFailsTheWholeCall()
        {
            using (var map = new GridMap(5, 5))
            using (var batch = new PathBatch())
            {
                var requests = new[]
                {
                    new GridRequest(new GridCell(0, 0), new GridCell(4, 4)),
                    new GridRequest(new GridCell(0, 0), new GridCell(4, 4), new GridOptions { Algorithm = (GridAlgorithm)99 }),
                };
                var e = Assert.Throws<WayfinderException>(() => batch.SolveGrid(map, requests, 2));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(e.Message, Is.StringContaining("request 1"));
                Assert.That(e.Message, Is.StringContaining("algorithm"));
                Assert.Throws<ArgumentOutOfRangeException>(() => batch.SolveGrid(map, requests, 3));
                Assert.Throws<WayfinderException>(() => batch.GetResult(5));
            }
        }
    }
}
