// Optimal lengths on MovingAI scenarios (Sturtevant 2012, <data>/movingai): every query of
// arena2 and den520d answered by A* and by JPS through the C# package, each cost within the
// file's rounding of the recorded optimum, and each path joining start and goal.
using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class MovingAiTests
    {
        // As tests/test_movingai_data.cpp: the files print 6 significant digits.
        private static double Tolerance(double optimal)
        {
            double halfLastDigit = optimal >= 1.0 ? 0.5 * Math.Pow(10.0, Math.Floor(Math.Log10(optimal)) - 5.0) : 0.0;
            return Math.Max(1e-3, halfLastDigit + 1e-9);
        }

        [TestCase("dao/arena2", GridAlgorithm.AStar)]
        [TestCase("dao/arena2", GridAlgorithm.JumpPoint)]
        [TestCase("dao/den520d", GridAlgorithm.AStar)]
        [TestCase("dao/den520d", GridAlgorithm.JumpPoint)]
        public void EveryQueryHasTheOptimalLength(string name, GridAlgorithm algorithm)
        {
            string mapPath = TestData.Require("movingai/" + name + ".map");
            string scenarioPath = TestData.Require("movingai/" + name + ".map.scen");
            List<GridScenarioQuery> queries = GridScenarioQuery.Read(scenarioPath);
            Assert.That(queries.Count, Is.GreaterThan(800));
            var options = new GridOptions { Algorithm = algorithm };
            GridCell[] cells = null;
            using (GridMap map = GridMap.LoadMovingAI(mapPath))
            using (var query = new GridQuery(map))
            {
                var failures = new FailureLog();
                for (int i = 0; i < queries.Count; i += TestData.Stride)
                {
                    GridScenarioQuery q = queries[i];
                    PathResult result = query.FindPath(q.Start, q.Goal, options);
                    string where = scenarioPath + ":" + q.Line;
                    if (!result.Found)
                    {
                        failures.Add(where, result.Status + " " + query.Message);
                        continue;
                    }
                    if (Math.Abs(result.Cost - q.OptimalLength) > Tolerance(q.OptimalLength))
                        failures.Add(where, "cost " + result.Cost + ", optimal " + q.OptimalLength);
                    int count = query.GetPathCells(ref cells);
                    if (count != result.NodeCount || !cells[0].Equals(q.Start) || !cells[count - 1].Equals(q.Goal))
                        failures.Add(where, "the path does not join start and goal");
                }
                Assert.That(failures.Count, Is.EqualTo(0), name + " " + algorithm);
            }
        }
    }
}
