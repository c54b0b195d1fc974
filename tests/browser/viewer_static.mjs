#!/usr/bin/env node
// The viewer's static site (tools/viewer/static/build.sh) in headless chromium, with no
// server: the page runs its searches in the WebAssembly build. From a static HTTP host it finds
// no server API and says so; opened from disk (file://) it opens the files a user picks, and
// shows the answers at the known optimal lengths: a MovingAI map's longest scenario, clicked on
// the grid (then zoomed and panned, and clicked again), and a Polyanya mesh's longest reference
// query typed in. The 3D views of navigation meshes (with the level under one) and of a voxel
// world must put WebGL pixels on their canvas, and clicks on their surfaces pick points there.
// Searches come with their traces, replayed step by step (paused, stepped one expansion at a
// time, resumed), on grids and in 3D; JPS+ and HPA* answer on the grid; generated grids of
// rooms and generated voxel terrain open and are searched.
// With --frames it also measures frame times while panning a 1024 x 1024 grid and a large mesh
// (requestAnimationFrame intervals; docs/benchmarks.md), and with --frames-voxel while turning a
// generated 512 x 128 x 512 voxel world in 3D.
//
//   node viewer_static.mjs --site build/viewer-static \
//     --map ../shared/data/movingai/dao/arena2.map \
//     --mesh ../shared/data/meshes/polyanya/meshes/arena.mesh \
//     --mesh-queries ../shared/data/meshes/derived/arena_polyanya_optimal.csv \
//     --obj-mesh ../shared/data/meshes/derived/nav_test_navmesh.obj \
//     --level ../shared/data/meshes/recastnavigation/nav_test.obj \
//     --voxel ../shared/data/voxel/warframe/Simple.3dmap \
//     --artifacts build/viewer-static-artifacts [--docs-images docs/images] \
//     [--frames --frames-mesh ../shared/data/meshes/derived/aurora-merged6.mesh] [--frames-voxel]
//
// Needs `npm ci` in this folder and Debian's chromium; exits 77 (skipped) without them unless
// WAYFINDER_REQUIRE_BROWSER=1. bindings/js/scripts/ci.sh runs it after the WebAssembly build.

