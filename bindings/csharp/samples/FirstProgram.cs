using System;
using Wayfinder;

class FirstProgram
{
    static int Main()
    {
        using (var map = GridMap.LoadMovingAI("../shared/data/movingai/dao/arena2.map"))
        using (var query = new GridQuery(map))            // one per thread
        {
            PathResult path = query.FindPath(100, 41, 98, 44); // A*, MovingAI rules
            GridCell[] cells = null;                            // reused by later queries
            int count = query.GetPathCells(ref cells);
            Console.WriteLine("{0}, cost {1:F5}, {2} cells, from {3} to {4}",
                              path.Status, path.Cost, count, cells[0], cells[count - 1]);
            return path.Found ? 0 : 1;
        }
    }
}
