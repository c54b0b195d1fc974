// Navigation meshes: the reference query sets of <data>/meshes (as the native
// test_navmesh_data): every query's reachability as the file says, no path shorter than the
// true shortest length Polyanya computed (Cui, Harabor & Grastien 2017), and at most 6% longer
// at the 99th percentile. Then meshes from arrays, stepped searches and batches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { loadWayfinder } from '../src/index.js';
import { dataFile, readCsv } from './data.js';

const wf = await loadWayfinder();

function lengthXZ(points) {
  let length = 0;
  for (let i = 3; i < points.length; i += 3) {
    length += Math.hypot(points[i] - points[i - 3], points[i + 2] - points[i - 1]);
  }
  return length;
}

const cases = [
  { name: 'nav_test OBJ', mesh: 'derived/nav_test_navmesh.obj', queries: 'derived/nav_test_reference_queries.csv' },
  { name: 'dungeon OBJ', mesh: 'derived/dungeon_navmesh.obj', queries: 'derived/dungeon_reference_queries.csv' },
  { name: 'arena Polyanya mesh', mesh: 'polyanya/meshes/arena.mesh', queries: 'derived/arena_polyanya_optimal.csv' },
];

for (const c of cases) {
  test(`${c.name}: reference queries at their optimal lengths`, (t) => {
    const meshFile = dataFile(`meshes/${c.mesh}`, t);
    const queriesFile = meshFile && dataFile(`meshes/${c.queries}`, t);
    if (!queriesFile) return;
    const text = fs.readFileSync(meshFile, 'utf8');
    const mesh = c.mesh.endsWith('.obj') ? wf.navMeshFromObj(text) : wf.navMeshFromPolyanya(text);
    const query = mesh.createQuery();
    const ratios = [];
    try {
      assert.ok(mesh.polygonCount > 0);
      for (const [i, q] of readCsv(queriesFile).entries()) {
        // Reference CSV (sx, sy, sz, ex, ey, ez, reachable, optimal_len2d), or Polyanya's 2D
        // points (x, y) -> (x, 0, y).
        const start = 'sz' in q ? [q.sx, q.sy, q.sz] : [q.sx, 0, q.sy];
        const goal = 'ez' in q ? [q.ex, q.ey, q.ez] : [q.gx, 0, q.gy];
        const optimal = 'optimal_len2d' in q ? q.optimal_len2d : q.optimal_len;
        const reachable = 'reachable' in q ? q.reachable === 1 : optimal >= 0;
        const result = query.findPath(start, goal);
        assert.equal(result.status === 'found', reachable, `query ${i}: ${result.status} ${result.message}`);
        if (!reachable) {
          assert.equal(result.status, 'no_path');
          continue;
        }
        const length = lengthXZ(result.points);
        assert.ok(length >= optimal - 1e-4 - 1e-9 * optimal, `query ${i}: ${length} shorter than ${optimal}`);
        if (optimal > 0) ratios.push(length / optimal);
      }
    } finally {
      query.dispose();
      mesh.dispose();
    }
    ratios.sort((a, b) => a - b);
    assert.ok(ratios.length > 0);
    const p99 = ratios[Math.min(ratios.length - 1, Math.floor(0.99 * ratios.length))];
    assert.ok(p99 <= 1.06, `p99 length / optimal ${p99}`);
  });
}

// Two squares side by side, 0..2 x 0..1 in x-z, at y = 0.
const twoSquares = {
  vertices: [0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 0, 1, 1, 0, 1, 0, 0, 1],
  indices: [0, 1, 4, 5, 1, 2, 3, 4],
  polygonSizes: [4, 4],
};

test('a mesh from arrays: locate, find, step and batch', () => {
  const mesh = wf.navMeshFromArrays(twoSquares);
  const query = mesh.createQuery();
  const batch = wf.createBatch();
  try {
    assert.equal(mesh.polygonCount, 2);
    assert.equal(mesh.locate([1.5, 0, 0.5]).polygon, mesh.locate([1.9, 0, 0.1]).polygon);
    assert.equal(mesh.locate([5, 0, 5]), null);
    const result = query.findPath([0.1, 0, 0.5], [1.9, 0, 0.5]);
    assert.equal(result.status, 'found');
    assert.ok(Math.abs(result.cost - 1.8) < 1e-9);
    assert.equal(result.polygons.length, 2);
    assert.deepEqual(Array.from(result.points.slice(-3)), [1.9, 0, 0.5]);
    let status = query.begin([0.1, 0, 0.5], [1.9, 0, 0.5]);
    while (status === 'in_progress') status = query.step({ maxExpansions: 1 });
    assert.equal(status, 'found');
    assert.equal(query.result().cost, result.cost);
    const [a, b] = batch.solveNavMesh(mesh, [{ start: [0.1, 0, 0.5], goal: [1.9, 0, 0.5] },
      { start: [0.1, 0, 0.5], goal: [9, 0, 9] }]);
    assert.equal(a.cost, result.cost);
    assert.equal(b.status, 'invalid_input');
    assert.match(b.message, /goal/);
  } finally {
    batch.dispose();
    query.dispose();
    mesh.dispose();
  }
});

test('a baked .wfnav file: saved, loaded and answering as the mesh it came from', (t) => {
  const meshFile = dataFile('meshes/derived/dungeon_navmesh.obj', t);
  const queriesFile = meshFile && dataFile('meshes/derived/dungeon_reference_queries.csv', t);
  if (!queriesFile) return;
  const original = wf.navMeshFromObj(fs.readFileSync(meshFile, 'utf8'));
  const bytes = original.saveWfnav();
  const loaded = wf.navMeshFromWfnav(bytes);
  const a = original.createQuery();
  const b = loaded.createQuery();
  try {
    assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
    assert.deepEqual([loaded.vertexCount, loaded.polygonCount, loaded.regionCount],
      [original.vertexCount, original.polygonCount, original.regionCount]);
    assert.deepEqual(loaded.saveWfnav(), bytes);
    for (const q of readCsv(queriesFile).slice(0, 1000)) {
      const [start, goal] = [[q.sx, q.sy, q.sz], [q.ex, q.ey, q.ez]];
      const [x, y] = [a.findPath(start, goal), b.findPath(start, goal)];
      assert.equal(y.status, x.status);
      assert.equal(y.cost, x.cost);
      assert.deepEqual(y.points, x.points);
      assert.deepEqual(y.polygons, x.polygons);
    }
    // A truncated file and one that is not a .wfnav at all are refused, naming the data.
    for (const bad of [bytes.subarray(0, bytes.length >> 1), new TextEncoder().encode('v 0 0 0\n')]) {
      assert.throws(() => wf.navMeshFromWfnav(bad), (error) => error.status === 'load_error' && /wfnav data/.test(error.message));
    }
  } finally {
    a.dispose();
    b.dispose();
    original.dispose();
    loaded.dispose();
  }
});
