// The Wayfinder viewer: draws a world, takes a start and a goal from the mouse, runs one or two
// searches and replays their traces. Two backends answer the searches: `wayfinder serve`'s
// JSON API (docs/viewer.md) when the page finds it, else the library's WebAssembly build in the
// page itself (wasm_backend.js; the static site, tools/viewer/static). No framework: a canvas per
// panel, an offscreen image of the world, and the search drawn over it; navigation meshes and
// voxel worlds in 3D with three.js (view3d.js), bundled into the static site and embedded in
// `wayfinder serve` when it was built with it. The page's
// state is kept in `window.viewerState` for tests and for anyone curious in the browser's console.
import {createReplay, wireReplayControls} from './replay.js';
import {installCrowdPanel} from './crowd_panel.js';
import {installObstaclePanel} from './obstacle_panel.js';

// The server's algorithms; the WebAssembly backend lists its own.
let algorithms = {
  grid: ['astar', 'jps', 'jps-plus', 'dijkstra', 'bfs', 'weighted-astar', 'greedy', 'bidirectional', 'ida',
         'crash-right', 'crash-left', 'crash-auto', 'crash-four-way', 'divide'],
  navmesh: ['astar'],
  voxel: ['astar', 'jps', 'dijkstra', 'weighted-astar', 'greedy'],
};

const colours = {
  start: [26, 152, 80], goal: [215, 48, 39], path: '#2166ac',
  opened: [254, 224, 139], closed: [253, 174, 97], wall: [59, 59, 59], floor: [250, 250, 247],
  air: [214, 229, 242],
  corridor: 'rgba(120, 180, 230, 0.55)', portal: '#4a6f8f',
};

const state = {
  worlds: [],
  world: null,        // {id, kind, name, ...description}
  start: null,        // grid/voxel: [x, y] / [x, y, z]; navmesh: [x, y, z]
  goal: null,
  panels: [],         // one per algorithm shown: {algorithm, canvas, result, drawnPath, replay, zoom, view3d}
  mode: null,         // 'server' or 'static' (the WebAssembly build in the page)
  backend: null,
  levels: null,       // navmesh: [min, max] heights shown
  busy: false,
  rerun: false,       // a search was asked for while one was under way
  // Hooks for the panels in modules of their own (obstacle_panel.js, crowd_panel.js): drawn over
  // each 2D panel, after the path: (context, view, panel) => {}; told of a click on a panel (2D
  // or 3D) before it picks a point: ([x, z] or grid [x, y], point or null, event) => true when
  // taken; told when a world is opened: (world) => {}.
  overlays: [],
  discs: [],          // and for the 3D view: () => [{position, radius, colour}, ...], drawn on the surface
  solids: [],         // and () => [{shape: 'cylinder', base, radius, height} or {shape: 'box', min, max}, ...]
  clickTakers: [],
  worldListeners: [],
  // Where a world point (a cell, a voxel block or a mesh point, as in start, goal and paths) is
  // drawn in panel `index`: {x, y} in the page's CSS pixels (for mouse clicks) and {px, py} in
  // the canvas's own pixels (for reading colours back). Used by the browser tests.
  canvasPointOf(index, point) {
    const panel = state.panels[index];
    const [px, py] = panel.view3d ? panel.view3d.project(point) : transform(panel).toCanvas(...planar(point));
    const rect = panel.canvas.getBoundingClientRect();
    return {x: rect.left + px * rect.width / panel.canvas.width, y: rect.top + py * rect.height / panel.canvas.height,
            px, py};
  },
};
window.viewerState = state;

const $ = (id) => document.getElementById(id);

function say(text) { $('message').textContent = text; }

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : {'Content-Type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(json.error || `HTTP ${response.status}`);
  return json;
}

const serverBackend = {
  mode: 'server',
  listWorlds: () => api('GET', '/api/worlds'),
  describeWorld: (id) => api('GET', `/api/worlds/${id}`),
  addWorld: (body) => api('POST', '/api/worlds', body),
  editGrid: (id, body) => api('POST', `/api/worlds/${id}/edit`, body),
  query: (request) => api('POST', '/api/query', request),
  // A voxel world's blocks for the 3D view (as the WebAssembly backend's describeWorld gives
  // them), asked for in boxes of whole columns: the server sends at most 2^22 blocks an answer.
  async voxelBlocks(world) {
    const [sx, sy, sz] = world.size;
    const side = Math.max(1, Math.floor(Math.sqrt((1 << 22) / sy)));
    const blocks = new Uint8Array(sx * sy * sz);
    const boxes = [];
    for (let z0 = 0; z0 < sz; z0 += side)
      for (let x0 = 0; x0 < sx; x0 += side)
        boxes.push({from: [x0, z0], size: [Math.min(side, sx - x0), Math.min(side, sz - z0)]});
    await Promise.all(boxes.map(async (box) => {
      const answer = await api('POST', `/api/worlds/${world.id}/blocks`, box);
      const [x0, z0] = box.from, [width, , depth] = answer.size;
      const text = answer.blocks;
      for (let y = 0, i = 0; y < sy; ++y)
        for (let z = 0; z < depth; ++z) {
          const row = (y * sz + z0 + z) * sx + x0;
          for (let x = 0; x < width; ++x, ++i) blocks[row + x] = text.charCodeAt(i) - 48;
        }
    }));
    return blocks;
  },
};

