// The viewer's worlds and searches in the browser itself, through the WebAssembly build of the
// library (the npm package wayfinder-wasm, bindings/js), for the static site where no
// `wayfinder serve` answers. It offers the calls the page makes of the server's JSON API
// (docs/viewer.md) and answers in the same shapes, so that the page draws both alike: paths with
// their search traces, JPS+ and HPA* (over the grid's derived data), generated grids of rooms,
// and seeded voxel terrain besides. What the WebAssembly module does not offer is left out:
// building a navigation mesh from a level (Recast is not in it; a level OBJ is shown under its
// mesh instead).
import {loadWayfinder} from 'wayfinder-wasm';
import {levelTriangles, meshDescription, readObj, readPolyanya} from './world_files.js';

// The page's algorithm names (the command line's) to the JavaScript package's.
const gridAlgorithms = {
  astar: 'astar', jps: 'jps', dijkstra: 'dijkstra', bfs: 'breadth_first', 'weighted-astar': 'weighted_astar',
  greedy: 'greedy_best_first', bidirectional: 'bidirectional_astar', ida: 'ida_star', 'crash-right': 'crash_right',
  'crash-left': 'crash_left', 'crash-auto': 'crash_auto', 'crash-four-way': 'crash_four_way', divide: 'divide',
  'jps-plus': 'jps_plus', hpa: 'hierarchical',
};
// The searches that read the grid's derived data (JPS+'s jump table, HPA*'s hierarchy).
const derivedAlgorithms = new Set(['jps_plus', 'hierarchical']);
// As `wayfinder serve`: a query keeps at most this many trace events.
const maxTraceEvents = 4000000;
const voxelAlgorithms = {astar: 'astar', jps: 'jps', dijkstra: 'dijkstra', 'weighted-astar': 'weighted_astar',
                         greedy: 'greedy_best_first'};
const blockCodes = {air: 0, solid: 1, water: 2, ladder: 3};
const costSymbols = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

const triples = (flat) => Array.from({length: flat.length / 3}, (_, i) => [flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]]);
const pairs = (flat) => Array.from({length: flat.length / 2}, (_, i) => [flat[2 * i], flat[2 * i + 1]]);

