// Grids through the C# package: construction, edits, options, filters, stepped searches,
// derived data (JPS+, HPA*), and no allocation per query once warm.
using System;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class GridTests
    {
        // A 10 x 10 grid with a wall at x = 5 from y = 0 to 8 (a gap at y = 9).
        private static GridMap WalledGrid()
        {
            var passable = new bool[100];
            for (int i = 0; i < passable.Length; ++i) passable[i] = true;
            for (int y = 0; y < 9; ++y) passable[y * 10 + 5] = false;
            return GridMap.FromCells(10, 10, passable);
        }

        [Test]
        public void AnOpenGridHasTheOctileDistance()
        {
            using (var map = new GridMap(20, 10))
            using (var query = new GridQuery(map))
            {
                Assert.That(map.Width, Is.EqualTo(20));
                Assert.That(map.Height, Is.EqualTo(10));
                PathResult path = query.FindPath(0, 0, 19, 5);
                Assert.That(path.Status, Is.EqualTo(SearchStatus.Found));
                Assert.That(path.Reason, Is.EqualTo(StopReason.GoalReached));
                Assert.That(path.Cost, Is.EqualTo(14 + 5 * Math.Sqrt(2)).Within(1e-9));
                Assert.That(path.NodeCount, Is.EqualTo(20));
                Assert.That(path.Stats.Expanded, Is.GreaterThan(0));
                Assert.That(query.Message, Is.EqualTo(""));
                Assert.That(path.ToString(), Is.StringStarting("found, cost"));
            }
        }

        [Test]
        public void PathCellsGoIntoTheCallersArray()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            {
                PathResult path = query.FindPath(new GridCell(0, 0), new GridCell(9, 0));
                Assert.That(path.Found);
                GridCell[] cells = new GridCell[2];
                int count = query.GetPathCells(ref cells);
                Assert.That(count, Is.EqualTo(path.NodeCount));
                Assert.That(cells.Length, Is.GreaterThanOrEqualTo(count), "grown to fit");
                Assert.That(cells[0], Is.EqualTo(new GridCell(0, 0)));
                Assert.That(cells[count - 1], Is.EqualTo(new GridCell(9, 0)));
                for (int i = 0; i < count; ++i) Assert.That(map.IsPassable(cells[i].X, cells[i].Y), "cell " + cells[i]);
                GridCell[] same = cells;
                query.FindPath(0, 0, 3, 3);
                count = query.GetPathCells(ref cells);
                Assert.That(cells, Is.SameAs(same), "a large enough array is reused");
                Assert.That(count, Is.EqualTo(4));
            }
        }

        [Test]
        public void CellsAndEdits()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            {
                Assert.That(map.GetCell(5, 0).Passable, Is.False);
                Assert.That(map.GetCell(5, 0).Cost, Is.EqualTo(0f));
                Assert.That(map.GetCell(0, 0).Cost, Is.EqualTo(1f));
                double around = query.FindPath(0, 0, 9, 0).Cost;
                ulong revision = map.Revision;
                map.SetPassable(5, 0, 1, 1, true);
                Assert.That(map.Revision, Is.GreaterThan(revision));
                Assert.That(query.FindPath(0, 0, 9, 0).Cost, Is.EqualTo(9.0).Within(1e-9));
                Assert.That(around, Is.GreaterThan(9.0));
                map.SetCost(0, 0, 10, 1, 3f);
                Assert.That(map.GetCell(4, 0).Cost, Is.EqualTo(3f));
                map.SetArea(2, 2, 2, 2, 7);
                map.SetFlags(2, 2, 2, 2, 0x4);
                GridCellInfo cell = map.GetCell(3, 3);
                Assert.That(cell.Area, Is.EqualTo(7));
                Assert.That(cell.Flags, Is.EqualTo(0x4));
                Assert.Throws<ArgumentOutOfRangeException>(() => map.GetCell(10, 0));
                Assert.That(map.IsPassable(-1, 0), Is.False);
            }
        }

        [Test]
        public void CostsFromArrays()
        {
            var passable = new bool[] { true, true, true, true, true, true };
            var costs = new float[] { 1f, 5f, 1f, 1f, 1f, 1f };
            using (GridMap map = GridMap.FromCells(3, 2, passable, costs))
            using (var query = new GridQuery(map))
            {
                Assert.That(map.GetCell(1, 0).Cost, Is.EqualTo(5f));
                PathResult path = query.FindPath(0, 0, 2, 0, new GridOptions { Diagonal = DiagonalMode.Never });
                Assert.That(path.Found);
                // Around the expensive cell: down, across, across, up.
                Assert.That(path.Cost, Is.LessThan(5.0));
            }
        }

        [Test]
        public void AFilterMakesAnAreaExpensiveOrClosed()
        {
            using (var map = new GridMap(10, 3))
            using (var query = new GridQuery(map))
            {
                map.SetArea(1, 0, 8, 2, 3);
                var filter = new AreaFilter();
                filter.AreaCosts[3] = float.PositiveInfinity;
                var options = new GridOptions { Filter = filter, Diagonal = DiagonalMode.Never };
                PathResult path = query.FindPath(0, 0, 9, 0, options);
                Assert.That(path.Found);
                Assert.That(path.Cost, Is.EqualTo(13.0).Within(1e-9), "down to row 2, along it, back up");
                map.SetFlags(0, 2, 10, 1, 0x2);
                filter.ExcludeFlags = 0x2;
                Assert.That(query.FindPath(0, 0, 9, 0, options).Status, Is.EqualTo(SearchStatus.NoPath));
            }
        }

        [Test]
        public void EveryAlgorithmFindsAPath()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            using (var derived = new GridDerivedData(map, new GridOptions { Algorithm = GridAlgorithm.JumpPointPlus }))
            {
                derived.Update(new GridOptions { Algorithm = GridAlgorithm.Hierarchical });
                query.SetDerived(derived);
                double optimal = query.FindPath(0, 0, 9, 0).Cost;
                foreach (GridAlgorithm algorithm in Enum.GetValues(typeof(GridAlgorithm)))
                {
                    PathResult path = query.FindPath(0, 0, 9, 0, new GridOptions { Algorithm = algorithm });
                    Assert.That(path.Found, algorithm + ": " + path.Status + " " + query.Message);
                    Assert.That(path.Cost, Is.GreaterThanOrEqualTo(optimal - 1e-9), algorithm.ToString());
                }
                foreach (GridAlgorithm algorithm in new[] { GridAlgorithm.Dijkstra, GridAlgorithm.JumpPoint, GridAlgorithm.JumpPointPlus,
                                                            GridAlgorithm.BidirectionalAStar, GridAlgorithm.IdaStar })
                    Assert.That(query.FindPath(0, 0, 9, 0, new GridOptions { Algorithm = algorithm }).Cost, Is.EqualTo(optimal).Within(1e-9),
                                algorithm.ToString());
                query.SetDerived(null);
                PathResult without = query.FindPath(0, 0, 9, 0, new GridOptions { Algorithm = GridAlgorithm.JumpPointPlus });
                Assert.That(without.Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(query.Message, Is.Not.Empty);
            }
        }

        [Test]
        public void ASteppedSearchGivesTheSameAnswer()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            {
                PathResult whole = query.FindPath(0, 0, 9, 0);
                SearchStatus status = query.Begin(0, 0, 9, 0);
                int steps = 0;
                while (status == SearchStatus.InProgress)
                {
                    status = query.Step(3);
                    ++steps;
                }
                Assert.That(steps, Is.GreaterThan(1));
                Assert.That(status, Is.EqualTo(SearchStatus.Found));
                PathResult stepped = query.GetResult();
                Assert.That(stepped.Cost, Is.EqualTo(whole.Cost));
                Assert.That(stepped.NodeCount, Is.EqualTo(whole.NodeCount));
            }
        }

        [Test]
        public void AnEditDuringASteppedSearchEndsIt()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            {
                Assert.That(query.Begin(0, 0, 9, 0), Is.EqualTo(SearchStatus.InProgress));
                query.Step(2);
                map.SetPassable(0, 5, 1, 1, false);
                Assert.That(query.Step(QueryLimits.UnlimitedExpansions), Is.EqualTo(SearchStatus.WorldChanged));
            }
        }

        [Test]
        public void LimitsGiveAPartialPath()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            {
                var options = new GridOptions();
                options.Limits.MaxExpansions = 5;
                PathResult path = query.FindPath(0, 0, 9, 0, options);
                Assert.That(path.Status, Is.EqualTo(SearchStatus.Partial));
                Assert.That(path.Reason, Is.EqualTo(StopReason.ExpansionLimit));
                options.Limits.ReturnPartial = false;
                Assert.That(query.FindPath(0, 0, 9, 0, options).Status, Is.EqualTo(SearchStatus.BudgetExhausted));
            }
        }

        [Test]
        public void NoAllocationPerQueryOnceWarm()
        {
            using (GridMap map = WalledGrid())
            using (var query = new GridQuery(map))
            {
                var options = new GridOptions { Algorithm = GridAlgorithm.JumpPoint, Filter = new AreaFilter() };
                GridCell[] cells = null;
                double total = 0.0;
                for (int i = 0; i < 10; ++i)
                {
                    total += query.FindPath(0, 0, 9, 0, options).Cost;
                    query.GetPathCells(ref cells);
                }
                long allocated = TestData.BytesAllocatedBy(1000, i =>
                {
                    total += query.FindPath(0, i % 10, 9, 0, options).Cost;
                    total += query.GetPathCells(ref cells);
                });
                Assert.That(total, Is.GreaterThan(0.0));
                Assert.That(allocated, Is.EqualTo(0), "bytes allocated by 1000 warm queries");
            }
        }

        [Test]
        public void VersionAndNames()
        {
            Assert.That(Library.Version, Is.StringMatching(@"^\d+\.\d+\.\d+$"));
            Assert.That(Library.StatusName(Status.InvalidArgument), Is.EqualTo("invalid_argument"));
            Assert.That(Library.SearchStatusName(SearchStatus.NoPath), Is.EqualTo("no_path"));
        }

        [Test]
        public void LargerAgentsNeedRoomAndTheirDerivedData()
        {
            // A wall down column 4 with a one-cell gap at row 4.
            using (var map = new GridMap(8, 8))
            using (var query = new GridQuery(map))
            using (var derived = new GridDerivedData(map))
            {
                map.SetPassable(4, 0, 1, 8, false);
                map.SetPassable(4, 4, 1, 1, true);
                Assert.That(query.FindPath(0, 0, 6, 0).Found, query.Message);
                query.SetAgentSize(2);
                // No clearance built yet: the search says what to build.
                Assert.That(query.FindPath(0, 0, 6, 0).Status, Is.EqualTo(SearchStatus.InvalidInput));
                Assert.That(query.Message, Is.Not.Empty);
                derived.AddAgentSize(2);
                query.SetDerived(derived);
                Assert.That(query.FindPath(0, 0, 6, 0).Status, Is.EqualTo(SearchStatus.NoPath), query.Message);
                map.SetPassable(4, 5, 1, 1, true);
                derived.Update();
                derived.AddAgentSize(2);
                query.SetDerived(derived);
                Assert.That(query.FindPath(0, 0, 6, 0).Found, query.Message);
                query.SetAgentSize(1);
                Assert.That(query.FindPath(0, 0, 6, 0).Found, query.Message);

                var e = Assert.Throws<WayfinderException>(() => query.SetAgentSize(0));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                Assert.That(e.Message, Is.Not.Empty);
                Assert.Throws<WayfinderException>(() => query.SetAgentSize(256));
                Assert.Throws<WayfinderException>(() => derived.AddAgentSize(0));
            }
        }
    }
}
