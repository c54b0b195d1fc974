// Types of wayfinder-wasm (src/index.js). Coordinates: grid cells [x, y]; navigation-mesh
// points [x, y, z] with y up; voxel blocks [x, y, z] with y up (the agent's feet).

/** The C API's status names, carried by every WayfinderError. */
export type ErrorStatus =
  | 'invalid_argument' | 'load_error' | 'out_of_memory' | 'buffer_too_small' | 'in_use' | 'internal_error';

/** Thrown by every failed call: what was wrong is in `message`. */
export class WayfinderError extends Error {
  readonly status: ErrorStatus;
}

export type SearchStatus =
  | 'in_progress' | 'found' | 'partial' | 'no_path' | 'budget_exhausted' | 'invalid_input' | 'world_changed';

export type StopReason =
  | 'none' | 'goal_reached' | 'open_list_empty' | 'expansion_limit' | 'cost_limit' | 'time_limit' | 'invalid_input'
  | 'world_changed' | 'gave_up' | 'memory_limit';

/** Budgets and fallbacks every query takes. */
export interface QueryLimits {
  /** Node expansions before the search stops (default: no limit). */
  maxExpansions?: number;
  /** Stop once no path cheaper than this can exist (default: Infinity). */
  maxCost?: number;
  /** Total search time in milliseconds (default 0: no limit). */
  maxMilliseconds?: number;
  /** On an exhausted budget, a path towards the goal (default true) or none. */
  returnPartial?: boolean;
  /** A partial path instead of 'no_path' when the goal is unreachable (default false). */
  partialWhenUnreachable?: boolean;
}

export type GridAlgorithm =
  | 'breadth_first' | 'dijkstra' | 'astar' | 'weighted_astar' | 'greedy_best_first' | 'bidirectional_astar'
  | 'ida_star' | 'jps' | 'crash_right' | 'crash_left' | 'crash_auto' | 'crash_four_way' | 'divide'
  /** JPS+ and HPA*: they read the grid's derived data (Grid.createDerived, GridQuery.setDerived). */
  | 'jps_plus' | 'hierarchical';

export interface GridOptions extends QueryLimits {
  /** Default 'astar'. 'jps' is optimal on uniform-cost grids with the MovingAI diagonal rule. */
  algorithm?: GridAlgorithm;
  /** Default 'only_if_no_obstacles' (the MovingAI rule). */
  diagonal?: 'never' | 'at_least_one_walkable' | 'only_if_no_obstacles' | 'always';
  heuristic?: 'automatic' | 'octile' | 'euclidean' | 'manhattan' | 'chebyshev';
  /** Weighted A*'s heuristic weight (>= 1; default 2). */
  weight?: number;
}

/** Per-query area costs and flag masks (C++ AreaFilter, C wf_area_filter). Polygons carry an
 *  area (0 to 63) and flags (16 bits): NavMesh.setArea, setFlags. */
export interface AreaFilter {
  /** Cost multiplier per area, default 1: an array, or an object keyed by area (0 to 63);
   *  Infinity: the area is never entered. */
  areaCosts?: ArrayLike<number | undefined> | Record<number, number>;
  /** A polygon that has flags is usable only if it shares one with these (default 0xffff);
   *  polygons without flags are always usable. */
  includeFlags?: number;
  /** A polygon with any of these flags is never usable (default 0). */
  excludeFlags?: number;
}

export interface NavMeshOptions extends QueryLimits {
  /** Default 'edge_points' (corridors close to the shortest). */
  corridor?: 'polygon_centroids' | 'edge_points';
  /** Heuristic weight (default 1: A*). */
  weight?: number;
  /** How far above or below a polygon a point still lies on it (default 4). */
  heightTolerance?: number;
  /** Move an off-mesh start or goal this far onto the mesh (default 0: refuse). */
  snapDistance?: number;
  /** Area costs and flags (C++ AreaFilter): the corridor never enters a polygon the filter
   *  refuses, and a polygon's steps cost its area's multiplier times more. A start or goal only on
   *  refused polygons, or a cost that is not > 0, gives status 'invalid_input'. */
  filter?: AreaFilter | null;
}

/** An agent in a voxel world: a preset with any field changed (docs/voxel.md). */
export interface MovementProfile {
  preset?: 'walker' | 'flyer';
  agentHeight?: number; walkDirections?: number; stepHeight?: number; jumpHeight?: number; jumpDistance?: number;
  maxFall?: number; swim?: boolean; climb?: boolean; fly?: boolean;
  /** Columns across the agent's square footprint, an integer from 1 to 3 (default 1): a walker's
   *  body is agentWidth x agentWidth columns of agentHeight blocks, a flyer's a cube of agentWidth
   *  blocks. Another width makes createQuery (and whatever makes a query from the profile) throw
   *  a WayfinderError 'invalid_argument'. */
  agentWidth?: number;
  walkCost?: number; diagonalCost?: number; stepUpCost?: number; jumpCost?: number; fallCost?: number;
  swimCost?: number; climbCost?: number; flyCost?: number;
}

