// Crowds (C++ Crowd, C wf_crowd): agents walking their paths together on a navigation mesh or a
// grid, avoiding each other and the walls.
using System;
using System.Runtime.InteropServices;

namespace Wayfinder
{
    /// <summary>What an agent is doing (C++ CrowdAgentStatus, C wf_crowd_agent_state).</summary>
    public enum CrowdAgentState
    {
        /// <summary>No target.</summary>
        Idle = 0,
        /// <summary>Its path has not come yet: it stands still.</summary>
        WaitingForPath = 1,
        /// <summary>Following its path, or its target velocity.</summary>
        Moving = 2,
        /// <summary>Within its arrival radius of its target point.</summary>
        Arrived = 3,
        /// <summary>Its target cannot be reached: it stands as close as it got.</summary>
        Unreachable = 4,
        /// <summary>Crossing an off-mesh link: a timed move, not steered or pushed (docs/crowds.md).</summary>
        OnLink = 5,
    }

    /// <summary>What happened to an agent's link crossing in the last update (C++ CrowdLinkEvent, C wf_crowd_link_event).</summary>
    public enum CrowdLinkEvent
    {
        None = 0,
        /// <summary>It took a link (progress 0, not moved yet).</summary>
        Started = 1,
        /// <summary>It landed on the link's far end.</summary>
        Finished = 2,
    }

    /// <summary>
    /// An agent's crossing of an off-mesh link (C++ CrowdLinkTraversal, C wf_crowd_link_crossing,
    /// docs/crowds.md): a straight line from Start to End at the agent's max speed, for the caller
    /// to animate (a jump, a climb).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CrowdLinkCrossing
    {
        /// <summary>Where it stood when it took the link.</summary>
        public Vector3d Start;
        /// <summary>Where it lands, on the mesh.</summary>
        public Vector3d End;
        /// <summary>Seconds from taking the link to landing.</summary>
        public double Duration;
        /// <summary>Seconds since it took the link.</summary>
        public double Elapsed;
        /// <summary>Elapsed / Duration, 0..1.</summary>
        public double Progress;
        /// <summary>The link's id (its index among the mesh's links).</summary>
        public uint Link;
        private int reverse;

        /// <summary>A two-way link taken from its end to its start.</summary>
        public bool Reverse { get { return reverse != 0; } }
    }

    /// <summary>
    /// How a crowd moves its agents (C++ CrowdSettings), laid out as C wf_crowd_settings. Lengths
    /// in world units, times in seconds. Start from <see cref="Defaults"/>: a zeroed struct is
    /// refused.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CrowdSettings
    {
        private UIntPtr threads;
        /// <summary>Avoid other agents this far ahead, &gt; 0 (2).</summary>
        public double TimeHorizon;
        /// <summary>Avoid walls this far ahead, &gt; 0 (0.5).</summary>
        public double WallTimeHorizon;
        /// <summary>Agents closer than this (centres, x-z) are neighbours, &gt; 0 (5).</summary>
        public double NeighbourDistance;
        private UIntPtr maxNeighbours;
        private UIntPtr collisionIterations;
        /// <summary>No progress for this long: stuck, &gt; 0 (3).</summary>
        public double StuckTime;
        /// <summary>... progress meaning coming this much closer, &gt;= 0 (0.05).</summary>
        public double StuckProgress;
        /// <summary>Below this fraction of its max speed an agent stops, 0..1 (0.05).</summary>
        public double SettleSpeedFraction;
        private UIntPtr maxMovePolygons;
        /// <summary>How far centres keep from the mesh's edge, &gt;= 0 (0.02).</summary>
        public double WallClearance;
        /// <summary>A point off the mesh moves this far onto it, &gt;= 0 (2).</summary>
        public double TargetSnapDistance;
        private UIntPtr minAgentsPerThread;

        /// <summary>The defaults of C++ CrowdSettings (C wf_crowd_settings_init).</summary>
        public static unsafe CrowdSettings Defaults()
        {
            CrowdSettings settings;
            NativeMethods.wf_crowd_settings_init(&settings);
            return settings;
        }

        /// <summary>Threads an update splits the agents over, &gt;= 1 (1); the result is the same for every count.</summary>
        public int Threads { get { return Native.Count(threads); } set { threads = Native.Size(value, "Threads"); } }
        /// <summary>
        /// With fewer agents than Threads times this (&gt;= 1; 256), an update runs on the calling
        /// thread alone; the result is the same.
        /// </summary>
        public int MinAgentsPerThread
        {
            get { return Native.Count(minAgentsPerThread); }
            set { minAgentsPerThread = Native.Size(value, "MinAgentsPerThread"); }
        }
        /// <summary>The nearest this many are avoided, &gt;= 1 (10).</summary>
        public int MaxNeighbours { get { return Native.Count(maxNeighbours); } set { maxNeighbours = Native.Size(value, "MaxNeighbours"); } }
        /// <summary>Rounds of pushing overlapping agents apart (32; 0: none).</summary>
        public int CollisionIterations
        {
            get { return Native.Count(collisionIterations); }
            set { collisionIterations = Native.Size(value, "CollisionIterations"); }
        }
        /// <summary>Polygons one move along the surface looks at, &gt;= 1 (64).</summary>
        public int MaxMovePolygons
        {
            get { return Native.Count(maxMovePolygons); }
            set { maxMovePolygons = Native.Size(value, "MaxMovePolygons"); }
        }
    }

