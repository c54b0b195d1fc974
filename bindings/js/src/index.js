// Wayfinder in JavaScript: the C API (bindings/c/include/wayfinder.h) compiled to WebAssembly,
// wrapped in classes. Every world, query and batch owns memory inside the WebAssembly module,
// which JavaScript's garbage collector cannot see: call dispose() on each (docs/javascript.md).
import createWayfinderModule from '../dist/wayfinder_wasm.mjs';
import { readStructLayout } from './struct_layout.js';

const statusNames = ['ok', 'invalid_argument', 'load_error', 'out_of_memory', 'buffer_too_small', 'in_use',
  'internal_error'];
const searchStatusNames = ['in_progress', 'found', 'partial', 'no_path', 'budget_exhausted', 'invalid_input',
  'world_changed'];
const stopReasonNames = ['none', 'goal_reached', 'open_list_empty', 'expansion_limit', 'cost_limit', 'time_limit',
  'invalid_input', 'world_changed', 'gave_up', 'memory_limit'];
const gridAlgorithms = {
  breadth_first: 0, dijkstra: 1, astar: 2, weighted_astar: 3, greedy_best_first: 4, bidirectional_astar: 5,
  ida_star: 6, jps: 7, crash_right: 8, crash_left: 9, crash_auto: 10, crash_four_way: 11, divide: 12, jps_plus: 13,
  hierarchical: 14,
};
const diagonalModes = { never: 0, at_least_one_walkable: 1, only_if_no_obstacles: 2, always: 3 };
const heuristics = { automatic: 0, octile: 1, euclidean: 2, manhattan: 3, chebyshev: 4 };
const corridorNodes = { polygon_centroids: 0, edge_points: 1 };
const maxAreas = 64;
const areaFilterFields = ['areaCosts', 'includeFlags', 'excludeFlags'];
const voxelAlgorithms = { dijkstra: 0, astar: 1, weighted_astar: 2, greedy_best_first: 3, jps: 4 };
const blockKinds = { air: 0, solid: 1, water: 2, ladder: 3 };
// wf_movement_profile's ints, in the struct's order (agentWidth follows fly there).
const profileInts = ['agentHeight', 'walkDirections', 'stepHeight', 'jumpHeight', 'jumpDistance', 'maxFall', 'swim',
  'climb', 'fly', 'agentWidth'];
const profileDoubles = ['walkCost', 'diagonalCost', 'stepUpCost', 'jumpCost', 'fallCost', 'swimCost', 'climbCost',
  'flyCost'];
const errorCapacity = 512;
const scratchBytes = 16384;
const unlimitedExpansions = 0xffffffffffffffffn;

/** What every failed call throws: `status` is the C API's status name ('invalid_argument',
 *  'load_error', 'in_use', ...), `message` says what was wrong. */
export class WayfinderError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'WayfinderError';
    this.status = status;
  }
}

function choice(table, value, what) {
  if (!Object.hasOwn(table, value)) {
    throw new WayfinderError('invalid_argument', `unknown ${what} '${value}' (one of: ${Object.keys(table).join(', ')})`);
  }
  return table[value];
}

function integerIn(value, what, low, high) {
  if (!Number.isInteger(value) || value < low || value > high) {
    throw new WayfinderError('invalid_argument', `${what} must be an integer from ${low} to ${high}, not ${value}`);
  }
  return value;
}

function finite(value, what) {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new WayfinderError('invalid_argument', `${what} must be a number, not ${value}`);
  }
  return value;
}

function point(value, size, what) {
  if (value == null || typeof value.length !== 'number' || value.length !== size) {
    throw new WayfinderError('invalid_argument', `${what} must be an array of ${size} numbers`);
  }
  const values = new Array(size);
  for (let i = 0; i < size; i += 1) {
    const v = value[i];
    // The message is built only on failure: a template per coordinate costs more than a search.
    values[i] = typeof v === 'number' && !Number.isNaN(v) ? v : finite(v, `${what}[${i}]`);
  }
  return values;
}

/** The module and the calls every wrapper shares. One per loadWayfinder(). */
class Runtime {
  constructor(module) {
    this.module = module;
    this.layout = readStructLayout(module);
    this.fileCount = 0;
    this.scratchBase = module._malloc(scratchBytes);
    if (this.scratchBase === 0) throw new WayfinderError('out_of_memory', 'wayfinder: cannot allocate the scratch region');
    this.scratchTop = 0;
  }

  get heapU8() { return this.module.HEAPU8; }
  get heap32() { return this.module.HEAP32; }
  get heapU32() { return this.module.HEAPU32; }
  get heapF32() { return this.module.HEAPF32; }
  get heapF64() { return this.module.HEAPF64; }

  /** The module's memory seen as View (one of the typed arrays above). */
  heapOf(View) {
    const m = this.module;
    switch (View) {
      case Float64Array: return m.HEAPF64;
      case Float32Array: return m.HEAPF32;
      case Uint32Array: return m.HEAPU32;
      case Int32Array: return m.HEAP32;
      default: return m.HEAPU8;
    }
  }

  /** Runs body(alloc) and frees what alloc(bytes) returned, whatever happens. alloc hands out
   *  zeroed, 8-byte aligned blocks from one reused region (a stack: a nested scratch takes its
   *  blocks above its caller's and gives them back on return), and falls back to malloc for what
   *  does not fit, so that a query's few small buffers cost no malloc and free each call. */
  scratch(body) {
    const mark = this.scratchTop;
    let blocks = null;
    const alloc = (bytes) => {
      const size = (Math.max(8, bytes) + 7) & ~7;
      let address;
      if (this.scratchTop + size <= scratchBytes) {
        address = this.scratchBase + this.scratchTop;
        this.scratchTop += size;
      } else {
        address = this.module._malloc(size);
        if (address === 0) throw new WayfinderError('out_of_memory', `wayfinder: cannot allocate ${bytes} bytes`);
        (blocks ??= []).push(address);
      }
      this.heapU8.fill(0, address, address + size);
      return address;
    };
    try {
      return body(alloc);
    } finally {
      this.scratchTop = mark;
      if (blocks) for (const address of blocks) this.module._free(address);
    }
  }

  text(address) { return this.module.UTF8ToString(address); }

  /** Throws unless `status` is WF_OK; the message is the error buffer's or the handle's text. */
  check(status, errorAddress, handle) {
    if (status === 0) return;
    let message = errorAddress ? this.text(errorAddress) : '';
    if (!message && handle) message = this.text(this.module._wf_last_error(handle));
    const name = statusNames[status] ?? 'internal_error';
    throw new WayfinderError(name, message || `wayfinder: ${name}`);
  }

  /** Calls create(outAddress, errorAddress, errorCapacity) and returns the handle it made. */
  create(create) {
    return this.scratch((alloc) => {
      const out = alloc(4);
      const error = alloc(errorCapacity);
      this.check(create(out, error, errorCapacity), error, 0);
      return this.heapU32[out >> 2];
    });
  }

