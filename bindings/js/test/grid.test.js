// Grids: MovingAI maps answered at their scenarios' optimal lengths (Sturtevant 2012), by A*
// and JPS, one query at a time, stepped, and in a batch; edits and cells.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { loadWayfinder } from '../src/index.js';
import { dataFile, readScenario } from './data.js';

const wf = await loadWayfinder();

for (const map of ['dao/den520d', 'dao/arena2', 'bg512/AR0011SR']) {
  test(`${map}: A* and JPS find every scenario's optimal length`, (t) => {
    const mapFile = dataFile(`movingai/${map}.map`, t);
    if (!mapFile) return;
    const scenario = readScenario(`${mapFile}.scen`);
    assert.ok(scenario.length > 0);
    const grid = wf.gridFromMovingAI(fs.readFileSync(mapFile, 'utf8'));
    const query = grid.createQuery();
    try {
      for (const algorithm of ['astar', 'jps']) {
        for (const [i, q] of scenario.entries()) {
          const result = query.findPath(q.start, q.goal, { algorithm });
          assert.equal(result.status, 'found', `${algorithm} query ${i}: ${result.message}`);
          assert.ok(Math.abs(result.cost - q.optimal) <= q.tolerance, `${algorithm} query ${i}: ${result.cost} vs ${q.optimal}`);
          if (algorithm === 'astar') {
            assert.deepEqual(Array.from(result.cells.slice(0, 2)), q.start);
            assert.deepEqual(Array.from(result.cells.slice(-2)), q.goal);
          }
        }
      }
    } finally {
      query.dispose();
      grid.dispose();
    }
  });
}

test('a batch answers as single queries do', (t) => {
  const mapFile = dataFile('movingai/dao/den520d.map', t);
  if (!mapFile) return;
  const scenario = readScenario(`${mapFile}.scen`).slice(0, 200);
  const grid = wf.gridFromMovingAI(fs.readFileSync(mapFile, 'utf8'));
  const batch = wf.createBatch();
  try {
    const results = batch.solveGrid(grid, scenario.map((q) => ({ start: q.start, goal: q.goal })), { algorithm: 'jps' });
    assert.equal(results.length, scenario.length);
    results.forEach((result, i) => {
      assert.equal(result.status, 'found');
      assert.ok(Math.abs(result.cost - scenario[i].optimal) <= scenario[i].tolerance);
      assert.deepEqual(Array.from(result.cells.slice(-2)), scenario[i].goal);
    });
  } finally {
    batch.dispose();
    grid.dispose();
  }
});

test('a stepped search ends with the one-call answer', () => {
  const grid = wf.createGrid(64, 64);
  grid.setPassable(10, 0, 1, 60, false);
  const query = grid.createQuery();
  try {
    const whole = query.findPath([0, 0], [63, 0]);
    let status = query.begin([0, 0], [63, 0], { algorithm: 'astar' });
    let steps = 0;
    while (status === 'in_progress') {
      status = query.step({ maxExpansions: 50 });
      steps += 1;
    }
    assert.ok(steps > 1);
    assert.equal(status, 'found');
    const stepped = query.result();
    assert.equal(stepped.cost, whole.cost);
    assert.deepEqual(stepped.cells, whole.cells);
  } finally {
    query.dispose();
    grid.dispose();
  }
});

test('cells from arrays, costs, edits and options', () => {
  // 3 x 3, the middle column blocked except at the bottom.
  const grid = wf.gridFromCells({ width: 3, height: 3, passable: [1, 0, 1, 1, 0, 1, 1, 1, 1] });
  try {
    assert.equal(grid.width, 3);
    assert.equal(grid.cell(1, 1).passable, false);
    const around = grid.findPath([0, 0], [2, 0], { diagonal: 'never' });
    assert.equal(around.status, 'found');
    assert.equal(around.cost, 6);
    grid.setPassable(1, 0, 1, 1, true);
    assert.equal(grid.findPath([0, 0], [2, 0]).cost, 2);
    grid.setCost(1, 0, 1, 1, 10);
    assert.equal(grid.cell(1, 0).cost, 10);
    // The costly cell is now dearer than the way round (6 straight moves).
    assert.equal(grid.findPath([0, 0], [2, 0], { algorithm: 'dijkstra' }).cost, 6);
    const budget = grid.findPath([0, 0], [2, 0], { maxExpansions: 1, returnPartial: false });
    assert.equal(budget.status, 'budget_exhausted');
    assert.equal(budget.reason, 'expansion_limit');
    const weighted = grid.findPath([0, 0], [2, 2], { algorithm: 'weighted_astar', weight: 1.5, heuristic: 'octile' });
    assert.equal(weighted.status, 'found');
  } finally {
    grid.dispose();
  }
});

test('JPS+ over the derived jump table: optimal lengths, stale after an edit until updated', (t) => {
  const mapFile = dataFile('movingai/dao/arena2.map', t);
  if (!mapFile) return;
  const scenario = readScenario(`${mapFile}.scen`);
  const grid = wf.gridFromMovingAI(fs.readFileSync(mapFile, 'utf8'));
  const query = grid.createQuery();
  const derived = grid.createDerived({ algorithm: 'jps_plus' });
  try {
    assert.equal(query.findPath(scenario[0].start, scenario[0].goal, { algorithm: 'jps_plus' }).status, 'invalid_input');
    query.setDerived(derived);
    for (const [i, q] of scenario.entries()) {
      const result = query.findPath(q.start, q.goal, { algorithm: 'jps_plus' });
      assert.equal(result.status, 'found', `query ${i}: ${result.message}`);
      assert.ok(Math.abs(result.cost - q.optimal) <= q.tolerance, `query ${i}: ${result.cost} vs ${q.optimal}`);
    }
    assert.throws(() => grid.dispose(), (error) => error.status === 'in_use');
    // An edit makes the table stale: refused until it is built again and given again.
    const q = scenario[scenario.length - 1];
    const before = query.findPath(q.start, q.goal, { algorithm: 'jps_plus' }).cost;
    // JPS+ needs one cost everywhere: the edit blocks a cell of the path instead.
    const cells = query.findPath(q.start, q.goal, { algorithm: 'astar' }).cells;
    const middle = 2 * Math.floor(cells.length / 4);
    grid.setPassable(cells[middle], cells[middle + 1], 1, 1, false);
    assert.equal(query.findPath(q.start, q.goal, { algorithm: 'jps_plus' }).status, 'invalid_input');
    derived.update({ algorithm: 'jps_plus' });
    query.setDerived(derived);
    const after = query.findPath(q.start, q.goal, { algorithm: 'jps_plus' });
    const astar = query.findPath(q.start, q.goal, { algorithm: 'astar' });
    assert.equal(after.status, 'found', after.message);
    assert.ok(Math.abs(after.cost - astar.cost) < 1e-9 && after.cost >= before);
  } finally {
    derived.dispose();
    query.dispose();
    grid.dispose();
  }
});
