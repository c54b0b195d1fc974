// Wayfinder's WebAssembly build against PathFinding.js (npm `pathfinding`, pinned in
// package-lock.json) on the same MovingAI map and queries: A* against A*, jump point search
// against jump point search, with the MovingAI movement rule (8 directions, no corner cutting)
// on both sides. Prints the time per query and the queries whose path is longer than the
// scenario's optimal length.
//
//   cd bindings/js/bench && npm ci && node compare_pathfinding_js.js [map] [passes]
//
// map: a MovingAI .map with its .scen beside it (default den520d of the shared data); passes:
// how many times each finder runs the whole scenario (default 5; the fastest pass counts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PF from 'pathfinding';
import { loadWayfinder } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDirectory = process.env.WAYFINDER_DATA_DIR ?? path.resolve(here, '../../../../shared/data');
const mapFile = process.argv[2] || path.join(dataDirectory, 'movingai/dao/den520d.map');
const passes = Number(process.argv[3] ?? 5);

function readMap(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const height = Number(lines[1].split(' ')[1]);
  const width = Number(lines[2].split(' ')[1]);
  const rows = lines.slice(4, 4 + height);
  // MovingAI: '.' and 'G' are ground, 'S' swamp (passable); the rest blocks.
  const passable = (c) => c === '.' || c === 'G' || c === 'S';
  return { text: lines.join('\n'), width, height, blocked: rows.map((row) => Array.from(row, (c) => (passable(c) ? 0 : 1))) };
}

function readScenario(file) {
  return fs.readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '').map((line) => {
    const f = line.trim().split(/\s+/);
    return { start: [Number(f[4]), Number(f[5])], goal: [Number(f[6]), Number(f[7])], optimal: Number(f[8]) };
  });
}

// The octile length of a polyline whose segments are straight or diagonal (PathFinding.js's A*
// returns every cell, its JPS only the jump points).
function octileLength(points) {
  let length = 0;
  for (let i = 1; i < points.length; i += 1) {
    const dx = Math.abs(points[i][0] - points[i - 1][0]);
    const dy = Math.abs(points[i][1] - points[i - 1][1]);
    length += Math.max(dx, dy) + (Math.SQRT2 - 1) * Math.min(dx, dy);
  }
  return length;
}

// Scenario lengths print 6 significant digits (as test_movingai_data reads them).
const tolerance = (optimal) => Math.max(1e-3, optimal >= 1 ? 0.5 * 10 ** (Math.floor(Math.log10(optimal)) - 5) : 0);

/** Runs solve(query) -> cost over the scenario `passes` times; the fastest pass in wall time and
 *  in the process's processor time (user + system: less disturbed by other programs on a busy
 *  machine, though it also counts the garbage collector's helper threads), and the queries
 *  answered longer than optimal (or not at all). */
function measure(name, scenario, solve) {
  let best = Infinity;
  let bestCpu = Infinity;
  let nonOptimal = 0;
  let unsolved = 0;
  for (let pass = 0; pass < passes; pass += 1) {
    nonOptimal = 0;
    unsolved = 0;
    const begin = process.hrtime.bigint();
    const cpuBegin = process.cpuUsage();
    const costs = scenario.map(solve);
    const cpu = process.cpuUsage(cpuBegin);
    const elapsed = Number(process.hrtime.bigint() - begin) / 1e3;
    best = Math.min(best, elapsed);
    bestCpu = Math.min(bestCpu, cpu.user + cpu.system);
    costs.forEach((cost, i) => {
      if (!(cost >= 0)) unsolved += 1;
      else if (cost > scenario[i].optimal + tolerance(scenario[i].optimal)) nonOptimal += 1;
    });
  }
  return { name, microseconds: best / scenario.length, cpuMicroseconds: bestCpu / scenario.length, nonOptimal, unsolved };
}

const map = readMap(mapFile);
const scenario = readScenario(`${mapFile}.scen`);
const pfGrid = new PF.Grid(map.width, map.height, map.blocked);
const pfOptions = { diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PF.Heuristic.octile };
const pfAstar = new PF.AStarFinder(pfOptions);
const pfJps = new PF.JumpPointFinder(pfOptions);
// PathFinding.js marks its grid's nodes during a search: each search needs a fresh clone.
const pfSolve = (finder) => (q) => {
  const found = finder.findPath(q.start[0], q.start[1], q.goal[0], q.goal[1], pfGrid.clone());
  return found.length > 0 ? octileLength(found) : -1;
};

const wf = await loadWayfinder();
const grid = wf.gridFromMovingAI(map.text);
const query = grid.createQuery();
const wfSolve = (algorithm) => (q) => {
  const result = query.findPath(q.start, q.goal, { algorithm });
  return result.status === 'found' ? result.cost : -1;
};

const results = [
  measure('PathFinding.js A*', scenario, pfSolve(pfAstar)),
  measure('Wayfinder-wasm A*', scenario, wfSolve('astar')),
  measure('PathFinding.js JPS', scenario, pfSolve(pfJps)),
  measure('Wayfinder-wasm JPS', scenario, wfSolve('jps')),
  measure('PathFinding.js grid.clone() alone', scenario, () => { pfGrid.clone(); return 0; }),
];
query.dispose();
grid.dispose();

console.log(`${path.basename(mapFile)}: ${scenario.length} queries, fastest of ${passes} passes, node ${process.version}`);
for (const r of results) {
  console.log(`${r.name.padEnd(36)} ${r.microseconds.toFixed(1).padStart(9)} us/query wall` +
    ` ${r.cpuMicroseconds.toFixed(1).padStart(9)} us/query cpu   non-optimal ${r.nonOptimal}   unsolved ${r.unsolved}`);
}
const ratio = (a, b, key) => (results[a][key] / results[b][key]).toFixed(1);
console.log(`speed-up, wall: A* ${ratio(0, 1, 'microseconds')}x, JPS ${ratio(2, 3, 'microseconds')}x;` +
  ` cpu: A* ${ratio(0, 1, 'cpuMicroseconds')}x, JPS ${ratio(2, 3, 'cpuMicroseconds')}x`);