  /** Writes `text` to a file of the module's in-memory file system for the duration of `body`. */
  withFile(text, body, name = 'input') {
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
      throw new WayfinderError('invalid_argument', 'the file contents must be a string or a Uint8Array');
    }
    const path = `/wayfinder_input_${++this.fileCount}`;
    this.module.FS.writeFile(path, text);
    try {
      return this.withPath(path, body);
    } catch (error) {
      // The file's name is this script's; the message names what the caller gave instead.
      if (error instanceof WayfinderError) error.message = error.message.split(path).join(name);
      throw error;
    } finally {
      this.module.FS.unlink(path);
    }
  }

  /** Runs body(address) with the file name `path` as a C string at address. */
  withPath(path, body) {
    return this.scratch((alloc) => {
      const bytes = this.module.lengthBytesUTF8(path) + 1;
      const address = alloc(bytes);
      this.module.stringToUTF8(path, address, bytes);
      return body(address);
    });
  }

  /** Runs write(address of a file name) and returns the bytes it wrote to that file of the
   *  module's in-memory file system, which is then removed. */
  readWrittenFile(write) {
    const path = `/wayfinder_output_${++this.fileCount}`;
    try {
      this.withPath(path, write);
      return this.module.FS.readFile(path);
    } finally {
      if (this.module.FS.analyzePath(path).exists) this.module.FS.unlink(path);
    }
  }

  /** Copies each named [x, y, z] into fresh memory as three elements of View (Float64Array or
   *  Int32Array, whose values must then be integers); returns their addresses. Writes through the
   *  module's own views: a new typed array per point would cost more than the search on a small
   *  mesh. */
  writeTriples(alloc, View, named) {
    const addresses = [];
    for (const what in named) {
      let values = point(named[what], 3, what);
      const address = alloc(3 * View.BYTES_PER_ELEMENT);
      if (View === Int32Array) {
        values = values.map((v, i) => integerIn(v, `${what}[${i}]`, -2147483648, 2147483647));
        this.heap32.set(values, address >> 2);
      } else {
        this.heapF64.set(values, address >> 3);
      }
      addresses.push(address);
    }
    return addresses;
  }

  writeU64(address, value) {
    if (value === unlimitedExpansions) {
      this.heapU32[address >> 2] = 0xffffffff;
      this.heapU32[(address >> 2) + 1] = 0xffffffff;
      return;
    }
    const big = BigInt.asUintN(64, BigInt(value));
    this.heapU32[address >> 2] = Number(big & 0xffffffffn);
    this.heapU32[(address >> 2) + 1] = Number(big >> 32n);
  }

  readU64(address) {
    return this.heapU32[address >> 2] + this.heapU32[(address >> 2) + 1] * 4294967296;
  }

  /** Fills the wf_query_limits at `address` from the options' budget fields. */
  writeLimits(address, options) {
    const L = this.layout;
    const maxExpansions = options.maxExpansions ?? Infinity;
    if (maxExpansions !== Infinity) integerIn(maxExpansions, 'maxExpansions', 0, Number.MAX_SAFE_INTEGER);
    this.writeU64(address + L['limits.maxExpansions'],
      maxExpansions === Infinity ? unlimitedExpansions : BigInt(maxExpansions));
    this.heapF64[(address + L['limits.maxCost']) >> 3] = finite(options.maxCost ?? Infinity, 'maxCost');
    this.heapF64[(address + L['limits.maxMilliseconds']) >> 3] = finite(options.maxMilliseconds ?? 0, 'maxMilliseconds');
    this.heap32[(address + L['limits.returnPartial']) >> 2] = (options.returnPartial ?? true) ? 1 : 0;
    this.heap32[(address + L['limits.partialWhenUnreachable']) >> 2] = options.partialWhenUnreachable ? 1 : 0;
  }

  gridOptions(alloc, options = {}) {
    const L = this.layout;
    const address = alloc(L['grid.size']);
    this.module._wf_grid_options_init(address);
    this.writeLimits(address + L['grid.limits'], options);
    if (options.algorithm !== undefined) {
      this.heap32[(address + L['grid.algorithm']) >> 2] = choice(gridAlgorithms, options.algorithm, 'grid algorithm');
    }
    if (options.diagonal !== undefined) {
      this.heap32[(address + L['grid.diagonal']) >> 2] = choice(diagonalModes, options.diagonal, 'diagonal mode');
    }
    if (options.heuristic !== undefined) {
      this.heap32[(address + L['grid.heuristic']) >> 2] = choice(heuristics, options.heuristic, 'heuristic');
    }
    if (options.weight !== undefined) this.heapF64[(address + L['grid.weight']) >> 3] = finite(options.weight, 'weight');
    return address;
  }

  navMeshOptions(alloc, options = {}) {
    const L = this.layout;
    const address = alloc(L['navmesh.size']);
    this.module._wf_navmesh_options_init(address);
    this.writeLimits(address + L['navmesh.limits'], options);
    if (options.corridor !== undefined) {
      this.heap32[(address + L['navmesh.nodes']) >> 2] = choice(corridorNodes, options.corridor, 'corridor nodes');
    }
    for (const [key, field] of [['weight', 'weight'], ['heightTolerance', 'heightTolerance'],
      ['snapDistance', 'snapDistance']]) {
      if (options[key] !== undefined) this.heapF64[(address + L[`navmesh.${field}`]) >> 3] = finite(options[key], key);
    }
    if (options.filter != null) this.heapU32[(address + L['navmesh.filter']) >> 2] = this.areaFilter(alloc, options.filter);
    return address;
  }

  /** A wf_area_filter: costs 1, every flag included, none excluded, with the filter's fields over
   *  that. areaCosts maps areas to multipliers (an array, or an object with area keys); a cost
   *  the search cannot use (0, negative) is left to the query, which answers 'invalid_input'. */
  areaFilter(alloc, filter) {
    const L = this.layout;
    if (typeof filter !== 'object') throw new WayfinderError('invalid_argument', 'filter must be an object');
    for (const name of Object.keys(filter)) {
      if (!areaFilterFields.includes(name)) {
        throw new WayfinderError('invalid_argument', `unknown filter field '${name}' (one of: ${areaFilterFields.join(', ')})`);
      }
    }
    const address = alloc(L['filter.size']);
    this.module._wf_area_filter_init(address);
    const costs = filter.areaCosts ?? {};
    if (typeof costs !== 'object') throw new WayfinderError('invalid_argument', 'filter.areaCosts must be an array or an object');
    for (const [key, cost] of Object.entries(costs)) {
      if (cost === undefined) continue;
      const area = integerIn(Number(key), 'an area of filter.areaCosts', 0, maxAreas - 1);
      this.heapF32[((address + L['filter.areaCosts']) >> 2) + area] = finite(cost, `filter.areaCosts[${area}]`);
    }
    for (const [key, field] of [['includeFlags', 'filter.includeFlags'], ['excludeFlags', 'filter.excludeFlags']]) {
      if (filter[key] !== undefined) this.module.HEAPU16[(address + L[field]) >> 1] = integerIn(filter[key], `filter.${key}`, 0, 0xffff);
    }
    return address;
  }

  /** A wf_movement_profile: the walker or flyer preset with the profile's fields over it. */
  profile(alloc, profile = {}) {
    const L = this.layout;
    const address = alloc(L['profile.size']);
    const preset = profile.preset ?? 'walker';
    if (preset === 'walker') this.module._wf_movement_profile_walker(address);
    else if (preset === 'flyer') this.module._wf_movement_profile_flyer(address);
    else throw new WayfinderError('invalid_argument', `unknown profile preset '${preset}' (walker or flyer)`);
    profileInts.forEach((key, i) => {
      if (profile[key] === undefined) return;
      const value = typeof profile[key] === 'boolean' ? Number(profile[key]) : profile[key];
      this.heap32[((address + L['profile.ints']) >> 2) + i] = integerIn(value, key, -2147483648, 2147483647);
    });
    profileDoubles.forEach((key, i) => {
      if (profile[key] !== undefined) this.heapF64[((address + L['profile.doubles']) >> 3) + i] = finite(profile[key], key);
    });
    return address;
  }

  voxelOptions(alloc, options = {}, profileAddress = 0) {
    const L = this.layout;
    const address = alloc(L['voxel.size']);
    this.module._wf_voxel_options_init(address);
    this.writeLimits(address + L['voxel.limits'], options);
    if (options.algorithm !== undefined) {
      this.heap32[(address + L['voxel.algorithm']) >> 2] = choice(voxelAlgorithms, options.algorithm, 'voxel algorithm');
    }
    if (options.weight !== undefined) this.heapF64[(address + L['voxel.weight']) >> 3] = finite(options.weight, 'weight');
    this.heapU32[(address + L['voxel.profile']) >> 2] = profileAddress;
    return address;
  }

  /** Writes the settings object's fields ({ name: 'f64' | 'u32' }) over the defaults at
   *  `address`, laid out as layout[`${prefix}.${name}`] says; unknown names throw. */
  writeSettings(address, prefix, fields, settings) {
    for (const [name, value] of Object.entries(settings)) {
      if (!Object.hasOwn(fields, name)) {
        throw new WayfinderError('invalid_argument', `unknown setting '${name}' (one of: ${Object.keys(fields).join(', ')})`);
      }
      const at = address + this.layout[`${prefix}.${name}`];
      if (fields[name] === 'u32') this.heapU32[at >> 2] = integerIn(value, name, 0, 0xffffffff);
      else this.heapF64[at >> 3] = finite(value, name);
    }
  }

  /** The wf_path_result at `address` as a plain object (without the path itself). */
  readResult(address) {
    const L = this.layout;
    return {
      status: searchStatusNames[this.heap32[(address + L['result.status']) >> 2]],
      reason: stopReasonNames[this.heap32[(address + L['result.reason']) >> 2]],
      cost: this.heapF64[(address + L['result.cost']) >> 3],
      nodeCount: this.heapU32[(address + L['result.nodeCount']) >> 2],
      pointCount: this.heapU32[(address + L['result.pointCount']) >> 2],
      stats: {
        expanded: this.readU64(address + L['result.expanded']),
        generated: this.readU64(address + L['result.generated']),
        peakOpen: this.readU64(address + L['result.peakOpen']),
        microseconds: this.heapF64[(address + L['result.microseconds']) >> 3],
      },
    };
  }

  /** Copies a list out of a handle: read(buffer, capacity, countAddress) with capacity in items. */
  readList(count, itemBytes, read, handle, View) {
    const elements = (count * itemBytes) / View.BYTES_PER_ELEMENT;
    const list = new View(elements);
    if (count === 0) return list;
    return this.scratch((alloc) => {
      const buffer = alloc(count * itemBytes);
      const countAddress = alloc(4);
      this.check(read(buffer, count, countAddress), 0, handle);
      // Copied element by element: slice() or a view of the module's memory cost more for the
      // short lists paths have.
      const heap = this.heapOf(View);
      const first = buffer / View.BYTES_PER_ELEMENT;
      for (let i = 0; i < elements; i += 1) list[i] = heap[first + i];
      return list;
    });
  }

  /** The text read(text, capacity, lengthAddress) copies out: its length first (most results
   *  have no message), then the text. */
  readMessage(read, handle) {
    return this.scratch((alloc) => {
      const lengthAddress = alloc(4);
      this.check(read(0, 0, lengthAddress), 0, handle);
      const length = this.heapU32[lengthAddress >> 2];
      if (length === 0) return '';
      const text = alloc(length + 1);
      this.check(read(text, length + 1, lengthAddress), 0, handle);
      return this.text(text);
    });
  }
}

