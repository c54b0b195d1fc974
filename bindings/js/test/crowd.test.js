// Crowds on the dungeon navmesh of the shared data (docs/crowds.md): agents sent from the starts
// of reference queries to their goals arrive there, their positions come out in a caller's
// Float32Array in the order of their ids, on the mesh; bad ids and settings throw. Crowds on a
// grid walled but for a door: agents sent to points, and many agents sharing one flow target,
// all arrive and never stand in a blocked cell; bad flow targets throw.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { loadWayfinder } from '../src/index.js';
import { dataFile, readCsv } from './data.js';

const wf = await loadWayfinder();

test('agents of a crowd walk to their targets on the dungeon mesh', (t) => {
  const meshFile = dataFile('meshes/derived/dungeon_navmesh.obj', t);
  const queriesFile = meshFile && dataFile('meshes/derived/dungeon_reference_queries.csv', t);
  if (!queriesFile) return;
  const mesh = wf.navMeshFromObj(fs.readFileSync(meshFile, 'utf8'));
  const crowd = mesh.createCrowd({ maxNeighbours: 6 });
  try {
    // Eight reachable queries, their starts far apart so that the agents meet little.
    const trips = readCsv(queriesFile).filter((q) => q.reachable === 1 && q.optimal_len2d > 10).slice(0, 8)
      .map((q) => ({ start: [q.sx, q.sy, q.sz], goal: [q.ex, q.ey, q.ez], length: q.optimal_len2d }));
    const ids = trips.map((trip) => crowd.addAgent(trip.start, { radius: 0.4, maxSpeed: 4 }));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.equal(crowd.agentCount, trips.length);
    const before = crowd.positions();
    assert.ok(before instanceof Float32Array && before.length === 3 * trips.length);
    trips.forEach((trip, i) => {
      assert.ok(Math.hypot(before[3 * i] - trip.start[0], before[3 * i + 2] - trip.start[2]) < 1e-3);
      crowd.setTarget(ids[i], trip.goal);
    });
    const positions = new Float32Array(3 * trips.length + 3);
    const longest = Math.max(...trips.map((trip) => trip.length));
    for (let step = 0; step < (3 * longest) / 4 / 0.1; step += 1) crowd.update(0.1);
    assert.equal(crowd.positions(positions), positions);
    const agents = crowd.agents();
    assert.deepEqual(Array.from(agents.ids), ids);
    assert.equal(agents.velocities.length, 2 * trips.length);
    trips.forEach((trip, i) => {
      assert.equal(agents.states[i], 'arrived', `agent ${i}`);
      assert.ok(Math.abs(positions[3 * i] - agents.positions[3 * i]) < 1e-3);
      assert.ok(Math.hypot(positions[3 * i] - trip.goal[0], positions[3 * i + 2] - trip.goal[2]) < 0.5, `agent ${i}`);
      assert.notEqual(mesh.locate(Array.from(positions.subarray(3 * i, 3 * i + 3))), null);
    });
    crowd.removeAgent(ids[0]);
    assert.equal(crowd.agentCount, trips.length - 1);
    assert.throws(() => crowd.removeAgent(ids[0]), (error) => error.status === 'invalid_argument');
    assert.throws(() => crowd.setTarget(ids[1], [1e6, 0, 1e6]), (error) => error.status === 'invalid_argument');
    assert.throws(() => crowd.addAgent([0, 0, 0], { speed: 1 }), /unknown setting 'speed'/);
    assert.throws(() => crowd.positions(new Float32Array(2)), (error) => error.status === 'invalid_argument');
    assert.throws(() => mesh.dispose(), (error) => error.status === 'in_use');
  } finally {
    crowd.dispose();
    mesh.dispose();
  }
});

test('a player-driven agent walks at its velocity', () => {
  const mesh = wf.navMeshFromArrays({ vertices: [0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10], indices: [0, 1, 2, 3],
    polygonSizes: [4] });
  const crowd = mesh.createCrowd();
  try {
    const id = crowd.addAgent([2, 0, 5], { maxSpeed: 2, maxAcceleration: 100 });
    crowd.setVelocityTarget(id, [1, 0]);
    for (let step = 0; step < 20; step += 1) crowd.update(0.1);
    const [x, , z] = crowd.positions();
    assert.ok(x > 3.5 && x < 4.1, `x ${x}`);
    assert.ok(Math.abs(z - 5) < 1e-3);
    assert.equal(crowd.agents().states[0], 'moving');
  } finally {
    crowd.dispose();
    mesh.dispose();
  }
});

// 24 x 12 cells walled at column 12 but for a door at rows 5 and 6.
function doorwayGrid() {
  const grid = wf.createGrid(24, 12);
  grid.setPassable(12, 0, 1, 5, false);
  grid.setPassable(12, 7, 1, 5, false);
  return grid;
}

// Runs the crowd until every agent has arrived (at most `ticks` ticks of 0.1 s), checking after
// every tick that no agent's centre is in a blocked cell; returns the last read.
function runUntilArrived(crowd, grid, ticks) {
  let agents = crowd.agents();
  for (let tick = 0; tick < ticks; tick += 1) {
    crowd.update(0.1);
    agents = crowd.agents();
    for (let i = 0; i < agents.ids.length; i += 1) {
      const [x, , z] = agents.positions.subarray(3 * i, 3 * i + 3);
      assert.ok(grid.cell(Math.floor(x), Math.floor(z)).passable, `agent ${agents.ids[i]} at ${x}, ${z} in a blocked cell`);
    }
    if (agents.states.every((state) => state === 'arrived')) break;
  }
  return agents;
}