    /// <summary>
    /// One agent's body and manners (C++ CrowdAgentSettings), laid out as C
    /// wf_crowd_agent_settings. Start from <see cref="Defaults"/>: a zeroed struct is refused.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CrowdAgentSettings
    {
        /// <summary>&gt; 0 (0.5).</summary>
        public double Radius;
        /// <summary>&gt; 0 (2).</summary>
        public double Height;
        /// <summary>&gt;= 0, units per second (3.5).</summary>
        public double MaxSpeed;
        /// <summary>&gt; 0, units per second squared (8).</summary>
        public double MaxAcceleration;
        /// <summary>&gt;= 0: of two agents with p and q, the first takes q / (p + q) of the avoidance (1).</summary>
        public double AvoidancePriority;
        /// <summary>Within this of its target point it has arrived, &gt;= 0 (0.1).</summary>
        public double ArrivalRadius;
        /// <summary>The caller's own number; never read by the crowd (0).</summary>
        public ulong UserId;

        /// <summary>The defaults of C++ CrowdAgentSettings (C wf_crowd_agent_settings_init).</summary>
        public static unsafe CrowdAgentSettings Defaults()
        {
            CrowdAgentSettings settings;
            NativeMethods.wf_crowd_agent_settings_init(&settings);
            return settings;
        }
    }

    /// <summary>
    /// Agents walking their paths together on a navigation mesh or a grid (C++ Crowd, C
    /// wf_crowd). One thread at a time drives a crowd. It keeps its mesh or grid alive: disposing
    /// it first is allowed, it is freed with the crowd. Once the caller's arrays are warm, an update and
    /// a read allocate nothing in C#.
    /// </summary>
    public sealed unsafe class Crowd : IDisposable
    {
        private readonly CrowdHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal CrowdHandle Handle { get { handle.ThrowIfDisposed("Crowd"); return handle; } }

        /// <summary>A crowd on `mesh` (C wf_crowd_create); bad settings throw a WayfinderException naming the field.</summary>
        public Crowd(NavMesh mesh) : this(mesh, CrowdSettings.Defaults()) { }

        public Crowd(NavMesh mesh, CrowdSettings settings)
        {
            if (mesh == null) throw new ArgumentNullException("mesh");
            byte[] error = Native.ErrorBuffer();
            IntPtr crowd;
            Native.CheckCreated(NativeMethods.wf_crowd_create(mesh.Handle, &settings, out crowd, error, Native.Capacity(error)), error);
            handle = new CrowdHandle();
            handle.Adopt(crowd, mesh.Handle);
            Mesh = mesh;
        }

        /// <summary>
        /// A crowd on `grid` (C wf_crowd_create_grid, docs/crowds.md "Crowds on grids"): positions
        /// and targets are (column, 0, row) in cell units, a cell's centre at (x + 0.5, 0, y + 0.5);
        /// paths by A*, or by jump point search when `jumpPoint`, smoothed to any-angle waypoints;
        /// walls are the blocked cells' edges and no centre ever enters a blocked cell. The grid
        /// may be edited between updates. Bad settings throw a WayfinderException naming the field.
        /// </summary>
        public Crowd(GridMap grid, bool jumpPoint) : this(grid, CrowdSettings.Defaults(), jumpPoint) { }

        public Crowd(GridMap grid, CrowdSettings settings, bool jumpPoint)
        {
            if (grid == null) throw new ArgumentNullException("grid");
            byte[] error = Native.ErrorBuffer();
            IntPtr crowd;
            Native.CheckCreated(NativeMethods.wf_crowd_create_grid(grid.Handle, &settings, jumpPoint ? 1 : 0, out crowd, error,
                                                                   Native.Capacity(error)), error);
            handle = new CrowdHandle();
            handle.Adopt(crowd, grid.Handle);
            Grid = grid;
        }