/** Something that owns memory in the module until dispose(). */
class Owned {
  constructor(runtime, handle) {
    this.runtime = runtime;
    this.handleAddress = handle;
  }

  /** The handle; throws once disposed. */
  get handle() {
    if (this.handleAddress === 0) throw new WayfinderError('invalid_argument', `this ${this.constructor.name} was disposed`);
    return this.handleAddress;
  }

  get disposed() { return this.handleAddress === 0; }

  /** Frees the memory; later calls on this object throw. Disposing twice does nothing. */
  dispose() {
    if (this.handleAddress === 0) return;
    this.release(this.handleAddress);
    this.handleAddress = 0;
  }
}

/** A world that refuses dispose() while queries on it exist (status 'in_use'). */
class World extends Owned {
  constructor(runtime, handle, destroy) {
    super(runtime, handle);
    this.destroy = destroy;
  }

  release(handle) {
    if (this.destroy(handle) === 5) {
      throw new WayfinderError('in_use', `this ${this.constructor.name} has queries: dispose them first`);
    }
  }
}

/** The stepped-search calls all three query kinds share. */
class Query extends Owned {
  /** Runs the stepped search for at most maxExpansions expansions or about maxMilliseconds (both
   *  optional: no limit); returns the search status ('in_progress' until it ends). */
  step({ maxExpansions = Infinity, maxMilliseconds = 0 } = {}) {
    const expansions = maxExpansions === Infinity ? unlimitedExpansions
      : BigInt(integerIn(maxExpansions, 'maxExpansions', 0, Number.MAX_SAFE_INTEGER));
    return this.runtime.scratch((alloc) => {
      const status = alloc(4);
      this.runtime.check(this.calls.step(this.handle, expansions, finite(maxMilliseconds, 'maxMilliseconds'), status), 0,
        this.handle);
      return searchStatusNames[this.runtime.heap32[status >> 2]];
    });
  }

  /** The stepped search's result so far, with its path. */
  result() {
    return this.runtime.scratch((alloc) => {
      const result = alloc(this.runtime.layout['result.size']);
      this.runtime.check(this.calls.result(this.handle, result), 0, this.handle);
      return this.finish(this.runtime.readResult(result));
    });
  }

  finish(result) {
    result.message = this.runtime.readMessage((text, capacity, length) => this.calls.message(this.handle, text, capacity,
      length), this.handle);
    this.addPath(result);
    return result;
  }

  /** The path from start to goal (see each query's endpoints for the coordinates). */
  findPath(start, goal, options = {}) {
    return this.runtime.scratch((alloc) => {
      const result = alloc(this.runtime.layout['result.size']);
      this.runtime.check(this.calls.find(this.handle, ...this.endpoints(alloc, start, goal), this.options(alloc, options),
        result), 0, this.handle);
      return this.finish(this.runtime.readResult(result));
    });
  }

  /** Records the events of this query's later searches, each search replacing the last one's,
   *  keeping the first maxEvents (the rest are counted); 0 stops recording. */
  setTrace(maxEvents = 4000000) {
    this.runtime.check(this.calls.setTrace(this.handle, integerIn(maxEvents, 'maxEvents', 0, 0xffffffff)), 0,
      this.handle);
  }

  /** The latest search's recorded events: `events` holds (event, x, y, z) per event (event 0
   *  opened, 1 reached again more cheaply, 2 closed; x, y, z a grid cell with z 0, a mesh
   *  corridor node's position or a voxel block), `recorded` counts every event, kept or not. */
  trace() {
    const r = this.runtime;
    const [count, recorded] = r.scratch((alloc) => {
      const countAddress = alloc(4);
      const recordedAddress = alloc(4);
      r.check(this.calls.trace(this.handle, 0, 0, countAddress, recordedAddress), 0, this.handle);
      return [r.heapU32[countAddress >> 2], r.heapU32[recordedAddress >> 2]];
    });
    const events = r.readList(count, 32, (buffer, capacity, countAddress) => this.calls.trace(this.handle, buffer,
      capacity, countAddress, 0), this.handle, Float64Array);
    return { events, recorded };
  }