// The server's API when it answers (the page came from `wayfinder serve`), else the
// WebAssembly build (a static site, or the page opened from disk).
async function chooseBackend() {
  if (location.protocol !== 'file:') {
    try {
      const response = await fetch('/api/worlds');
      if (response.ok && (response.headers.get('Content-Type') ?? '').includes('json')) return serverBackend;
    } catch {
      // No server: the static site.
    }
  }
  say('loading the WebAssembly module…');
  const {createWasmBackend} = await import('./wasm_backend.js');
  const backend = await createWasmBackend();
  algorithms = backend.algorithms;
  return backend;
}

// The 3D view and three.js: bundled into the static site; served by `wayfinder serve` when it
// was built with three.js (tools/viewer/CMakeLists.txt, the page's import map). Without them
// meshes and voxel worlds are drawn top-down only. Set by start().
let view3dModule = null;
async function load3d(mode) {
  if (typeof WAYFINDER_STATIC_BUNDLE !== 'undefined') return import('./view3d.js');
  if (mode !== 'server') return null;
  try {
    return await import('./view3d.js');
  } catch {
    return null;  // a server built without three.js
  }
}

// ---- Worlds

async function refreshWorlds(selectId) {
  state.worlds = await state.backend.listWorlds();
  const select = $('world');
  select.innerHTML = '';
  for (const world of state.worlds) {
    const option = document.createElement('option');
    option.value = world.id;
    option.textContent = `${world.name} (${world.kind})`;
    select.append(option);
  }
  if (selectId !== undefined) select.value = selectId;
  if (state.worlds.length === 0) {
    say('open or drop a file: a MovingAI .map, a navigation mesh (.obj, Polyanya .mesh), a voxel world (.3dmap, .vox)');
    return;
  }
  await openWorld(Number(select.value));
}

async function openWorld(id) {
  say('loading…');
  const world = await state.backend.describeWorld(id);
  state.world = world;
  state.start = null;
  state.goal = null;
  prepareWorld(world);
  for (const element of document.querySelectorAll('[data-kind]'))
    element.hidden = !element.dataset.kind.split(' ').includes(world.kind);
  $('view-3d-label').hidden = !view3dModule || world.kind === 'grid';
  const form = world.kind === 'grid' ? 'x,y' : 'x,y,z';
  $('start-text').placeholder = `click, or type ${form}`;
  $('goal-text').placeholder = `shift-click, or type ${form}`;
  fillAlgorithms(world.kind);
  await buildPanels();
  showPoints();
  say(describe(world));
  for (const listener of state.worldListeners) listener(world);
}

// The open world described again (a level's mesh after an obstacle), keeping the points.
async function reloadWorld() {
  Object.assign(state.world, await state.backend.describeWorld(state.world.id));
  const levels = state.levels;
  prepareWorld(state.world);
  if (state.world.kind === 'navmesh') state.levels = levels;
  for (const panel of state.panels) panel.meshLayer = null;
  // A 3D view is built from the world's polygons: built again, seen from where it was.
  const cameras = state.panels.map((panel) => panel.view3d?.viewpoint());
  if (cameras.some(Boolean)) {
    await buildPanels();
    state.panels.forEach((panel, i) => cameras[i] && panel.view3d?.viewpoint(cameras[i]));
  }
  drawAll();
  if (state.start && state.goal) run();
}

function describe(world) {
  if (world.kind === 'grid') return `${world.name}: ${world.width} × ${world.height} cells`;
  if (world.kind === 'navmesh') return `${world.name}: ${world.polygons.length} polygons, ${world.region_count} regions`;
  return `${world.name}: ${world.size.join(' × ')} blocks`;
}

function fillAlgorithms(kind) {
  for (const [id, withNone] of [['algorithm-a', false], ['algorithm-b', true]]) {
    const select = $(id);
    const keep = select.value;
    select.innerHTML = '';
    if (withNone) select.append(new Option('nothing', ''));
    for (const name of algorithms[kind]) select.append(new Option(name, name));
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  }
  if (kind === 'grid' && !$('algorithm-b').value) $('algorithm-b').value = '';
}

// Everything about a world that does not change between searches: its extent, its picture.
function prepareWorld(world) {
  if (world.kind === 'grid') {
    world.extent = {x: 0, y: 0, width: world.width, height: world.height};
    world.image = gridImage(world);
  } else if (world.kind === 'voxel') {
    world.extent = {x: 0, y: 0, width: world.size[0], height: world.size[2]};
    world.image = voxelImage(world);
  } else {
    const min = world.bounds.min, max = world.bounds.max;
    const margin = Math.max(max[0] - min[0], max[2] - min[2]) * 0.02 + 1e-9;
    world.extent = {x: min[0] - margin, y: min[2] - margin,
                    width: max[0] - min[0] + 2 * margin, height: max[2] - min[2] + 2 * margin};
    state.levels = [min[1], max[1]];
    for (const id of ['level-min', 'level-max']) {
      const input = $(id);
      input.min = min[1];
      input.max = max[1];
      input.step = Math.max((max[1] - min[1]) / 100, 1e-6);
    }
    $('level-min').value = min[1];
    $('level-max').value = max[1];
    showLevels();
    world.polygonHeights = world.polygons.map((p) => p.reduce((s, v) => s + world.vertices[v][1], 0) / p.length);
  }
}