import {createServer} from 'node:http';
import {copyFileSync, existsSync, mkdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {readCsv, readScenario} from '../../bindings/js/test/data.js';
import {Unavailable, check, frameTimes, highestTops, launchChromium, log, readOptions, requireFiles, runTest} from './browser_harness.mjs';

const options = readOptions('viewer_static.mjs',
  ['site', 'map', 'mesh', 'mesh-queries', 'obj-mesh', 'level', 'voxel', 'artifacts', 'docs-images', 'frames-mesh'],
  ['site', 'map', 'mesh', 'mesh-queries', 'obj-mesh', 'level', 'voxel', 'artifacts'], ['frames', 'frames-voxel']);

const background = [0xdd, 0xdd, 0xdd];
const pathColour = [0x21, 0x66, 0xac];
const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;
const baseName = (file) => path.basename(file).replace(/\.[^.]*$/, '');

// ---- Driving the page

async function openFile(page, file, input = '#upload') {
  const name = baseName(file);
  await page.setInputFiles(input, file);
  await page.waitForFunction((name) => window.viewerState?.world?.name === name && window.viewerState.panels.length > 0,
                             name, {timeout: 30000});
}

async function waitDone(page) {
  await page.waitForFunction(() => {
    const panels = window.viewerState.panels;
    return panels.length > 0 && panels.every((p) => ['done', 'error'].includes(p.canvas.dataset.state));
  }, null, {timeout: 30000});
  const shown = await page.evaluate(() => {
    const panel = window.viewerState.panels[0];
    const cost = panel.numbers.querySelector('dd[data-field=cost]');
    return {state: panel.canvas.dataset.state, status: panel.result?.status, message: panel.result?.message,
            costText: cost?.textContent, cost: cost?.dataset.value === undefined ? null : Number(cost.dataset.value),
            start: window.viewerState.start, goal: window.viewerState.goal, pathLength: panel.drawnPath.length};
  });
  check(shown.state === 'done', `the search ended in state ${shown.state}: ${await page.textContent('#message')}`);
  return shown;
}

async function clickPoint(page, point, modifiers = []) {
  const at = await page.evaluate((point) => window.viewerState.canvasPointOf(0, point), point);
  await page.mouse.click(at.x, at.y, {modifiers});
}

async function typePoints(page, start, goal) {
  await page.fill('#start-text', start.join(','));
  await page.press('#start-text', 'Enter');
  await page.fill('#goal-text', goal.join(','));
  await page.press('#goal-text', 'Enter');
  return waitDone(page);
}

// How many of panel 0's canvas pixels differ from the background, and how many are the path's
// colour (read back from the WebGL canvas through a 2D copy of it).
async function canvasPixels(page) {
  return page.evaluate(([background, pathColour]) => {
    const source = window.viewerState.panels[0].canvas;
    const copy = document.createElement('canvas');
    copy.width = source.width;
    copy.height = source.height;
    const context = copy.getContext('2d');
    context.drawImage(source, 0, 0);
    const data = context.getImageData(0, 0, copy.width, copy.height).data;
    let drawn = 0, onPath = 0;
    const close = (i, rgb, tolerance) => rgb.every((v, k) => Math.abs(data[i + k] - v) <= tolerance);
    for (let i = 0; i < data.length; i += 4) {
      if (!close(i, background, 6)) ++drawn;
      if (close(i, pathColour, 24)) ++onPath;
    }
    return {drawn, onPath, total: data.length / 4, webgl: source.classList.contains('view-3d')};
  }, [background, pathColour]);
}

async function check3d(page, label, {withPath}) {
  await page.waitForTimeout(100);  // the render after the last change runs in the next frame
  const pixels = await canvasPixels(page);
  check(pixels.webgl, `${label}: the panel is not a 3D view`);
  check(pixels.drawn > 0.05 * pixels.total,
        `${label}: only ${pixels.drawn} of ${pixels.total} pixels differ from the background: nothing rendered`);
  if (withPath) check(pixels.onPath > 20, `${label}: ${pixels.onPath} pixels of the path's colour: no path drawn`);
  log(`ok ${label}: ${(100 * pixels.drawn / pixels.total).toFixed(1)} % of the canvas drawn, ${pixels.onPath} path pixels`);
}

async function screenshot(page, name, docsName) {
  const file = path.join(options.artifacts, name);
  await page.screenshot({path: file});
  if (options['docs-images'] && docsName) copyFileSync(file, path.join(options['docs-images'], docsName));
}

// ---- The checks

// Served by a plain static HTTP server: the page asks for the API, finds none, runs in WebAssembly.
async function staticHost(browser) {
  const types = {'.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.txt': 'text/plain'};
  const server = createServer((request, response) => {
    const name = new URL(request.url, 'http://host').pathname.replace(/^\/$/, '/index.html');
    const file = path.join(path.resolve(options.site), path.normalize(name));
    if (!file.startsWith(path.resolve(options.site)) || !existsSync(file)) {
      response.writeHead(404, {'Content-Type': 'text/plain'}).end('not found');
      return;
    }
    response.writeHead(200, {'Content-Type': types[path.extname(file)] ?? 'application/octet-stream'}).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.body.dataset.mode, null, {timeout: 30000});
    const mode = await page.evaluate(() => document.body.dataset.mode);
    check(mode === 'static', `from a static host the page chose the ${mode} mode`);
    log(`ok from a static HTTP host: ${mode} mode, "${await page.textContent('#message')}"`);
    // A MovingAI map dropped on the page opens as a grid, and a typed query on it is answered.
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n'], 'dropped.map'));
      document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
    });
    await page.waitForFunction(() => window.viewerState?.world?.name === 'dropped', null, {timeout: 30000});
    const shown = await typePoints(page, [0, 1], [3, 1]);
    // Around the wall: no diagonal cuts its corners (the MovingAI rule), so 5 straight moves.
    check(shown.status === 'found' && near(shown.cost, 5, 1e-9),
          `on the dropped 4 x 3 map, (0,1) to (3,1) shows ${shown.status} at cost ${shown.cost}, not 5`);
    check(errors.length === 0, `the page reported errors: ${errors.join('; ')}`);
    log(`ok a dropped map: cost ${shown.costText}`);
    await page.close();
  } finally {
    server.close();
  }
}