test('agents of a crowd on a grid cross the door both ways to their targets', () => {
  const grid = doorwayGrid();
  for (const jumpPoint of [false, true]) {
    const crowd = grid.createCrowd({}, { jumpPoint });
    try {
      assert.equal(crowd.grid, grid);
      assert.equal(crowd.mesh, null);
      const trips = [[[2.5, 0, 1.5], [21.5, 0, 10.5]], [[2.5, 0, 8.5], [21.5, 0, 2.5]], [[21.5, 0, 1.5], [2.5, 0, 10.5]],
        [[21.5, 0, 9.5], [3.5, 0, 3.5]]];
      const ids = trips.map(([start, goal]) => {
        const id = crowd.addAgent(start, { radius: 0.4, maxSpeed: 1.5 });
        crowd.setTarget(id, goal);
        return id;
      });
      const agents = runUntilArrived(crowd, grid, 800);
      assert.deepEqual(agents.states, trips.map(() => 'arrived'), `jumpPoint ${jumpPoint}`);
      trips.forEach(([, goal], i) => {
        assert.ok(Math.hypot(agents.positions[3 * i] - goal[0], agents.positions[3 * i + 2] - goal[2]) < 0.2);
        assert.ok(crowd.pathRequests(ids[i]) >= 1);
      });
      assert.throws(() => grid.dispose(), (error) => error.status === 'in_use');
    } finally {
      crowd.dispose();
    }
  }
  grid.dispose();
});

test('many agents share one flow target on a grid and arrive without path searches', () => {
  const grid = doorwayGrid();
  const crowd = grid.createCrowd();
  try {
    const ids = Array.from({ length: 10 }, (_, k) => crowd.addAgent([2.5 + Math.floor(k / 5) * 2, 0, 1.5 + (k % 5) * 2],
      { radius: 0.4, maxSpeed: 1.5 }));
    const goals = [];
    for (let y = 0; y < 12; y += 1) for (let x = 20; x < 23; x += 1) goals.push([x, y]);
    const field = crowd.createFlowField(goals);
    crowd.setFlowTarget(ids, field);
    const agents = runUntilArrived(crowd, grid, 1500);
    assert.deepEqual(agents.states, ids.map(() => 'arrived'));
    ids.forEach((id, i) => {
      assert.ok(agents.positions[3 * i] >= 20 && agents.positions[3 * i] < 23, `agent ${id}`);
      assert.equal(crowd.pathRequests(id), 0);
    });
    // The same field sends a late agent; goals given directly build one for the call.
    const late = crowd.addAgent([1.5, 0, 10.5], { radius: 0.4 });
    crowd.setFlowTarget(late, field);
    field.dispose();
    const other = crowd.addAgent([5.5, 0, 10.5], { radius: 0.4 });
    crowd.setFlowTarget([other], [[22, 11]]);
    assert.equal(crowd.pathRequests(late) + crowd.pathRequests(other), 0);
    assert.equal(crowd.agents().states[crowd.agentCount - 1], 'moving');
  } finally {
    crowd.dispose();
    grid.dispose();
  }
});

test('bad flow targets throw', () => {
  const grid = doorwayGrid();
  const crowd = grid.createCrowd();
  const mesh = wf.navMeshFromArrays({ vertices: [0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10], indices: [0, 1, 2, 3],
    polygonSizes: [4] });
  const meshCrowd = mesh.createCrowd();
  const small = wf.createGrid(5, 5);
  const smallCrowd = small.createCrowd();
  try {
    const id = crowd.addAgent([5.5, 0, 5.5]);
    const invalid = (pattern) => (error) => error.status === 'invalid_argument' && pattern.test(error.message);
    assert.throws(() => crowd.setFlowTarget(id, [[24, 3]]), invalid(/outside/));
    assert.throws(() => crowd.setFlowTarget(id, [[12, 0]]), invalid(/blocked/));
    assert.throws(() => crowd.setFlowTarget(id, []), invalid(/no goals/));
    assert.throws(() => crowd.setFlowTarget(id, [[NaN, 3]]), invalid(/goals\[0\]\[0\] must be a number, not NaN/));
    assert.throws(() => crowd.setFlowTarget(id, [[2.5, 3]]), invalid(/must be an integer/));
    assert.throws(() => crowd.setFlowTarget(id, [[2]]), invalid(/array of 2 numbers/));
    assert.throws(() => crowd.setFlowTarget(id, null), invalid(/goals must be an array/));
    assert.throws(() => crowd.setFlowTarget(999, [[22, 6]]), invalid(/no agent has the id 999/));
    assert.throws(() => crowd.pathRequests(999), invalid(/no agent has the id 999/));
    assert.throws(() => meshCrowd.setFlowTarget(meshCrowd.addAgent([5, 0, 5]), [[1, 1]]), invalid(/navigation mesh/));
    smallCrowd.addAgent([1.5, 0, 1.5]);
    const smallField = smallCrowd.createFlowField([[3, 3]]);
    assert.throws(() => crowd.setFlowTarget(id, smallField), invalid(/another grid/));
    assert.throws(() => small.dispose(), (error) => error.status === 'in_use');
    smallField.dispose();
    assert.throws(() => crowd.setFlowTarget(id, smallField), invalid(/disposed/));
    assert.equal(crowd.agents().states[0], 'idle'); // nothing changed
  } finally {
    smallCrowd.dispose();
    small.dispose();
    meshCrowd.dispose();
    mesh.dispose();
    crowd.dispose();
    grid.dispose();
  }
});