function gridImage(world) {
  const canvas = new OffscreenCanvas(world.width, world.height);
  const context = canvas.getContext('2d');
  const image = context.createImageData(world.width, world.height);
  const maxCost = Math.max(1, ...world.costs);
  const symbols = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (let i = 0; i < world.cells.length; ++i) {
    const symbol = world.cells[i];
    let rgb = colours.wall;
    if (symbol !== '#') {
      const cost = world.costs[symbols.indexOf(symbol)] ?? 1;
      // Cost 1 is the floor colour; dearer terrain shades towards brown.
      const t = maxCost > 1 ? Math.min(1, (cost - 1) / (maxCost - 1)) : 0;
      rgb = cost <= 1 ? colours.floor : [250 - 110 * t - 30, 250 - 130 * t - 30, 247 - 160 * t - 40];
    }
    image.data.set([rgb[0], rgb[1], rgb[2], 255], i * 4);
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

function voxelImage(world) {
  const [sx, sy, sz] = world.size;
  const canvas = new OffscreenCanvas(sx, sz);
  const context = canvas.getContext('2d');
  const image = context.createImageData(sx, sz);
  for (let i = 0; i < sx * sz; ++i) {
    const height = world.heights[i];
    const kind = world.kinds[i];
    const shade = 50 + 190 * (height / Math.max(1, sy - 1));
    // An empty column (nothing to stand on: open air for a flyer) is pale blue, not black.
    let rgb = height < 0 ? colours.air : [shade, shade, shade];
    if (kind === 'w') rgb = [shade * 0.4, shade * 0.6, 255];
    if (kind === 'l') rgb = [shade, shade * 0.8, shade * 0.4];
    image.data.set([rgb[0], rgb[1], rgb[2], 255], i * 4);
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

// ---- Panels: one canvas per algorithm

async function buildPanels() {
  for (const panel of state.panels) {
    panel.replay?.pause();
    cancelAnimationFrame(panel.redraw ?? 0);
    panel.view3d?.dispose();
  }
  // None while the new ones are being made (a voxel world's blocks may take a moment to come).
  state.panels = [];
  const in3d = view3dModule && state.world.kind !== 'grid' && $('view-3d').checked;
  const view3d = in3d ? view3dModule : null;
  if (in3d && state.world.kind === 'voxel' && !state.world.blocks) state.world.blocks = await state.backend.voxelBlocks(state.world);
  const chosen = [$('algorithm-a').value, $('algorithm-b').value].filter((name) => name);
  const container = $('panels');
  container.innerHTML = '';
  state.panels = chosen.map((algorithm, index) => {
    const element = document.createElement('div');
    element.className = 'panel';
    element.dataset.algorithm = algorithm;
    const title = document.createElement('h2');
    title.textContent = algorithm;
    const canvas = document.createElement('canvas');
    canvas.id = `canvas-${index}`;
    const numbers = document.createElement('dl');
    numbers.className = 'numbers';
    element.append(title, canvas, numbers);
    container.append(element);
    const panel = {algorithm, canvas, numbers, result: null, drawnPath: [], shownEvents: 0, replay: null,
                   zoom: {scale: 1, x: 0, y: 0}, view3d: null};
    if (view3d) {
      canvas.className = 'view-3d';
      panel.view3d = view3d.createView3d(canvas, state.world, {
        onPick: (point, shift) => {
          if (!state.clickTakers.some((take) => take([point[0], point[2]], point, {shiftKey: shift}))) choosePoint(point, shift);
        },
        onHover: (point) => showPointer(point),
      });
    } else {
      listenToPointer(panel);
    }
    return panel;
  });
  $('weight').disabled = !chosen.includes('weighted-astar');
  resizeCanvases();
  drawAll();
}

function resizeCanvases() {
  const world = state.world;
  if (!world) return;
  for (const panel of state.panels) {
    const width = panel.canvas.clientWidth || 600;
    // As tall as the world's shape asks, but leaving room below for the numbers, so that the
    // picture and its numbers fit in the window together.
    const room = window.innerHeight - panel.canvas.getBoundingClientRect().top - window.scrollY - 180;
    const height = Math.min(Math.max(room, window.innerHeight * 0.4), width * world.extent.height / world.extent.width);
    panel.canvas.width = Math.round(width * devicePixelRatio);
    panel.canvas.height = Math.round(Math.max(100, height) * devicePixelRatio);
    panel.canvas.style.height = `${Math.max(100, height)}px`;
    panel.view3d?.resize(panel.canvas.width, panel.canvas.height);
  }
}

// World coordinates (grid cells, or x and z) to canvas pixels and back: the world fitted to the
// canvas, then the panel's zoom (a factor) and pan (canvas pixels).
function transform(panel) {
  const extent = state.world.extent;
  const fit = Math.min(panel.canvas.width / extent.width, panel.canvas.height / extent.height);
  const scale = fit * panel.zoom.scale;
  const offsetX = (panel.canvas.width - extent.width * fit) / 2 + panel.zoom.x;
  const offsetY = (panel.canvas.height - extent.height * fit) / 2 + panel.zoom.y;
  return {
    key: `${panel.canvas.width}x${panel.canvas.height}|${panel.zoom.scale},${panel.zoom.x},${panel.zoom.y}`,
    fit,
    scale,
    toCanvas: (x, y) => [offsetX + (x - extent.x) * scale, offsetY + (y - extent.y) * scale],
    toWorld: (px, py) => [extent.x + (px - offsetX) / scale, extent.y + (py - offsetY) / scale],
  };
}

function drawAll() { for (const panel of state.panels) draw(panel); }

function draw(panel) {
  const world = state.world;
  if (panel.view3d) {
    panel.view3d.show({start: state.start, goal: state.goal, path: panel.drawnPath,
                       corridor: panel.result?.corridor ?? [], trace: panel.result?.trace, shown: panel.shownEvents,
                       discs: state.discs.flatMap((list) => list()), solids: state.solids.flatMap((list) => list())});
    showNumbers(panel);
    return;
  }
  const context = panel.canvas.getContext('2d');
  const view = transform(panel);
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.fillStyle = '#ddd';
  context.fillRect(0, 0, panel.canvas.width, panel.canvas.height);
  if (world.kind === 'navmesh') {
    drawMesh(context, view, panel);
  } else {
    context.imageSmoothingEnabled = false;
    const [x0, y0] = view.toCanvas(0, 0);
    context.drawImage(world.image, x0, y0, world.extent.width * view.scale, world.extent.height * view.scale);
  }
  drawTrace(context, view, panel);
  drawPath(context, view, panel);
  drawEnds(context, view);
  for (const overlay of state.overlays) overlay(context, view, panel);
  showNumbers(panel);
}

function meshVisible(world, polygon) {
  const h = world.polygonHeights[polygon];
  return h >= state.levels[0] - 1e-9 && h <= state.levels[1] + 1e-9;
}

function regionColour(region) {
  const hue = (region * 137.508) % 360;
  return `hsl(${hue}, 45%, 82%)`;
}

// The mesh's polygons are drawn once into an image of the canvas's size (again only when the
// size or the levels shown change), so that an animation frame on a large mesh (aurora has
// thousands of polygons) copies one image instead of redrawing every polygon.
function meshLayer(panel, view) {
  const world = state.world;
  const key = `${world.id}|${view.key}|${state.levels[0]},${state.levels[1]}`;
  if (panel.meshLayer?.key === key) return panel.meshLayer.canvas;
  const canvas = new OffscreenCanvas(panel.canvas.width, panel.canvas.height);
  const context = canvas.getContext('2d');
  context.lineWidth = 1;
  context.strokeStyle = 'rgba(0, 0, 0, 0.25)';
  for (let p = 0; p < world.polygons.length; ++p) {
    if (!meshVisible(world, p)) continue;
    polygonPath(context, view, world.polygons[p]);
    context.fillStyle = regionColour(world.regions[p]);
    context.fill();
    context.stroke();
  }
  panel.meshLayer = {key, canvas};
  return canvas;
}

function polygonPath(context, view, polygon) {
  const world = state.world;
  context.beginPath();
  polygon.forEach((v, i) => {
    const [x, y] = view.toCanvas(world.vertices[v][0], world.vertices[v][2]);
    if (i === 0) context.moveTo(x, y); else context.lineTo(x, y);
  });
  context.closePath();
}

function drawMesh(context, view, panel) {
  const world = state.world;
  context.drawImage(meshLayer(panel, view), 0, 0);
  context.fillStyle = colours.corridor;
  for (const p of panel.result?.corridor ?? []) {
    if (!meshVisible(world, p)) continue;
    polygonPath(context, view, world.polygons[p]);
    context.fill();
  }
  if (panel.result?.portals) {
    // Thin and dashed, so that the path drawn over them stands out.
    context.strokeStyle = colours.portal;
    context.lineWidth = devicePixelRatio;
    context.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
    for (const [left, right] of panel.result.portals) {
      context.beginPath();
      context.moveTo(...view.toCanvas(left[0], left[2]));
      context.lineTo(...view.toCanvas(right[0], right[2]));
      context.stroke();
    }
    context.setLineDash([]);
  }
}

// Where a path or trace point is drawn: grids and voxel columns at cell centres, meshes at (x, z).
function planar(point) {
  const kind = state.world.kind;
  if (kind === 'grid') return [point[0] + 0.5, point[1] + 0.5];
  if (kind === 'voxel') return [point[0] + 0.5, point[2] + 0.5];
  return [point[0], point[2]];
}

// The trace is drawn into an image of its own, event by event in the search's order (so the last
// event at a place gives its colour), and each animation frame adds only the events that are
// new since the last one: a frame costs the new events and one image copy, however long the
// search, so a search on a 1024 x 1024 grid animates as smoothly as one on a small map.
function traceLayer(panel, view) {
  const result = panel.result;
  const layer = panel.traceLayer;
  if (layer && layer.result === result && layer.key === view.key && layer.drawn <= panel.shownEvents)
    return layer;
  panel.traceLayer = {result, key: view.key, drawn: 0,
                      canvas: new OffscreenCanvas(panel.canvas.width, panel.canvas.height)};
  return panel.traceLayer;
}

function drawTrace(context, view, panel) {
  const trace = panel.result?.trace;
  if (!trace) return;
  const kind = state.world.kind;
  const layer = traceLayer(panel, view);
  const layerContext = layer.canvas.getContext('2d');
  const size = kind === 'navmesh' ? Math.max(2, 3 * devicePixelRatio) : Math.max(1, view.scale);
  const styles = [colours.opened, colours.opened, colours.closed].map((rgb) => `rgb(${rgb[0]}, ${rgb[1]}, ${rgb[2]})`);
  for (let i = layer.drawn; i < panel.shownEvents; ++i) {
    const event = trace[i];
    layerContext.fillStyle = styles[event[0]] ?? styles[0];
    const [cx, cy] = view.toCanvas(...planar(event.slice(1)));
    if (kind === 'navmesh') {
      layerContext.fillRect(cx - size / 2, cy - size / 2, size, size);
    } else {
      layerContext.fillRect(cx - view.scale / 2, cy - view.scale / 2, size, size);
    }
  }
  layer.drawn = panel.shownEvents;
  context.globalAlpha = kind === 'navmesh' ? 1 : 0.85;
  context.drawImage(layer.canvas, 0, 0);
  context.globalAlpha = 1;
}

function drawPath(context, view, panel) {
  const path = panel.drawnPath;
  if (path.length < 2) return;
  context.strokeStyle = colours.path;
  context.lineWidth = state.world.kind === 'navmesh' ? 3 * devicePixelRatio : Math.max(2 * devicePixelRatio, view.scale * 0.35);
  context.lineJoin = 'round';
  context.lineCap = 'round';
  context.beginPath();
  path.forEach((point, i) => {
    const [x, y] = view.toCanvas(...planar(point));
    if (i === 0) context.moveTo(x, y); else context.lineTo(x, y);
  });
  context.stroke();
}

function drawEnds(context, view) {
  const radius = Math.max(5 * devicePixelRatio, view.scale * 0.6);
  for (const [point, rgb] of [[state.start, colours.start], [state.goal, colours.goal]]) {
    if (!point) continue;
    const [x, y] = view.toCanvas(...planar(point));
    context.fillStyle = `rgb(${rgb.join(',')})`;
    context.strokeStyle = '#fff';
    context.lineWidth = 2;
    context.beginPath();
    context.arc(x, y, radius, 0, 2 * Math.PI);
    context.fill();
    context.stroke();
  }
}

function showNumbers(panel) {
  const result = panel.result;
  const rows = [];
  if (!result) {
    rows.push(['', state.start ? 'click the goal' : 'click a start']);
  } else {
    rows.push(['status', result.status + (result.message ? ` — ${result.message}` : '')]);
    rows.push(['cost', result.cost === null ? '—' : result.cost.toFixed(4)]);
    if (result.moves !== undefined) rows.push(['moves', result.moves]);
    rows.push(['expanded', result.stats.expanded.toLocaleString()]);
    rows.push(['generated', result.stats.generated.toLocaleString()]);
    rows.push(['time', `${result.stats.microseconds.toFixed(0)} µs`]);
    if (result.trace_truncated) rows.push(['trace', `first ${result.trace.length} of ${result.trace_events} events`]);
  }
  panel.numbers.innerHTML = '';
  for (const [name, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dd.dataset.field = name;
    // The exact number, for tests and copying; the text is rounded.
    if (name === 'cost' && result?.cost != null) dd.dataset.value = String(result.cost);
    panel.numbers.append(dt, dd);
  }
}

// ---- Mouse

function selectedTool() {
  if (state.world.kind !== 'grid') return 'points';
  return document.querySelector('input[name=tool]:checked').value;
}

// The world point under the mouse: a cell, a voxel standing place, or a point on the mesh.
function pickPoint(panel, event) {
  const rect = panel.canvas.getBoundingClientRect();
  const px = (event.clientX - rect.left) * panel.canvas.width / rect.width;
  const py = (event.clientY - rect.top) * panel.canvas.height / rect.height;
  const [x, y] = transform(panel).toWorld(px, py);
  const world = state.world;
  if (world.kind === 'grid') {
    const cell = [Math.floor(x), Math.floor(y)];
    return cell[0] >= 0 && cell[1] >= 0 && cell[0] < world.width && cell[1] < world.height ? cell : null;
  }
  if (world.kind === 'voxel') {
    const [sx, sy, sz] = world.size;
    const cx = Math.floor(x), cz = Math.floor(y);
    if (cx < 0 || cz < 0 || cx >= sx || cz >= sz) return null;
    const top = world.heights[cz * sx + cx];
    // Walkers stand on the column's top; an empty column puts a flyer at the bottom.
    return [cx, Math.min(sy - 1, top + 1), cz];
  }
  return meshPoint(x, y);
}

// The point at (x, z) on the highest visible polygon that contains it, with its height taken
// from the polygon's triangle fan.
function meshPoint(x, z) {
  const world = state.world;
  let best = null;
  for (let p = 0; p < world.polygons.length; ++p) {
    if (!meshVisible(world, p)) continue;
    const vs = world.polygons[p].map((v) => world.vertices[v]);
    for (let i = 1; i + 1 < vs.length; ++i) {
      const h = triangleHeight(vs[0], vs[i], vs[i + 1], x, z);
      if (h !== null && (best === null || h > best[1])) best = [x, h, z];
    }
  }
  return best;
}

function triangleHeight(a, b, c, x, z) {
  const det = (b[2] - c[2]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[2] - c[2]);
  if (Math.abs(det) < 1e-12) return null;
  const l1 = ((b[2] - c[2]) * (x - c[0]) + (c[0] - b[0]) * (z - c[2])) / det;
  const l2 = ((c[2] - a[2]) * (x - c[0]) + (a[0] - c[0]) * (z - c[2])) / det;
  const l3 = 1 - l1 - l2;
  const eps = -1e-9;
  if (l1 < eps || l2 < eps || l3 < eps) return null;
  return l1 * a[1] + l2 * b[1] + l3 * c[1];
}

let paintQueue = [];
let paintTimer = 0;

// On a 2D panel: a click picks a point (or paints, with a painting tool: dragging paints on);
// a drag pans (with a painting tool, a drag with the right or middle button); the wheel zooms
// about the pointer.
function listenToPointer(panel) {
  const canvas = panel.canvas;
  let press = null;   // {x, y, button, panning}
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  canvas.addEventListener('pointerdown', (event) => {
    press = {x: event.clientX, y: event.clientY, button: event.button, panning: false};
    canvas.setPointerCapture?.(event.pointerId);
    if (event.button === 0 && selectedTool() !== 'points') paintAt(panel, event);
  });
  canvas.addEventListener('pointermove', (event) => {
    showPointer(pickPoint(panel, event));
    if (!press) return;
    const painting = press.button === 0 && selectedTool() !== 'points';
    if (painting) return paintAt(panel, event);
    const dx = event.clientX - press.x, dy = event.clientY - press.y;
    if (!press.panning && Math.hypot(dx, dy) < 4) return;
    press.panning = true;
    const rect = canvas.getBoundingClientRect();
    panel.zoom.x += dx * canvas.width / rect.width;
    panel.zoom.y += dy * canvas.height / rect.height;
    press.x = event.clientX;
    press.y = event.clientY;
    drawSoon(panel);
  });
  canvas.addEventListener('pointerup', (event) => {
    const released = press;
    press = null;
    if (!released || released.panning || released.button !== 0 || selectedTool() !== 'points') return;
    const point = pickPoint(panel, event);
    const rect = canvas.getBoundingClientRect();
    const planarPoint = transform(panel).toWorld((event.clientX - rect.left) * canvas.width / rect.width,
                                                 (event.clientY - rect.top) * canvas.height / rect.height);
    if (state.clickTakers.some((take) => take(planarPoint, point, event))) return;
    if (point) choosePoint(point, event.shiftKey);
  });
  canvas.addEventListener('pointerleave', () => showPointer(null));
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    const px = (event.clientX - rect.left) * canvas.width / rect.width;
    const py = (event.clientY - rect.top) * canvas.height / rect.height;
    const before = transform(panel);
    const [wx, wy] = before.toWorld(px, py);
    panel.zoom.scale = Math.min(512, Math.max(0.25, panel.zoom.scale * Math.exp(-event.deltaY * 0.0015)));
    // Keep the world point under the pointer where it is.
    const after = transform(panel);
    const [cx, cy] = after.toCanvas(wx, wy);
    panel.zoom.x += px - cx;
    panel.zoom.y += py - cy;
    drawSoon(panel);
  }, {passive: false});
}

// Pointer moves and wheel turns come several a frame: the panel is drawn once, at the next frame.
function drawSoon(panel) {
  panel.redraw ||= requestAnimationFrame(() => {
    panel.redraw = 0;
    draw(panel);
  });
}

function paintAt(panel, event) {
  const point = pickPoint(panel, event);
  if (!point) return;
  paintQueue.push(point);
  paintTimer ||= setTimeout(flushPaint, 60);
}

// A start (a click), or the goal (shift-click, or the click after a start).
function choosePoint(point, shift) {
  if (shift || (state.start && !state.goal)) {
    state.goal = point;
  } else {
    state.start = point;
    state.goal = null;
  }
  pointsChanged();
}

function pointsChanged() {
  showPoints();
  for (const p of state.panels) {
    p.replay?.pause();
    p.result = null; p.drawnPath = []; p.shownEvents = 0; p.replay = null;
    p.canvas.dataset.state = 'idle';
  }
  drawAll();
  if (state.start && state.goal) run();
}

async function flushPaint() {
  paintTimer = 0;
  const cells = paintQueue;
  paintQueue = [];
  if (cells.length === 0) return;
  const tool = selectedTool();
  const set = tool === 'wall' ? 'wall' : tool === 'floor' ? 'floor' : 3;
  try {
    await state.backend.editGrid(state.world.id, {cells, set});
    const world = await state.backend.describeWorld(state.world.id);
    Object.assign(state.world, world);
    state.world.image = gridImage(state.world);
    drawAll();
    if (state.start && state.goal) run();
  } catch (error) {
    say(error.message);
  }
}

// ---- Searches

function queryFor(algorithm) {
  const world = state.world;
  const query = {world: world.id, start: state.start, goal: state.goal, algorithm, trace: true};
  // Only weighted A* reads the weight; a mesh's A* would be weighted by it too.
  const weight = Number($('weight').value);
  if (algorithm === 'weighted-astar' && Number.isFinite(weight) && weight >= 1) query.weight = weight;
  if (world.kind === 'grid') {
    query.diagonal = $('diagonal').value;
    query.heuristic = $('heuristic').value;
  } else if (world.kind === 'navmesh') {
    query.nodes = $('nodes').value;
    query.snap_distance = 2;
  } else {
    query.agent = $('agent').value;
  }
  return query;
}

async function run() {
  if (!state.start || !state.goal) return;
  // One search at a time; one asked for meanwhile runs when it ends, with the page's settings then.
  if (state.busy) { state.rerun = true; return; }
  state.busy = true;
  state.rerun = false;
  say('searching…');
  const panels = state.panels;
  const asked = {world: state.world, start: state.start, goal: state.goal};
  const current = () => state.panels === panels && state.world === asked.world && state.start === asked.start &&
                        state.goal === asked.goal;
  for (const panel of panels) panel.canvas.dataset.state = 'searching';
  try {
    const results = await Promise.all(panels.map((panel) => state.backend.query(queryFor(panel.algorithm))));
    if (!current()) return;  // the world, the points or the panels changed meanwhile: not these answers
    panels.forEach((panel, i) => {
      panel.result = results[i];
      panel.drawnPath = [];
      panel.shownEvents = 0;
    });
    say(results.map((r, i) => `${panels[i].algorithm}: ${r.status}`).join(' · '));
    panels.forEach(animate);
  } catch (error) {
    if (!current()) return;
    say(error.message);
    for (const panel of panels) {
      panel.result = null;
      panel.drawnPath = [];
      draw(panel);
      panel.canvas.dataset.state = 'error';
    }
  } finally {
    state.busy = false;
    if (state.rerun) run();
  }
}

// Replays a search's trace (replay.js: speed, pause, step), then draws its path.
function animate(panel) {
  panel.replay?.pause();
  const result = panel.result;
  const trace = result.trace ?? [];
  const finish = () => {
    panel.shownEvents = trace.length;
    panel.drawnPath = result.path;
    panel.replay = null;
    draw(panel);
    panel.canvas.dataset.state = 'done';
  };
  panel.canvas.dataset.state = 'animating';
  if (!$('animate').checked || trace.length === 0) return finish();
  panel.replay = createReplay({trace, finish, speed: () => Number($('speed').value),
                               show: (shown) => { panel.shownEvents = shown; draw(panel); }});
  if (state.replayControls.paused) draw(panel); else panel.replay.play();
}

function showLevels() {
  const low = Number($('level-min').value), high = Number($('level-max').value);
  state.levels = [Math.min(low, high), Math.max(low, high)];
  $('level-text').textContent = `${state.levels[0].toFixed(2)} to ${state.levels[1].toFixed(2)}`;
}

// ---- The points as text, and the command line that runs the same search

// The cell, block or mesh point under the pointer.
function showPointer(point) {
  $('pointer').textContent = point ? formatPoint(point) : '—';
}

function formatPoint(point) {
  return point.map((v) => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(4))))).join(',');
}

