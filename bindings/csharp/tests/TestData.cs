// The shared data folder and readers of its scenario files, for the data-driven tests.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    internal static class TestData
    {
        /// <summary>WAYFINDER_DATA_DIR, else ../shared/data from the working folder.</summary>
        internal static string Directory
        {
            get
            {
                string fromEnvironment = Environment.GetEnvironmentVariable("WAYFINDER_DATA_DIR");
                return string.IsNullOrEmpty(fromEnvironment) ? Path.GetFullPath("../shared/data") : fromEnvironment;
            }
        }

        /// <summary>The folder of the built assemblies (the samples).</summary>
        internal static string AssemblyDirectory
        {
            get
            {
                string fromEnvironment = Environment.GetEnvironmentVariable("WAYFINDER_CSHARP_DIR");
                return string.IsNullOrEmpty(fromEnvironment) ? Path.GetDirectoryName(typeof(TestData).Assembly.Location) : fromEnvironment;
            }
        }

        /// <summary>
        /// The data file's full path; a missing file skips the test (Assert.Ignore), or fails it
        /// when WAYFINDER_REQUIRE_DATA=1 (CI).
        /// </summary>
        internal static string Require(string relative)
        {
            string path = Path.Combine(Directory, relative);
            if (File.Exists(path)) return path;
            string message = path + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
            if (Environment.GetEnvironmentVariable("WAYFINDER_REQUIRE_DATA") == "1") Assert.Fail(message + "; WAYFINDER_REQUIRE_DATA=1 requires it");
            Assert.Ignore(message);
            return path;
        }

        /// <summary>
        /// Every how many queries of a data file to run: 20 when WAYFINDER_SAMPLE_DATA=1 (the
        /// clang build, whose release twin already ran them all, as for the C++ data tests), else 1.
        /// </summary>
        internal static int Stride { get { return Environment.GetEnvironmentVariable("WAYFINDER_SAMPLE_DATA") == "1" ? 20 : 1; } }

        internal static double Real(string text) { return double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture); }

        internal static int Integer(string text) { return int.Parse(text, NumberStyles.Integer, CultureInfo.InvariantCulture); }

        internal static string[] Fields(string line) { return line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries); }

        /// <summary>
        /// The bytes the current thread allocates while `step` runs `repetitions` times (step gets
        /// 0 .. repetitions - 1). Create the delegate and warm the code up before calling: what
        /// the delegate's creation or a first call allocates is then not counted. Calling the
        /// delegate itself allocates nothing.
        /// </summary>
        internal static long BytesAllocatedBy(int repetitions, Action<int> step)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < repetitions; ++i) step(i);
            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        /// <summary>A MovingAI scenario file's rows: "version 1", then from line firstRow + 1 rows of fieldCount fields.</summary>
        internal static IEnumerable<KeyValuePair<int, string[]>> ScenarioRows(string path, int firstRow, int fieldCount)
        {
            string[] lines = File.ReadAllLines(path);
            Assert.That(lines[0].Trim(), Is.EqualTo("version 1"), path);
            for (int i = firstRow; i < lines.Length; ++i)
            {
                string[] f = Fields(lines[i]);
                if (f.Length == 0) continue;
                Assert.That(f.Length, Is.EqualTo(fieldCount), path + ":" + (i + 1));
                yield return new KeyValuePair<int, string[]>(i + 1, f);
            }
        }
    }

    /// <summary>
    /// A data test's failures: each one is counted and the first ten are printed with the place
    /// (file:line) they come from, so that a broken build does not flood the log. The test
    /// asserts Count == 0 at the end.
    /// </summary>
    internal sealed class FailureLog
    {
        private const int Printed = 10;

        internal int Count { get; private set; }

        internal void Add(string where, string what)
        {
            if (++Count <= Printed) Console.WriteLine(where + ": " + what);
        }
    }

    /// <summary>A MovingAI grid scenario query (.scen: bucket, map, size, start, goal, optimal length).</summary>
    internal struct GridScenarioQuery
    {
        public int Line;
        public GridCell Start, Goal;
        public double OptimalLength;

        internal static List<GridScenarioQuery> Read(string path)
        {
            var queries = new List<GridScenarioQuery>();
            foreach (KeyValuePair<int, string[]> row in TestData.ScenarioRows(path, 1, 9))
            {
                string[] f = row.Value;
                queries.Add(new GridScenarioQuery
                {
                    Line = row.Key,
                    Start = new GridCell(TestData.Integer(f[4]), TestData.Integer(f[5])),
                    Goal = new GridCell(TestData.Integer(f[6]), TestData.Integer(f[7])),
                    OptimalLength = TestData.Real(f[8]),
                });
            }
            return queries;
        }
    }

    /// <summary>
    /// A navigation mesh reference query: the 3D format (sx,sy,sz,ex,ey,ez,...,reachable,...,
    /// optimal_len2d) or Polyanya's 2D one (id,sx,sy,gx,gy,gridcost,optimal_len: x, z at y 0).
    /// </summary>
    internal struct MeshReferenceQuery
    {
        public int Line;
        public Vector3d Start, Goal;
        public bool Reachable;
        /// <summary>The shortest length in the x-z plane (NaN: not given).</summary>
        public double OptimalLength;

        internal static List<MeshReferenceQuery> Read(string path)
        {
            var queries = new List<MeshReferenceQuery>();
            string[] lines = File.ReadAllLines(path);
            string[] header = lines[0].Split(',');
            Func<string, int> column = name => Array.IndexOf(header, name);
            bool threeDimensional = column("ez") >= 0;
            for (int i = 1; i < lines.Length; ++i)
            {
                if (lines[i].Trim().Length == 0) continue;
                string[] f = lines[i].Split(',');
                var query = new MeshReferenceQuery { Line = i + 1, OptimalLength = double.NaN };
                if (threeDimensional)
                {
                    query.Start = new Vector3d(TestData.Real(f[column("sx")]), TestData.Real(f[column("sy")]), TestData.Real(f[column("sz")]));
                    query.Goal = new Vector3d(TestData.Real(f[column("ex")]), TestData.Real(f[column("ey")]), TestData.Real(f[column("ez")]));
                    query.Reachable = f[column("reachable")] == "1";
                    double optimal = TestData.Real(f[column("optimal_len2d")]);
                    if (optimal >= 0.0) query.OptimalLength = optimal;
                }
                else
                {
                    query.Start = new Vector3d(TestData.Real(f[column("sx")]), 0.0, TestData.Real(f[column("sy")]));
                    query.Goal = new Vector3d(TestData.Real(f[column("gx")]), 0.0, TestData.Real(f[column("gy")]));
                    double optimal = TestData.Real(f[column("optimal_len")]);
                    query.Reachable = optimal >= 0.0;
                    if (optimal >= 0.0) query.OptimalLength = optimal;
                }
                queries.Add(query);
            }
            return queries;
        }
    }

    /// <summary>A MovingAI voxel scenario query (.3dscen: start, goal, optimal length, ratio).</summary>
    internal struct VoxelScenarioQuery
    {
        public int Line;
        public VoxelPosition Start, Goal;
        public double OptimalLength;

        internal static List<VoxelScenarioQuery> Read(string path)
        {
            // The second line names the map.
            var queries = new List<VoxelScenarioQuery>();
            foreach (KeyValuePair<int, string[]> row in TestData.ScenarioRows(path, 2, 8))
            {
                string[] f = row.Value;
                queries.Add(new VoxelScenarioQuery
                {
                    Line = row.Key,
                    Start = new VoxelPosition(TestData.Integer(f[0]), TestData.Integer(f[1]), TestData.Integer(f[2])),
                    Goal = new VoxelPosition(TestData.Integer(f[3]), TestData.Integer(f[4]), TestData.Integer(f[5])),
                    OptimalLength = TestData.Real(f[6]),
                });
            }
            return queries;
        }
    }
}
