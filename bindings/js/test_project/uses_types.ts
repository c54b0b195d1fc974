// Type-checked against the installed package's declarations (tsc --noEmit in
// scripts/test_package.sh): an application's TypeScript that uses every kind of world.
import { loadWayfinder, WayfinderError, type AreaFilter, type CrowdAgentState, type GridPathResult, type SearchStatus } from 'wayfinder-wasm';

export async function route(mapText: string): Promise<number> {
  const wf = await loadWayfinder();
  const grid = wf.gridFromMovingAI(mapText);
  const query = grid.createQuery();
  const derived = grid.createDerived({ algorithm: 'jps_plus' });
  query.setDerived(derived);
  let status: SearchStatus = query.begin([0, 0], [grid.width - 1, grid.height - 1], { algorithm: 'astar', weight: 1 });
  while (status === 'in_progress') status = query.step({ maxExpansions: 100 });
  const result: GridPathResult = query.result();
  query.dispose();
  derived.dispose();
  const gridCrowd = grid.createCrowd({}, { jumpPoint: true });
  const walker: number = gridCrowd.addAgent([0.5, 0, 0.5]);
  const exits = gridCrowd.createFlowField([[grid.width - 1, grid.height - 1]]);
  gridCrowd.setFlowTarget([walker], exits);
  gridCrowd.setFlowTarget(walker, [[grid.width - 1, 0]]);
  const searched: number = gridCrowd.pathRequests(walker);
  exits.dispose();
  gridCrowd.dispose();
  grid.dispose();

  const mesh = wf.navMeshFromArrays({ vertices: [0, 0, 0, 1, 0, 0, 1, 0, 1], indices: [0, 1, 2], polygonSizes: [3] });
  const located = mesh.locate([0.5, 0, 0.2]);
  const corridor = mesh.findPath([0.5, 0, 0.2], [0.9, 0, 0.8], { snapDistance: 0.1 }).polygons;
  const crowd = mesh.createCrowd({ maxNeighbours: 4 });
  const agent: number = crowd.addAgent([0.5, 0, 0.2], { radius: 0.05 });
  crowd.setTarget(agent, [0.9, 0, 0.8]);
  crowd.update(0.1);
  const positions: Float32Array = crowd.positions(new Float32Array(3 * crowd.agentCount));
  const states: CrowdAgentState[] = crowd.agents().states;
  crowd.dispose();
  mesh.setAreaAndFlags(0, 3, 0x1);
  const tags: { area: number; flags: number } = mesh.polygonArea(0);
  const revision: number = mesh.revision;
  const filter: AreaFilter = { areaCosts: { 3: 10 }, excludeFlags: 0x2 };
  const filtered = mesh.findPath([0.5, 0, 0.2], [0.9, 0, 0.8], { filter }).status;
  const baked: Uint8Array = mesh.saveWfnav();
  wf.navMeshFromWfnav(baked).dispose();
  mesh.dispose();

  const world = wf.voxelWorldFromBlocks({ sizeX: 2, sizeY: 2, sizeZ: 2 });
  const flyer = world.createQuery({ preset: 'flyer', flyCost: 1 });
  const blocks: Int32Array = flyer.findPath([0, 0, 0], [1, 1, 1], { algorithm: 'jps' }).blocks;
  flyer.dispose();
  const batch = wf.createBatch();
  const answers = batch.solveVoxel(world, [{ start: [0, 0, 0], goal: [1, 1, 1] }], { profile: { preset: 'flyer' } });
  batch.dispose();
  world.dispose();

  try {
    wf.createGrid(-1, 1);
  } catch (error) {
    if (error instanceof WayfinderError && error.status === 'invalid_argument') return -1;
  }
  return result.cost + (located?.polygon ?? 0) + (corridor?.length ?? 0) + blocks.length + answers.length + positions.length +
    states.length + tags.area + revision + searched + (filtered === 'found' ? 1 : 0);
}
