// Voxel worlds through the C# package, on small worlds made in code.
using System;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class VoxelTests
    {
        // A 12 x 4 x 12 world: a solid floor (y = 0) and a wall at x = 6 (z < 10), two blocks high.
        internal static VoxelWorld Room()
        {
            return VoxelWorld.FromFunction(12, 4, 12, (x, y, z) =>
                y == 0 || (x == 6 && y <= 2 && z < 10) ? BlockKind.Solid : BlockKind.Air);
        }

        [Test]
        public void AWalkerGoesAroundTheWall()
        {
            using (VoxelWorld world = Room())
            using (var query = new VoxelQuery(world))
            {
                Assert.That(world.SizeX, Is.EqualTo(12));
                Assert.That(world.SizeY, Is.EqualTo(4));
                Assert.That(world.GetBlock(6, 1, 0), Is.EqualTo(BlockKind.Solid));
                Assert.That(world.GetBlock(100, 1, 0), Is.EqualTo(BlockKind.Air), "air outside the world");
                PathResult path = query.FindPath(new VoxelPosition(2, 1, 2), new VoxelPosition(10, 1, 2));
                Assert.That(path.Found, query.Message);
                VoxelPosition[] blocks = null;
                int count = query.GetPathBlocks(ref blocks);
                Assert.That(count, Is.EqualTo(path.NodeCount));
                Assert.That(blocks[0], Is.EqualTo(new VoxelPosition(2, 1, 2)));
                Assert.That(blocks[count - 1], Is.EqualTo(new VoxelPosition(10, 1, 2)));
                for (int i = 0; i < count; ++i) Assert.That(blocks[i].Z, Is.GreaterThanOrEqualTo(2));
                Assert.That(path.Cost, Is.GreaterThan(8.0));
            }
        }

        [Test]
        public void AFlyerGoesOverTheWall()
        {
            using (VoxelWorld world = Room())
            using (var walker = new VoxelQuery(world))
            using (var flyer = new VoxelQuery(world, MovementProfile.Flyer()))
            {
                var from = new VoxelPosition(2, 1, 2);
                var to = new VoxelPosition(10, 1, 2);
                double walking = walker.FindPath(from, to).Cost;
                PathResult flying = flyer.FindPath(from, to, new VoxelOptions { Algorithm = VoxelAlgorithm.JumpPoint });
                Assert.That(flying.Found, flyer.Message);
                Assert.That(flying.Cost, Is.LessThan(walking));
                // The same query handle serves another agent through the options.
                PathResult asWalker = flyer.FindPath(from, to, new VoxelOptions { Profile = MovementProfile.Walker() });
                Assert.That(asWalker.Cost, Is.EqualTo(walking).Within(1e-9));
                Assert.That(MovementProfile.Flyer().Fly, Is.True);
                Assert.That(MovementProfile.Walker().AgentHeight, Is.GreaterThan(1));
            }
        }

        // A floor and a wall at x = 4 with a one-column gap at z = 2 and a two-column gap at z = 7
        // and 8: a narrow walker takes the near gap, a two-wide one only fits the far one.
        private static VoxelWorld WallWithGaps()
        {
            return VoxelWorld.FromFunction(8, 4, 10, (x, y, z) =>
                y == 0 || (x == 4 && z != 2 && z != 7 && z != 8) ? BlockKind.Solid : BlockKind.Air);
        }

        [Test]
        public void AWideWalkerTakesTheWideGap()
        {
            var from = new VoxelPosition(1, 1, 1);
            var to = new VoxelPosition(6, 1, 1);
            MovementProfile wide = MovementProfile.Walker();
            Assert.That(wide.AgentWidth, Is.EqualTo(1));
            Assert.That(MovementProfile.Flyer().AgentWidth, Is.EqualTo(1));
            wide.AgentWidth = 2;
            Assert.That(wide.AgentWidth, Is.EqualTo(2));
            using (VoxelWorld world = WallWithGaps())
            using (var narrowQuery = new VoxelQuery(world))
            using (var wideQuery = new VoxelQuery(world, wide))
            {
                PathResult narrow = narrowQuery.FindPath(from, to);
                Assert.That(narrow.Found, narrowQuery.Message);
                PathResult widePath = wideQuery.FindPath(from, to);
                Assert.That(widePath.Found, wideQuery.Message);
                Assert.That(widePath.Cost, Is.GreaterThan(narrow.Cost + 1.0));
                // The same width through the options.
                PathResult viaOptions = narrowQuery.FindPath(from, to, new VoxelOptions { Profile = wide });
                Assert.That(viaOptions.Cost, Is.EqualTo(widePath.Cost).Within(1e-9));
                foreach (int width in new[] { 0, 4 })
                {
                    MovementProfile bad = MovementProfile.Walker();
                    bad.AgentWidth = width;
                    var e = Assert.Throws<WayfinderException>(() => new VoxelQuery(world, bad).Dispose());
                    Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                    Assert.That(e.Message, Is.StringContaining("agent_width must be 1 to 3"));
                }
            }
        }

        [Test]
        public void WideQueriesShareOneFootprint()
        {
            var from = new VoxelPosition(1, 1, 1);
            var to = new VoxelPosition(6, 1, 1);
            MovementProfile wide = MovementProfile.Walker();
            wide.AgentWidth = 2;
            using (VoxelWorld world = WallWithGaps())
            using (var own = new VoxelQuery(world, wide))
            using (var footprint = new VoxelFootprint(world, wide))
            using (var first = new VoxelQuery(world, wide))
            using (var second = new VoxelQuery(world, wide))
            {
                PathResult expected = own.FindPath(from, to);
                Assert.That(expected.Found, own.Message);
                first.SetFootprint(footprint);
                second.SetFootprint(footprint);
                foreach (VoxelQuery query in new[] { first, second })
                {
                    PathResult shared = query.FindPath(from, to);
                    Assert.That(shared.Found, query.Message);
                    Assert.That(shared.Cost, Is.EqualTo(expected.Cost).Within(1e-9));
                }
                // Closing the two-column gap to the top (one block would be a step up): the
                // footprint is behind its world until updated, then the wide walker has no way left.
                for (int y = 1; y < 4; ++y) world.SetBlock(4, y, 7, BlockKind.Solid);
                PathResult stale = first.FindPath(from, to);
                Assert.That(stale.Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(first.Message, Is.StringContaining("is behind its world"));
                Assert.That(footprint.Update(), Is.GreaterThan(0));
                Assert.That(footprint.Update(), Is.EqualTo(0));
                Assert.That(first.FindPath(from, to).Status, Is.EqualTo(SearchStatus.NoPath));
                second.SetFootprint(null);
                Assert.That(second.FindPath(from, to).Status, Is.EqualTo(SearchStatus.NoPath));

                var e = Assert.Throws<WayfinderException>(() => new VoxelFootprint(world, MovementProfile.Walker()).Dispose());
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(e.Message, Is.StringContaining("agent_width must be 2 to 3"));
                Assert.Throws<ArgumentNullException>(() => new VoxelFootprint(world, null).Dispose());
                using (VoxelWorld other = WallWithGaps())
                using (var elsewhere = new VoxelFootprint(other, wide))
                {
                    var refused = Assert.Throws<WayfinderException>(() => first.SetFootprint(elsewhere));
                    Assert.That(refused.Message, Is.StringContaining("another world"));
                }
            }
        }

        [Test]
        public void EditsAndArrays()
        {
            var blocks = new BlockKind[4 * 3 * 4];
            for (int z = 0; z < 4; ++z)
                for (int x = 0; x < 4; ++x) blocks[(0 * 4 + z) * 4 + x] = BlockKind.Solid;
            using (var world = new VoxelWorld(4, 3, 4, blocks))
            using (var query = new VoxelQuery(world, MovementProfile.Flyer()))
            {
                Assert.That(world.GetBlock(3, 0, 3), Is.EqualTo(BlockKind.Solid));
                ulong revision = world.Revision;
                world.SetBlock(1, 1, 1, BlockKind.Water);
                Assert.That(world.GetBlock(1, 1, 1), Is.EqualTo(BlockKind.Water));
                Assert.That(world.Revision, Is.GreaterThan(revision));
                Assert.That(query.FindPath(new VoxelPosition(0, 1, 0), new VoxelPosition(3, 2, 3)).Found, query.Message);
            }
            using (var empty = new VoxelWorld(3, 3, 3))
                Assert.That(empty.GetBlock(1, 1, 1), Is.EqualTo(BlockKind.Air));
        }

        [Test]
        public void SteppedAndHierarchicalSearches()
        {
            using (VoxelWorld world = Room())
            using (var query = new VoxelQuery(world))
            using (var hierarchy = new VoxelHierarchy(world, null, new VoxelHierarchyOptions { ClusterSize = 4 }))
            {
                var from = new VoxelPosition(2, 1, 2);
                var to = new VoxelPosition(10, 1, 2);
                double optimal = query.FindPath(from, to).Cost;
                SearchStatus status = query.Begin(from, to);
                while (status == SearchStatus.InProgress) status = query.Step(2);
                Assert.That(query.GetResult().Cost, Is.EqualTo(optimal));
                Assert.That(hierarchy.NodeCount, Is.GreaterThan(0));
                Assert.That(hierarchy.MemoryBytes, Is.GreaterThan(0));
                query.SetHierarchy(hierarchy);
                PathResult near = query.FindPath(from, to, new VoxelOptions { Algorithm = VoxelAlgorithm.Hierarchical });
                Assert.That(near.Found, query.Message);
                Assert.That(near.Cost, Is.GreaterThanOrEqualTo(optimal - 1e-9));
                query.SetHierarchy(null);
                Assert.That(query.FindPath(from, to, new VoxelOptions { Algorithm = VoxelAlgorithm.Hierarchical }).Status,
                            Is.EqualTo(SearchStatus.InvalidInput));
            }
        }

        /// <summary>The hierarchical path from `from` to `to`, its cost and blocks.</summary>
        private static VoxelPosition[] HierarchicalPath(VoxelQuery query, VoxelPosition from, VoxelPosition to, out double cost)
        {
            PathResult path = query.FindPath(from, to, new VoxelOptions { Algorithm = VoxelAlgorithm.Hierarchical });
            Assert.That(path.Found, query.Message);
            cost = path.Cost;
            VoxelPosition[] blocks = null;
            Array.Resize(ref blocks, query.GetPathBlocks(ref blocks));
            return blocks;
        }

        [Test]
        public void AnUpdatedHierarchyAnswersAsOneBuiltAfresh()
        {
            var options = new VoxelHierarchyOptions { ClusterSize = 4 };
            var hierarchical = new VoxelOptions { Algorithm = VoxelAlgorithm.Hierarchical };
            var from = new VoxelPosition(2, 1, 2);
            var to = new VoxelPosition(10, 1, 2);
            using (VoxelWorld world = Room())
            using (var query = new VoxelQuery(world))
            using (var hierarchy = new VoxelHierarchy(world, null, options))
            {
                query.SetHierarchy(hierarchy);
                double before;
                HierarchicalPath(query, from, to, out before);
                Assert.That(hierarchy.Update(), Is.EqualTo(0), "nothing edited, nothing redone");

                // The wall's gap at z >= 10 closed but for z = 11: the path goes further round.
                world.SetBlock(6, 1, 10, BlockKind.Solid);
                world.SetBlock(6, 2, 10, BlockKind.Solid);
                world.SetBlock(6, 1, 11, BlockKind.Solid);
                Assert.That(query.FindPath(from, to, hierarchical).Status, Is.EqualTo(SearchStatus.InvalidInput),
                            "a stale hierarchy is refused until updated");
                Assert.That(hierarchy.Update(), Is.GreaterThan(0));
                double updatedCost;
                VoxelPosition[] updated = HierarchicalPath(query, from, to, out updatedCost);
                Assert.That(updatedCost, Is.GreaterThan(before));
                Assert.That(hierarchy.Update(), Is.EqualTo(0));

                using (var freshQuery = new VoxelQuery(world))
                using (var fresh = new VoxelHierarchy(world, null, options))
                {
                    freshQuery.SetHierarchy(fresh);
                    double freshCost;
                    VoxelPosition[] afresh = HierarchicalPath(freshQuery, from, to, out freshCost);
                    Assert.That(updatedCost, Is.EqualTo(freshCost));
                    Assert.That(updated, Is.EqualTo(afresh));
                    Assert.That(hierarchy.NodeCount, Is.EqualTo(fresh.NodeCount));
                    Assert.That(hierarchy.MemoryBytes, Is.GreaterThan(0));
                }
            }
        }

        [Test]
        public void AHierarchyIsNotUpdatedOnceItOrItsWorldIsDisposed()
        {
            VoxelWorld world = Room();
            var hierarchy = new VoxelHierarchy(world, null, new VoxelHierarchyOptions { ClusterSize = 4 });
            world.SetBlock(6, 1, 10, BlockKind.Solid);
            world.Dispose();
            var e = Assert.Throws<ObjectDisposedException>(() => hierarchy.Update());
            Assert.That(e.ObjectName, Is.EqualTo("VoxelWorld"));
            hierarchy.Dispose();
            e = Assert.Throws<ObjectDisposedException>(() => hierarchy.Update());
            Assert.That(e.ObjectName, Is.EqualTo("VoxelHierarchy"));
        }

        [Test]
        public void AnExceptionInTheBlockFunctionIsRethrown()
        {
            var e = Assert.Throws<InvalidOperationException>(() =>
                VoxelWorld.FromFunction(4, 4, 4, (x, y, z) => { if (y == 2) throw new FormatException("bad block"); return BlockKind.Air; }));
            Assert.That(e.InnerException, Is.InstanceOf<FormatException>());
        }
    }
}
