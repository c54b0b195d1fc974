// Bad input: every mistake throws a WayfinderError that says what was wrong, and the module
// keeps working afterwards (no crash, no abort of the WebAssembly instance).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWayfinder, WayfinderError } from '../src/index.js';

const wf = await loadWayfinder();

function throwsWith(run, status, pattern) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof WayfinderError, `${error}`);
    assert.equal(error.status, status, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

test('malformed files name the line and the problem', () => {
  throwsWith(() => wf.gridFromMovingAI('type octile\nheight x\nwidth 2\nmap\n..\n'), 'load_error',
    /MovingAI map:2.*height/);
  throwsWith(() => wf.gridFromMovingAI(''), 'load_error', /MovingAI map/);
  throwsWith(() => wf.navMeshFromObj('v 0 0 0\nv 1 0 0\nf 1 2 7\n'), 'load_error', /OBJ text/);
  throwsWith(() => wf.navMeshFromPolyanya('mesh\n3\n'), 'load_error', /Polyanya mesh/);
  throwsWith(() => wf.voxelWorldFrom3dmap('voxel 2 2\n'), 'load_error', /3dmap text:1/);
  throwsWith(() => wf.voxelWorldFromVox(new Uint8Array([1, 2, 3])), 'load_error', /vox data/);
  throwsWith(() => wf.gridFromMovingAI(42), 'invalid_argument', /string or a Uint8Array/);
});

test('bad sizes and arrays', () => {
  throwsWith(() => wf.createGrid(-1, 5), 'invalid_argument', /width/);
  throwsWith(() => wf.gridFromCells({ width: 2, height: 2, passable: [1, 1, 1] }), 'invalid_argument',
    /passable has 3 entries where 4/);
  throwsWith(() => wf.gridFromCells({ width: 1, height: 1, passable: [1], costs: [-1] }), 'invalid_argument', /cost/);
  throwsWith(() => wf.navMeshFromArrays({ vertices: [0, 0, 0, 1, 0, 0, 1, 0, 1], indices: [0, 1, 9], polygonSizes: [3] }),
    'load_error', /./);
  throwsWith(() => wf.navMeshFromArrays({ vertices: [0, 0], indices: [], polygonSizes: [] }), 'invalid_argument',
    /triples/);
  throwsWith(() => wf.voxelWorldFromBlocks({ sizeX: 2, sizeY: 2, sizeZ: 2, blocks: [0, 0] }), 'invalid_argument',
    /blocks has 2 entries/);
  throwsWith(() => wf.voxelWorldFromBlocks({ sizeX: 2, sizeY: 2, sizeZ: 2, blocks: new Uint8Array(8).fill(9) }),
    'invalid_argument', /./);
});

test('bad queries answer invalid_input with a message; bad options throw', () => {
  const grid = wf.createGrid(4, 4);
  const query = grid.createQuery();
  try {
    const outside = query.findPath([0, 0], [10, 0]);
    assert.equal(outside.status, 'invalid_input');
    assert.match(outside.message, /goal/);
    const weight = query.findPath([0, 0], [3, 3], { algorithm: 'weighted_astar', weight: 0.5 });
    assert.equal(weight.status, 'invalid_input');
    assert.match(weight.message, /weight/);
    throwsWith(() => query.findPath([0, 0], [3, 3], { algorithm: 'teleport' }), 'invalid_argument',
      /unknown grid algorithm 'teleport'/);
    throwsWith(() => query.findPath([0, 0], [3], {}), 'invalid_argument', /goal must be an array of 2/);
    throwsWith(() => query.findPath([0, 'a'], [3, 3]), 'invalid_argument', /start\[1\] must be a number/);
    throwsWith(() => query.step({ maxExpansions: -1 }), 'invalid_argument', /maxExpansions/);
    throwsWith(() => grid.setPassable(3, 3, 5, 5, false), 'invalid_argument', /./);
    throwsWith(() => grid.cell(9, 9), 'invalid_argument', /./);
  } finally {
    query.dispose();
    grid.dispose();
  }
  assert.equal(wf.createGrid(2, 2).findPath([0, 0], [1, 1]).status, 'found', 'the module still works');
});

test('memory rules: a world with queries cannot be disposed; disposed objects refuse calls', () => {
  const grid = wf.createGrid(4, 4);
  const query = grid.createQuery();
  throwsWith(() => grid.dispose(), 'in_use', /queries: dispose them first/);
  query.dispose();
  query.dispose();  // twice does nothing
  throwsWith(() => query.findPath([0, 0], [1, 1]), 'invalid_argument', /GridQuery was disposed/);
  grid.dispose();
  assert.equal(grid.disposed, true);
  throwsWith(() => grid.createQuery(), 'invalid_argument', /Grid was disposed/);
});

test('queries and worlds made and disposed many times do not grow the memory', () => {
  const text = `type octile\nheight 64\nwidth 64\nmap\n${'.'.repeat(64)}\n`.repeat(1).replace(/map\n.*\n$/, `map\n${`${'.'.repeat(64)}\n`.repeat(64)}`);
  const once = () => {
    const grid = wf.gridFromMovingAI(text);
    grid.findPath([0, 0], [63, 63]);
    grid.dispose();
  };
  for (let i = 0; i < 20; i += 1) once();
  const before = wf.runtime.module.HEAPU8.length;
  for (let i = 0; i < 200; i += 1) once();
  assert.equal(wf.runtime.module.HEAPU8.length, before);
});
