// Wayfinder's WebAssembly build against recast-navigation-js (npm `@recast-navigation/core` and
// `@recast-navigation/generators`, pinned in package-lock.json: Recast and Detour compiled to
// WebAssembly) on the same navigation mesh and the same queries, in one Node process.
//
//   cd bindings/js/bench && npm ci && node compare_recast_navigation_js.js [level] [rounds]
//
// level: nav_test or dungeon (default both); rounds: how many times each library answers every
// query (default 7). recast-navigation-js builds Detour's mesh from the level OBJ of
// <data>/meshes/recastnavigation with RecastDemo's solo-mesh settings, as the shared data's
// derived/<level>_navmesh.obj was built (<data>/meshes/SOURCES.md); Wayfinder loads that OBJ.
// Both then answer every query of derived/<level>_reference_queries.csv: recast-navigation-js
// with NavMeshQuery.computePath (nearest polygons, Detour's findPath, findStraightPath) and, apart,
// with findPath alone on polygons found beforehand; Wayfinder with NavMeshQuery.findPath (locate
// both ends, corridor search, funnel; the path's points and polygons copied out). Rounds run the
// libraries by turns, the order alternating, so that each round's ratio is of two times taken
// under the same load; the medians over the rounds are printed. Before timing, every answer is
// checked against the reference file: reachability, and the path's length against Detour's
// recorded length (detour_len3d, detour_len2d) and the true shortest length (optimal_len2d).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, NavMeshQuery } from '@recast-navigation/core';
import { generateSoloNavMesh } from '@recast-navigation/generators';
import { loadWayfinder } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDirectory = process.env.WAYFINDER_DATA_DIR ?? path.resolve(here, '../../../../shared/data');
const levels = process.argv[2] ? [process.argv[2]] : ['nav_test', 'dungeon'];
const rounds = Number(process.argv[3] ?? 7);

// RecastDemo's solo-mesh defaults (Sample.cpp's resetCommonSettings, detail sampling 6 cells and
// 1 cell height), in the units recastConfig takes: voxels for heights, climb, radius and edge
// length (RecastDemo's ceil/floor of world units over cs or ch); the generator squares the region
// sizes and scales the detail settings by cs and ch, as RecastDemo does.
const cs = 0.3;
const ch = 0.2;
const soloSettings = {
  cs,
  ch,
  walkableSlopeAngle: 45,
  walkableHeight: Math.ceil(2.0 / ch),
  walkableClimb: Math.floor(0.9 / ch),
  walkableRadius: Math.ceil(0.6 / cs),
  maxEdgeLen: Math.trunc(12 / cs),
  maxSimplificationError: 1.3,
  minRegionArea: 8,
  mergeRegionArea: 20,
  maxVertsPerPoly: 6,
  detailSampleDist: 6,
  detailSampleMaxError: 1,
};

/** The level's vertices and triangles (faces fanned, as RecastDemo's OBJ reader does). */
function readLevel(file) {
  const positions = [];
  const indices = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 'v') positions.push(Number(f[1]), Number(f[2]), Number(f[3]));
    if (f[0] !== 'f') continue;
    const corners = f.slice(1).map((c) => {
      const i = parseInt(c.split('/')[0], 10);
      return i < 0 ? positions.length / 3 + i : i - 1;
    });
    for (let k = 2; k < corners.length; k += 1) indices.push(corners[0], corners[k - 1], corners[k]);
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

function readCsv(file) {
  const [header, ...lines] = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], Number(v)])));
}

/** Lengths in 3D and in x-z of a polyline of [x, y, z] points. */
function lengths(points) {
  let length3d = 0;
  let length2d = 0;
  for (let i = 1; i < points.length; i += 1) {
    const [dx, dy, dz] = [0, 1, 2].map((k) => points[i][k] - points[i - 1][k]);
    length3d += Math.hypot(dx, dy, dz);
    length2d += Math.hypot(dx, dz);
  }
  return { length3d, length2d };
}

const differs = (a, b) => Math.abs(a - b) > 1e-3 * Math.max(1, Math.abs(b));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Checks each answer against the reference: answer(q) -> null (no path) or [x, y, z] points. */
function check(queries, answer) {
  const counts = { reachability: 0, differsFromDetour3d: 0, differsFromDetour2d: 0, longerThanOptimal: 0,
    shorterThanOptimal: 0 };
  for (const q of queries) {
    const points = answer(q);
    if ((points !== null) !== (q.reachable === 1)) {
      counts.reachability += 1;
      continue;
    }
    if (points === null) continue;
    const { length3d, length2d } = lengths(points);
    if (differs(length3d, q.detour_len3d)) counts.differsFromDetour3d += 1;
    if (differs(length2d, q.detour_len2d)) counts.differsFromDetour2d += 1;
    if (length2d > q.optimal_len2d + 1e-3 * Math.max(1, q.optimal_len2d)) counts.longerThanOptimal += 1;
    if (length2d < q.optimal_len2d - 1e-3 * Math.max(1, q.optimal_len2d)) counts.shorterThanOptimal += 1;
  }
  return counts;
}

/** Microseconds per query of one pass of solve over every query: in wall time, and in the
 *  process's processor time (user + system), which a busy machine disturbs less. */
function timePass(queries, solve) {
  const begin = process.hrtime.bigint();
  const cpuBegin = process.cpuUsage();
  for (const q of queries) solve(q);
  const cpu = process.cpuUsage(cpuBegin);
  return { wall: Number(process.hrtime.bigint() - begin) / 1e3 / queries.length, cpu: (cpu.user + cpu.system) / queries.length };
}

