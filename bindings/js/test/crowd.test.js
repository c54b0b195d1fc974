// Crowds on the dungeon navmesh of the shared data (docs/crowds.md): agents sent from the starts
// of reference queries to their goals arrive there, their positions come out in a caller's
// Float32Array in the order of their ids, on the mesh; bad ids and settings throw.
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