// Text typed into the start or goal box: "x,y" on grids, "x,y,z" elsewhere.
function parsePoint(text) {
  const size = state.world.kind === 'grid' ? 2 : 3;
  const values = text.split(/[\s,]+/).filter((t) => t.length > 0).map(Number);
  if (values.length !== size || values.some((v) => !Number.isFinite(v))) return null;
  return state.world.kind === 'navmesh' ? values : values.map(Math.round);
}

function showPoints() {
  if (!state.world) return;
  for (const [id, point] of [['start-text', state.start], ['goal-text', state.goal]])
    if (document.activeElement !== $(id)) $(id).value = point ? formatPoint(point) : '';
  $('command').value = commandLine();
}

// `wayfinder ...` with the page's query (panel A's algorithm), to copy into a shell.
function commandLine() {
  const world = state.world;
  if (!state.start || !state.goal) return '';
  const algorithm = $('algorithm-a').value;
  const weight = algorithm === 'weighted-astar' ? ` --weight ${Number($('weight').value)}` : '';
  const file = world.file ?? world.name;
  const quote = (text) => (/^[\w.\/-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);
  if (world.kind === 'grid')
    return `wayfinder grid path ${quote(file.endsWith('.map') ? file : `${file}.map`)} --from ${formatPoint(state.start)} ` +
           `--to ${formatPoint(state.goal)} --algo ${algorithm} --diagonal ${$('diagonal').value} ` +
           `--heuristic ${$('heuristic').value}${weight}`;
  if (world.kind === 'navmesh')
    return `wayfinder mesh path ${quote(file)} --from=${formatPoint(state.start)} --to=${formatPoint(state.goal)} ` +
           `--nodes ${$('nodes').value} --snap 2`;
  return `wayfinder voxel path ${quote(file)} --from ${formatPoint(state.start)} --to ${formatPoint(state.goal)} ` +
         `--profile ${$('agent').value} --algo ${algorithm}${weight}`;
}

function typedPoint(which) {
  const point = parsePoint($(`${which}-text`).value);
  if (!point) return say(`${which}: type ${state.world.kind === 'grid' ? 'x,y' : 'x,y,z'}`);
  state[which] = point;
  pointsChanged();
}

// ---- Loading worlds from the page

// What a file is, from its name: the request that loads it (the server takes MovingAI maps and
// OBJs; the WebAssembly build also Polyanya meshes and voxel worlds).
async function worldRequest(file) {
  const name = file.name.replace(/\.[^.]*$/, '');
  const extension = file.name.toLowerCase().replace(/^.*\./, '');
  if (extension === 'obj') return {kind: 'navmesh', name, obj: await file.text()};
  if (extension === 'mesh') return {kind: 'navmesh', name, polyanya: await file.text()};
  if (extension === '3dmap') return {kind: 'voxel', name, threeDMap: await file.text()};
  if (extension === 'vox') return {kind: 'voxel', name, vox: new Uint8Array(await file.arrayBuffer())};
  return {kind: 'grid', name, movingai: await file.text()};
}

async function upload(file) {
  say(`loading ${file.name}…`);
  const body = await worldRequest(file);
  if (state.mode === 'server' && body.obj === undefined && body.movingai === undefined)
    throw new Error(`${file.name}: the server opens .map and .obj files (start it with the file to show it)`);
  const world = await state.backend.addWorld(body);
  await refreshWorlds(world.id);
  if (state.mode === 'static') state.world.file = file.name;
  showPoints();
}

// A level OBJ drawn faintly under the navigation mesh shown (static site, 3D view).
async function uploadLevel(file) {
  await state.backend.attachLevel(state.world.id, await file.text());
  await openWorld(state.world.id);
}

// A generated world: a grid of rooms (both modes), or voxel terrain of the size picked (static
// mode; `voxel:X,Y,Z` in the generator box).
async function generate() {
  const seed = Math.floor(Math.random() * 1e9);
  const [kind, size] = $('generator').value.split(':');
  say('generating…');
  const world = kind === 'voxel'
    ? await state.backend.addWorld({kind: 'voxel', name: `terrain ${seed}`,
                                    generate: {size: size.split(',').map(Number), seed}})
    : await state.backend.addWorld({kind: 'grid', name: `rooms ${seed}`,
                                    generate: {width: 128, height: 96, seed, rooms: 16}});
  await refreshWorlds(world.id);
}

// Files dropped on the page open as the file input's do; a level OBJ dropped on a shown mesh
// (its name not ending in _navmesh) goes under it.
async function dropped(files) {
  for (const file of files) {
    const isLevel = state.mode === 'static' && state.world?.kind === 'navmesh' && /\.obj$/i.test(file.name) &&
                    !/navmesh\.obj$/i.test(file.name);
    if (isLevel) await uploadLevel(file); else await upload(file);
  }
}

function wire() {
  $('world').addEventListener('change', () => openWorld(Number($('world').value)).catch((e) => say(e.message)));
  $('upload').addEventListener('change', (event) => {
    const file = event.target.files[0];
    if (file) upload(file).catch((e) => say(e.message));
    event.target.value = '';
  });
  $('level-file').addEventListener('change', (event) => {
    const file = event.target.files[0];
    if (file) uploadLevel(file).catch((e) => say(e.message));
    event.target.value = '';
  });
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    dropped([...event.dataTransfer.files]).catch((e) => say(e.message));
  });
  $('generate').addEventListener('click', () => generate().catch((e) => say(e.message)));
  $('run').addEventListener('click', run);
  for (const id of ['algorithm-a', 'algorithm-b'])
    $(id).addEventListener('change', async () => { await buildPanels(); showPoints(); run(); });
  for (const id of ['diagonal', 'heuristic', 'nodes', 'agent', 'weight'])
    $(id).addEventListener('change', () => { showPoints(); run(); });
  for (const id of ['level-min', 'level-max']) $(id).addEventListener('input', () => { showLevels(); drawAll(); });
  for (const which of ['start', 'goal']) $(`${which}-text`).addEventListener('change', () => typedPoint(which));
  $('copy-command').addEventListener('click', () => {
    navigator.clipboard?.writeText($('command').value).then(() => say('command copied'), () => $('command').select());
  });
  $('view-3d').addEventListener('change', async () => { await buildPanels(); run(); });
  $('fit').addEventListener('click', () => {
    for (const panel of state.panels) {
      panel.zoom = {scale: 1, x: 0, y: 0};
      panel.view3d?.fit();
    }
    drawAll();
  });
  window.addEventListener('resize', () => { resizeCanvases(); drawAll(); });
  state.replayControls = wireReplayControls({pauseButton: $('pause'), stepButton: $('step'),
                                             replays: () => state.panels.map((p) => p.replay).filter(Boolean)});
}

async function start() {
  wire();
  // What the panels in modules of their own may call.
  const viewer = {state, api, say, run, drawAll, drawSoon: () => state.panels.forEach(drawSoon), reloadWorld,
                  refreshWorlds};
  installObstaclePanel(viewer);
  installCrowdPanel(viewer);
  state.backend = await chooseBackend();
  state.mode = state.backend.mode;
  view3dModule = await load3d(state.mode);
  document.body.dataset.mode = state.mode;
  document.body.dataset.view3d = view3dModule ? 'yes' : 'no';
  for (const option of $('generator').options) option.hidden = !(state.backend.generators ?? ['grid']).includes(option.value.split(':')[0]);
  $('upload').accept = state.mode === 'static' ? '.map,.obj,.mesh,.3dmap,.vox' : '.map,.obj';
  await refreshWorlds();
}

start().catch((error) => say(error.message));