await init();
const wf = await loadWayfinder();
console.log(`node ${process.version}, ${rounds} rounds; median microseconds per query, ratio Wayfinder / recast-navigation-js`);

for (const level of levels) {
  const level3d = readLevel(path.join(dataDirectory, `meshes/recastnavigation/${level}.obj`));
  const generated = generateSoloNavMesh(level3d.positions, level3d.indices, soloSettings);
  if (!generated.success) throw new Error(`recast-navigation-js could not build ${level}: ${generated.error}`);
  const { navMesh } = generated;
  // The reference queries' ends lie on the mesh: the half extents of Detour's own comparison
  // (bench/bench_detour_comparison.cpp) find their polygons.
  const detour = new NavMeshQuery(navMesh);
  detour.defaultQueryHalfExtents = { x: 2, y: 4, z: 2 };
  const mesh = wf.navMeshFromObj(fs.readFileSync(path.join(dataDirectory, `meshes/derived/${level}_navmesh.obj`), 'utf8'));
  const query = mesh.createQuery();

  const queries = readCsv(path.join(dataDirectory, `meshes/derived/${level}_reference_queries.csv`)).map((q) => ({
    ...q,
    startXYZ: { x: q.sx, y: q.sy, z: q.sz },
    goalXYZ: { x: q.ex, y: q.ey, z: q.ez },
    start: [q.sx, q.sy, q.sz],
    goal: [q.ex, q.ey, q.ez],
  }));
  for (const q of queries) {
    q.startRef = detour.findNearestPoly(q.startXYZ).nearestRef;
    q.goalRef = detour.findNearestPoly(q.goalXYZ).nearestRef;
  }

  // computePath returns a path to the nearest reachable point when the goal cannot be reached.
  const recastAnswer = (q) => {
    const { success, path: found } = detour.computePath(q.startXYZ, q.goalXYZ);
    if (!success || found.length === 0) return null;
    const last = found[found.length - 1];
    if (Math.hypot(last.x - q.ex, last.y - q.ey, last.z - q.ez) > 1e-3) return null;
    return found.map((p) => [p.x, p.y, p.z]);
  };
  const wayfinderAnswer = (q) => {
    const result = query.findPath(q.start, q.goal);
    if (result.status !== 'found') return null;
    return Array.from({ length: result.points.length / 3 }, (_, i) => Array.from(result.points.subarray(3 * i, 3 * i + 3)));
  };
  const tilePolygons = navMesh.getTile(0).header().polyCount();
  console.log(`\n${level}: ${queries.length} queries; recast-navigation-js built ${tilePolygons} polygons, ` +
    `the derived OBJ has ${mesh.polygonCount}`);
  for (const [name, answer] of [['recast-navigation-js computePath', recastAnswer], ['Wayfinder-wasm findPath', wayfinderAnswer]]) {
    const c = check(queries, answer);
    console.log(`  ${name.padEnd(36)} reachability differs ${c.reachability}, length differs from Detour's` +
      ` (3d ${c.differsFromDetour3d}, x-z ${c.differsFromDetour2d}), x-z longer than optimal ${c.longerThanOptimal},` +
      ` shorter ${c.shorterThanOptimal}`);
  }

  const passes = {
    computePath: (q) => detour.computePath(q.startXYZ, q.goalXYZ),
    findPath: (q) => detour.findPath(q.startRef, q.goalRef, q.startXYZ, q.goalXYZ).polys.destroy(),
    wayfinder: (q) => query.findPath(q.start, q.goal),
  };
  const times = { computePath: [], findPath: [], wayfinder: [] };
  const ratios = { computePath: [], findPath: [] };
  // Two untimed passes each first: WebAssembly's optimising compiler takes over from the baseline
  // one during the first thousands of calls, in both modules.
  for (let warmUp = 0; warmUp < 2; warmUp += 1) for (const name of Object.keys(passes)) timePass(queries, passes[name]);
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['computePath', 'findPath', 'wayfinder'] : ['wayfinder', 'findPath', 'computePath'];
    const t = {};
    for (const name of order) t[name] = timePass(queries, passes[name]);
    for (const name of Object.keys(times)) times[name].push(t[name]);
    for (const name of Object.keys(ratios)) {
      ratios[name].push({ wall: t.wayfinder.wall / t[name].wall, cpu: t.wayfinder.cpu / t[name].cpu });
    }
  }
  const show = (values, key, digits) => median(values.map((v) => v[key])).toFixed(digits);
  const range = (values, key) => `${Math.min(...values.map((v) => v[key])).toFixed(2)} to ${Math.max(...values.map((v) => v[key])).toFixed(2)}`;
  for (const [name, label] of [['computePath', 'recast-navigation-js computePath'], ['findPath', 'recast-navigation-js findPath alone'],
    ['wayfinder', 'Wayfinder-wasm findPath']]) {
    console.log(`  ${label.padEnd(36)} ${show(times[name], 'wall', 2).padStart(8)} us wall ${show(times[name], 'cpu', 2).padStart(8)} us cpu`);
  }
  for (const name of Object.keys(ratios)) {
    console.log(`  ratio Wayfinder / ${name.padEnd(12)} wall ${show(ratios[name], 'wall', 3)} (rounds ${range(ratios[name], 'wall')}),` +
      ` cpu ${show(ratios[name], 'cpu', 3)} (rounds ${range(ratios[name], 'cpu')})`);
  }

  query.dispose();
  mesh.dispose();
  detour.destroy();
  navMesh.destroy();
}