  /** Starts a stepped search; step() continues it and result() reads it. */
  begin(start, goal, options = {}) {
    return this.runtime.scratch((alloc) => {
      const status = alloc(4);
      this.runtime.check(this.calls.begin(this.handle, ...this.endpoints(alloc, start, goal), this.options(alloc, options),
        status), 0, this.handle);
      return searchStatusNames[this.runtime.heap32[status >> 2]];
    });
  }
}

export class GridQuery extends Query {
  constructor(runtime, grid) {
    const m = runtime.module;
    super(runtime, runtime.create((out, error, capacity) => m._wf_grid_query_create(grid.handle, out, error, capacity)));
    this.grid = grid;
    this.calls = { find: m._wf_grid_query_find_path, begin: m._wf_grid_query_begin, step: m._wf_grid_query_step,
      result: m._wf_grid_query_result, message: m._wf_grid_query_message,
      setTrace: m._wf_grid_query_set_trace, trace: m._wf_grid_query_trace };
  }

  release(handle) { this.runtime.module._wf_grid_query_destroy(handle); }

  /** The derived data ('jps_plus' and 'hierarchical' read it) this query's searches use, or
   *  null for none. The query keeps what it was given until given another one: after
   *  derived.update(), give it again. */
  setDerived(derived) {
    const handle = derived === null ? 0 : derived.handle;
    this.runtime.check(this.runtime.module._wf_grid_query_set_derived(this.handle, handle), 0, this.handle);
  }

  /** Start [x, y] and goal [x, y] as the four integers the C calls take. */
  endpoints(alloc, start, goal) { return [...point(start, 2, 'start'), ...point(goal, 2, 'goal')]; }

  options(alloc, options) { return this.runtime.gridOptions(alloc, options); }

  addPath(result) {
    const m = this.runtime.module;
    result.cells = this.runtime.readList(result.nodeCount, 8, (buffer, capacity, count) =>
      m._wf_grid_query_path_cells(this.handle, buffer, capacity, count), this.handle, Int32Array);
  }
}

export class Grid extends World {
  constructor(runtime, handle) {
    super(runtime, handle, runtime.module._wf_grid_destroy);
    const size = runtime.scratch((alloc) => {
      const w = alloc(4);
      const h = alloc(4);
      runtime.check(runtime.module._wf_grid_size(handle, w, h), 0, handle);
      return [runtime.heap32[w >> 2], runtime.heap32[h >> 2]];
    });
    [this.width, this.height] = size;
  }

  /** { passable, cost, area, flags } of a cell. */
  cell(x, y) {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const passable = alloc(4);
      const cost = alloc(4);
      const area = alloc(4);
      const flags = alloc(4);
      r.check(r.module._wf_grid_cell(this.handle, x, y, passable, cost, area, flags), 0, this.handle);
      return { passable: r.heap32[passable >> 2] !== 0, cost: r.heapF32[cost >> 2], area: r.heapU8[area],
        flags: r.module.HEAPU16[flags >> 1] };
    });
  }

  /** Blocks (false) or opens (true) the rectangle [x, x + width) x [y, y + height). */
  setPassable(x, y, width, height, passable) {
    this.runtime.check(this.runtime.module._wf_grid_set_passable(this.handle, x, y, width, height, passable ? 1 : 0), 0,
      this.handle);
  }

  /** Makes the rectangle's cells passable at this cost (finite, > 0). */
  setCost(x, y, width, height, cost) {
    this.runtime.check(this.runtime.module._wf_grid_set_cost(this.handle, x, y, width, height, cost), 0, this.handle);
  }

  /** What 'jps_plus' (the jump table) and 'hierarchical' (the cluster hierarchy) searches read
   *  besides the grid, built for the options' algorithm and the grid as it is now; give it to
   *  queries with query.setDerived. The grid cannot be disposed while it exists. */
  createDerived(options = {}) { return new GridDerived(this.runtime, this, options); }

  /** A crowd of agents on this grid (settings over the defaults; see Crowd): positions and targets
   *  are [column, 0, row] in cell units, a cell's centre at [x + 0.5, 0, y + 0.5]; paths by A*,
   *  or by jump point search with { jumpPoint: true }, smoothed to any-angle waypoints; no
   *  centre ever enters a blocked cell. The grid may be edited between updates, and cannot be
   *  disposed while the crowd exists. */
  createCrowd(settings = {}, { jumpPoint = false } = {}) {
    return new Crowd(this.runtime, { grid: this, jumpPoint }, settings);
  }

  /** A query object for this grid, which cannot be disposed while the query exists. */
  createQuery() { return new GridQuery(this.runtime, this); }

  /** One search with a query made for it and disposed afterwards. */
  findPath(start, goal, options = {}) { return oneShot(this.createQuery(), (q) => q.findPath(start, goal, options)); }
}

/** A grid's derived data (Grid.createDerived): read-only once built, shared by any queries. */
export class GridDerived extends Owned {
  constructor(runtime, grid, options) {
    super(runtime, runtime.scratch((alloc) => {
      const address = runtime.gridOptions(alloc, options);
      return runtime.create((out, error, capacity) => runtime.module._wf_grid_derived_create(grid.handle, address, out,
        error, capacity));
    }));
    this.grid = grid;
  }

  release(handle) { this.runtime.module._wf_grid_derived_destroy(handle); }

  /** Adds what searches with these options read, and builds again what the grid's edits made
   *  stale (until then those searches answer 'invalid_input'). */
  update(options = {}) {
    const r = this.runtime;
    r.scratch((alloc) => r.check(r.module._wf_grid_derived_update(this.handle, r.gridOptions(alloc, options)), 0,
      this.handle));
  }
}

export class NavMeshQuery extends Query {
  constructor(runtime, mesh) {
    const m = runtime.module;
    super(runtime, runtime.create((out, error, capacity) => m._wf_navmesh_query_create(mesh.handle, out, error, capacity)));
    this.mesh = mesh;
    this.calls = { find: m._wf_navmesh_query_find_path, begin: m._wf_navmesh_query_begin,
      step: m._wf_navmesh_query_step, result: m._wf_navmesh_query_result, message: m._wf_navmesh_query_message,
      setTrace: m._wf_navmesh_query_set_trace, trace: m._wf_navmesh_query_trace };
  }

  release(handle) { this.runtime.module._wf_navmesh_query_destroy(handle); }

  /** Start and goal [x, y, z] (y up), as the addresses of the C calls' double[3]. */
  endpoints(alloc, start, goal) {
    return this.runtime.writeTriples(alloc, Float64Array, { start, goal });
  }

  options(alloc, options) { return this.runtime.navMeshOptions(alloc, options); }

  addPath(result) {
    const m = this.runtime.module;
    result.points = this.runtime.readList(result.pointCount, 24, (buffer, capacity, count) =>
      m._wf_navmesh_query_path_points(this.handle, buffer, capacity, count), this.handle, Float64Array);
    result.polygons = this.runtime.readList(result.nodeCount, 4, (buffer, capacity, count) =>
      m._wf_navmesh_query_path_polygons(this.handle, buffer, capacity, count), this.handle, Uint32Array);
  }
}

export class NavMesh extends World {
  constructor(runtime, handle) {
    super(runtime, handle, runtime.module._wf_navmesh_destroy);
    const counts = runtime.scratch((alloc) => {
      const v = alloc(4);
      const p = alloc(4);
      const r = alloc(4);
      runtime.check(runtime.module._wf_navmesh_counts(handle, v, p, r), 0, handle);
      return [runtime.heapU32[v >> 2], runtime.heapU32[p >> 2], runtime.heapU32[r >> 2]];
    });
    [this.vertexCount, this.polygonCount, this.regionCount] = counts;
  }

