// Two threads share one world, each with its own query object, and get the answers one thread
// alone gets (the C API's threading rule, through the C# package).
using System;
using System.Threading;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class ThreadTests
    {
        private static GridMap Maze()
        {
            var random = new Random(20240601);
            var passable = new bool[200 * 200];
            for (int i = 0; i < passable.Length; ++i) passable[i] = random.NextDouble() > 0.3;
            passable[0] = true;
            return GridMap.FromCells(200, 200, passable);
        }

        private static GridRequest[] Requests(GridMap map, int count)
        {
            var random = new Random(7);
            var requests = new GridRequest[count];
            for (int i = 0; i < count; ++i)
            {
                GridCell start, goal;
                do start = new GridCell(random.Next(200), random.Next(200)); while (!map.IsPassable(start.X, start.Y));
                do goal = new GridCell(random.Next(200), random.Next(200)); while (!map.IsPassable(goal.X, goal.Y));
                requests[i] = new GridRequest(start, goal);
            }
            return requests;
        }

        [Test]
        public void TwoThreadsShareAGridWithAQueryEach()
        {
            using (GridMap map = Maze())
            {
                GridRequest[] requests = Requests(map, 300);
                var expected = new double[requests.Length];
                using (var query = new GridQuery(map))
                    for (int i = 0; i < requests.Length; ++i) expected[i] = query.FindPath(requests[i].Start, requests[i].Goal).Cost;

                var mismatches = new int[2];
                var errors = new Exception[2];
                var threads = new Thread[2];
                for (int t = 0; t < threads.Length; ++t)
                {
                    int id = t;
                    threads[t] = new Thread(() =>
                    {
                        try
                        {
                            var options = new GridOptions { Algorithm = id == 0 ? GridAlgorithm.AStar : GridAlgorithm.JumpPoint };
                            GridCell[] cells = null;
                            using (var query = new GridQuery(map))
                                for (int round = 0; round < 3; ++round)
                                    for (int i = 0; i < requests.Length; ++i)
                                    {
                                        PathResult path = query.FindPath(requests[i].Start, requests[i].Goal, options);
                                        if (Math.Abs(path.Cost - expected[i]) > 1e-9) ++mismatches[id];
                                        if (path.Found && query.GetPathCells(ref cells) != path.NodeCount) ++mismatches[id];
                                    }
                        }
                        catch (Exception e)
                        {
                            errors[id] = e;
                        }
                    });
                    threads[t].Start();
                }
                foreach (Thread thread in threads) thread.Join();
                Assert.That(errors[0], Is.Null);
                Assert.That(errors[1], Is.Null);
                Assert.That(mismatches, Is.EqualTo(new[] { 0, 0 }));
            }
        }

        [Test]
        public void TwoThreadsShareAVoxelWorld()
        {
            using (VoxelWorld world = VoxelTests.Room())
            {
                var from = new VoxelPosition(2, 1, 2);
                var to = new VoxelPosition(10, 1, 2);
                double expected;
                using (var query = new VoxelQuery(world)) expected = query.FindPath(from, to).Cost;
                var costs = new double[2];
                var threads = new Thread[2];
                for (int t = 0; t < 2; ++t)
                {
                    int id = t;
                    threads[t] = new Thread(() =>
                    {
                        using (var query = new VoxelQuery(world))
                            for (int i = 0; i < 200; ++i) costs[id] = Math.Max(costs[id], query.FindPath(from, to).Cost);
                    });
                    threads[t].Start();
                }
                foreach (Thread thread in threads) thread.Join();
                Assert.That(costs[0], Is.EqualTo(expected));
                Assert.That(costs[1], Is.EqualTo(expected));
            }
        }
    }
}
