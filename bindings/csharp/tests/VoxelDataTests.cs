// Warframe voxel queries (the MovingAI voxel benchmark, Brewer & Sturtevant 2018; as
// tests/test_voxel_data.cpp): every query of Simple and Complex solved by a flyer through the C#
// package, its cost the optimum the scenario records, its path joining start and goal; JPS on
// Simple too. And a MagicaVoxel scene loads and answers a walker.
using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class VoxelDataTests
    {
        [TestCase("Simple", VoxelAlgorithm.AStar)]
        [TestCase("Simple", VoxelAlgorithm.JumpPoint)]
        [TestCase("Complex", VoxelAlgorithm.AStar)]
        public void EveryQueryHasTheOptimalLength(string name, VoxelAlgorithm algorithm)
        {
            string mapPath = TestData.Require("voxel/warframe/" + name + ".3dmap");
            string scenarioPath = TestData.Require("voxel/warframe/" + name + ".3dmap.3dscen");
            List<VoxelScenarioQuery> queries = VoxelScenarioQuery.Read(scenarioPath);
            Assert.That(queries.Count, Is.GreaterThanOrEqualTo(1000));
            var options = new VoxelOptions { Algorithm = algorithm };
            VoxelPosition[] blocks = null;
            var failures = new FailureLog();
            double worst = 0.0;
            using (VoxelWorld world = VoxelWorld.Load3dMap(mapPath))
            using (var query = new VoxelQuery(world, MovementProfile.Flyer()))
            {
                for (int i = 0; i < queries.Count; i += TestData.Stride)
                {
                    VoxelScenarioQuery q = queries[i];
                    string where = scenarioPath + ":" + q.Line;
                    PathResult result = query.FindPath(q.Start, q.Goal, options);
                    if (!result.Found)
                    {
                        failures.Add(where, result.Status + " " + query.Message);
                        continue;
                    }
                    double error = Math.Abs(result.Cost - q.OptimalLength);
                    worst = Math.Max(worst, error);
                    if (error > 1e-3) failures.Add(where, "cost " + result.Cost + ", optimal " + q.OptimalLength);
                    int count = query.GetPathBlocks(ref blocks);
                    if (count < 1 || !blocks[0].Equals(q.Start) || !blocks[count - 1].Equals(q.Goal))
                        failures.Add(where, "the path does not join start and goal");
                }
            }
            Console.WriteLine("{0} {1}: {2} queries, max |cost - optimal| {3}", name, algorithm, queries.Count, worst);
            Assert.That(failures.Count, Is.EqualTo(0));
        }

        [Test]
        public void AMagicaVoxelSceneAnswersAWalker()
        {
            string path = TestData.Require("voxel/vox/scene_park3.vox");
            using (VoxelWorld world = VoxelWorld.LoadVox(path))
            using (var query = new VoxelQuery(world))
            {
                Assert.That(world.SizeX * world.SizeY * world.SizeZ, Is.GreaterThan(1000));
                // A walker stands on the first solid block's top with air above; look for two such places.
                var places = new List<VoxelPosition>();
                for (int z = 0; z < world.SizeZ && places.Count < 400; z += 3)
                    for (int x = 0; x < world.SizeX && places.Count < 400; x += 3)
                        for (int y = 1; y + 2 < world.SizeY; ++y)
                            if (world.GetBlock(x, y - 1, z) == BlockKind.Solid && world.GetBlock(x, y, z) == BlockKind.Air &&
                                world.GetBlock(x, y + 1, z) == BlockKind.Air)
                            {
                                places.Add(new VoxelPosition(x, y, z));
                                break;
                            }
                Assert.That(places.Count, Is.GreaterThan(10));
                int found = 0;
                var dijkstra = new VoxelOptions { Algorithm = VoxelAlgorithm.Dijkstra };
                for (int i = 0; i + 1 < places.Count; i += 2)
                {
                    PathResult astar = query.FindPath(places[i], places[i + 1]);
                    PathResult exact = query.FindPath(places[i], places[i + 1], dijkstra);
                    Assert.That(astar.Status, Is.EqualTo(exact.Status), "pair " + i);
                    if (!astar.Found) continue;
                    ++found;
                    Assert.That(astar.Cost, Is.EqualTo(exact.Cost).Within(1e-9 * Math.Max(1.0, exact.Cost)), "pair " + i);
                }
                Assert.That(found, Is.GreaterThan(0));
            }
        }
    }
}