  /** The polygon under or over a point within heightTolerance, and the point moved onto it;
   *  null when there is none. */
  locate(position, heightTolerance = 4) {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const [p] = r.writeTriples(alloc, Float64Array, { point: position });
      const located = alloc(24);
      const polygon = alloc(4);
      r.check(r.module._wf_navmesh_locate(this.handle, p, finite(heightTolerance, 'heightTolerance'), polygon, located), 0,
        this.handle);
      const id = r.heapU32[polygon >> 2];
      if (id === 0xffffffff) return null;
      return { polygon: id, point: Array.from(r.heapF64.subarray(located >> 3, (located >> 3) + 3)) };
    });
  }

  /** Goes up with every edit that changes the mesh (areas, flags). */
  get revision() {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const revision = alloc(8);
      r.check(r.module._wf_navmesh_revision(this.handle, revision), 0, this.handle);
      return r.readU64(revision);
    });
  }

  /** { area, flags } of a polygon (an id below polygonCount). */
  polygonArea(polygon) {
    const r = this.runtime;
    // A read records no text in the handle: the message is made here.
    const missing = () => new WayfinderError('invalid_argument',
      `polygon ${polygon} is not in the mesh (it has ${this.polygonCount} polygons)`);
    if (!Number.isInteger(polygon) || polygon < 0 || polygon > 0xffffffff) throw missing();
    return r.scratch((alloc) => {
      const area = alloc(1);
      const flags = alloc(2);
      if (r.module._wf_navmesh_polygon_area(this.handle, polygon, area, flags) !== 0) throw missing();
      return { area: r.heapU8[area], flags: r.module.HEAPU16[flags >> 1] };
    });
  }

  /** Edits a polygon's area (below 64); the revision goes up when it changes. Not while a
   *  stepped search on the mesh is between steps (it then ends with 'world_changed'). */
  setArea(polygon, area) { this.editPolygon(polygon, area, undefined); }

  /** Edits a polygon's flags (16 bits), as setArea. */
  setFlags(polygon, flags) { this.editPolygon(polygon, undefined, flags); }

  /** Both at once, as one edit. */
  setAreaAndFlags(polygon, area, flags) { this.editPolygon(polygon, area, flags); }

  editPolygon(polygon, area, flags) {
    const m = this.runtime.module;
    const id = integerIn(polygon, 'polygon', 0, 0xfffffffe);
    const a = area === undefined ? 0 : integerIn(area, 'area', 0, 255);
    const f = flags === undefined ? 0 : integerIn(flags, 'flags', 0, 0xffff);
    let status;
    if (flags === undefined) status = m._wf_navmesh_set_area(this.handle, id, a);
    else if (area === undefined) status = m._wf_navmesh_set_flags(this.handle, id, f);
    else status = m._wf_navmesh_set_area_and_flags(this.handle, id, a, f);
    this.runtime.check(status, 0, this.handle);
  }

  /** A crowd of agents on this mesh (settings over the defaults; see Crowd). */
  createCrowd(settings = {}) { return new Crowd(this.runtime, this, settings); }

  /** The mesh as a baked navmesh file (.wfnav: detail heights, areas, flags and off-mesh links
   *  included), for navMeshFromWfnav; the bytes of a file `wayfinder mesh build -o` writes. */
  saveWfnav() {
    const r = this.runtime;
    return r.readWrittenFile((path) => r.check(r.module._wf_navmesh_save_wfnav(this.handle, path), 0, this.handle));
  }

  createQuery() { return new NavMeshQuery(this.runtime, this); }

  findPath(start, goal, options = {}) { return oneShot(this.createQuery(), (q) => q.findPath(start, goal, options)); }
}

const crowdStates = ['idle', 'waiting_for_path', 'moving', 'arrived', 'unreachable', 'on_link'];
// The settings' JavaScript names and their C types: counts are size_t (32 bits here), the rest
// doubles. The crowd's threads stay at 1: this build has none.
const crowdSettingFields = { timeHorizon: 'f64', wallTimeHorizon: 'f64', neighbourDistance: 'f64', maxNeighbours: 'u32',
  collisionIterations: 'u32', stuckTime: 'f64', stuckProgress: 'f64', settleSpeedFraction: 'f64', maxMovePolygons: 'u32',
  wallClearance: 'f64', targetSnapDistance: 'f64' };
const agentSettingFields = { radius: 'f64', height: 'f64', maxSpeed: 'f64', maxAcceleration: 'f64',
  avoidancePriority: 'f64', arrivalRadius: 'f64' };

/** Agents walking their paths together on a mesh or a grid, avoiding each other and the walls
 *  (docs/crowds.md); made by NavMesh.createCrowd or Grid.createCrowd. Counts as a query of its
 *  world: dispose the crowd before the world. */
export class Crowd extends Owned {
  /** `world` is a NavMesh, or { grid, jumpPoint } for a crowd on a grid. */
  constructor(runtime, world, settings) {
    const m = runtime.module;
    const grid = world instanceof NavMesh ? null : world.grid;
    super(runtime, runtime.scratch((alloc) => {
      const address = alloc(runtime.layout['crowd.size']);
      m._wf_crowd_settings_init(address);
      runtime.writeSettings(address, 'crowd', crowdSettingFields, settings);
      return runtime.create((out, error, capacity) => (grid
        ? m._wf_crowd_create_grid(grid.handle, address, world.jumpPoint ? 1 : 0, out, error, capacity)
        : m._wf_crowd_create(world.handle, address, out, error, capacity)));
    }));
    /** The mesh of a crowd on a mesh, else null. */
    this.mesh = grid ? null : world;
    /** The grid of a crowd on a grid, else null. */
    this.grid = grid;
  }

  release(handle) { this.runtime.module._wf_crowd_destroy(handle); }