async function grid(page) {
  await openFile(page, options.map);
  const scenario = readScenario(`${options.map}.scen`);
  const query = scenario.reduce((best, q) => (q.optimal > best.optimal ? q : best));
  await clickPoint(page, query.start);
  await clickPoint(page, query.goal);
  let shown = await waitDone(page);
  check(JSON.stringify(shown.start) === JSON.stringify(query.start) && JSON.stringify(shown.goal) === JSON.stringify(query.goal),
        `the clicks picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}, not ${query.start} and ${query.goal}`);
  check(shown.status === 'found' && near(shown.cost, query.optimal, query.tolerance),
        `grid: the page shows ${shown.status} at cost ${shown.cost}, the scenario's optimal length is ${query.optimal}`);
  check(shown.costText === shown.cost.toFixed(4), `grid: the cost reads "${shown.costText}"`);
  log(`ok grid ${baseName(options.map)} ${query.start} -> ${query.goal}: cost ${shown.costText}, optimal ${query.optimal}`);

  const command = await page.inputValue('#command');
  const expected = `wayfinder grid path ${path.basename(options.map)} --from ${query.start} --to ${query.goal} --algo astar ` +
                   '--diagonal only-if-no-obstacles --heuristic automatic';
  check(command === expected, `the command line reads\n  ${command}\nnot\n  ${expected}`);
  const startText = await page.inputValue('#start-text');
  check(startText === query.start.join(','), `the start box reads "${startText}"`);
  log(`ok command line: ${command}`);

  // Zoom about the middle of the canvas, then pan by dragging: the picked points stay, the cell
  // under the pointer is shown, and clicks still pick the cells under them.
  const box = await page.locator('#canvas-0').boundingBox();
  const middle = {x: box.x + box.width / 2, y: box.y + box.height / 2};
  await page.mouse.move(middle.x, middle.y);
  await page.mouse.wheel(0, -600);
  await page.mouse.move(middle.x, middle.y);
  await page.mouse.down();
  await page.mouse.move(middle.x + 60, middle.y + 30, {steps: 5});
  await page.mouse.up();
  const zoom = await page.evaluate(() => window.viewerState.panels[0].zoom);
  check(zoom.scale > 2 && zoom.x !== 0, `after the wheel and the drag the view is ${JSON.stringify(zoom)}`);
  const after = await page.evaluate(() => [window.viewerState.start, window.viewerState.goal]);
  check(JSON.stringify(after) === JSON.stringify([query.start, query.goal]), `the drag moved the points: ${JSON.stringify(after)}`);
  const visible = await page.evaluate(() => {
    const {world, panels} = window.viewerState;
    const canvas = panels[0].canvas;
    // A passable cell whose middle is on the canvas, near its centre.
    for (let r = 0; r < 40; ++r)
      for (let dy = -r; dy <= r; ++dy)
        for (let dx = -r; dx <= r; ++dx) {
          const at = window.viewerState.canvasPointOf(0, [0, 0]);
          const scale = (window.viewerState.canvasPointOf(0, [1, 0]).px - at.px);
          const x = Math.floor((canvas.width / 2 - at.px) / scale) + dx, y = Math.floor((canvas.height / 2 - at.py) / scale) + dy;
          if (x >= 0 && y >= 0 && x < world.width && y < world.height && world.cells[y * world.width + x] !== '#') return [x, y];
        }
    return null;
  });
  check(visible, 'no passable cell near the middle of the zoomed view');
  const at = await page.evaluate((point) => window.viewerState.canvasPointOf(0, point), visible);
  await page.mouse.move(at.x, at.y);
  const pointer = await page.textContent('#pointer');
  check(pointer === visible.join(','), `the pointer is over cell ${visible}, the page shows "${pointer}"`);
  await page.mouse.click(at.x, at.y);
  const picked = await page.evaluate(() => window.viewerState.start);
  check(JSON.stringify(picked) === JSON.stringify(visible), `after zooming, a click on ${visible} picked ${JSON.stringify(picked)}`);
  log(`ok zoom ${zoom.scale.toFixed(2)} and pan: the pointer shows ${pointer}, a click picks it`);
  // The goal typed in (the old one is off the zoomed canvas).
  await page.fill('#goal-text', query.goal.join(','));
  await page.press('#goal-text', 'Enter');
  shown = await waitDone(page);
  check(shown.status === 'found' && JSON.stringify(shown.goal) === JSON.stringify(query.goal),
        `the search from the zoomed view's click to the typed goal: ${shown.status} to ${JSON.stringify(shown.goal)}`);
  await screenshot(page, 'static-grid.png');
  await replay(page, query.start, query.goal);
  await gridAlgorithms(page, query);
}