        /// <summary>The mesh the crowd walks on; null for a crowd on a grid.</summary>
        public NavMesh Mesh { get; private set; }

        /// <summary>The grid the crowd walks on; null for a crowd on a mesh.</summary>
        public GridMap Grid { get; private set; }

        /// <summary>
        /// Adds an agent standing at the mesh point nearest to `position` (within the target snap
        /// distance), with no target (C wf_crowd_add_agent); returns its id. Ids grow and are never
        /// reused. Bad settings or a position with no mesh near throw a WayfinderException.
        /// </summary>
        public uint AddAgent(Vector3d position) { return AddAgent(position, CrowdAgentSettings.Defaults()); }

        public uint AddAgent(Vector3d position, CrowdAgentSettings settings)
        {
            uint id;
            Native.Check(NativeMethods.wf_crowd_add_agent(Handle, &position, &settings, &id), Handle);
            return id;
        }

        /// <summary>Removes an agent (C wf_crowd_remove_agent); an unknown id throws.</summary>
        public void RemoveAgent(uint agentId) { Native.Check(NativeMethods.wf_crowd_remove_agent(Handle, agentId), Handle); }

        /// <summary>
        /// Sends the agent to the mesh point nearest to `target`; its path is asked for in the next
        /// update (C wf_crowd_set_target). A target not finite or with no mesh near throws.
        /// </summary>
        public void SetTarget(uint agentId, Vector3d target)
        {
            Native.Check(NativeMethods.wf_crowd_set_target(Handle, agentId, &target), Handle);
        }

        /// <summary>
        /// Makes the agent walk at (velocityX, velocityZ) units per second (clamped to its max
        /// speed) with no path, still avoiding others and the walls (C wf_crowd_set_velocity_target).
        /// </summary>
        public void SetVelocityTarget(uint agentId, double velocityX, double velocityZ)
        {
            double* velocity = stackalloc double[2];
            velocity[0] = velocityX;
            velocity[1] = velocityZ;
            Native.Check(NativeMethods.wf_crowd_set_velocity_target(Handle, agentId, velocity), Handle);
        }

        /// <summary>Advances every agent by dt seconds (finite, &gt; 0; C wf_crowd_update).</summary>
        public void Update(double dt) { Native.Check(NativeMethods.wf_crowd_update(Handle, dt), Handle); }

        /// <summary>The number of agents (C wf_crowd_agent_count).</summary>
        public int AgentCount
        {
            get
            {
                UIntPtr count;
                Native.CheckRead(NativeMethods.wf_crowd_agent_count(Handle, &count), "wf_crowd_agent_count failed");
                return Native.Count(count);
            }
        }

        /// <summary>
        /// Every agent, in the order of their ids, into the caller's arrays (each grown when too
        /// short, else reused; C wf_crowd_read_agents): ids, positions on the mesh, velocities
        /// during the last update as x, z pairs (units per second; 2 doubles an agent) and states.
        /// Returns the number of agents.
        /// </summary>
        public int ReadAgents(ref uint[] ids, ref Vector3d[] positions, ref double[] velocitiesXz, ref CrowdAgentState[] states)
        {
            int count = AgentCount;
            Native.Reserve(ref ids, count);
            Native.Reserve(ref positions, count);
            Native.Reserve(ref velocitiesXz, 2 * count);
            Native.Reserve(ref states, count);
            UIntPtr read;
            Status status;
            fixed (uint* i = ids)
            fixed (Vector3d* p = positions)
            fixed (double* v = velocitiesXz)
            fixed (CrowdAgentState* s = states)
                status = NativeMethods.wf_crowd_read_agents(Handle, i, p, v, s, (UIntPtr)(uint)count, &read);
            Native.Check(status, Handle);
            return Native.Count(read);
        }

        /// <summary>Ids and positions only (as <see cref="ReadAgents"/>); returns the number of agents.</summary>
        public int ReadPositions(ref uint[] ids, ref Vector3d[] positions)
        {
            int count = AgentCount;
            Native.Reserve(ref ids, count);
            Native.Reserve(ref positions, count);
            UIntPtr read;
            Status status;
            fixed (uint* i = ids)
            fixed (Vector3d* p = positions)
                status = NativeMethods.wf_crowd_read_agents(Handle, i, p, null, null, (UIntPtr)(uint)count, &read);
            Native.Check(status, Handle);
            return Native.Count(read);
        }

