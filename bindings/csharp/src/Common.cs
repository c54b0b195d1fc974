// What every world shares: status codes, search statuses, results, points, and the one place
// a failed call becomes an exception.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Wayfinder
{
    /// <summary>What a call did (C wf_status). Anything but Ok is thrown as a <see cref="WayfinderException"/>.</summary>
    public enum Status
    {
        Ok = 0,
        InvalidArgument = 1,
        LoadError = 2,
        OutOfMemory = 3,
        BufferTooSmall = 4,
        InUse = 5,
        InternalError = 6,
    }

    /// <summary>How a search ended (C++ SearchStatus, C wf_search_status).</summary>
    public enum SearchStatus
    {
        InProgress = 0,
        Found = 1,
        Partial = 2,
        NoPath = 3,
        BudgetExhausted = 4,
        InvalidInput = 5,
        WorldChanged = 6,
    }

    /// <summary>Why a search stopped (C++ StopReason, C wf_stop_reason).</summary>
    public enum StopReason
    {
        None = 0,
        GoalReached = 1,
        OpenListEmpty = 2,
        ExpansionLimit = 3,
        CostLimit = 4,
        TimeLimit = 5,
        InvalidInput = 6,
        WorldChanged = 7,
        GaveUp = 8,
        MemoryLimit = 9,
    }

    /// <summary>
    /// A call the library refused: a bad argument, a file it could not read, memory it could not
    /// get. <see cref="Exception.Message"/> is the library's own text (the same words C++, C and
    /// Python report). How a search ended is not an exception: see <see cref="PathResult.Status"/>.
    /// </summary>
    [Serializable]
    public class WayfinderException : Exception
    {
        public WayfinderException(Status status, string message) : base(message) { Status = status; }

        /// <summary>The C API's status code.</summary>
        public Status Status { get; private set; }
    }

    /// <summary>The search's effort (C++ SearchStats).</summary>
    public struct SearchStats
    {
        internal SearchStats(NativeSearchStats stats)
        {
            Expanded = stats.Expanded;
            Generated = stats.Generated;
            PeakOpen = stats.PeakOpen;
            Microseconds = stats.Microseconds;
        }

        /// <summary>Nodes taken off the open list and expanded.</summary>
        public ulong Expanded { get; private set; }
        /// <summary>Successor edges looked at.</summary>
        public ulong Generated { get; private set; }
        /// <summary>The largest open-list size.</summary>
        public ulong PeakOpen { get; private set; }
        /// <summary>Wall time spent searching, in microseconds.</summary>
        public double Microseconds { get; private set; }
    }

    /// <summary>
    /// A search's answer (C++ PathResult without its arrays, C wf_path_result). The path itself
    /// stays in the query (or batch) until its next search and is copied out into the caller's
    /// arrays by the query's GetPath methods.
    /// </summary>
    public struct PathResult
    {
        internal PathResult(NativePathResult result)
        {
            Status = result.Status;
            Reason = result.Reason;
            Cost = result.Cost;
            NodeCount = (int)result.NodeCount.ToUInt64();
            PointCount = (int)result.PointCount.ToUInt64();
            Stats = new SearchStats(result.Stats);
        }

        public SearchStatus Status { get; private set; }
        public StopReason Reason { get; private set; }
        /// <summary>The path's cost (0 without a path).</summary>
        public double Cost { get; private set; }
        /// <summary>Nodes of the path: cells, corridor polygons, blocks.</summary>
        public int NodeCount { get; private set; }
        /// <summary>Points of the path: cell centres, waypoints, block positions.</summary>
        public int PointCount { get; private set; }
        public SearchStats Stats { get; private set; }
        /// <summary>Status is Found.</summary>
        public bool Found { get { return Status == SearchStatus.Found; } }

        public override string ToString()
        {
            return Library.SearchStatusName(Status) + ", cost " + Cost.ToString("R", System.Globalization.CultureInfo.InvariantCulture) +
                   ", " + NodeCount + " nodes";
        }
    }

    /// <summary>A grid cell (x: column, y: row), laid out as the C API's x, y pairs.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GridCell : IEquatable<GridCell>
    {
        public int X;
        public int Y;

        public GridCell(int x, int y) { X = x; Y = y; }

        public bool Equals(GridCell other) { return X == other.X && Y == other.Y; }
        public override bool Equals(object obj) { return obj is GridCell && Equals((GridCell)obj); }
        public override int GetHashCode() { return X * 397 ^ Y; }
        public override string ToString() { return "(" + X + ", " + Y + ")"; }
    }

    /// <summary>A point in world units (y up), laid out as the C API's x, y, z triples of doubles.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vector3d : IEquatable<Vector3d>
    {
        public double X;
        public double Y;
        public double Z;

        public Vector3d(double x, double y, double z) { X = x; Y = y; Z = z; }

        public bool Equals(Vector3d other) { return X == other.X && Y == other.Y && Z == other.Z; }
        public override bool Equals(object obj) { return obj is Vector3d && Equals((Vector3d)obj); }
        public override int GetHashCode() { return X.GetHashCode() * 397 ^ Y.GetHashCode() * 31 ^ Z.GetHashCode(); }
        public override string ToString()
        {
            return string.Format(System.Globalization.CultureInfo.InvariantCulture, "({0}, {1}, {2})", X, Y, Z);
        }
    }

    /// <summary>A block position in a voxel world (y up), laid out as the C API's x, y, z triples of int32.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct VoxelPosition : IEquatable<VoxelPosition>
    {
        public int X;
        public int Y;
        public int Z;

        public VoxelPosition(int x, int y, int z) { X = x; Y = y; Z = z; }

        public bool Equals(VoxelPosition other) { return X == other.X && Y == other.Y && Z == other.Z; }
        public override bool Equals(object obj) { return obj is VoxelPosition && Equals((VoxelPosition)obj); }
        public override int GetHashCode() { return (X * 397 ^ Y) * 397 ^ Z; }
        public override string ToString() { return "(" + X + ", " + Y + ", " + Z + ")"; }
    }

    /// <summary>The library itself: its version and the names of its codes.</summary>
    public static class Library
    {
        /// <summary>"major.minor.patch" (C wf_version).</summary>
        public static string Version { get { return Marshal.PtrToStringAnsi(NativeMethods.wf_version()); } }

        /// <summary>"ok", "invalid_argument", ... (C wf_status_name).</summary>
        public static string StatusName(Status status) { return Marshal.PtrToStringAnsi(NativeMethods.wf_status_name(status)); }

        /// <summary>"found", "no_path", ... (C wf_search_status_name, the C++ names).</summary>
        public static string SearchStatusName(SearchStatus status)
        {
            return Marshal.PtrToStringAnsi(NativeMethods.wf_search_status_name(status));
        }
    }

    /// <summary>Turning statuses into exceptions, and text across the boundary.</summary>
    internal static unsafe class Native
    {
        // The C API's error texts are at most 511 bytes.
        internal const int ErrorCapacity = 512;

        internal static byte[] ErrorBuffer() { return new byte[ErrorCapacity]; }

        internal static UIntPtr Capacity(byte[] buffer) { return (UIntPtr)(uint)buffer.Length; }

        /// <summary>A path as the NUL-terminated UTF-8 bytes the C API reads.</summary>
        internal static byte[] Utf8Path(string path)
        {
            if (path == null) throw new ArgumentNullException("path");
            byte[] bytes = new byte[Encoding.UTF8.GetByteCount(path) + 1];
            Encoding.UTF8.GetBytes(path, 0, path.Length, bytes, 0);
            return bytes;
        }

        internal static string Utf8(byte* text, int length) { return length == 0 ? "" : new string((sbyte*)text, 0, length, Encoding.UTF8); }

        internal static string Utf8(IntPtr text)
        {
            if (text == IntPtr.Zero) return "";
            int length = 0;
            byte* bytes = (byte*)text;
            while (bytes[length] != 0) ++length;
            return Utf8(bytes, length);
        }

        /// <summary>Throws unless a constructor succeeded; its text is in `error`.</summary>
        internal static void CheckCreated(Status status, byte[] error)
        {
            if (status == Status.Ok) return;
            int length = Array.IndexOf(error, (byte)0);
            if (length < 0) length = error.Length;
            throw new WayfinderException(status, Encoding.UTF8.GetString(error, 0, length));
        }

        /// <summary>Throws unless a call on `handle` succeeded; its text is the handle's last error.</summary>
        internal static void Check(Status status, SafeHandle handle)
        {
            if (status != Status.Ok) Throw(status, handle);
        }

        private static void Throw(Status status, SafeHandle handle)
        {
            throw new WayfinderException(status, Utf8(NativeMethods.wf_last_error(handle)));
        }

        /// <summary>Throws for a call that records no text (the read functions): the text is ours.</summary>
        internal static void CheckRead(Status status, string what)
        {
            if (status != Status.Ok) throw new WayfinderException(status, what);
        }

        internal delegate Status MessageCall(SafeHandle handle, byte* text, UIntPtr capacity, out UIntPtr length);

        /// <summary>A query's message through the C API's size-query copy.</summary>
        internal static string Message(SafeHandle handle, MessageCall call)
        {
            UIntPtr length;
            Check(call(handle, null, UIntPtr.Zero, out length), handle);
            int size = (int)length.ToUInt64();
            if (size == 0) return "";
            byte[] text = new byte[size + 1];
            fixed (byte* p = text)
            {
                Check(call(handle, p, (UIntPtr)(uint)text.Length, out length), handle);
                return Utf8(p, (int)length.ToUInt64());
            }
        }

        /// <summary>
        /// A copy-out call of the C API's size-query convention: it pins `buffer` (null: none), copies
        /// into it as many elements as it holds and writes the number there are to `count`. `index`
        /// is the result it reads where the C function takes one (a batch's), else unused.
        /// </summary>
        internal delegate Status CopyCall<T>(SafeHandle handle, UIntPtr index, T[] buffer, UIntPtr* count);

        /// <summary>
        /// The elements `call` answers, copied into `buffer` (grown when too short, else reused: a
        /// second call then copies them all); returns their number. With `call` made once (a static
        /// delegate), a copy into a warm buffer allocates nothing.
        /// </summary>
        internal static int CopyOut<T>(SafeHandle handle, UIntPtr index, ref T[] buffer, CopyCall<T> call)
        {
            UIntPtr count;
            Status status = call(handle, index, buffer, &count);
            if (NeedsMore(status, count, buffer))
            {
                Reserve(ref buffer, Count(count));
                status = call(handle, index, buffer, &count);
            }
            Check(status, handle);
            return Count(count);
        }

        /// <summary>A buffer's length as the C API's capacity (null: 0).</summary>
        internal static UIntPtr Capacity<T>(T[] buffer) { return (UIntPtr)(uint)(buffer == null ? 0 : buffer.Length); }

        /// <summary>Makes `buffer` at least `count` long (growing it only when too short).</summary>
        internal static void Reserve<T>(ref T[] buffer, int count)
        {
            if (buffer == null || buffer.Length < count) buffer = new T[Math.Max(count, buffer == null ? 0 : buffer.Length * 2)];
        }

        /// <summary>
        /// Whether a copy into `buffer` must be tried again with a larger one: too small, or
        /// null (which the C API answers with the size alone).
        /// </summary>
        internal static bool NeedsMore<T>(Status status, UIntPtr count, T[] buffer)
        {
            int capacity = buffer == null ? 0 : buffer.Length;
            return status == Status.BufferTooSmall || (status == Status.Ok && count.ToUInt64() > (ulong)capacity);
        }

        internal static int Count(UIntPtr count) { return checked((int)count.ToUInt64()); }

        /// <summary>A count as the C API's size_t; a negative one is an ArgumentOutOfRangeException naming `what`.</summary>
        internal static UIntPtr Size(int count, string what)
        {
            if (count < 0) throw new ArgumentOutOfRangeException(what, count, "must not be negative");
            return (UIntPtr)(uint)count;
        }
    }
}
