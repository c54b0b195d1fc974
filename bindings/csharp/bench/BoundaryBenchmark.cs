// The C# side of the boundary benchmark (docs/benchmarks.md): the query of
// wayfinder_boundary_reference (arena2, (100, 41) to (98, 44), A*, 4 cells) timed from C#
// through Wayfinder.dll, with and without copying the path out, and a call that does nothing
// (GridMap.Revision) for the bare cost of crossing. Prints the median over rounds, in
// nanoseconds per call.
//
//   mono BoundaryBenchmark.exe <arena2.map> [rounds] [calls per round]
using System;
using System.Diagnostics;
using Wayfinder;

static class BoundaryBenchmark
{
    private static double Median(double[] values)
    {
        Array.Sort(values);
        return values[values.Length / 2];
    }

    private static double NanosecondsPerCall(Stopwatch watch, int calls)
    {
        return watch.Elapsed.TotalMilliseconds * 1e6 / calls;
    }

    static int Main(string[] args)
    {
        if (args.Length < 1)
        {
            Console.Error.WriteLine("usage: BoundaryBenchmark.exe <arena2.map> [rounds] [calls per round]");
            return 2;
        }
        int rounds = args.Length > 1 ? int.Parse(args[1]) : 21;
        int calls = args.Length > 2 ? int.Parse(args[2]) : 20000;
        using (GridMap map = GridMap.LoadMovingAI(args[0]))
        using (var query = new GridQuery(map))
        {
            var findPath = new double[rounds];
            var withCells = new double[rounds];
            var bare = new double[rounds];
            var trivial = new double[rounds];
            var cells = new GridCell[16];
            double checksum = 0.0;
            // Warm up: the JIT compiles the calls and their marshalling stubs.
            for (int i = 0; i < calls; ++i) checksum += query.FindPath(100, 41, 98, 44).Cost;
            var watch = new Stopwatch();
            long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
            for (int round = 0; round < rounds; ++round)
            {
                watch.Restart();
                for (int i = 0; i < calls; ++i) checksum += query.FindPath(100, 41, 98, 44).Cost;
                findPath[round] = NanosecondsPerCall(watch, calls);

                watch.Restart();
                for (int i = 0; i < calls; ++i)
                {
                    checksum += query.FindPath(100, 41, 98, 44).Cost;
                    checksum += query.GetPathCells(ref cells);
                }
                withCells[round] = NanosecondsPerCall(watch, calls);

                // Start = goal: the search does almost nothing, so the call's fixed costs dominate.
                watch.Restart();
                for (int i = 0; i < calls; ++i) checksum += query.FindPath(100, 41, 100, 41).NodeCount;
                trivial[round] = NanosecondsPerCall(watch, calls);

                watch.Restart();
                for (int i = 0; i < calls; ++i) checksum += map.Revision;
                bare[round] = NanosecondsPerCall(watch, calls);
            }
            long allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
            Console.WriteLine("C#  GridQuery.FindPath                   {0,8:F1} ns/call", Median(findPath));
            Console.WriteLine("C#  FindPath + GetPathCells              {0,8:F1} ns/call", Median(withCells));
            Console.WriteLine("C#  GridQuery.FindPath, start = goal     {0,8:F1} ns/call", Median(trivial));
            Console.WriteLine("C#  GridMap.Revision (a call doing nothing) {0,5:F1} ns/call", Median(bare));
            Console.WriteLine("bytes allocated by the timed calls: {0}", allocated);
            Console.WriteLine("(checksum {0:F1})", checksum);
        }
        return 0;
    }
}