        /// <summary>
        /// One agent's off-mesh link crossing (C wf_crowd_agent_link): true and `crossing` filled
        /// while it crosses one (its state is then <see cref="CrowdAgentState.OnLink"/>), else
        /// false and `crossing` zeroed; `linkEvent` is what happened to it in the last update. An
        /// unknown id throws a WayfinderException (InvalidArgument). Allocates nothing.
        /// </summary>
        public bool GetLinkCrossing(uint agentId, out CrowdLinkCrossing crossing, out CrowdLinkEvent linkEvent)
        {
            int onLink;
            CrowdLinkCrossing read = default(CrowdLinkCrossing);
            CrowdLinkEvent happened;
            Native.Check(NativeMethods.wf_crowd_agent_link(Handle, agentId, &onLink, &read, &happened), Handle);
            crossing = onLink != 0 ? read : default(CrowdLinkCrossing);
            linkEvent = happened;
            return onLink != 0;
        }

        /// <summary>
        /// How many path searches the agent has asked for, its first and every replan (C
        /// wf_crowd_agent_path_requests); 0 for an agent that only followed flow fields or
        /// velocities. An unknown id throws.
        /// </summary>
        public uint PathRequests(uint agentId)
        {
            uint count;
            Native.CheckRead(NativeMethods.wf_crowd_agent_path_requests(Handle, agentId, &count),
                             "wf_crowd_agent_path_requests: no agent has the id " + agentId);
            return count;
        }
        /// <summary>
        /// Sends the agent along `field` with no path search (C wf_crowd_set_flow_target,
        /// docs/crowds.md "Flow targets"): it has arrived while it stands in a goal cell. A crowd on
        /// a mesh, a field built on another grid, an unknown id or an agent whose cell reaches no
        /// goal throw a WayfinderException (InvalidArgument), nothing changed.
        /// </summary>
        public void SetFlowTarget(uint agentId, CrowdFlowField field)
        {
            if (field == null) throw new ArgumentNullException("field");
            Native.Check(NativeMethods.wf_crowd_set_flow_target(Handle, agentId, field.Handle), Handle);
        }
        /// <summary>
        /// Sends every agent of `agentIds` along one flow field towards the nearest of `goals`,
        /// built once for all of them (see <see cref="CrowdFlowField"/>); build the field yourself
        /// to send more agents along it later. Agents before one that is refused keep their new target.
        /// </summary>
        public void SetFlowTarget(uint[] agentIds, GridCell[] goals)
        {
            if (agentIds == null) throw new ArgumentNullException("agentIds");
            using (var field = new CrowdFlowField(this, goals))
                foreach (uint id in agentIds) SetFlowTarget(id, field);
        }
        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// A flow field towards goal cells on a grid crowd's grid (C wf_crowd_flow_field, C++
    /// GridFlowField, docs/flow-fields.md): one Dijkstra search for any number of agents sent
    /// along it with <see cref="Crowd.SetFlowTarget(uint, CrowdFlowField)"/>. It describes the
    /// grid as it was when built (after edits, build another); the agents keep it while they
    /// follow it, so disposing it early is allowed. It keeps its crowd alive.
    /// </summary>
    public sealed unsafe class CrowdFlowField : IDisposable
    {
        private readonly CrowdFlowFieldHandle handle;

        /// <summary>The live handle (ObjectDisposedException once disposed).</summary>
        internal CrowdFlowFieldHandle Handle { get { handle.ThrowIfDisposed("CrowdFlowField"); return handle; } }

        /// <summary>
        /// Builds the field on `crowd`'s grid towards the nearest of `goals` (C
        /// wf_crowd_flow_field_create). A crowd on a mesh, no goals, or a goal outside the grid or
        /// on a blocked cell throw a WayfinderException (InvalidArgument) saying which.
        /// </summary>
        public CrowdFlowField(Crowd crowd, GridCell[] goals)
        {
            if (crowd == null) throw new ArgumentNullException("crowd");
            if (goals == null) throw new ArgumentNullException("goals");
            byte[] error = Native.ErrorBuffer();
            IntPtr field;
            Status status;
            fixed (GridCell* cells = goals)
                status = NativeMethods.wf_crowd_flow_field_create(crowd.Handle, cells, (UIntPtr)(uint)goals.Length, out field, error,
                                                                  Native.Capacity(error));
            Native.CheckCreated(status, error);
            handle = new CrowdFlowFieldHandle();
            handle.Adopt(field, crowd.Handle);
        }

        public void Dispose() { handle.Dispose(); }
    }
}