// The replay of a search's trace: paused, a new search waits at its first event; Step shows the
// events up to the next expansion; Resume plays the rest. The trace's closed events are the
// search's expansions.
async function replay(page, start, goal) {
  await page.click('#pause');
  check(await page.textContent('#pause') === 'Resume', 'the pause button does not offer to resume');
  await page.fill('#start-text', start.join(','));
  await page.press('#start-text', 'Enter');
  await page.fill('#goal-text', goal.join(','));
  await page.press('#goal-text', 'Enter');
  await page.waitForFunction(() => window.viewerState.panels[0].result && window.viewerState.panels[0].replay, null,
                             {timeout: 30000});
  const before = await page.evaluate(() => {
    const panel = window.viewerState.panels[0];
    const trace = panel.result.trace;
    const closed = [];
    trace.forEach((event, i) => { if (event[0] === 2) closed.push(i); });
    return {shown: panel.shownEvents, state: panel.canvas.dataset.state, length: trace.length, closed,
            recorded: panel.result.trace_events, expanded: panel.result.stats.expanded};
  });
  check(before.length > 0 && before.recorded === before.length, `the trace has ${before.length} of ${before.recorded} events`);
  check(before.closed.length === before.expanded,
        `the trace closes ${before.closed.length} nodes, the search expanded ${before.expanded}`);
  check(before.state === 'animating' && before.shown === 0, `paused, the replay is ${before.state} at ${before.shown}`);
  for (const expansion of [0, 1, 2]) {
    await page.click('#step');
    const shown = await page.evaluate(() => window.viewerState.panels[0].shownEvents);
    check(shown === before.closed[expansion] + 1,
          `step ${expansion + 1} shows ${shown} events, not up to expansion ${expansion + 1} (${before.closed[expansion] + 1})`);
  }
  await page.click('#pause');
  const shown = await waitDone(page);
  const total = await page.evaluate(() => window.viewerState.panels[0].shownEvents);
  check(total === before.length && shown.pathLength > 0, `resumed, the replay ended at ${total} of ${before.length} events`);
  log(`ok replay: ${before.length} events, ${before.expanded} expansions, paused, stepped 3, resumed`);
  return shown;
}

// JPS+ (optimal, over its jump table) and HPA* (near-optimal, over the hierarchy) on the open
// grid, against the optimal length.
async function gridAlgorithms(page, query) {
  for (const algorithm of ['jps-plus', 'hpa']) {
    await page.selectOption('#algorithm-a', algorithm);
    const shown = await typePoints(page, query.start, query.goal);
    check(shown.status === 'found', `${algorithm}: ${shown.status} (${shown.message})`);
    const fits = algorithm === 'jps-plus' ? near(shown.cost, query.optimal, query.tolerance)
                                          : shown.cost >= query.optimal - query.tolerance && shown.cost <= 1.2 * query.optimal;
    check(fits, `${algorithm}: cost ${shown.cost}, the optimal length is ${query.optimal}`);
    log(`ok ${algorithm}: cost ${shown.costText}, optimal ${query.optimal}`);
  }
  await page.selectOption('#algorithm-a', 'astar');
}

// Generate, wait for the new world (its name starts with `prefix`).
async function generateWorld(page, generator, prefix) {
  await page.selectOption('#generator', generator);
  await page.click('#generate');
  await page.waitForFunction((prefix) => window.viewerState.world?.name.startsWith(prefix) &&
                             window.viewerState.panels.length > 0, prefix, {timeout: 60000});
  return page.evaluate(() => window.viewerState.world);
}

