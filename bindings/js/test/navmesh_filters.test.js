// A mesh's areas and flags, read and edited, and per-query area filters in searches and
// batches, on four unit squares.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWayfinder } from '../src/index.js';

const wf = await loadWayfinder();

// Two by two unit squares (x, z): P0 = [0,1] x [0,1], P1 = [1,2] x [0,1], P2 = [0,1] x [1,2],
// P3 = [1,2] x [1,2]. From P0 to P3 through P1 or through P2.
const fourSquares = {
  vertices: [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1, 0, 0, 2, 1, 0, 2, 2, 0, 2],
  indices: [0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7],
  polygonSizes: [4, 4, 4, 4],
};
const start = [0.2, 0, 0.6];
const goal = [1.5, 0, 1.8];

function withMesh(body) {
  const mesh = wf.navMeshFromArrays(fourSquares);
  try {
    body(mesh);
  } finally {
    mesh.dispose();
  }
}

test('areas and flags are read and edited, each change one revision', () => withMesh((mesh) => {
  assert.deepEqual(mesh.polygonArea(2), { area: 0, flags: 0 });
  const before = mesh.revision;
  mesh.setArea(2, 3);
  assert.deepEqual(mesh.polygonArea(2), { area: 3, flags: 0 });
  assert.equal(mesh.revision, before + 1);
  mesh.setArea(2, 3);
  assert.equal(mesh.revision, before + 1, 'an edit that changes nothing is no revision');
  mesh.setFlags(1, 0x5);
  assert.deepEqual(mesh.polygonArea(1), { area: 0, flags: 0x5 });
  mesh.setAreaAndFlags(0, 7, 0x2);
  assert.deepEqual(mesh.polygonArea(0), { area: 7, flags: 0x2 });
  assert.equal(mesh.revision, before + 3);
}));

test('bad edits and reads throw and change nothing', () => withMesh((mesh) => {
  const before = mesh.revision;
  const invalid = (pattern) => (error) => error.status === 'invalid_argument' && pattern.test(error.message);
  assert.throws(() => mesh.setArea(0, 64), invalid(/area 64/));
  assert.throws(() => mesh.setFlags(4, 1), invalid(/polygon 4/));
  assert.throws(() => mesh.setAreaAndFlags(9, 1, 1), invalid(/polygon 9/));
  assert.throws(() => mesh.setFlags(0, 0x10000), invalid(/flags/));
  assert.throws(() => mesh.setArea(-1, 1), invalid(/polygon/));
  assert.throws(() => mesh.polygonArea(4), invalid(/polygon 4 is not in the mesh \(it has 4 polygons\)/));
  assert.throws(() => mesh.polygonArea(1.5), invalid(/polygon 1.5/));
  assert.equal(mesh.revision, before);
  assert.deepEqual(mesh.polygonArea(0), { area: 0, flags: 0 });
}));

test('a filter prices areas and excludes flags', () => withMesh((mesh) => {
  const query = mesh.createQuery();
  try {
    assert.deepEqual(Array.from(query.findPath(start, goal).polygons), [0, 2, 3], 'the straight line crosses P2');

    mesh.setArea(2, 3);
    const priced = query.findPath(start, goal, { filter: { areaCosts: { 3: 10 } } });
    assert.equal(priced.status, 'found', priced.message);
    assert.deepEqual(Array.from(priced.polygons), [0, 1, 3], 'P2 priced ten times: around it');
    assert.deepEqual(Array.from(priced.points.slice(3, 6)), [1, 0, 1]);
    // An array of costs too; Infinity closes the area.
    const costs = new Array(64).fill(1);
    costs[3] = Infinity;
    assert.deepEqual(Array.from(query.findPath(start, goal, { filter: { areaCosts: costs } }).polygons), [0, 1, 3]);
    assert.deepEqual(Array.from(query.findPath(start, goal, { filter: null }).polygons), [0, 2, 3]);

    const unusable = query.findPath(start, goal, { filter: { areaCosts: { 3: 0 } } });
    assert.equal(unusable.status, 'invalid_input');
    assert.match(unusable.message, /area 3/);

    mesh.setAreaAndFlags(2, 0, 0);
    mesh.setFlags(1, 0x1);
    const doors = { filter: { excludeFlags: 0x1 } };
    assert.deepEqual(Array.from(query.findPath(start, goal, doors).polygons), [0, 2, 3]);
    mesh.setFlags(2, 0x1);
    assert.equal(query.findPath(start, goal, doors).status, 'no_path');
    assert.equal(query.findPath(start, goal, { filter: { includeFlags: 0x2 } }).status, 'no_path');
    assert.equal(query.findPath(start, goal, { filter: { includeFlags: 0x1 } }).status, 'found');
    assert.equal(query.findPath(start, goal).status, 'found', 'without the filter the doors are open');

    // A stepped search notices an edit between its steps.
    let status = query.begin(start, goal, { filter: { includeFlags: 0x1 } });
    mesh.setFlags(3, 0x4);
    if (status === 'in_progress') status = query.step({});
    assert.equal(status, 'world_changed');
  } finally {
    query.dispose();
  }
}));

test('a batch takes the filter of its options', () => withMesh((mesh) => {
  const batch = wf.createBatch();
  try {
    mesh.setFlags(2, 0x1);
    const requests = [{ start, goal }];
    const [filtered] = batch.solveNavMesh(mesh, requests, { filter: { excludeFlags: 0x1 } });
    const [plain] = batch.solveNavMesh(mesh, requests);
    assert.equal(filtered.status, 'found');
    assert.deepEqual(Array.from(filtered.points.slice(3, 6)), [1, 0, 1], 'around P2, by the vertex (1, 1)');
    assert.equal(plain.points.length, 6, 'straight through P2');
  } finally {
    batch.dispose();
  }
}));

test('bad filters are refused before any search', () => withMesh((mesh) => {
  const invalid = (pattern) => (error) => error.status === 'invalid_argument' && pattern.test(error.message);
  assert.throws(() => mesh.findPath(start, goal, { filter: { areaCost: {} } }), invalid(/unknown filter field 'areaCost'/));
  assert.throws(() => mesh.findPath(start, goal, { filter: { areaCosts: { 64: 2 } } }), invalid(/area/));
  assert.throws(() => mesh.findPath(start, goal, { filter: { areaCosts: { 1: NaN } } }), invalid(/areaCosts\[1\]/));
  assert.throws(() => mesh.findPath(start, goal, { filter: { excludeFlags: -1 } }), invalid(/excludeFlags/));
  assert.throws(() => mesh.findPath(start, goal, { filter: 3 }), invalid(/filter must be an object/));
}));