export interface VoxelOptions extends QueryLimits {
  /** Default 'astar'; 'jps' is for flyers only. */
  algorithm?: 'dijkstra' | 'astar' | 'weighted_astar' | 'greedy_best_first' | 'jps';
  weight?: number;
  /** The agent, for Batch.solveVoxel and VoxelWorld.findPath (default a walker). */
  profile?: MovementProfile;
}

export interface SearchStats {
  expanded: number;
  generated: number;
  peakOpen: number;
  microseconds: number;
}

export interface PathResult {
  status: SearchStatus;
  reason: StopReason;
  /** The path's cost (0 when there is none). */
  cost: number;
  nodeCount: number;
  pointCount: number;
  stats: SearchStats;
  /** Why a query was invalid (usually empty). */
  message: string;
}

export interface GridPathResult extends PathResult {
  /** The cells of the path as x, y pairs, start first. */
  cells: Int32Array;
}

export interface NavMeshPathResult extends PathResult {
  /** The waypoints (start, turns, goal) as x, y, z triples. */
  points: Float64Array;
  /** The corridor's polygons, start to goal (single queries only). */
  polygons?: Uint32Array;
}

export interface VoxelPathResult extends PathResult {
  /** The blocks of the path (the agent's feet) as x, y, z triples. */
  blocks: Int32Array;
}

export interface StepBudget {
  /** Expansions in this step (default: no limit). */
  maxExpansions?: number;
  /** About this many milliseconds (default 0: no limit). */
  maxMilliseconds?: number;
}

/** Memory in the WebAssembly module, freed by dispose() (the garbage collector cannot). */
export interface Disposable {
  /** Frees the memory; later calls throw. Disposing twice does nothing. A world throws
   *  'in_use' (and stays) while queries on it exist. */
  dispose(): void;
  readonly disposed: boolean;
}

/** A query object: reusable, one search at a time; the world must outlive it. Coordinates are
 *  the world's: grid cells [x, y], mesh points [x, y, z], voxel blocks [x, y, z]. */
declare abstract class Query<Options, Result extends PathResult> implements Disposable {
  findPath(start: ArrayLike<number>, goal: ArrayLike<number>, options?: Options): Result;
  /** Starts a stepped search: step() continues it, result() reads it. */
  begin(start: ArrayLike<number>, goal: ArrayLike<number>, options?: Options): SearchStatus;
  /** Continues the search; 'in_progress' until it ends. */
  step(budget?: StepBudget): SearchStatus;
  /** The stepped search's result so far. */
  result(): Result;
  /** Records the events of later searches (each replaces the last one's), keeping the first
   *  maxEvents (default 4,000,000); 0 stops recording. */
  setTrace(maxEvents?: number): void;
  /** The latest search's events, (event, x, y, z) each: event 0 opened, 1 reached again more
   *  cheaply, 2 closed; x, y, z a grid cell (z 0), a mesh corridor node or a voxel block.
   *  `recorded` counts every event, kept or not. */
  trace(): { events: Float64Array; recorded: number };
  dispose(): void;
  readonly disposed: boolean;
}

export class GridQuery extends Query<GridOptions, GridPathResult> {
  /** The derived data 'jps_plus' and 'hierarchical' read (null: none); give it again after
   *  derived.update(). */
  setDerived(derived: GridDerived | null): void;
}

/** JPS+'s jump table and HPA*'s hierarchy of a grid, built for the options' algorithm; after an
 *  edit of the grid, searches that read it answer 'invalid_input' until update(). */
export class GridDerived implements Disposable {
  readonly grid: Grid;
  update(options?: GridOptions): void;
  dispose(): void;
  readonly disposed: boolean;
}
export class NavMeshQuery extends Query<NavMeshOptions, NavMeshPathResult> {}
export class VoxelQuery extends Query<VoxelOptions, VoxelPathResult> {}