export async function createWasmBackend() {
  const wf = await loadWayfinder();
  const worlds = [];   // {id, name, kind, handle, query, description, level}

  function entry(id) {
    const world = worlds.find((w) => w.id === id);
    if (!world) throw new Error(`no world ${id}`);
    return world;
  }

  // As world_json.cpp describes a grid: '#' blocked, else the index of the cell's cost in costs.
  function describeGrid(grid) {
    const costs = [];
    const cells = new Array(grid.width * grid.height);
    for (let y = 0; y < grid.height; ++y)
      for (let x = 0; x < grid.width; ++x) {
        const cell = grid.cell(x, y);
        let symbol = '#';
        if (cell.passable) {
          let index = costs.indexOf(cell.cost);
          if (index < 0 && costs.length < costSymbols.length) index = costs.push(cell.cost) - 1;
          symbol = costSymbols[index < 0 ? costSymbols.length - 1 : index];
        }
        cells[y * grid.width + x] = symbol;
      }
    return {width: grid.width, height: grid.height, costs, cells: cells.join('')};
  }

  // Heights and kinds per column (as world_json.cpp), and every block for the 3D view, from
  // one copy of the world's blocks.
  function describeVoxels(world) {
    const {sizeX: sx, sizeY: sy, sizeZ: sz} = world;
    const blocks = world.blocks();
    const heights = new Int32Array(sx * sz).fill(-1);
    const tops = new Uint8Array(sx * sz);
    for (let y = 0, i = 0; y < sy; ++y)
      for (let column = 0; column < sx * sz; ++column, ++i)
        if (blocks[i] !== blockCodes.air) {
          heights[column] = y;
          tops[column] = blocks[i];
        }
    const letters = [' ', 's', 'w', 'l'];
    let kinds = '';
    for (let column = 0; column < sx * sz; ++column) kinds += letters[tops[column]] ?? 's';
    return {size: [sx, sy, sz], heights: Array.from(heights), kinds, blocks};
  }

  // The search's events as the server sends them: [event, x, y] on grids, [event, x, y, z] else.
  function traceOf(query, kind) {
    const {events, recorded} = query.trace();
    const count = events.length / 4;
    const trace = new Array(count);
    for (let i = 0; i < count; ++i)
      trace[i] = kind === 'grid' ? [events[4 * i], events[4 * i + 1], events[4 * i + 2]]
                                 : [events[4 * i], events[4 * i + 1], events[4 * i + 2], events[4 * i + 3]];
    return {trace, trace_events: recorded, trace_truncated: recorded > count};
  }

  // JPS+ and HPA* read the grid's derived data, built on first use and again after edits.
  function prepareDerived(world) {
    if (!world.derived) {
      world.derived = world.handle.createDerived({algorithm: 'jps_plus'});
      world.derived.update({algorithm: 'hierarchical'});
      world.derivedRevision = world.revision;
    } else if (world.derivedRevision !== world.revision) {
      world.derived.update({algorithm: 'jps_plus'});
      world.derived.update({algorithm: 'hierarchical'});
      world.derivedRevision = world.revision;
    }
    world.query.setDerived(world.derived);
  }

  function add(name, kind, handle, description) {
    const id = worlds.length === 0 ? 0 : worlds[worlds.length - 1].id + 1;
    worlds.push({id, name, kind, handle, query: null, revision: 0, description: {...description, id, name, kind}});
    return {id, name, kind};
  }

  return {
    mode: 'static',
    algorithms: {grid: Object.keys(gridAlgorithms), navmesh: ['astar'], voxel: Object.keys(voxelAlgorithms)},
    // What the page may generate: the server's grids of rooms, and (here only) voxel terrain.
    generators: ['grid', 'voxel'],

    async listWorlds() { return worlds.map(({id, name, kind}) => ({id, name, kind})); },

    async describeWorld(id) { return entry(id).description; },
    // The library's mesh or grid object of a mesh or grid world, whose createCrowd makes the crowd
    // panel's crowds in the page; null for a voxel world.
    crowdWorldOf(id) { const world = entry(id); return world.kind === 'navmesh' || world.kind === 'grid' ? world.handle : null; },

    // body: {kind: 'grid', name, movingai | generate: {width, height, seed, rooms}} |
    // {kind: 'navmesh', name, obj | polyanya} |
    // {kind: 'voxel', name, threeDMap | vox (bytes) | generate: {size: [x, y, z], seed}}.
    async addWorld(body) {
      if (body.kind === 'grid') {
        const grid = body.generate ? wf.generateRoomGrid(body.generate) : wf.gridFromMovingAI(body.movingai);
        return add(body.name, 'grid', grid, describeGrid(grid));
      }
      if (body.kind === 'navmesh') {
        const shape = body.obj !== undefined ? readObj(body.obj) : readPolyanya(body.polyanya);
        const mesh = body.obj !== undefined ? wf.navMeshFromObj(body.obj) : wf.navMeshFromPolyanya(body.polyanya);
        return add(body.name, 'navmesh', mesh, meshDescription(shape));
      }
      if (body.kind === 'voxel') {
        const world = body.generate
          ? wf.generateVoxelWorld({sizeX: body.generate.size[0], sizeY: body.generate.size[1],
                                   sizeZ: body.generate.size[2], seed: body.generate.seed})
          : body.vox !== undefined ? wf.voxelWorldFromVox(body.vox) : wf.voxelWorldFrom3dmap(body.threeDMap);
        return add(body.name, 'voxel', world, describeVoxels(world));
      }
      throw new Error(`cannot make a world of kind ${body.kind}`);
    },

    // A level's triangles shown faintly under a navigation mesh (the module cannot build one).
    async attachLevel(id, text) {
      entry(id).description.level = levelTriangles(text);
    },

    // Paints grid cells: set 'wall', 'floor' or a cost.
    async editGrid(id, {cells, set}) {
      const world = entry(id);
      for (const [x, y] of cells) {
        if (set === 'wall') world.handle.setPassable(x, y, 1, 1, false);
        else world.handle.setCost(x, y, 1, 1, set === 'floor' ? 1 : set);
      }
      world.revision += 1;
      Object.assign(world.description, describeGrid(world.handle));
    },

    async query(request) {
      const world = entry(request.world);
      if (!world.query) {
        world.query = world.handle.createQuery();
        world.query.setTrace(maxTraceEvents);
      }
      const options = {};
      if (request.weight !== undefined) options.weight = request.weight;
      let algorithm = request.algorithm;
      if (world.kind === 'grid') {
        algorithm = gridAlgorithms[request.algorithm];
        options.diagonal = request.diagonal.replaceAll('-', '_');
        options.heuristic = request.heuristic;
      } else if (world.kind === 'navmesh') {
        options.corridor = request.nodes === 'centroids' ? 'polygon_centroids' : 'edge_points';
        options.snapDistance = request.snap_distance;
      } else {
        algorithm = voxelAlgorithms[request.algorithm];
        options.profile = {preset: request.agent};
      }
      if (algorithm === undefined) throw new Error(`${request.algorithm} is not in the WebAssembly build`);
      if (world.kind !== 'navmesh') options.algorithm = algorithm;
      if (world.kind === 'grid' && derivedAlgorithms.has(algorithm)) prepareDerived(world);
      const result = world.query.findPath(request.start, request.goal, options);
      const found = result.status === 'found' || result.status === 'partial';
      const answer = {
        status: result.status, message: result.message || undefined, algorithm: request.algorithm,
        cost: found ? result.cost : null,
        stats: {expanded: Number(result.stats.expanded), generated: Number(result.stats.generated),
                microseconds: Number(result.stats.microseconds)},
      };
      if (world.kind === 'grid') {
        answer.path = pairs(result.cells);
        answer.moves = Math.max(0, answer.path.length - 1);
      } else if (world.kind === 'navmesh') {
        answer.path = triples(result.points);
        answer.corridor = Array.from(result.polygons ?? []);
      } else {
        answer.path = triples(result.blocks);
        answer.agent = request.agent;
      }
      if (request.trace) Object.assign(answer, traceOf(world.query, world.kind));
      return answer;
    },
  };
}