  /** Adds an agent at the mesh point nearest to position [x, y, z] (within targetSnapDistance),
   *  with no target; returns its id (ids grow, never reused). settings: { radius, height,
   *  maxSpeed, maxAcceleration, avoidancePriority, arrivalRadius } over the defaults. */
  addAgent(position, settings = {}) {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const address = alloc(r.layout['agent.size']);
      r.module._wf_crowd_agent_settings_init(address);
      r.writeSettings(address, 'agent', agentSettingFields, settings);
      const [p] = r.writeTriples(alloc, Float64Array, { position });
      const id = alloc(4);
      r.check(r.module._wf_crowd_add_agent(this.handle, p, address, id), 0, this.handle);
      return r.heapU32[id >> 2];
    });
  }

  removeAgent(id) {
    this.runtime.check(this.runtime.module._wf_crowd_remove_agent(this.handle, this.agentId(id)), 0, this.handle);
  }

  /** Sends the agent to the mesh point nearest to target [x, y, z]; its path comes in the next
   *  update. */
  setTarget(id, target) {
    const r = this.runtime;
    r.scratch((alloc) => {
      const [t] = r.writeTriples(alloc, Float64Array, { target });
      r.check(r.module._wf_crowd_set_target(this.handle, this.agentId(id), t), 0, this.handle);
    });
  }

  /** Makes the agent walk at [vx, vz] (clamped to its max speed) with no path: a player's
   *  character. */
  setVelocityTarget(id, velocity) {
    const r = this.runtime;
    r.scratch((alloc) => {
      const v = alloc(16);
      r.heapF64.set(point(velocity, 2, 'velocity'), v >> 3);
      r.check(r.module._wf_crowd_set_velocity_target(this.handle, this.agentId(id), v), 0, this.handle);
    });
  }

  /** A flow field on this grid crowd's grid towards the nearest of `goals` (cells [x, y]), as the
   *  grid is now: one search for any number of agents sent along it with setFlowTarget. It
   *  counts as a query of the grid (dispose it before the grid); the agents keep it while they
   *  follow it, so it may be disposed at once. A crowd on a mesh, no goals, a goal that is not
   *  a pair of integers, outside the grid or on a blocked cell throw 'invalid_argument'. */
  createFlowField(goals) {
    const r = this.runtime;
    if (goals == null || typeof goals.length !== 'number') {
      throw new WayfinderError('invalid_argument', 'goals must be an array of [x, y] cells');
    }
    const cells = Array.from(goals, (goal, i) => point(goal, 2, `goals[${i}]`)
      .map((v, k) => integerIn(v, `goals[${i}][${k}]`, -0x80000000, 0x7fffffff)));
    const handle = r.scratch((alloc) => {
      const xy = alloc(8 * cells.length);
      r.heap32.set(cells.flat(), xy >> 2);
      return r.create((out, error, capacity) => r.module._wf_crowd_flow_field_create(this.handle, cells.length ? xy : 0,
        cells.length, out, error, capacity));
    });
    return new CrowdFlowField(r, handle);
  }

  /** Sends one agent (an id) or many (an array of ids) along a flow field, with no path search
   *  (docs/crowds.md, "Flow targets"): `target` is a CrowdFlowField or the goal cells to build
   *  one from, once for all of them. An agent has arrived while it stands in a goal cell. A crowd
   *  on a mesh, an unknown id, a field of another grid, or an agent whose cell reaches no goal
   *  throw 'invalid_argument'; the agents before it keep their new target. */
  setFlowTarget(ids, target) {
    const agents = Array.isArray(ids) ? ids : [ids];
    const field = target instanceof CrowdFlowField ? target : this.createFlowField(target);
    try {
      for (const id of agents) {
        this.runtime.check(this.runtime.module._wf_crowd_set_flow_target(this.handle, this.agentId(id), field.handle), 0,
          this.handle);
      }
    } finally {
      if (field !== target) field.dispose();
    }
  }

  /** How many path searches the agent has asked for (its first and every replan); 0 for one that
   *  only followed flow fields or velocities. */
  pathRequests(id) {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const count = alloc(4);
      if (r.module._wf_crowd_agent_path_requests(this.handle, this.agentId(id), count) !== 0) {
        throw new WayfinderError('invalid_argument', `no agent has the id ${id}`);
      }
      return r.heapU32[count >> 2];
    });
  }

  /** Advances every agent by dt seconds (> 0): paths, avoidance, moves. */
  update(dt) {
    this.runtime.check(this.runtime.module._wf_crowd_update(this.handle, finite(dt, 'dt')), 0, this.handle);
  }

  get agentCount() {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const count = alloc(4);
      r.check(r.module._wf_crowd_agent_count(this.handle, count), 0, this.handle);
      return r.heapU32[count >> 2];
    });
  }

  /** Every agent's position, x, y, z in the order of their ids, into `out` (a Float32Array of
   *  at least 3 * agentCount entries, as a renderer's buffer is, reused frame after frame) or a
   *  new one; returns it. */
  positions(out) {
    const r = this.runtime;
    const count = this.agentCount;
    if (out !== undefined && (!(out instanceof Float32Array) || out.length < 3 * count)) {
      throw new WayfinderError('invalid_argument', `out must be a Float32Array of at least ${3 * count} entries`);
    }
    const target = out ?? new Float32Array(3 * count);
    if (count === 0) return target;
    r.scratch((alloc) => {
      const xyz = alloc(24 * count);
      const n = alloc(4);
      r.check(r.module._wf_crowd_read_agents(this.handle, 0, xyz, 0, 0, count, n), 0, this.handle);
      const heap = r.heapF64;
      const first = xyz >> 3;
      for (let i = 0; i < 3 * count; i += 1) target[i] = heap[first + i];
    });
    return target;
  }

  /** Every agent, in the order of their ids: ids, positions (x, y, z), velocities of the last
   *  update (x, z, units per second) and states ('idle', 'waiting_for_path', 'moving',
   *  'arrived', 'unreachable', 'on_link': crossing an off-mesh link). */
  agents() {
    const r = this.runtime;
    const count = this.agentCount;
    return r.scratch((alloc) => {
      const ids = alloc(4 * count);
      const xyz = alloc(24 * count);
      const velocities = alloc(16 * count);
      const states = alloc(4 * count);
      const n = alloc(4);
      r.check(r.module._wf_crowd_read_agents(this.handle, ids, xyz, velocities, states, count, n), 0, this.handle);
      return {
        ids: r.heapU32.slice(ids >> 2, (ids >> 2) + count),
        positions: r.heapF64.slice(xyz >> 3, (xyz >> 3) + 3 * count),
        velocities: r.heapF64.slice(velocities >> 3, (velocities >> 3) + 2 * count),
        states: Array.from(r.heap32.subarray(states >> 2, (states >> 2) + count), (s) => crowdStates[s]),
      };
    });
  }

  agentId(id) { return integerIn(id, 'agent id', 0, 0xffffffff); }
}

/** A flow field towards goal cells on a grid crowd's grid (Crowd.createFlowField), shared by
 *  every agent sent along it. */
export class CrowdFlowField extends Owned {
  release(handle) { this.runtime.module._wf_crowd_flow_field_destroy(handle); }
}

export class VoxelQuery extends Query {
  constructor(runtime, world, profile) {
    const m = runtime.module;
    const handle = runtime.scratch((alloc) => {
      const p = runtime.profile(alloc, profile);
      return runtime.create((out, error, capacity) => m._wf_voxel_query_create(world.handle, p, out, error, capacity));
    });
    super(runtime, handle);
    this.world = world;
    this.calls = { find: m._wf_voxel_query_find_path, begin: m._wf_voxel_query_begin, step: m._wf_voxel_query_step,
      result: m._wf_voxel_query_result, message: m._wf_voxel_query_message,
      setTrace: m._wf_voxel_query_set_trace, trace: m._wf_voxel_query_trace };
  }

  release(handle) { this.runtime.module._wf_voxel_query_destroy(handle); }

  /** Start and goal blocks [x, y, z] (the agent's feet; y up), as the C calls' int32_t[3]. */
  endpoints(alloc, start, goal) {
    return this.runtime.writeTriples(alloc, Int32Array, { start, goal });
  }

  options(alloc, options) { return this.runtime.voxelOptions(alloc, options); }

  addPath(result) {
    const m = this.runtime.module;
    result.blocks = this.runtime.readList(result.pointCount, 12, (buffer, capacity, count) =>
      m._wf_voxel_query_path_blocks(this.handle, buffer, capacity, count), this.handle, Int32Array);
  }
}

export class VoxelWorld extends World {
  constructor(runtime, handle) {
    super(runtime, handle, runtime.module._wf_voxel_world_destroy);
    const size = runtime.scratch((alloc) => {
      const xyz = alloc(12);
      runtime.check(runtime.module._wf_voxel_world_size(handle, xyz, xyz + 4, xyz + 8), 0, handle);
      return Array.from(runtime.heap32.subarray(xyz >> 2, (xyz >> 2) + 3));
    });
    [this.sizeX, this.sizeY, this.sizeZ] = size;
  }