export class Grid implements Disposable {
  /** What 'jps_plus' and 'hierarchical' searches read, for queries' setDerived. */
  createDerived(options?: GridOptions): GridDerived;
  readonly width: number;
  readonly height: number;
  cell(x: number, y: number): { passable: boolean; cost: number; area: number; flags: number };
  /** Blocks (false) or opens (true) the rectangle [x, x + width) x [y, y + height). */
  setPassable(x: number, y: number, width: number, height: number, passable: boolean): void;
  /** Makes the rectangle's cells passable at this cost multiplier (finite, > 0). */
  setCost(x: number, y: number, width: number, height: number, cost: number): void;
  /** A crowd on this grid: positions [column, 0, row] in cell units (a cell's centre at
   *  [x + 0.5, 0, y + 0.5]); paths by A* (or JPS with jumpPoint); dispose it before the grid. */
  createCrowd(settings?: CrowdSettings, options?: { jumpPoint?: boolean }): Crowd;
  createQuery(): GridQuery;
  /** One search with a query made for it and disposed afterwards. */
  findPath(start: ArrayLike<number>, goal: ArrayLike<number>, options?: GridOptions): GridPathResult;
  dispose(): void;
  readonly disposed: boolean;
}

export class NavMesh implements Disposable {
  readonly vertexCount: number;
  readonly polygonCount: number;
  readonly regionCount: number;
  /** The polygon under or over a point and the point moved onto it, or null. */
  locate(point: ArrayLike<number>, heightTolerance?: number): { polygon: number; point: number[] } | null;
  /** Goes up with every edit that changes the mesh (areas, flags). */
  readonly revision: number;
  /** A polygon's area and flags; a polygon id not below polygonCount throws. */
  polygonArea(polygon: number): { area: number; flags: number };
  /** Edits a polygon's area (0 to 63); an edit: no stepped search may be between steps. */
  setArea(polygon: number, area: number): void;
  /** Edits a polygon's flags (16 bits). */
  setFlags(polygon: number, flags: number): void;
  /** Both at once, as one edit. */
  setAreaAndFlags(polygon: number, area: number, flags: number): void;
  /** A crowd of agents on this mesh; dispose it before the mesh. */
  createCrowd(settings?: CrowdSettings): Crowd;
  /** The mesh as the bytes of a baked navmesh file (.wfnav), for Wayfinder.navMeshFromWfnav. */
  saveWfnav(): Uint8Array;
  createQuery(): NavMeshQuery;
  findPath(start: ArrayLike<number>, goal: ArrayLike<number>, options?: NavMeshOptions): NavMeshPathResult;
  dispose(): void;
  readonly disposed: boolean;
}

/** Crowd settings over the defaults (docs/crowds.md); lengths in world units, times in seconds. */
export interface CrowdSettings {
  timeHorizon?: number;
  wallTimeHorizon?: number;
  neighbourDistance?: number;
  maxNeighbours?: number;
  collisionIterations?: number;
  stuckTime?: number;
  stuckProgress?: number;
  settleSpeedFraction?: number;
  maxMovePolygons?: number;
  wallClearance?: number;
  targetSnapDistance?: number;
}

/** One agent's body and manners over the defaults (radius 0.5, height 2, maxSpeed 3.5,
 *  maxAcceleration 8, avoidancePriority 1, arrivalRadius 0.1). */
export interface CrowdAgentSettings {
  radius?: number;
  height?: number;
  maxSpeed?: number;
  maxAcceleration?: number;
  avoidancePriority?: number;
  arrivalRadius?: number;
}

export type CrowdAgentState = 'idle' | 'waiting_for_path' | 'moving' | 'arrived' | 'unreachable' | 'on_link';

/** A flow field towards goal cells on a grid crowd's grid (Crowd.createFlowField). */
export class CrowdFlowField implements Disposable {
  dispose(): void;
  readonly disposed: boolean;
}

/** Agents walking their paths together on a mesh or a grid, avoiding each other and the walls. */
export class Crowd implements Disposable {
  /** The mesh of a crowd on a mesh, else null. */
  readonly mesh: NavMesh | null;
  /** The grid of a crowd on a grid, else null. */
  readonly grid: Grid | null;
  readonly agentCount: number;
  /** Adds an agent at the mesh point nearest to [x, y, z]; returns its id (never reused). */
  addAgent(position: ArrayLike<number>, settings?: CrowdAgentSettings): number;
  removeAgent(id: number): void;
  /** Sends the agent to the mesh point nearest to [x, y, z]; its path comes in the next update. */
  setTarget(id: number, target: ArrayLike<number>): void;
  /** Walks the agent at [vx, vz] with no path (a player's character). */
  setVelocityTarget(id: number, velocity: ArrayLike<number>): void;
  /** A flow field on a grid crowd's grid towards the nearest of the goal cells [x, y]. */
  createFlowField(goals: ArrayLike<ArrayLike<number>>): CrowdFlowField;
  /** Sends the agents along a flow field (or one built once from goal cells), with no path search. */
  setFlowTarget(ids: number | number[], target: CrowdFlowField | ArrayLike<ArrayLike<number>>): void;
  /** Path searches the agent has asked for (0 for flow and velocity targets only). */
  pathRequests(id: number): number;
  /** Advances every agent by dt seconds (> 0). */
  update(dt: number): void;
  /** x, y, z of every agent in the order of their ids, into `out` (at least 3 * agentCount
   *  entries) or a new array; returns it. */
  positions(out?: Float32Array): Float32Array;
  /** Every agent in the order of their ids: velocities are x, z pairs of the last update. */
  agents(): { ids: Uint32Array; positions: Float64Array; velocities: Float64Array; states: CrowdAgentState[] };
  dispose(): void;
  readonly disposed: boolean;
}

