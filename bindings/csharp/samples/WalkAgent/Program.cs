// A console program: loads a level, builds its navigation mesh for an agent, finds a path across
// it and walks the agent along the path at a fixed speed, frame by frame, as a game loop would.
//
//   mono WalkAgent.exe [level.obj] [speed]
//
// By default it reads ../shared/data/meshes/recastnavigation/nav_test.obj (Recast's sample
// level) and walks 3.5 units a second at 30 frames a second.
using System;
using System.Globalization;
using Wayfinder;

static class WalkAgent
{
    static int Main(string[] args)
    {
        string level = args.Length > 0 ? args[0] : "../shared/data/meshes/recastnavigation/nav_test.obj";
        double speed = args.Length > 1 ? double.Parse(args[1], CultureInfo.InvariantCulture) : 3.5;
        const double frameSeconds = 1.0 / 30.0;

        // The agent: 2 units high, 0.6 wide, climbing steps of 0.9 (the defaults), on cells of 0.3.
        var agent = new AgentSettings { AgentHeight = 2.0, AgentRadius = 0.6, MaxClimb = 0.9, CellSize = 0.3 };
        using (NavMesh mesh = NavMesh.BuildObj(level, agent))
        using (var query = new NavMeshQuery(mesh))
        {
            Console.WriteLine("{0}: navigation mesh of {1} polygons in {2} regions", level, mesh.PolygonCount, mesh.RegionCount);
            var start = new Vector3d(-25.63, -2.27, -17.24);
            var goal = new Vector3d(-5.89, -2.27, 25.32);
            PathResult path = query.FindPath(start, goal);
            if (!path.Found)
            {
                Console.Error.WriteLine("no path: {0} {1}", path.Status, query.Message);
                return 1;
            }
            Vector3d[] waypoints = null;
            int count = query.GetPathPoints(ref waypoints);
            Console.WriteLine("path: cost {0:F3}, {1} waypoints", path.Cost, count);

            // The agent moves towards the next waypoint each frame; reaching it, it turns to the next.
            Vector3d position = waypoints[0];
            int next = 1;
            int frame = 0;
            double walked = 0.0;
            while (next < count)
            {
                double budget = speed * frameSeconds;
                while (budget > 0.0 && next < count)
                {
                    Vector3d target = waypoints[next];
                    double dx = target.X - position.X, dy = target.Y - position.Y, dz = target.Z - position.Z;
                    double distance = Math.Sqrt(dx * dx + dy * dy + dz * dz);
                    if (distance <= budget)
                    {
                        position = target;
                        budget -= distance;
                        walked += distance;
                        ++next;
                        Console.WriteLine("frame {0,4}: reached waypoint {1} at {2}", frame, next - 1, position);
                    }
                    else
                    {
                        double f = budget / distance;
                        position = new Vector3d(position.X + dx * f, position.Y + dy * f, position.Z + dz * f);
                        walked += budget;
                        budget = 0.0;
                    }
                }
                ++frame;
            }
            Console.WriteLine("arrived after {0} frames ({1:F1} s), walked {2:F3}", frame, frame * frameSeconds, walked);
            return Math.Abs(walked - path.Cost) < 1e-6 * Math.Max(1.0, path.Cost) ? 0 : 1;
        }
    }
}
