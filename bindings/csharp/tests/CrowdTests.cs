// Crowds: agents swapping places on a circle arrive without overlapping, bad input is an
// exception with the library's words, the crowd keeps its mesh alive, and the caller's arrays
// are reused once warm.
using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class CrowdTests
    {
        /// <summary>A flat square floor from -10 to 10 in x and z, in one polygon.</summary>
        internal static NavMesh Square()
        {
            var vertices = new float[] { -10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10 };
            return NavMesh.FromArrays(vertices, new uint[] { 0, 1, 2, 3 }, new uint[] { 4 });
        }

        [Test]
        public void DefaultsAreTheLibrarys()
        {
            CrowdSettings settings = CrowdSettings.Defaults();
            Assert.That(settings.Threads, Is.EqualTo(1));
            Assert.That(settings.MaxNeighbours, Is.EqualTo(10));
            Assert.That(settings.CollisionIterations, Is.EqualTo(32));
            Assert.That(settings.MaxMovePolygons, Is.EqualTo(64));
            Assert.That(settings.MinAgentsPerThread, Is.EqualTo(256));
            Assert.That(settings.TimeHorizon, Is.EqualTo(2.0));
            CrowdAgentSettings body = CrowdAgentSettings.Defaults();
            Assert.That(body.Radius, Is.EqualTo(0.5));
            Assert.That(body.Height, Is.EqualTo(2.0));
            Assert.That(body.MaxSpeed, Is.EqualTo(3.5));
            Assert.That(body.UserId, Is.EqualTo(0UL));
            Assert.Throws<ArgumentOutOfRangeException>(() => settings.Threads = -1);
            Assert.Throws<ArgumentOutOfRangeException>(() => settings.MinAgentsPerThread = -1);
        }

        // Eight agents on a circle of radius 3 in an open room of the RecastDemo dungeon each walk
        // to the point opposite: every one arrives, and no two ever overlap by more than 1 % of a
        // radius.
        [Test]
        public void ACircleSwapOnTheDungeonArrivesWithoutOverlap()
        {
            const int agents = 8;
            const double radius = 0.4, circle = 3.0;
            var centre = new Vector3d(-2.0, 10.2, -20.0);
            using (NavMesh mesh = NavMesh.LoadObj(TestData.Require("meshes/derived/dungeon_navmesh.obj")))
            using (var crowd = new Crowd(mesh))
            {
                CrowdAgentSettings body = CrowdAgentSettings.Defaults();
                body.Radius = radius;
                body.MaxSpeed = 1.5;
                var ids = new uint[agents];
                var goals = new Vector3d[agents];
                for (int i = 0; i < agents; ++i)
                {
                    double angle = 2.0 * Math.PI * i / agents;
                    double dx = circle * Math.Cos(angle), dz = circle * Math.Sin(angle);
                    goals[i] = new Vector3d(centre.X - dx, centre.Y, centre.Z - dz);
                    body.UserId = (ulong)(100 + i);
                    ids[i] = crowd.AddAgent(new Vector3d(centre.X + dx, centre.Y, centre.Z + dz), body);
                    crowd.SetTarget(ids[i], goals[i]);
                }
                Assert.That(crowd.AgentCount, Is.EqualTo(agents));

                uint[] readIds = null;
                Vector3d[] positions = null;
                double[] velocities = null;
                CrowdAgentState[] states = null;
                crowd.ReadAgents(ref readIds, ref positions, ref velocities, ref states);
                uint[] warmIds = readIds;
                Vector3d[] warmPositions = positions;
                double[] warmVelocities = velocities;
                CrowdAgentState[] warmStates = states;

                bool allArrived = false;
                double closestSquared = double.MaxValue;
                for (int tick = 0; tick < 600 && !allArrived; ++tick)
                {
                    crowd.Update(0.1);
                    Assert.That(crowd.ReadAgents(ref readIds, ref positions, ref velocities, ref states), Is.EqualTo(agents));
                    allArrived = true;
                    for (int i = 0; i < agents; ++i)
                    {
                        if (states[i] != CrowdAgentState.Arrived) allArrived = false;
                        for (int j = i + 1; j < agents; ++j)
                        {
                            double dx = positions[i].X - positions[j].X, dz = positions[i].Z - positions[j].Z;
                            closestSquared = Math.Min(closestSquared, dx * dx + dz * dz);
                        }
                    }
                }
                Assert.That(allArrived, "states: " + string.Join(", ", states));
                // Centres at least two radii less 1 % of a radius apart.
                Assert.That(Math.Sqrt(closestSquared), Is.GreaterThanOrEqualTo(1.99 * radius));
                // The arrays were reused, not grown, once warm.
                Assert.That(readIds, Is.SameAs(warmIds));
                Assert.That(positions, Is.SameAs(warmPositions));
                Assert.That(velocities, Is.SameAs(warmVelocities));
                Assert.That(states, Is.SameAs(warmStates));

                // Arrived agents stand still at their goals.
                crowd.Update(0.1);
                crowd.ReadAgents(ref readIds, ref positions, ref velocities, ref states);
                Vector3d[] only = null;
                Assert.That(crowd.ReadPositions(ref readIds, ref only), Is.EqualTo(agents));
                for (int i = 0; i < agents; ++i)
                {
                    Assert.That(readIds[i], Is.EqualTo(ids[i]));
                    Assert.That(positions[i].X, Is.EqualTo(goals[i].X).Within(0.2));
                    Assert.That(positions[i].Z, Is.EqualTo(goals[i].Z).Within(0.2));
                    Assert.That(only[i], Is.EqualTo(positions[i]));
                    Assert.That(states[i], Is.EqualTo(CrowdAgentState.Arrived));
                    Assert.That(velocities[2 * i], Is.EqualTo(0.0));
                    Assert.That(velocities[2 * i + 1], Is.EqualTo(0.0));
                }
            }
        }

        [Test]
        public void AVelocityTargetWalksAndRemovalForgets()
        {
            using (NavMesh mesh = Square())
            using (var crowd = new Crowd(mesh))
            {
                uint walker = crowd.AddAgent(new Vector3d(0, 0, 0));
                uint other = crowd.AddAgent(new Vector3d(0, 0, 5));
                Assert.That(other, Is.GreaterThan(walker));
                crowd.SetVelocityTarget(walker, 1.0, 0.0);
                for (int tick = 0; tick < 10; ++tick) crowd.Update(0.1);
                uint[] ids = null;
                Vector3d[] positions = null;
                double[] velocities = null;
                CrowdAgentState[] states = null;
                Assert.That(crowd.ReadAgents(ref ids, ref positions, ref velocities, ref states), Is.EqualTo(2));
                Assert.That(positions[0].X, Is.GreaterThan(0.5));
                Assert.That(states[0], Is.EqualTo(CrowdAgentState.Moving));
                Assert.That(states[1], Is.EqualTo(CrowdAgentState.Idle));
                crowd.RemoveAgent(walker);
                Assert.That(crowd.AgentCount, Is.EqualTo(1));
                Assert.That(crowd.ReadPositions(ref ids, ref positions), Is.EqualTo(1));
                Assert.That(ids[0], Is.EqualTo(other));
            }
        }

        [Test]
        public void BadInputThrowsWithTheLibrarysMessage()
        {
            using (NavMesh mesh = Square())
            {
                CrowdSettings settings = CrowdSettings.Defaults();
                settings.TimeHorizon = -1.0;
                var e = Assert.Throws<WayfinderException>(() => new Crowd(mesh, settings));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                StringAssert.Contains("time_horizon", e.Message);
                Assert.Throws<ArgumentNullException>(() => new Crowd(null));

                using (var crowd = new Crowd(mesh))
                {
                    CrowdAgentSettings body = CrowdAgentSettings.Defaults();
                    body.Radius = -0.5;
                    e = Assert.Throws<WayfinderException>(() => crowd.AddAgent(new Vector3d(0, 0, 0), body));
                    Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                    StringAssert.Contains("radius", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.AddAgent(new Vector3d(100, 0, 100)));
                    Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                    e = Assert.Throws<WayfinderException>(() => crowd.AddAgent(new Vector3d(0, double.NaN, 0)));
                    StringAssert.Contains("not finite", e.Message);

                    uint id = crowd.AddAgent(new Vector3d(0, 0, 0));
                    e = Assert.Throws<WayfinderException>(() => crowd.SetTarget(id, new Vector3d(double.NaN, 0, 0)));
                    StringAssert.Contains("not finite", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.SetTarget(id, new Vector3d(100, 0, 100)));
                    StringAssert.Contains("snap distance", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.SetTarget(999, new Vector3d(1, 0, 1)));
                    StringAssert.Contains("no agent has the id 999", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.SetVelocityTarget(999, 1, 0));
                    StringAssert.Contains("no agent has the id 999", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.RemoveAgent(999));
                    StringAssert.Contains("no agent has the id 999", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.Update(0.0));
                    Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                    Assert.That(e.Message, Is.Not.Empty);
                    Assert.Throws<WayfinderException>(() => crowd.Update(double.NaN));
                    // Nothing was changed by the refusals.
                    Assert.That(crowd.AgentCount, Is.EqualTo(1));
                }
            }
        }

        // The C API refuses to destroy a mesh while a crowd on it lives (WF_IN_USE); in C# the
        // crowd holds its mesh, so disposing the mesh first is allowed and the mesh is freed with
        // the crowd.
        [Test]
        public void AMeshDisposedBeforeItsCrowdLivesOnUntilTheCrowdIsGone()
        {
            NavMesh mesh = Square();
            var crowd = new Crowd(mesh);
            uint id = crowd.AddAgent(new Vector3d(-5, 0, 0));
            mesh.Dispose();
            Assert.Throws<ObjectDisposedException>(() => new Crowd(mesh));
            crowd.SetTarget(id, new Vector3d(5, 0, 0));
            for (int tick = 0; tick < 100; ++tick) crowd.Update(0.1);
            uint[] ids = null;
            Vector3d[] positions = null;
            Assert.That(crowd.ReadPositions(ref ids, ref positions), Is.EqualTo(1));
            Assert.That(positions[0].X, Is.EqualTo(5.0).Within(0.2));
            crowd.Dispose();
            crowd.Dispose();
            var e = Assert.Throws<ObjectDisposedException>(() => crowd.Update(0.1));
            Assert.That(e.ObjectName, Is.EqualTo("Crowd"));
            Assert.Throws<ObjectDisposedException>(() => { var unused = crowd.AgentCount; });
        }

        // Two floors, the second 3 higher, joined by an off-mesh link: the agent takes it once,
        // its crossing's progress grows from 0 to 1 while its state is OnLink, and it lands on
        // the upper floor and arrives.
        [Test]
        public void AnAgentCrossesAnOffMeshLink()
        {
            var vertices = new float[] { 0, 0, 0, 4, 0, 0, 4, 0, 2, 0, 0, 2, 6, 3, 0, 10, 3, 0, 10, 3, 2, 6, 3, 2 };
            using (NavMesh mesh = NavMesh.FromArrays(vertices, new uint[] { 0, 1, 2, 3, 4, 5, 6, 7 }, new uint[] { 4, 4 }))
            {
                OffMeshLink link = OffMeshLink.Between(new Vector3d(3.8, 0, 1), new Vector3d(6.2, 3, 1));
                link.Radius = 0.5;
                mesh.AddOffMeshLink(link);
                CrowdSettings settings = CrowdSettings.Defaults();
                settings.MinAgentsPerThread = 1;
                using (var crowd = new Crowd(mesh, settings))
                {
                    uint id = crowd.AddAgent(new Vector3d(0.5, 0, 1));
                    crowd.SetTarget(id, new Vector3d(9.5, 3, 1));
                    int started = 0, finished = 0;
                    double lastProgress = 0;
                    uint[] ids = null;
                    Vector3d[] positions = null;
                    double[] velocities = null;
                    CrowdAgentState[] states = null;
                    for (int tick = 0; tick < 200; ++tick)
                    {
                        crowd.Update(0.1);
                        crowd.ReadAgents(ref ids, ref positions, ref velocities, ref states);
                        CrowdLinkCrossing crossing;
                        CrowdLinkEvent linkEvent;
                        bool onLink = crowd.GetLinkCrossing(id, out crossing, out linkEvent);
                        if (linkEvent == CrowdLinkEvent.Started)
                        {
                            ++started;
                            Assert.That(onLink, Is.True);
                            Assert.That(crossing.Progress, Is.EqualTo(0.0));
                            Assert.That(crossing.Link, Is.EqualTo(0u));
                            Assert.That(crossing.Reverse, Is.False);
                            Assert.That(crossing.End.Y, Is.EqualTo(3.0).Within(1e-9));
                            Assert.That(crossing.Duration, Is.GreaterThan(0.0));
                        }
                        if (onLink)
                        {
                            Assert.That(states[0], Is.EqualTo(CrowdAgentState.OnLink));
                            Assert.That(crossing.Progress, Is.GreaterThanOrEqualTo(lastProgress).And.LessThanOrEqualTo(1.0));
                            lastProgress = crossing.Progress;
                        }
                        if (linkEvent == CrowdLinkEvent.Finished)
                        {
                            ++finished;
                            Assert.That(onLink, Is.False);
                        }
                    }
                    Assert.That(started, Is.EqualTo(1));
                    Assert.That(finished, Is.EqualTo(1));
                    Assert.That(states[0], Is.EqualTo(CrowdAgentState.Arrived));
                    Assert.That(positions[0].Y, Is.EqualTo(3.0).Within(1e-9));
                    CrowdLinkCrossing none;
                    CrowdLinkEvent noEvent;
                    var e = Assert.Throws<WayfinderException>(() => crowd.GetLinkCrossing(id + 1, out none, out noEvent));
                    Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                }
            }
        }

        // A wall at column 8 with a door two cells wide (rows 3 and 4): two agents each way cross
        // it, every one arrives, and no centre is ever in a blocked cell. The crowd keeps its grid
        // alive.
        [Test]
        public void ACrowdOnAGridPassesTheDoor()
        {
            var starts = new[] { new Vector3d(2.5, 0, 1.5), new Vector3d(2.5, 0, 4.5), new Vector3d(13.5, 0, 1.5), new Vector3d(13.5, 0, 3.5) };
            var goals = new[] { new Vector3d(13.5, 0, 6.5), new Vector3d(13.5, 0, 4.5), new Vector3d(2.5, 0, 6.5), new Vector3d(2.5, 0, 3.5) };
            foreach (bool jumpPoint in new[] { true, false })
            {
                var grid = new GridMap(16, 8);
                grid.SetPassable(8, 0, 1, 3, false);
                grid.SetPassable(8, 5, 1, 3, false);
                using (var crowd = new Crowd(grid, jumpPoint))
                {
                    Assert.That(crowd.Grid, Is.SameAs(grid));
                    Assert.That(crowd.Mesh, Is.Null);
                    grid.Dispose();
                    CrowdAgentSettings body = CrowdAgentSettings.Defaults();
                    body.Radius = 0.4;
                    body.MaxSpeed = 1.5;
                    for (int i = 0; i < starts.Length; ++i) crowd.SetTarget(crowd.AddAgent(starts[i], body), goals[i]);
                    uint[] ids = null;
                    Vector3d[] positions = null;
                    double[] velocities = null;
                    CrowdAgentState[] states = null;
                    bool allArrived = false, inWall = false;
                    for (int tick = 0; tick < 600 && !allArrived; ++tick)
                    {
                        crowd.Update(0.1);
                        int count = crowd.ReadAgents(ref ids, ref positions, ref velocities, ref states);
                        allArrived = true;
                        for (int i = 0; i < count; ++i)
                        {
                            if (states[i] != CrowdAgentState.Arrived) allArrived = false;
                            Vector3d p = positions[i];
                            if (p.X >= 8.0 && p.X < 9.0 && (p.Z < 3.0 || p.Z >= 5.0)) inWall = true;
                        }
                    }
                    Assert.That(allArrived, "jump point " + jumpPoint);
                    Assert.That(inWall, Is.False);
                    for (int i = 0; i < starts.Length; ++i)
                    {
                        Assert.That(positions[i].X, Is.EqualTo(goals[i].X).Within(0.2));
                        Assert.That(positions[i].Z, Is.EqualTo(goals[i].Z).Within(0.2));
                    }
                }
            }
            Assert.Throws<ArgumentNullException>(() => new Crowd((GridMap)null, true));
            CrowdSettings bad = CrowdSettings.Defaults();
            bad.TimeHorizon = -1.0;
            using (var grid = new GridMap(4, 4))
            {
                var e = Assert.Throws<WayfinderException>(() => new Crowd(grid, bad, true));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                StringAssert.Contains("time_horizon", e.Message);
            }
        }

        // 24 x 12 cells walled at column 12 but for a door at rows 5 and 6.
        private static GridMap DoorwayGrid()
        {
            var grid = new GridMap(24, 12);
            grid.SetPassable(12, 0, 1, 5, false);
            grid.SetPassable(12, 7, 1, 5, false);
            return grid;
        }

        // Ten agents share one flow field towards columns 20 to 22: all arrive through the door,
        // none ever stands in a blocked cell, and none asks for a path.
        [Test]
        public void ManyAgentsShareOneFlowTargetAndArriveWithoutPathSearches()
        {
            var goals = new List<GridCell>();
            for (int y = 0; y < 12; ++y)
                for (int x = 20; x < 23; ++x) goals.Add(new GridCell(x, y));
            using (var grid = DoorwayGrid())
            using (var crowd = new Crowd(grid, false))
            {
                CrowdAgentSettings body = CrowdAgentSettings.Defaults();
                body.Radius = 0.4;
                body.MaxSpeed = 1.5;
                var agentIds = new uint[10];
                for (int k = 0; k < agentIds.Length; ++k)
                    agentIds[k] = crowd.AddAgent(new Vector3d(2.5 + (k / 5) * 2.0, 0, 1.5 + (k % 5) * 2.0), body);
                crowd.SetFlowTarget(agentIds, goals.ToArray());
                uint[] ids = null;
                Vector3d[] positions = null;
                double[] velocities = null;
                CrowdAgentState[] states = null;
                bool allArrived = false, inWall = false;
                for (int tick = 0; tick < 1500 && !allArrived; ++tick)
                {
                    crowd.Update(0.1);
                    int count = crowd.ReadAgents(ref ids, ref positions, ref velocities, ref states);
                    allArrived = true;
                    for (int i = 0; i < count; ++i)
                    {
                        if (states[i] != CrowdAgentState.Arrived) allArrived = false;
                        if (!grid.GetCell((int)Math.Floor(positions[i].X), (int)Math.Floor(positions[i].Z)).Passable) inWall = true;
                    }
                }
                Assert.That(allArrived);
                Assert.That(inWall, Is.False);
                for (int i = 0; i < agentIds.Length; ++i)
                {
                    Assert.That(positions[i].X, Is.InRange(20.0, 23.0));
                    Assert.That(crowd.PathRequests(agentIds[i]), Is.EqualTo(0u));
                }
            }
        }

        [Test]
        public void BadFlowTargetsAreRefused()
        {
            using (var grid = DoorwayGrid())
            using (var crowd = new Crowd(grid, false))
            using (var mesh = Square())
            using (var meshCrowd = new Crowd(mesh))
            {
                uint free = crowd.AddAgent(new Vector3d(5.5, 0, 5.5));
                var e = Assert.Throws<WayfinderException>(() => new CrowdFlowField(crowd, new[] { new GridCell(24, 3) }));
                Assert.That(e.Status, Is.EqualTo(Status.InvalidArgument));
                StringAssert.Contains("outside", e.Message);
                e = Assert.Throws<WayfinderException>(() => new CrowdFlowField(crowd, new[] { new GridCell(12, 0) }));
                StringAssert.Contains("blocked", e.Message);
                e = Assert.Throws<WayfinderException>(() => new CrowdFlowField(crowd, new GridCell[0]));
                StringAssert.Contains("no goals", e.Message);
                Assert.Throws<ArgumentNullException>(() => new CrowdFlowField(crowd, null));
                e = Assert.Throws<WayfinderException>(() => new CrowdFlowField(meshCrowd, new[] { new GridCell(1, 1) }));
                StringAssert.Contains("navigation mesh", e.Message);
                using (var field = new CrowdFlowField(crowd, new[] { new GridCell(22, 6) }))
                {
                    uint meshAgent = meshCrowd.AddAgent(new Vector3d(0, 0, 0));
                    e = Assert.Throws<WayfinderException>(() => meshCrowd.SetFlowTarget(meshAgent, field));
                    StringAssert.Contains("navigation mesh", e.Message);
                    e = Assert.Throws<WayfinderException>(() => crowd.SetFlowTarget(999u, field));
                    StringAssert.Contains("no agent has the id 999", e.Message);
                    Assert.Throws<WayfinderException>(() => crowd.PathRequests(999u));
                    Assert.Throws<ArgumentNullException>(() => crowd.SetFlowTarget(free, (CrowdFlowField)null));
                    crowd.SetFlowTarget(free, field);
                    Assert.That(crowd.PathRequests(free), Is.EqualTo(0u));
                }
                var disposed = new CrowdFlowField(crowd, new[] { new GridCell(22, 6) });
                disposed.Dispose();
                Assert.Throws<ObjectDisposedException>(() => crowd.SetFlowTarget(free, disposed));
            }
        }

        [Test]
        public void ForgottenCrowdsAreFreedByTheFinalizers()
        {
            NavMesh mesh = Square();
            for (int i = 0; i < 20; ++i) new Crowd(mesh).AddAgent(new Vector3d(0, 0, 0));
            mesh.Dispose();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
    }
}
