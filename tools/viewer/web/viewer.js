// The Wayfinder viewer: draws a world served by `wayfinder serve`, takes a start and a goal
// from the mouse, runs one or two searches through the JSON API (docs/viewer.md) and replays
// their traces. No framework: a canvas per panel, an offscreen image of the world, and the
// search drawn over it. The page's state is kept in `window.viewerState` for tests and for
// anyone curious in the browser's console.

const algorithms = {
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
  panels: [],         // one per algorithm shown: {algorithm, canvas, result, drawnPath, animation}
  levels: null,       // navmesh: [min, max] heights shown
  busy: false,
  rerun: false,       // a search was asked for while one was under way
  // Where a world point (a cell, a voxel block or a mesh point, as in start, goal and paths) is
  // drawn in panel `index`: {x, y} in the page's CSS pixels (for mouse clicks) and {px, py} in
  // the canvas's own pixels (for reading colours back). Used by the browser tests.
  canvasPointOf(index, point) {
    const panel = state.panels[index];
    const [px, py] = transform(panel).toCanvas(...planar(point));
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

// ---- Worlds

async function refreshWorlds(selectId) {
  state.worlds = await api('GET', '/api/worlds');
  const select = $('world');
  select.innerHTML = '';
  for (const world of state.worlds) {
    const option = document.createElement('option');
    option.value = world.id;
    option.textContent = `${world.name} (${world.kind})`;
    select.append(option);
  }
  if (selectId !== undefined) select.value = selectId;
  await openWorld(Number(select.value));
}

async function openWorld(id) {
  say('loading…');
  const world = await api('GET', `/api/worlds/${id}`);
  state.world = world;
  state.start = null;
  state.goal = null;
  prepareWorld(world);
  for (const element of document.querySelectorAll('[data-kind]'))
    element.hidden = element.dataset.kind !== world.kind;
  fillAlgorithms(world.kind);
  buildPanels();
  say(describe(world));
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

function buildPanels() {
  for (const panel of state.panels) cancelAnimationFrame(panel.animation ?? 0);
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
    const panel = {algorithm, canvas, numbers, result: null, drawnPath: [], shownEvents: 0, animation: 0};
    canvas.addEventListener('pointerdown', (event) => onPointer(event, panel, true));
    canvas.addEventListener('pointermove', (event) => { if (event.buttons) onPointer(event, panel, false); });
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
  }
}

// World coordinates (grid cells, or x and z) to canvas pixels and back.
function transform(panel) {
  const extent = state.world.extent;
  const scale = Math.min(panel.canvas.width / extent.width, panel.canvas.height / extent.height);
  const offsetX = (panel.canvas.width - extent.width * scale) / 2;
  const offsetY = (panel.canvas.height - extent.height * scale) / 2;
  return {
    scale,
    toCanvas: (x, y) => [offsetX + (x - extent.x) * scale, offsetY + (y - extent.y) * scale],
    toWorld: (px, py) => [extent.x + (px - offsetX) / scale, extent.y + (py - offsetY) / scale],
  };
}

function drawAll() { for (const panel of state.panels) draw(panel); }

function draw(panel) {
  const world = state.world;
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
  const key = `${world.id}|${panel.canvas.width}x${panel.canvas.height}|${state.levels[0]},${state.levels[1]}`;
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
function traceLayer(panel) {
  const result = panel.result;
  const layer = panel.traceLayer;
  if (layer && layer.result === result && layer.canvas.width === panel.canvas.width &&
      layer.canvas.height === panel.canvas.height && layer.drawn <= panel.shownEvents)
    return layer;
  panel.traceLayer = {result, drawn: 0, canvas: new OffscreenCanvas(panel.canvas.width, panel.canvas.height)};
  return panel.traceLayer;
}

function drawTrace(context, view, panel) {
  const trace = panel.result?.trace;
  if (!trace) return;
  const kind = state.world.kind;
  const layer = traceLayer(panel);
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

function onPointer(event, panel, pressed) {
  if (!state.world) return;
  const point = pickPoint(panel, event);
  if (!point) return;
  const tool = selectedTool();
  if (tool !== 'points') {
    paintQueue.push(point);
    paintTimer ||= setTimeout(flushPaint, 60);
    return;
  }
  if (!pressed) return;
  if (event.shiftKey || (state.start && !state.goal)) {
    state.goal = point;
  } else {
    state.start = point;
    state.goal = null;
  }
  for (const p of state.panels) {
    cancelAnimationFrame(p.animation);
    p.result = null; p.drawnPath = []; p.shownEvents = 0; p.animation = 0;
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
    await api('POST', `/api/worlds/${state.world.id}/edit`, {cells, set});
    const world = await api('GET', `/api/worlds/${state.world.id}`);
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
    const results = await Promise.all(panels.map((panel) => api('POST', '/api/query', queryFor(panel.algorithm))));
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

// Replays a search's trace over about two seconds (speed 5), then draws its path.
function animate(panel) {
  cancelAnimationFrame(panel.animation);
  const result = panel.result;
  const total = result.trace?.length ?? 0;
  const finish = () => {
    panel.shownEvents = total;
    panel.drawnPath = result.path;
    panel.animation = 0;
    draw(panel);
    panel.canvas.dataset.state = 'done';
  };
  panel.canvas.dataset.state = 'animating';
  if (!$('animate').checked || total === 0) return finish();
  const speed = Number($('speed').value);
  const frames = Math.max(10, 240 / speed);
  const perFrame = Math.max(1, Math.ceil(total / frames));
  const frame = () => {
    panel.shownEvents = Math.min(total, panel.shownEvents + perFrame);
    draw(panel);
    if (panel.shownEvents >= total) return finish();
    panel.animation = requestAnimationFrame(frame);
  };
  panel.animation = requestAnimationFrame(frame);
}

function showLevels() {
  const low = Number($('level-min').value), high = Number($('level-max').value);
  state.levels = [Math.min(low, high), Math.max(low, high)];
  $('level-text').textContent = `${state.levels[0].toFixed(2)} to ${state.levels[1].toFixed(2)}`;
}

// ---- Loading worlds from the page

async function upload(file) {
  const text = await file.text();
  const name = file.name.replace(/\.[^.]*$/, '');
  const body = file.name.toLowerCase().endsWith('.obj') ? {kind: 'navmesh', name, obj: text}
                                                        : {kind: 'grid', name, movingai: text};
  const world = await api('POST', '/api/worlds', body);
  await refreshWorlds(world.id);
}

async function generate() {
  const seed = Math.floor(Math.random() * 1e9);
  const world = await api('POST', '/api/worlds', {kind: 'grid', name: `rooms ${seed}`,
                                                   generate: {width: 128, height: 96, seed, rooms: 16}});
  await refreshWorlds(world.id);
}

function wire() {
  $('world').addEventListener('change', () => openWorld(Number($('world').value)).catch((e) => say(e.message)));
  $('upload').addEventListener('change', (event) => {
    const file = event.target.files[0];
    if (file) upload(file).catch((e) => say(e.message));
    event.target.value = '';
  });
  $('generate').addEventListener('click', () => generate().catch((e) => say(e.message)));
  $('run').addEventListener('click', run);
  for (const id of ['algorithm-a', 'algorithm-b']) $(id).addEventListener('change', () => { buildPanels(); run(); });
  for (const id of ['diagonal', 'heuristic', 'nodes', 'agent', 'weight']) $(id).addEventListener('change', run);
  for (const id of ['level-min', 'level-max']) $(id).addEventListener('input', () => { showLevels(); drawAll(); });
  window.addEventListener('resize', () => { resizeCanvases(); drawAll(); });
}

wire();
refreshWorlds().catch((error) => say(error.message));