// A generated grid of rooms: walls and dearer terrain, and a path between its first and last
// passable cells (the generator joins every room).
async function generatedGrid(page) {
  const world = await generateWorld(page, 'grid', 'rooms ');
  check(world.width === 128 && world.height === 96, `the generated grid is ${world.width} x ${world.height}`);
  check(world.cells.includes('#') && world.costs.some((c) => c > 1), 'the generated grid has no walls or no dearer terrain');
  const first = world.cells.search(/[^#]/), last = world.cells.length - 1 - [...world.cells].reverse().join('').search(/[^#]/);
  const shown = await typePoints(page, [first % 128, Math.floor(first / 128)], [last % 128, Math.floor(last / 128)]);
  check(shown.status === 'found', `across the generated grid: ${shown.status} (${shown.message})`);
  log(`ok generated grid ${world.name}: cost ${shown.costText}`);
}

// Generated voxel terrain in 3D: drawn, and a click on a column's top picks the place on it.
async function generatedVoxels(page) {
  const world = await generateWorld(page, 'voxel:128,64,128', 'terrain ');
  check(JSON.stringify(world.size) === '[128,64,128]', `the generated terrain is ${world.size}`);
  await check3d(page, 'generated voxel terrain', {withPath: false});
  const {heights, kinds} = world;
  const highest = Math.max(...heights);
  const column = heights.findIndex((h, i) => h === highest && kinds[i] === 's');
  const top = [column % 128, highest + 1, Math.floor(column / 128)];
  await clickPoint(page, top);
  const picked = await page.evaluate(() => window.viewerState.start);
  check(JSON.stringify(picked) === JSON.stringify(top), `a click on the highest column's top ${top} picked ${JSON.stringify(picked)}`);
  // To the top of the solid column farthest from it (water holds an agent only with its feet
  // in it), for the picture of the docs.
  let far = top;
  heights.forEach((h, i) => {
    const at = [i % 128, h + 1, Math.floor(i / 128)];
    if (kinds[i] === 's' && h + 1 < 64 && Math.hypot(at[0] - top[0], at[2] - top[2]) > Math.hypot(far[0] - top[0], far[2] - top[2])) far = at;
  });
  const shown = await typePoints(page, top, far);
  check(shown.status === 'found', `across the generated terrain: ${shown.status} (${shown.message})`);
  await check3d(page, 'generated voxel terrain with a path', {withPath: true});
  log(`ok generated voxel terrain ${world.name}: the highest column's top picked, ${top} -> ${far} cost ${shown.costText}`);
  await screenshot(page, 'static-voxel-terrain-3d.png', 'viewer-3d-voxel-terrain.png');
}

async function polyanyaMesh(page) {
  await openFile(page, options.mesh);
  const query = readCsv(options['mesh-queries']).reduce((best, q) => (q.optimal_len > best.optimal_len ? q : best));
  const start = [query.sx, 0, query.sy], goal = [query.gx, 0, query.gy];
  let shown = await typePoints(page, start, goal);
  check(shown.status === 'found', `mesh: ${shown.status} (${shown.message})`);
  // The funnel's path on this query is the shortest (Polyanya's length, Cui, Harabor & Grastien 2017).
  check(near(shown.cost, query.optimal_len, 1e-6 * query.optimal_len),
        `mesh ${baseName(options.mesh)}: the page shows cost ${shown.cost}, the optimal length is ${query.optimal_len}`);
  log(`ok mesh ${baseName(options.mesh)} ${start} -> ${goal}: cost ${shown.costText}, optimal ${query.optimal_len}`);
  await check3d(page, `3D mesh ${baseName(options.mesh)}`, {withPath: true});

  // Clicks on the surface, at the middles of the path's first and last segments (inside the
  // mesh): the points picked are where the clicks were, and the search runs.
  const drawn = await page.evaluate(() => window.viewerState.panels[0].drawnPath);
  const middle = (a, b) => a.map((v, i) => (v + b[i]) / 2);
  const first = middle(drawn[0], drawn[1]), last = middle(drawn[drawn.length - 2], drawn[drawn.length - 1]);
  await clickPoint(page, first);
  await clickPoint(page, last);
  shown = await waitDone(page);
  const distance = (a, b) => Math.hypot(a[0] - b[0], a[2] - b[2]);
  check(shown.start && distance(shown.start, first) < 0.5 && distance(shown.goal, last) < 0.5,
        `3D clicks at ${first} and ${last} picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}`);
  check(shown.status === 'found', `the clicked search: ${shown.status}`);
  log(`ok 3D picking: ${shown.start.map((v) => v.toFixed(2))} and ${shown.goal.map((v) => v.toFixed(2))}, cost ${shown.costText}`);
}

async function objMeshWithLevel(page) {
  await openFile(page, options['obj-mesh']);
  await page.setInputFiles('#level-file', options.level);
  await page.waitForFunction(() => window.viewerState.world.level?.length > 0 && window.viewerState.panels.length > 0,
                             null, {timeout: 30000});
  const {polygons, regions, level} = await page.evaluate(() => {
    const world = window.viewerState.world;
    return {polygons: world.polygons.length, regions: world.region_count, level: world.level.length / 9};
  });
  check(polygons > 0 && level > 0, `the mesh has ${polygons} polygons, the level ${level} triangles`);
  // A query between the centroids of the two polygons of the largest region farthest apart.
  const [start, goal] = await page.evaluate(() => {
    const {vertices, polygons, regions} = window.viewerState.world;
    const sizes = new Map();
    for (const r of regions) sizes.set(r, (sizes.get(r) ?? 0) + 1);
    const largest = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const centres = polygons.filter((_, p) => regions[p] === largest)
      .map((polygon) => [0, 1, 2].map((i) => polygon.reduce((sum, v) => sum + vertices[v][i], 0) / polygon.length));
    let best = [centres[0], centres[0]];
    for (const a of centres) for (const b of centres)
      if (Math.hypot(a[0] - b[0], a[2] - b[2]) > Math.hypot(best[0][0] - best[1][0], best[0][2] - best[1][2])) best = [a, b];
    return best;
  });
  const shown = await typePoints(page, start, goal);
  check(shown.status === 'found' && shown.pathLength >= 2, `nav_test: ${shown.status} (${shown.message})`);
  await check3d(page, `3D mesh ${baseName(options['obj-mesh'])} over ${level} level triangles`, {withPath: true});
  log(`  ${polygons} polygons in ${regions} regions`);
  await screenshot(page, 'static-navmesh-3d.png', 'viewer-3d-navmesh.png');
}

async function voxels(page) {
  await openFile(page, options.voxel);
  await page.selectOption('#agent', 'flyer');
  const {start, goal} = highestTops(await page.evaluate(() => ({size: window.viewerState.world.size, heights: window.viewerState.world.heights})));
  await clickPoint(page, start);
  await clickPoint(page, goal);
  const shown = await waitDone(page);
  check(JSON.stringify(shown.start) === JSON.stringify(start) && JSON.stringify(shown.goal) === JSON.stringify(goal),
        `3D clicks on the tops of ${start} and ${goal} picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}`);
  check(shown.status === 'found', `voxel search: ${shown.status} (${shown.message})`);
  await check3d(page, `3D voxel world ${baseName(options.voxel)}`, {withPath: shown.pathLength > 2});
  const traced = await page.evaluate(() => {
    const panel = window.viewerState.panels[0];
    const points = panel.view3d.scene.children.find((child) => child.isPoints);
    return {events: panel.result.trace.length, drawn: points?.geometry.drawRange.count};
  });
  check(traced.events > 0 && traced.drawn === traced.events, `the 3D view draws ${traced.drawn} of ${traced.events} trace events`);
  log(`ok voxel ${baseName(options.voxel)} flyer ${start} -> ${goal}: cost ${shown.costText}`);
  await screenshot(page, 'static-voxel-3d.png');
}

// ---- Frame times (--frames)

// A 1024 x 1024 MovingAI map: rooms of 32 x 32 cells with doors, and scattered blocks.
function bigMap() {
  const size = 1024;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const rows = [];
  for (let y = 0; y < size; ++y) {
    let row = '';
    for (let x = 0; x < size; ++x) {
      const wall = (x % 32 === 0 && (y % 32) !== 16) || (y % 32 === 0 && (x % 32) !== 16);
      row += wall || random() < 0.08 ? '@' : '.';
    }
    rows.push(row);
  }
  return `type octile\nheight ${size}\nwidth ${size}\nmap\n${rows.join('\n')}\n`;
}

async function measureFrames(page) {
  await page.setInputFiles('#upload', {name: 'rooms1024.map', mimeType: 'text/plain', buffer: Buffer.from(bigMap())});
  await page.waitForFunction(() => window.viewerState?.world?.name === 'rooms1024', null, {timeout: 60000});
  await typePoints(page, [1, 1], [1022, 1022]);
  let times = await frameTimes(page, 'left');
  log(`frames: grid 1024 x 1024, pan: ${times.frames} frames, median ${times.median.toFixed(1)} ms, ` +
      `95th percentile ${times.p95.toFixed(1)} ms, longest ${times.max.toFixed(1)} ms`);
  if (options['frames-mesh']) {
    await openFile(page, options['frames-mesh']);
    const polygons = await page.evaluate(() => window.viewerState.world.polygons.length);
    times = await frameTimes(page, 'right');
    log(`frames: 3D mesh ${baseName(options['frames-mesh'])} (${polygons} polygons), pan: ${times.frames} frames, ` +
        `median ${times.median.toFixed(1)} ms, 95th percentile ${times.p95.toFixed(1)} ms, longest ${times.max.toFixed(1)} ms`);
  }
}

// Generated voxel terrain of 512 x 128 x 512 blocks in 3D, turned with the left button.
async function measureVoxelFrames(page) {
  const began = Date.now();
  await page.selectOption('#generator', 'voxel:512,128,512');
  await page.click('#generate');
  await page.waitForFunction(() => window.viewerState?.world?.kind === 'voxel' && window.viewerState.world.size[0] === 512 &&
                             window.viewerState.panels[0]?.view3d, null, {timeout: 240000});
  await page.waitForTimeout(200);
  const loaded = (Date.now() - began) / 1000;
  const times = await frameTimes(page, 'left');
  log(`frames: 3D voxel terrain 512 x 128 x 512 (generated, opened in ${loaded.toFixed(1)} s), turning: ` +
      `${times.frames} frames, median ${times.median.toFixed(1)} ms, 95th percentile ${times.p95.toFixed(1)} ms, ` +
      `longest ${times.max.toFixed(1)} ms`);
  await screenshot(page, 'static-voxel-terrain-512-3d.png');
}

// ---- Main

async function main() {
  requireFiles([['--map', options.map], ['--map .scen', `${options.map}.scen`], ['--mesh', options.mesh],
                ['--mesh-queries', options['mesh-queries']], ['--obj-mesh', options['obj-mesh']], ['--level', options.level],
                ['--voxel', options.voxel], ['--frames-mesh', options['frames-mesh']]]);
  const index = path.resolve(options.site, 'index.html');
  if (!existsSync(index)) throw new Unavailable(`${index} does not exist: build the site with tools/viewer/static/build.sh`);
  mkdirSync(options.artifacts, {recursive: true});
  if (options['docs-images']) mkdirSync(options['docs-images'], {recursive: true});
  const browser = await launchChromium({webgl: true});
  let page = null;
  const errors = [];
  try {
    await staticHost(browser);
    page = await browser.newPage({viewport: {width: 1280, height: 800}, deviceScaleFactor: 1});
    page.setDefaultTimeout(30000);
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('console', (message) => { if (message.type() === 'error') errors.push(`console error: ${message.text()}`); });
    await page.goto(pathToFileURL(index).href);
    await page.waitForFunction(() => document.body.dataset.mode === 'static', null, {timeout: 30000});
    log(`opened ${pathToFileURL(index).href}: "${await page.textContent('#message')}"`);
    // The fastest replay (about 24 frames a search), so that the searches below end soon.
    await page.$eval('#speed', (slider) => { slider.value = '10'; });
    await grid(page);
    await polyanyaMesh(page);
    await objMeshWithLevel(page);
    await voxels(page);
    await generatedGrid(page);
    await generatedVoxels(page);
    if (options.frames) await measureFrames(page);
    if (options['frames-voxel']) await measureVoxelFrames(page);
    check(errors.length === 0, `the page reported errors:\n  ${errors.join('\n  ')}`);
  } catch (error) {
    if (page) await page.screenshot({path: path.join(options.artifacts, 'static-failure.png')}).catch(() => {});
    if (errors.length) console.error(`the page reported:\n  ${errors.join('\n  ')}`);
    throw error;
  } finally {
    await browser.close().catch(() => {});
  }
}

runTest(main, {seconds: options.frames || options['frames-voxel'] ? 600 : 150});