export type BlockKind = 'air' | 'solid' | 'water' | 'ladder';

export class VoxelWorld implements Disposable {
  readonly sizeX: number;
  readonly sizeY: number;
  readonly sizeZ: number;
  /** The block at a position ('air' outside the world). */
  block(x: number, y: number, z: number): BlockKind;
  setBlock(x: number, y: number, z: number, kind: BlockKind): void;
  /** Every block (0 air, 1 solid, 2 water, 3 ladder) at index (y * sizeZ + z) * sizeX + x. */
  blocks(): Uint8Array;
  /** A query for an agent (default a walker). */
  createQuery(profile?: MovementProfile): VoxelQuery;
  findPath(start: ArrayLike<number>, goal: ArrayLike<number>, options?: VoxelOptions): VoxelPathResult;
  dispose(): void;
  readonly disposed: boolean;
}

export interface Request { start: ArrayLike<number>; goal: ArrayLike<number> }

/** Many requests on one world in one call, answered one after another (this build has no
 *  threads). Result i answers request i; a bad request answers 'invalid_input'. */
export class Batch implements Disposable {
  solveGrid(grid: Grid, requests: Request[], options?: GridOptions): GridPathResult[];
  solveNavMesh(mesh: NavMesh, requests: Request[], options?: NavMeshOptions): NavMeshPathResult[];
  solveVoxel(world: VoxelWorld, requests: Request[], options?: VoxelOptions): VoxelPathResult[];
  dispose(): void;
  readonly disposed: boolean;
}

export class Wayfinder {
  /** The library's version, e.g. "0.1.0". */
  readonly version: string;
  /** A width x height grid, every cell passable at cost 1. */
  createGrid(width: number, height: number): Grid;
  /** Row-major cells (index y * width + x): passable[i] truthy for passable; costs[i] (> 0;
   *  Infinity blocks) the cost multiplier, default 1. */
  gridFromCells(cells: { width: number; height: number; passable: ArrayLike<number | boolean>;
    costs?: ArrayLike<number> }): Grid;
  /** A grid of rooms joined by corridors, with forest (cost 2) and swamp (cost 3) patches, as
   *  `wayfinder serve` generates; the same options give the same grid. */
  generateRoomGrid(options?: { width?: number; height?: number; seed?: number; rooms?: number }): Grid;
  /** The text of a MovingAI `.map` file. */
  gridFromMovingAI(text: string | Uint8Array): Grid;
  /** The text of a Wavefront OBJ file (y up, or z up). */
  navMeshFromObj(text: string | Uint8Array, options?: { zUp?: boolean }): NavMesh;
  /** The text of a Polyanya "mesh 2" file. */
  navMeshFromPolyanya(text: string | Uint8Array): NavMesh;
  /** The bytes of a baked navmesh file (.wfnav, from NavMesh.saveWfnav or `wayfinder mesh build
   *  -o`); a damaged or foreign file throws a WayfinderError with status 'load_error'. */
  navMeshFromWfnav(bytes: Uint8Array): NavMesh;
  /** Packed x, y, z vertices (y up); polygon i is the next polygonSizes[i] indices. */
  navMeshFromArrays(mesh: { vertices: ArrayLike<number>; indices: ArrayLike<number>;
    polygonSizes: ArrayLike<number> }): NavMesh;
  /** blocks[(y * sizeZ + z) * sizeX + x]: 0 air, 1 solid, 2 water, 3 ladder (default all air). */
  voxelWorldFromBlocks(world: { sizeX: number; sizeY: number; sizeZ: number; blocks?: ArrayLike<number> }): VoxelWorld;
  /** Seeded terrain with caves and lakes (docs/voxel.md, "Generated worlds"). */
  generateVoxelWorld(options?: { sizeX?: number; sizeY?: number; sizeZ?: number; seed?: number }): VoxelWorld;
  /** The text of a MovingAI `.3dmap` file. */
  voxelWorldFrom3dmap(text: string | Uint8Array): VoxelWorld;
  /** The bytes of a MagicaVoxel `.vox` file (every colour solid). */
  voxelWorldFromVox(bytes: Uint8Array): VoxelWorld;
  createBatch(): Batch;
}

/** Loads the WebAssembly module (inlined in the package) and returns the library. */
export function loadWayfinder(): Promise<Wayfinder>;