  /** 'air', 'solid', 'water' or 'ladder' (air outside the world). */
  block(x, y, z) {
    const r = this.runtime;
    return r.scratch((alloc) => {
      const kind = alloc(4);
      r.check(r.module._wf_voxel_world_block(this.handle, x, y, z, kind), 0, this.handle);
      return Object.keys(blockKinds)[r.heap32[kind >> 2]];
    });
  }

  /** Every block's kind (0 air, 1 solid, 2 water, 3 ladder) at index (y * sizeZ + z) * sizeX + x,
   *  as voxelWorldFromBlocks takes them: one call for the whole world. */
  blocks() {
    const r = this.runtime;
    const count = this.sizeX * this.sizeY * this.sizeZ;
    const address = r.module._malloc(Math.max(1, count));
    if (address === 0) throw new WayfinderError('out_of_memory', `wayfinder: cannot allocate ${count} bytes`);
    try {
      r.check(r.module._wf_js_voxel_world_blocks(this.handle, address), 0, this.handle);
      return r.heapU8.slice(address, address + count);
    } finally {
      r.module._free(address);
    }
  }

  setBlock(x, y, z, kind) {
    this.runtime.check(this.runtime.module._wf_voxel_world_set_block(this.handle, x, y, z,
      choice(blockKinds, kind, 'block kind')), 0, this.handle);
  }

  /** A query for an agent: profile { preset: 'walker' | 'flyer', ...fields } (default a walker). */
  createQuery(profile = {}) { return new VoxelQuery(this.runtime, this, profile); }

  findPath(start, goal, options = {}) {
    return oneShot(this.createQuery(options.profile ?? {}), (q) => q.findPath(start, goal, options));
  }
}

/** Many requests on one world in one call. This build has no threads: the requests are answered
 *  one after another on the calling thread. */
export class Batch extends Owned {
  constructor(runtime) {
    super(runtime, runtime.create((out, error, capacity) => runtime.module._wf_batch_create(out, error, capacity)));
  }

  release(handle) { this.runtime.module._wf_batch_destroy(handle); }

  /** Answers requests [{ start: [x, y], goal: [x, y] }] on a grid with shared options; returns
   *  the results (status, cost, stats, message and the path's cells). */
  solveGrid(grid, requests, options = {}) {
    const r = this.runtime;
    const L = r.layout;
    return this.solve(requests, (alloc) => {
      const optionsAddress = r.gridOptions(alloc, options);
      const array = alloc(L['gridRequest.size'] * requests.length);
      requests.forEach((request, i) => {
        const address = array + i * L['gridRequest.size'];
        const xy = [...point(request.start, 2, `requests[${i}].start`), ...point(request.goal, 2, `requests[${i}].goal`)];
        r.heap32.set(xy, (address + L['gridRequest.coordinates']) >> 2);
        r.heapU32[(address + L['gridRequest.options']) >> 2] = optionsAddress;
      });
      return r.module._wf_batch_solve_grid(this.handle, grid.handle, array, requests.length, 1);
    }, (result, i, m) => {
      // The nodes are cell ids y * width + x.
      const ids = this.runtime.readList(result.nodeCount, 4, (buffer, capacity, count) =>
        m._wf_batch_path_nodes(this.handle, i, buffer, capacity, count), this.handle, Uint32Array);
      result.cells = Int32Array.from({ length: ids.length * 2 },
        (_, k) => (k % 2 === 0 ? ids[k >> 1] % grid.width : Math.floor(ids[k >> 1] / grid.width)));
    });
  }

  /** Requests [{ start: [x, y, z], goal: [x, y, z] }] on a navigation mesh. */
  solveNavMesh(mesh, requests, options = {}) {
    const r = this.runtime;
    const L = r.layout;
    return this.solve(requests, (alloc) => {
      const optionsAddress = r.navMeshOptions(alloc, options);
      const array = alloc(L['navmeshRequest.size'] * requests.length);
      requests.forEach((request, i) => {
        const address = array + i * L['navmeshRequest.size'];
        r.heapF64.set(point(request.start, 3, `requests[${i}].start`), (address + L['navmeshRequest.start']) >> 3);
        r.heapF64.set(point(request.goal, 3, `requests[${i}].goal`), (address + L['navmeshRequest.goal']) >> 3);
        r.heapU32[(address + L['navmeshRequest.options']) >> 2] = optionsAddress;
      });
      return r.module._wf_batch_solve_navmesh(this.handle, mesh.handle, array, requests.length, 1);
    }, (result, i, m) => { result.points = this.points(result, i, m); });
  }

  /** Requests [{ start: [x, y, z], goal: [x, y, z] }] on a voxel world, for options.profile. */
  solveVoxel(world, requests, options = {}) {
    const r = this.runtime;
    const L = r.layout;
    return this.solve(requests, (alloc) => {
      const profile = r.profile(alloc, options.profile ?? {});
      const optionsAddress = r.voxelOptions(alloc, options, profile);
      const array = alloc(L['voxelRequest.size'] * requests.length);
      requests.forEach((request, i) => {
        const address = array + i * L['voxelRequest.size'];
        r.heap32.set(point(request.start, 3, `requests[${i}].start`), (address + L['voxelRequest.start']) >> 2);
        r.heap32.set(point(request.goal, 3, `requests[${i}].goal`), (address + L['voxelRequest.goal']) >> 2);
        r.heapU32[(address + L['voxelRequest.options']) >> 2] = optionsAddress;
      });
      return r.module._wf_batch_solve_voxel(this.handle, world.handle, array, requests.length, 1);
    }, (result, i, m) => {
      result.blocks = Int32Array.from(this.points(result, i, m), Math.floor);
    });
  }

  points(result, index, m) {
    return this.runtime.readList(result.pointCount, 24, (buffer, capacity, count) =>
      m._wf_batch_path_points(this.handle, index, buffer, capacity, count), this.handle, Float64Array);
  }

  solve(requests, run, addPath) {
    if (!Array.isArray(requests)) throw new WayfinderError('invalid_argument', 'requests must be an array');
    const r = this.runtime;
    const m = r.module;
    r.scratch((alloc) => r.check(run(alloc), 0, this.handle));
    return requests.map((_, i) => r.scratch((alloc) => {
      const address = alloc(r.layout['result.size']);
      r.check(m._wf_batch_result(this.handle, i, address), 0, this.handle);
      const result = r.readResult(address);
      result.message = r.readMessage((text, capacity, length) => m._wf_batch_message(this.handle, i, text, capacity,
        length), this.handle);
      addPath(result, i, m);
      return result;
    }));
  }
}

function oneShot(query, body) {
  try {
    return body(query);
  } finally {
    query.dispose();
  }
}

function typedArray(values, View, what, length) {
  if (values == null || typeof values.length !== 'number') {
    throw new WayfinderError('invalid_argument', `${what} must be an array`);
  }
  if (length !== undefined && values.length !== length) {
    throw new WayfinderError('invalid_argument', `${what} has ${values.length} entries where ${length} are needed`);
  }
  return values instanceof View ? values : View.from(values);
}

/** The library: makes worlds and batches. Get it with loadWayfinder(). */
export class Wayfinder {
  constructor(module) { this.runtime = new Runtime(module); }

  /** The C library's version, e.g. "0.1.0". */
  get version() { return this.runtime.text(this.runtime.module._wf_version()); }

  /** A width x height grid, every cell passable at cost 1. */
  createGrid(width, height) {
    const m = this.runtime.module;
    return new Grid(this.runtime, this.runtime.create((out, error, capacity) => m._wf_grid_create(
      integerIn(width, 'width', 0, 2147483647), integerIn(height, 'height', 0, 2147483647), out, error, capacity)));
  }

