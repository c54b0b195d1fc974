// An application of the installed package: imported by its name, as a user's code would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWayfinder, WayfinderError } from 'wayfinder-wasm';

test('the installed package finds paths on a grid, a mesh and a voxel world', async () => {
  const wf = await loadWayfinder();
  assert.match(wf.version, /^\d+\.\d+\.\d+$/);

  const grid = wf.gridFromMovingAI('type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n');
  const route = grid.findPath([0, 1], [3, 1], { algorithm: 'jps' });
  assert.equal(route.status, 'found');
  assert.equal(route.cost, 5);  // round the wall: no corner cutting
  grid.dispose();

  const mesh = wf.navMeshFromObj('v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 2 3 4\n');
  assert.equal(mesh.findPath([1, 0, 1], [3, 0, 3]).status, 'found');
  mesh.dispose();

  const world = wf.voxelWorldFromBlocks({ sizeX: 4, sizeY: 4, sizeZ: 4 });
  const flight = world.findPath([0, 0, 0], [3, 3, 3], { profile: { preset: 'flyer' }, algorithm: 'jps' });
  assert.equal(flight.status, 'found');
  assert.ok(Math.abs(flight.cost - 3 * Math.sqrt(3)) < 1e-9);
  world.dispose();

  assert.throws(() => wf.gridFromMovingAI('nonsense'), WayfinderError);
});
