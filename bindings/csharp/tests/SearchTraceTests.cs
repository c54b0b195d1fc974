// Search traces through the C# package: recorded only when asked, one Closed event per
// expansion, the start opened first; a limit keeps the first events and counts them all; the
// caller's array is reused once warm.
using System;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class SearchTraceTests
    {
        // 5 x 5, column 2 a wall but for row 2.
        private static GridMap WalledGrid()
        {
            var passable = new bool[25];
            for (int i = 0; i < 25; ++i) passable[i] = i % 5 != 2 || i / 5 == 2;
            return GridMap.FromCells(5, 5, passable);
        }

        private static int Closed(SearchTraceEvent[] events, int count)
        {
            int closed = 0;
            for (int i = 0; i < count; ++i)
                if (events[i].Event == TraceEvent.Closed) ++closed;
            return closed;
        }

        [Test]
        public void AGridSearchIsTracedWhenAsked()
        {
            using (GridMap grid = WalledGrid())
            using (var query = new GridQuery(grid))
            {
                SearchTraceEvent[] events = null;
                long recorded;
                query.FindPath(0, 4, 4, 4);
                Assert.That(query.GetTrace(ref events, out recorded), Is.EqualTo(0));
                Assert.That(recorded, Is.EqualTo(0));

                query.SetTrace(512);
                PathResult path = query.FindPath(0, 4, 4, 4);
                Assert.That(path.Found, query.Message);
                int count = query.GetTrace(ref events, out recorded);
                Assert.That(count, Is.GreaterThan(0).And.LessThanOrEqualTo(512));
                Assert.That(recorded, Is.EqualTo(count));
                Assert.That(events[0].Event, Is.EqualTo(TraceEvent.Opened));
                Assert.That(events[0].Position, Is.EqualTo(new Vector3d(0, 4, 0)));
                for (int i = 0; i < count; ++i)
                {
                    Assert.That(events[i].Position.X, Is.InRange(0.0, 4.0));
                    Assert.That(events[i].Position.Y, Is.InRange(0.0, 4.0));
                    Assert.That(events[i].Position.Z, Is.EqualTo(0.0));
                }
                Assert.That((ulong)Closed(events, count), Is.EqualTo(path.Stats.Expanded));

                // A warm array is reused, not replaced.
                SearchTraceEvent[] warm = events;
                query.FindPath(0, 4, 4, 4);
                Assert.That(query.GetTrace(ref events), Is.EqualTo(count));
                Assert.That(events, Is.SameAs(warm));

                // A short array grows.
                var small = new SearchTraceEvent[1];
                Assert.That(query.GetTrace(ref small), Is.EqualTo(count));
                Assert.That(small.Length, Is.GreaterThanOrEqualTo(count));

                // A limit of 3 keeps the same first three events and counts them all.
                var first = new SearchTraceEvent[3];
                query.SetTrace(3);
                query.FindPath(0, 4, 4, 4);
                Assert.That(query.GetTrace(ref first, out recorded), Is.EqualTo(3));
                Assert.That(recorded, Is.EqualTo(count));
                for (int i = 0; i < 3; ++i)
                {
                    Assert.That(first[i].Event, Is.EqualTo(events[i].Event));
                    Assert.That(first[i].Position, Is.EqualTo(events[i].Position));
                }

                query.SetTrace(0);
                query.FindPath(0, 4, 4, 4);
                Assert.That(query.GetTrace(ref events, out recorded), Is.EqualTo(0));
                Assert.That(recorded, Is.EqualTo(0));
                Assert.Throws<ArgumentOutOfRangeException>(() => query.SetTrace(-1));
            }
        }

        [Test]
        public void NoAllocationPerTracedQueryOnceWarm()
        {
            using (GridMap grid = WalledGrid())
            using (var query = new GridQuery(grid))
            {
                query.SetTrace(512);
                SearchTraceEvent[] events = null;
                long recorded, total = 0;
                for (int i = 0; i < 10; ++i)
                {
                    query.FindPath(0, 4, 4, 4);
                    total += query.GetTrace(ref events, out recorded);
                }
                long allocated = TestData.BytesAllocatedBy(1000, i =>
                {
                    query.FindPath(0, i % 5, 4, 4);
                    total += query.GetTrace(ref events, out recorded);
                    total += query.GetTrace(ref events);
                });
                Assert.That(total, Is.GreaterThan(0));
                Assert.That(allocated, Is.EqualTo(0), "bytes allocated by 1000 warm traced queries");
            }
        }

        [Test]
        public void ANavMeshSearchTracesCorridorNodesOnTheMesh()
        {
            using (NavMesh mesh = NavMeshTests.LShape())
            using (var query = new NavMeshQuery(mesh))
            {
                query.SetTrace(512);
                Assert.That(query.FindPath(new Vector3d(2, 0, 8), new Vector3d(15, 0, 18)).Found, query.Message);
                SearchTraceEvent[] events = null;
                long recorded;
                int count = query.GetTrace(ref events, out recorded);
                Assert.That(count, Is.GreaterThan(0));
                Assert.That(recorded, Is.EqualTo(count));
                for (int i = 0; i < count; ++i)
                {
                    Assert.That(events[i].Position.X, Is.InRange(0.0, 20.0));
                    Assert.That(events[i].Position.Z, Is.InRange(0.0, 20.0));
                }
            }
        }

        [Test]
        public void AVoxelSearchTracesBlocksStepByStep()
        {
            var blocks = new BlockKind[8 * 4 * 8];
            for (int i = 0; i < 64; ++i) blocks[i] = BlockKind.Solid;
            using (var world = new VoxelWorld(8, 4, 8, blocks))
            using (var query = new VoxelQuery(world, MovementProfile.Flyer()))
            {
                query.SetTrace(512);
                SearchStatus status = query.Begin(new VoxelPosition(0, 1, 0), new VoxelPosition(7, 1, 7));
                while (status == SearchStatus.InProgress) status = query.Step(2);
                PathResult path = query.GetResult();
                Assert.That(path.Found, query.Message);
                SearchTraceEvent[] events = null;
                int count = query.GetTrace(ref events);
                Assert.That(count, Is.GreaterThan(0));
                Assert.That(events[0].Event, Is.EqualTo(TraceEvent.Opened));
                Assert.That(events[0].Position, Is.EqualTo(new Vector3d(0, 1, 0)));
                Assert.That((ulong)Closed(events, count), Is.EqualTo(path.Stats.Expanded));
            }
        }
    }
}
