// Search traces (C++ SearchTrace; C wf_grid_query_set_trace, wf_grid_query_trace and the navmesh
// and voxel equivalents): what a query's searches do, event by event, for drawing a search step
// by step.
using System;
using System.Runtime.InteropServices;

namespace Wayfinder
{
    /// <summary>What happened to a node (C++ TraceEvent).</summary>
    public enum TraceEvent
    {
        /// <summary>First reached and put on the open list.</summary>
        Opened = 0,
        /// <summary>Reached again with a cheaper cost.</summary>
        Updated = 1,
        /// <summary>Taken off the open list and expanded.</summary>
        Closed = 2,
    }

    /// <summary>
    /// One event of a search trace, laid out as the C API's four doubles: the event and the
    /// node's position, a grid cell (x, y, 0), a navigation mesh corridor node (x, y, z; C++
    /// corridor_node_position) or a voxel block (x, y, z).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SearchTraceEvent
    {
        private double kind;
        /// <summary>The node's position.</summary>
        public Vector3d Position;

        public TraceEvent Event { get { return (TraceEvent)(int)kind; } }
    }

    internal static unsafe class SearchTraces
    {
        internal delegate Status TraceCall(SafeHandle query, SearchTraceEvent* events, UIntPtr capacity, UIntPtr* count,
                                           UIntPtr* recorded);

        // The calls as delegates made once, so that reading a trace into a warm array allocates nothing.
        internal static readonly TraceCall Grid = NativeMethods.wf_grid_query_trace;
        internal static readonly TraceCall NavMesh = NativeMethods.wf_navmesh_query_trace;
        internal static readonly TraceCall Voxel = NativeMethods.wf_voxel_query_trace;

        /// <summary>
        /// The latest search's kept events into `events` (grown when too short, else reused);
        /// returns their number, `recorded` counting them all, kept or not.
        /// </summary>
        internal static int Read(SafeHandle query, TraceCall call, ref SearchTraceEvent[] events, out long recorded)
        {
            UIntPtr count, all;
            Status status;
            fixed (SearchTraceEvent* p = events)
                status = call(query, p, (UIntPtr)(uint)(events == null ? 0 : events.Length), &count, &all);
            if (Native.NeedsMore(status, count, events))
            {
                Native.Reserve(ref events, Native.Count(count));
                fixed (SearchTraceEvent* p = events)
                    status = call(query, p, (UIntPtr)(uint)events.Length, &count, &all);
            }
            Native.Check(status, query);
            recorded = checked((long)all.ToUInt64());
            return Native.Count(count);
        }
    }
}
