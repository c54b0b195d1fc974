// Search traces and generated worlds, as the web viewer's static site uses them: every kind of
// query records its search's events when asked (each expanded node closed once, the start
// first), the generators give the same world for the same seed, and a voxel world's blocks come
// back in one call as voxelWorldFromBlocks takes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWayfinder } from '../src/index.js';

const wf = await loadWayfinder();

// The events' positions, as [event, x, y, z] arrays.
const eventsOf = (events) => Array.from({ length: events.length / 4 }, (_, i) => Array.from(events.slice(4 * i, 4 * i + 4)));

test('a grid query records its trace only when asked, one closed event per expansion', () => {
  const grid = wf.createGrid(16, 8);
  grid.setPassable(6, 0, 1, 7, false);
  const query = grid.createQuery();
  try {
    let result = query.findPath([0, 0], [15, 0]);
    assert.equal(query.trace().events.length, 0);
    query.setTrace();
    result = query.findPath([0, 0], [15, 0]);
    const { events, recorded } = query.trace();
    const list = eventsOf(events);
    assert.equal(recorded, list.length);
    assert.deepEqual(list[0], [0, 0, 0, 0], 'the start is opened first');
    const closed = list.filter((e) => e[0] === 2);
    assert.equal(closed.length, Number(result.stats.expanded));
    for (const [, x, y] of list) assert.ok(x >= 0 && x < 16 && y >= 0 && y < 8 && !(x === 6 && y < 7));
    // A second search replaces the first one's events; a limit keeps the first ones and counts all.
    query.setTrace(5);
    query.findPath([0, 0], [15, 0]);
    const limited = query.trace();
    assert.equal(limited.events.length, 20);
    assert.equal(limited.recorded, recorded);
    assert.deepEqual(eventsOf(limited.events), list.slice(0, 5));
    query.setTrace(0);
    query.findPath([0, 0], [15, 0]);
    assert.equal(query.trace().recorded, 0);
  } finally {
    query.dispose();
    grid.dispose();
  }
});

test('mesh and voxel queries record their searches, stepped too', () => {
  const mesh = wf.navMeshFromObj('v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 20 0 0\nv 20 0 10\nf 1 4 3 2\nf 2 3 6 5\n');
  const meshQuery = mesh.createQuery();
  meshQuery.setTrace();
  assert.equal(meshQuery.findPath([1, 0, 1], [19, 0, 9]).status, 'found');
  const meshEvents = eventsOf(meshQuery.trace().events);
  assert.ok(meshEvents.length > 0);
  for (const [event, x, y, z] of meshEvents) {
    assert.ok(event >= 0 && event <= 2);
    assert.ok(x >= 0 && x <= 20 && y === 0 && z >= 0 && z <= 10, `${x},${y},${z} is on the mesh`);
  }
  meshQuery.dispose();
  mesh.dispose();

  const blocks = new Uint8Array(8 * 4 * 8);
  for (let z = 0; z < 8; ++z) for (let x = 0; x < 8; ++x) blocks[z * 8 + x] = 1;  // a floor at y = 0
  const world = wf.voxelWorldFromBlocks({ sizeX: 8, sizeY: 4, sizeZ: 8, blocks });
  assert.deepEqual(world.blocks(), blocks);
  const query = world.createQuery({ preset: 'flyer' });
  query.setTrace();
  assert.equal(query.begin([0, 1, 0], [7, 2, 7], { algorithm: 'astar' }), 'in_progress');
  while (query.step({ maxExpansions: 3 }) === 'in_progress');
  const result = query.result();
  assert.equal(result.status, 'found');
  const voxelEvents = eventsOf(query.trace().events);
  assert.deepEqual(voxelEvents[0], [0, 0, 1, 0]);
  assert.equal(voxelEvents.filter((e) => e[0] === 2).length, Number(result.stats.expanded));
  query.dispose();
  world.dispose();
});

test('generated grids of rooms and voxel terrain: the same seed, the same world', () => {
  const a = wf.generateRoomGrid({ width: 64, height: 48, seed: 7, rooms: 8 });
  const b = wf.generateRoomGrid({ width: 64, height: 48, seed: 7, rooms: 8 });
  const c = wf.generateRoomGrid({ width: 64, height: 48, seed: 8, rooms: 8 });
  const cells = (grid) => Array.from({ length: 64 * 48 }, (_, i) => grid.cell(i % 64, Math.floor(i / 64)).cost);
  assert.equal(a.width, 64);
  assert.deepEqual(cells(a), cells(b));
  assert.notDeepEqual(cells(a), cells(c));
  assert.ok(cells(a).some((cost) => cost === 0), 'walls');
  assert.ok(cells(a).some((cost) => cost > 1), 'forest or swamp');
  assert.throws(() => wf.generateRoomGrid({ width: 4, height: 4 }), /width/);
  for (const grid of [a, b, c]) grid.dispose();

  const world = wf.generateVoxelWorld({ sizeX: 64, sizeY: 32, sizeZ: 48, seed: 3 });
  const again = wf.generateVoxelWorld({ sizeX: 64, sizeY: 32, sizeZ: 48, seed: 3 });
  assert.deepEqual([world.sizeX, world.sizeY, world.sizeZ], [64, 32, 48]);
  const blocks = world.blocks();
  assert.deepEqual(again.blocks(), blocks);
  for (let z = 0; z < 48; z += 7) for (let x = 0; x < 64; x += 5) assert.equal(blocks[z * 64 + x], 1, 'bedrock at y = 0');
  assert.equal(world.block(5, 0, 7), 'solid');
  world.dispose();
  again.dispose();
});
