// Voxel worlds: the MovingAI voxel benchmark (Brewer & Sturtevant 2018, <data>/voxel/warframe):
// a flyer's A* and JPS at each scenario's optimal length, as the native test_voxel_data checks;
// then worlds from arrays with a walker, stepped searches and batches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { loadWayfinder } from '../src/index.js';
import { dataFile } from './data.js';

const wf = await loadWayfinder();

function readVoxelScenario(file) {
  return fs.readFileSync(file, 'utf8').split('\n').slice(2).filter((line) => line.trim() !== '').map((line) => {
    const f = line.trim().split(/\s+/).map(Number);
    return { start: f.slice(0, 3), goal: f.slice(3, 6), optimal: f[6] };
  });
}

for (const name of ['Simple', 'Complex']) {
  test(`warframe ${name}: a flyer's A* and JPS at the optimal lengths`, (t) => {
    const mapFile = dataFile(`voxel/warframe/${name}.3dmap`, t);
    if (!mapFile) return;
    const scenario = readVoxelScenario(`${mapFile}.3dscen`);
    assert.ok(scenario.length >= 1000);
    const world = wf.voxelWorldFrom3dmap(fs.readFileSync(mapFile, 'utf8'));
    const query = world.createQuery({ preset: 'flyer' });
    try {
      // Every 10th query: the whole set takes a minute in WebAssembly (the native test has them all).
      for (let i = 0; i < scenario.length; i += 10) {
        const q = scenario[i];
        for (const algorithm of ['astar', 'jps']) {
          const result = query.findPath(q.start, q.goal, { algorithm });
          assert.equal(result.status, 'found', `${algorithm} query ${i}: ${result.message}`);
          assert.ok(Math.abs(result.cost - q.optimal) <= 1e-3, `${algorithm} query ${i}: ${result.cost} vs ${q.optimal}`);
          assert.deepEqual(Array.from(result.blocks.slice(0, 3)), q.start);
          assert.deepEqual(Array.from(result.blocks.slice(-3)), q.goal);
        }
      }
    } finally {
      query.dispose();
      world.dispose();
    }
  });
}

// 8 x 4 x sizeZ: a solid floor at y = 0 and a wall at x = 4 except at the z of gaps.
function floorAndWall(sizeZ, gaps) {
  const [sx, sy, sz] = [8, 4, sizeZ];
  const blocks = new Uint8Array(sx * sy * sz);
  const index = (x, y, z) => (y * sz + z) * sx + x;
  for (let z = 0; z < sz; z += 1) {
    for (let x = 0; x < sx; x += 1) blocks[index(x, 0, z)] = 1;
    if (!gaps.includes(z)) for (let y = 1; y < sy; y += 1) blocks[index(4, y, z)] = 1;
  }
  return wf.voxelWorldFromBlocks({ sizeX: sx, sizeY: sy, sizeZ: sz, blocks });
}

test('a walker on a floor with a wall, stepped and in a batch', () => {
  // 8 x 4 x 8 with a gap at z = 7.
  const sy = 4;
  const world = floorAndWall(8, [7]);
  const query = world.createQuery();
  const batch = wf.createBatch();
  try {
    assert.equal(world.block(4, 1, 0), 'solid');
    assert.equal(world.block(4, 1, 7), 'air');
    const result = query.findPath([0, 1, 0], [7, 1, 0]);
    assert.equal(result.status, 'found');
    assert.ok(result.blocks.length / 3 >= 8);
    assert.ok(result.blocks.some((v, i) => i % 3 === 2 && v === 7), 'through the gap');
    let status = query.begin([0, 1, 0], [7, 1, 0]);
    while (status === 'in_progress') status = query.step({ maxExpansions: 3 });
    assert.equal(query.result().cost, result.cost);
    const [same] = batch.solveVoxel(world, [{ start: [0, 1, 0], goal: [7, 1, 0] }]);
    assert.equal(same.cost, result.cost);
    assert.deepEqual(same.blocks, result.blocks);
    for (let y = 1; y < sy; y += 1) world.setBlock(4, y, 7, 'solid');
    assert.equal(query.findPath([0, 1, 0], [7, 1, 0]).status, 'no_path');
  } finally {
    batch.dispose();
    query.dispose();
    world.dispose();
  }
});

test('agentWidth: a wide walker takes the wide gap; widths outside 1 to 3 refused', () => {
  // 8 x 4 x 10 with a one-column gap at z = 2 and a two-column gap at z = 7 and 8: a narrow
  // walker takes the near gap, a two-wide one only fits the far one.
  const world = floorAndWall(10, [2, 7, 8]);
  const narrowQuery = world.createQuery();
  const wideQuery = world.createQuery({ agentWidth: 2 });
  try {
    const narrow = narrowQuery.findPath([1, 1, 1], [6, 1, 1]);
    assert.equal(narrow.status, 'found', narrow.message);
    const wide = wideQuery.findPath([1, 1, 1], [6, 1, 1]);
    assert.equal(wide.status, 'found', wide.message);
    assert.ok(wide.cost > narrow.cost + 1, `${wide.cost} vs ${narrow.cost}`);
    const oneShot = world.findPath([1, 1, 1], [6, 1, 1], { profile: { agentWidth: 2 } });
    assert.ok(Math.abs(oneShot.cost - wide.cost) <= 1e-9);
    for (const agentWidth of [0, 4]) {
      assert.throws(() => world.createQuery({ agentWidth }),
        (e) => e.name === 'WayfinderError' && e.status === 'invalid_argument' && e.message.includes('agent_width must be 1 to 3'));
    }
    assert.throws(() => world.createQuery({ agentWidth: 1.5 }), /agentWidth must be an integer/);
  } finally {
    wideQuery.dispose();
    narrowQuery.dispose();
    world.dispose();
  }
});