  /** A grid from row-major cells (index y * width + x): passable[i] truthy for a passable cell,
   *  costs[i] (optional) its cost multiplier (> 0; Infinity blocks it). */
  gridFromCells({ width, height, passable, costs }) {
    const r = this.runtime;
    integerIn(width, 'width', 0, 2147483647);
    integerIn(height, 'height', 0, 2147483647);
    const count = width * height;
    const cells = Uint8Array.from(typedArray(passable, Uint8Array, 'passable', count), (v) => (v ? 1 : 0));
    const costArray = costs === undefined ? undefined : typedArray(costs, Float32Array, 'costs', count);
    return new Grid(r, r.scratch((alloc) => {
      const passableAddress = alloc(count);
      r.heapU8.set(cells, passableAddress);
      let costAddress = 0;
      if (costArray) {
        costAddress = alloc(count * 4);
        r.heapF32.set(costArray, costAddress >> 2);
      }
      return r.create((out, error, capacity) => r.module._wf_grid_create_from_cells(width, height, passableAddress,
        costAddress, out, error, capacity));
    }));
  }

  /** A grid of rooms joined by corridors, with forest (cost 2) and swamp (cost 3) patches: the
   *  grids `wayfinder serve` generates. The same options give the same grid. */
  generateRoomGrid({ width = 96, height = 64, seed = 1, rooms = 12 } = {}) {
    const r = this.runtime;
    return new Grid(r, r.create((out, error, capacity) => r.module._wf_js_grid_generate_rooms(
      integerIn(width, 'width', 8, 2147483647), integerIn(height, 'height', 8, 2147483647),
      BigInt(integerIn(seed, 'seed', 0, Number.MAX_SAFE_INTEGER)), integerIn(rooms, 'rooms', 1, 2147483647), out, error,
      capacity)));
  }

  /** A grid from the text of a MovingAI `.map` file. */
  gridFromMovingAI(text) {
    const r = this.runtime;
    return new Grid(r, r.withFile(text, (path) => r.create((out, error, capacity) =>
      r.module._wf_grid_load_movingai(path, out, error, capacity)), 'MovingAI map'));
  }

  /** A navigation mesh from the text of a Wavefront OBJ file (y up, or z up with { zUp: true }). */
  navMeshFromObj(text, { zUp = false } = {}) {
    const r = this.runtime;
    return new NavMesh(r, r.withFile(text, (path) => r.create((out, error, capacity) =>
      r.module._wf_navmesh_load_obj(path, zUp ? 1 : 0, out, error, capacity)), 'OBJ text'));
  }

  /** A navigation mesh from the text of a Polyanya "mesh 2" file. */
  navMeshFromPolyanya(text) {
    const r = this.runtime;
    return new NavMesh(r, r.withFile(text, (path) => r.create((out, error, capacity) =>
      r.module._wf_navmesh_load_polyanya(path, out, error, capacity)), 'Polyanya mesh'));
  }

  /** A navigation mesh from the bytes of a baked navmesh file (.wfnav, from NavMesh.saveWfnav or
   *  `wayfinder mesh build -o LEVEL.wfnav`), answering every query as the saved mesh did. A
   *  damaged, truncated or foreign file throws 'load_error' naming the byte at fault. */
  navMeshFromWfnav(bytes) {
    const r = this.runtime;
    return new NavMesh(r, r.withFile(typedArray(bytes, Uint8Array, 'bytes'), (path) => r.create((out, error, capacity) =>
      r.module._wf_navmesh_load_wfnav(path, out, error, capacity)), 'wfnav data'));
  }

  /** A navigation mesh from arrays: vertices x, y, z (y up) packed; polygon i is the next
   *  polygonSizes[i] entries of indices. */
  navMeshFromArrays({ vertices, indices, polygonSizes }) {
    const r = this.runtime;
    const v = typedArray(vertices, Float32Array, 'vertices');
    const idx = typedArray(indices, Uint32Array, 'indices');
    const sizes = typedArray(polygonSizes, Uint32Array, 'polygonSizes');
    if (v.length % 3 !== 0) throw new WayfinderError('invalid_argument', 'vertices must hold x, y, z triples');
    return new NavMesh(r, r.scratch((alloc) => {
      const va = alloc(v.length * 4);
      const ia = alloc(idx.length * 4);
      const sa = alloc(sizes.length * 4);
      r.heapF32.set(v, va >> 2);
      r.heapU32.set(idx, ia >> 2);
      r.heapU32.set(sizes, sa >> 2);
      return r.create((out, error, capacity) => r.module._wf_navmesh_create(va, v.length / 3, 0, ia, idx.length, sa,
        sizes.length, out, error, capacity));
    }));
  }

  /** A voxel world of sizeX * sizeY * sizeZ blocks (y up); blocks (optional: all air) holds one
   *  kind per position at index (y * sizeZ + z) * sizeX + x: 0 air, 1 solid, 2 water, 3 ladder. */
  voxelWorldFromBlocks({ sizeX, sizeY, sizeZ, blocks }) {
    const r = this.runtime;
    for (const [key, value] of Object.entries({ sizeX, sizeY, sizeZ })) integerIn(value, key, 0, 2147483647);
    const count = sizeX * sizeY * sizeZ;
    const kinds = blocks === undefined ? undefined : typedArray(blocks, Uint8Array, 'blocks', count);
    return new VoxelWorld(r, r.scratch((alloc) => {
      let address = 0;
      if (kinds) {
        address = alloc(count);
        r.heapU8.set(kinds, address);
      }
      return r.create((out, error, capacity) => r.module._wf_voxel_world_create(sizeX, sizeY, sizeZ, address, out, error,
        capacity));
    }));
  }

  /** Seeded terrain with caves and lakes (docs/voxel.md, "Generated worlds"): the same size and
   *  seed give the same world. */
  generateVoxelWorld({ sizeX = 256, sizeY = 128, sizeZ = 256, seed = 1 } = {}) {
    const r = this.runtime;
    for (const [key, value] of Object.entries({ sizeX, sizeY, sizeZ })) integerIn(value, key, 1, 2147483647);
    return new VoxelWorld(r, r.create((out, error, capacity) => r.module._wf_js_voxel_world_generate(sizeX, sizeY, sizeZ,
      BigInt(integerIn(seed, 'seed', 0, Number.MAX_SAFE_INTEGER)), out, error, capacity)));
  }

  /** A voxel world from the text of a MovingAI `.3dmap` file. */
  voxelWorldFrom3dmap(text) {
    const r = this.runtime;
    return new VoxelWorld(r, r.withFile(text, (path) => r.create((out, error, capacity) =>
      r.module._wf_voxel_world_load_3dmap(path, out, error, capacity)), '3dmap text'));
  }

  /** A voxel world from the bytes of a MagicaVoxel `.vox` file (every colour solid). */
  voxelWorldFromVox(bytes) {
    const r = this.runtime;
    return new VoxelWorld(r, r.withFile(typedArray(bytes, Uint8Array, 'bytes'), (path) => r.create((out, error, capacity) =>
      r.module._wf_voxel_world_load_vox(path, 0, out, error, capacity)), 'vox data'));
  }

  createBatch() { return new Batch(this.runtime); }
}

/** Loads the WebAssembly module (about 1.9 MB, inlined in this package) and returns the library.
 *  Each call makes a separate module with its own memory. */
export async function loadWayfinder() {
  return new Wayfinder(await createWayfinderModule());
}
