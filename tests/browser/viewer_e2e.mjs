#!/usr/bin/env node
// End-to-end test of the web viewer (`wayfinder serve`) in a real browser: Debian's chromium,
// headless, driven by playwright-core. It does what a user does — opens the page, uploads a
// MovingAI map through the file input, clicks a start and a goal on the canvas, compares two
// algorithms side by side, switches to a navigation mesh and a voxel world — and checks each
// answer the page shows (the cost in the numbers panel, the path it drew, read back from
// window.viewerState and from the canvas's pixels) against the `wayfinder` command's answer to
// the same query. Then it opens the mesh and the voxel world in 3D (three.js, which the server
// embeds when it was built with it): each must draw more than 5 % of its canvas, and clicks on
// the 3D surface must pick the points under them and give the command's path.
// A screenshot of each view is kept in the artefacts folder.
//
//   node viewer_e2e.mjs --wayfinder build/release/tools/cli/wayfinder \
//     --served-map ../shared/data/movingai/dao/den520d.map \
//     --upload-map ../shared/data/movingai/dao/arena2.map \
//     --mesh ../shared/data/meshes/derived/nav_test_navmesh.obj \
//     --voxel ../shared/data/voxel/warframe/Simple.3dmap \
//     --walker-voxel ../shared/data/voxel/vox/scene_park3.vox \
//     --artifacts build/release/browser-artifacts [--docs-images docs/images] \
//     [--frames-voxel ../shared/data/voxel/warframe/Complex.3dmap]
//
// With --frames-voxel it also serves that voxel world and, after the checks, measures frame times
// while the left button turns its 3D view (requestAnimationFrame intervals; docs/benchmarks.md).
//
// Needs `npm ci` in this folder (playwright-core, pinned in package-lock.json) and a chromium
// ($WAYFINDER_CHROMIUM, else /usr/bin/chromium). Without them, or without the data files, it
// exits 77, which CTest reports as skipped — unless WAYFINDER_REQUIRE_BROWSER=1 (CI sets it; and
// WAYFINDER_REQUIRE_DATA=1 for the data), when it fails instead. Any other failure exits 1.
// Plain node (18 or later), no test framework.

import {spawnSync} from 'node:child_process';
import {copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {check, fail, frameTimes, highestTops, launchChromium, log, readOptions, requireFiles, runTest, startViewerServer} from './browser_harness.mjs';

// ---- Arguments

const options = readOptions('viewer_e2e.mjs',
  ['wayfinder', 'served-map', 'upload-map', 'mesh', 'voxel', 'walker-voxel', 'artifacts', 'docs-images', 'frames-voxel'],
  ['wayfinder', 'served-map', 'upload-map', 'mesh', 'voxel', 'artifacts']);

// ---- The server

// The server, stopped however this script ends (a failure, the watchdog, CTest's timeout).
let runningServer = null;
function stopServer() { if (runningServer && runningServer.exitCode === null) runningServer.kill('SIGTERM'); }
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { stopServer(); process.exit(1); });

function startServer(files) {
  const started = startViewerServer(options.wayfinder, files);
  runningServer = started.server;
  return started;
}

// ---- The library's answers, from the command line

function wayfinder(args, {noPathIsAnswer = false} = {}) {
  const run = spawnSync(options.wayfinder, args, {encoding: 'utf8', timeout: 30000});
  if (run.status !== 0 && !(noPathIsAnswer && run.status === 1))
    fail(`wayfinder ${args.join(' ')} exited with ${run.status}:\n${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout);
}

// The last (longest) scenario of a MovingAI map's .scen file, or the first and last floor cells.
function gridQuery(mapFile, world) {
  const scen = `${mapFile}.scen`;
  if (existsSync(scen)) {
    const lines = readFileSync(scen, 'utf8').split('\n').filter((line) => /^\d+\t/.test(line));
    const fields = lines[lines.length - 1].split('\t');
    return {start: [Number(fields[4]), Number(fields[5])], goal: [Number(fields[6]), Number(fields[7])]};
  }
  const first = world.cells.search(/[^#]/);
  let last = world.cells.length - 1;
  while (last > first && world.cells[last] === '#') --last;
  return {start: [first % world.width, Math.floor(first / world.width)],
          goal: [last % world.width, Math.floor(last / world.width)]};
}

// ---- Comparisons

const near = (a, b, tolerance = 1e-6) => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));

function samePoints(a, b, tolerance) {
  return a.length === b.length && a.every((p, i) => p.length === b[i].length && p.every((v, j) => near(v, b[i][j], tolerance)));
}

const describePath = (points) => (points.length <= 6 ? JSON.stringify(points)
  : `${JSON.stringify(points.slice(0, 3)).slice(0, -1)}, … ${points.length - 6} more …, ${JSON.stringify(points.slice(-3)).slice(1)}`);

// What panel `index` shows once its search is drawn: the numbers panel's cost (text and exact
// value), the result and the path drawn, and whether the path's colour is on the canvas where
// the middle of the path is.
async function panelShown(page, index) {
  return page.evaluate((index) => {
    const state = window.viewerState;
    const panel = state.panels[index];
    const cost = panel.numbers.querySelector('dd[data-field=cost]');
    const status = panel.numbers.querySelector('dd[data-field=status]');
    const path = panel.drawnPath;
    let pathPixels = 0;
    if (path.length >= 2) {
      // The middle of the middle segment, and the 5 x 5 canvas pixels around it.
      const k = Math.floor((path.length - 1) / 2);
      const middle = path[k].map((v, i) => (v + path[k + 1][i]) / 2);
      const {px, py} = state.canvasPointOf(index, middle);
      const data = panel.canvas.getContext('2d').getImageData(Math.round(px) - 2, Math.round(py) - 2, 5, 5).data;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i] - 0x21) <= 12 && Math.abs(data[i + 1] - 0x66) <= 12 && Math.abs(data[i + 2] - 0xac) <= 12) ++pathPixels;
    }
    return {
      algorithm: panel.algorithm,
      canvasState: panel.canvas.dataset.state,
      costText: cost?.textContent ?? null,
      costValue: cost?.dataset.value === undefined ? null : Number(cost.dataset.value),
      statusText: status?.textContent ?? null,
      result: {status: panel.result.status, cost: panel.result.cost, path: panel.result.path,
               algorithm: panel.result.algorithm, agent: panel.result.agent},
      drawnPath: path,
      pathPixels,
      start: state.start,
      goal: state.goal,
    };
  }, index);
}

// The page's answer in panel `index` against the command's: same status and cost (the text
// rounded as the page rounds it, the exact value within 1e-6), the path drawn is the
// command's path, and it is on the canvas.
function compare(label, shown, reference, referencePath, tolerance = 1e-9) {
  check(shown.canvasState === 'done', `${label}: the canvas's data-state is ${shown.canvasState}, not done`);
  check(shown.result.status === reference.status,
        `${label}: the page's status is ${shown.result.status}, the command's ${reference.status}`);
  check(reference.status === 'found', `${label}: no path was found (${reference.status}); the test's points should have one`);
  check(shown.statusText?.startsWith('found'), `${label}: the numbers panel shows status "${shown.statusText}"`);
  check(shown.costText === reference.cost.toFixed(4),
        `${label}: the numbers panel shows cost "${shown.costText}", the command's cost is ${reference.cost} (${reference.cost.toFixed(4)})`);
  check(shown.costValue !== null && near(shown.costValue, reference.cost),
        `${label}: the cost shown is exactly ${shown.costValue}, the command's ${reference.cost} (more than 1e-6 apart)`);
  check(near(shown.result.cost, reference.cost), `${label}: the page's result has cost ${shown.result.cost}, the command's ${reference.cost}`);
  check(samePoints(shown.drawnPath, referencePath, tolerance),
        `${label}: the path drawn differs from the command's:\n  page:    ${describePath(shown.drawnPath)}\n  command: ${describePath(referencePath)}`);
  check(shown.pathPixels > 0, `${label}: no pixel of the path's colour where the middle of the path should be drawn`);
  log(`ok ${label}: cost ${shown.costText} (page ${shown.costValue}, command ${reference.cost}), ` +
      `${shown.drawnPath.length} path points drawn as the command's`);
}

// ---- Driving the page

async function waitForWorld(page, name) {
  await page.waitForFunction((name) => {
    const state = window.viewerState;
    return state?.world?.name === name && state.panels.length > 0 && state.panels.every((p) => p.canvas.isConnected);
  }, name, {timeout: 15000});
}

async function clickPoint(page, index, point) {
  const at = await page.evaluate(([index, point]) => window.viewerState.canvasPointOf(index, point), [index, point]);
  await page.mouse.click(at.x, at.y);
}

// Clicks a start and a goal in panel 0 and waits until every panel has drawn its answer.
async function clickStartAndGoal(page, start, goal) {
  await clickPoint(page, 0, start);
  await clickPoint(page, 0, goal);
  await waitForPanelsDone(page);
}

async function waitForPanelsDone(page, count) {
  await page.waitForFunction((count) => {
    const panels = window.viewerState.panels;
    return (count === undefined || panels.length === count) && panels.length > 0 &&
           panels.every((p) => p.canvas.dataset.state === 'done' || p.canvas.dataset.state === 'error');
  }, count, {timeout: 20000});
  const errors = await page.evaluate(() => window.viewerState.panels.filter((p) => p.canvas.dataset.state === 'error').length);
  if (errors) fail(`a search failed in the page: ${await page.textContent('#message')}`);
}

async function screenshot(page, name, docsName) {
  const file = path.join(options.artifacts, name);
  await page.screenshot({path: file});
  log(`screenshot ${file}`);
  if (options['docs-images'] && docsName) {
    mkdirSync(options['docs-images'], {recursive: true});
    copyFileSync(file, path.join(options['docs-images'], docsName));
  }
}

async function selectWorld(page, name) {
  const id = await page.evaluate((name) => window.viewerState.worlds.find((w) => w.name === name)?.id, name);
  check(id !== undefined, `the page lists no world named ${name}`);
  await page.selectOption('#world', String(id));
  await waitForWorld(page, name);
}

// ---- The views

async function gridViews(page) {
  // Upload a MovingAI map through the page's file input: the page loads it and shows it.
  const uploadName = path.basename(options['upload-map']).replace(/\.[^.]*$/, '');
  const worldsBefore = await page.evaluate(() => window.viewerState.worlds.length);
  await page.setInputFiles('#upload', options['upload-map']);
  await waitForWorld(page, uploadName);
  const uploaded = await page.evaluate(() => {
    const {world, worlds} = window.viewerState;
    return {id: world.id, kind: world.kind, width: world.width, height: world.height, cells: world.cells,
            worlds: worlds.length, selected: document.getElementById('world').value};
  });
  check(uploaded.kind === 'grid' && uploaded.worlds === worldsBefore + 1 && uploaded.selected === String(uploaded.id),
        `the uploaded map is not the selected new grid: ${JSON.stringify({...uploaded, cells: undefined})}`);
  log(`ok uploaded ${path.basename(options['upload-map'])}: world ${uploaded.id}, ${uploaded.width} x ${uploaded.height}`);

  const gridReference = (map, query, algorithm) =>
    wayfinder(['grid', 'path', map, '--from', query.start.join(','), '--to', query.goal.join(','), '--algo', algorithm,
               '--diagonal', 'only-if-no-obstacles', '--heuristic', 'automatic', '--json']);

  let query = gridQuery(options['upload-map'], uploaded);
  await clickStartAndGoal(page, query.start, query.goal);
  let shown = await panelShown(page, 0);
  check(JSON.stringify(shown.start) === JSON.stringify(query.start) && JSON.stringify(shown.goal) === JSON.stringify(query.goal),
        `the clicks picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}, not the cells clicked, ` +
        `${JSON.stringify(query.start)} and ${JSON.stringify(query.goal)}`);
  let reference = gridReference(options['upload-map'], query, 'astar');
  compare(`grid ${uploadName} astar ${query.start} -> ${query.goal}`, shown, reference, reference.cells, 0);
  await screenshot(page, 'grid-upload.png');

  // A map named on the command line, and the side-by-side comparison: A* and jump point search.
  const servedName = path.basename(options['served-map']).replace(/\.[^.]*$/, '');
  await selectWorld(page, servedName);
  const served = await page.evaluate(() => {
    const {width, height, cells} = window.viewerState.world;
    return {width, height, cells};
  });
  query = gridQuery(options['served-map'], served);
  await page.selectOption('#algorithm-b', 'jps');
  await clickStartAndGoal(page, query.start, query.goal);
  await waitForPanelsDone(page, 2);
  const astar = await panelShown(page, 0);
  const jps = await panelShown(page, 1);
  check(astar.algorithm === 'astar' && jps.algorithm === 'jps' && jps.result.algorithm === 'jps',
        `the panels show ${astar.algorithm} and ${jps.algorithm} (${jps.result.algorithm}), not astar and jps`);
  reference = gridReference(options['served-map'], query, 'astar');
  compare(`grid ${servedName} astar ${query.start} -> ${query.goal} (left panel)`, astar, reference, reference.cells, 0);
  const jpsReference = gridReference(options['served-map'], query, 'jps');
  compare(`grid ${servedName} jps ${query.start} -> ${query.goal} (right panel)`, jps, jpsReference, jpsReference.cells, 0);
  check(near(astar.costValue, jps.costValue) && astar.costText === jps.costText,
        `side by side, A* shows cost ${astar.costValue} and JPS ${jps.costValue}: both are optimal, they should be equal`);
  log(`ok side by side: astar and jps both show the optimal cost ${astar.costText}`);
  await screenshot(page, 'grid.png', 'viewer-grid.png');
}

// Two points to click on a mesh: the centroids of two large polygons of its largest connected
// region, far apart, each the highest polygon at its (x, z) (the one a click there picks).
function meshPoints(mesh) {
  const {vertices, polygons, regions} = mesh;
  const corners = (p) => polygons[p].map((v) => vertices[v]);
  const area = (p) => {
    const vs = corners(p);
    let twice = 0;
    for (let i = 0; i < vs.length; ++i) {
      const a = vs[i], b = vs[(i + 1) % vs.length];
      twice += a[0] * b[2] - b[0] * a[2];
    }
    return Math.abs(twice) / 2;
  };
  const heightAt = (p, x, z) => {
    const vs = corners(p);
    for (let i = 1; i + 1 < vs.length; ++i) {
      const [a, b, c] = [vs[0], vs[i], vs[i + 1]];
      const det = (b[2] - c[2]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[2] - c[2]);
      if (Math.abs(det) < 1e-12) continue;
      const l1 = ((b[2] - c[2]) * (x - c[0]) + (c[0] - b[0]) * (z - c[2])) / det;
      const l2 = ((c[2] - a[2]) * (x - c[0]) + (a[0] - c[0]) * (z - c[2])) / det;
      const l3 = 1 - l1 - l2;
      if (l1 >= -1e-9 && l2 >= -1e-9 && l3 >= -1e-9) return l1 * a[1] + l2 * b[1] + l3 * c[1];
    }
    return null;
  };
  const sizes = new Map();
  for (const region of regions) sizes.set(region, (sizes.get(region) ?? 0) + 1);
  const largest = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const areas = polygons.map((_, p) => area(p));
  const median = [...areas].sort((a, b) => a - b)[Math.floor(areas.length / 2)];
  const candidates = [];
  for (let p = 0; p < polygons.length; ++p) {
    if (regions[p] !== largest || areas[p] < median) continue;
    const vs = corners(p);
    const centre = [0, 1, 2].map((i) => vs.reduce((s, v) => s + v[i], 0) / vs.length);
    const own = heightAt(p, centre[0], centre[2]);
    const covered = polygons.some((_, q) => q !== p && (heightAt(q, centre[0], centre[2]) ?? -Infinity) > own + 1e-6);
    if (!covered) candidates.push(centre);
  }
  check(candidates.length >= 2, 'the mesh has no two clickable polygons in its largest region');
  let best = null;
  for (const a of candidates)
    for (const b of candidates) {
      const d = Math.hypot(a[0] - b[0], a[2] - b[2]);
      if (!best || d > best.d) best = {a, b, d};
    }
  return {start: best.a, goal: best.b};
}

// Opens the mesh, top-down or in 3D, and clicks a start and a goal on it (meshPoints); the
// points clicked.
async function clickOnMesh(page, name, in3d) {
  await selectWorld(page, name);
  await show3d(page, in3d);
  const mesh = await page.evaluate(() => {
    const {vertices, polygons, regions} = window.viewerState.world;
    return {vertices, polygons, regions};
  });
  const points = meshPoints(mesh);
  await clickStartAndGoal(page, points.start, points.goal);
  return points;
}

async function meshView(page) {
  const name = path.basename(options.mesh).replace(/\.[^.]*$/, '');
  await clickOnMesh(page, name, false);
  const shown = await panelShown(page, 0);
  check(shown.start && shown.goal, 'the clicks on the mesh set no start or goal');
  // The page's picked points (on the polygon under the mouse), as the command's --from and --to,
  // with the page's settings: edge-point corridor nodes, snap distance 2, no weight.
  const format = (point) => point.map((v) => String(v)).join(',');
  const reference = wayfinder(['mesh', 'path', options.mesh, `--from=${format(shown.start)}`, `--to=${format(shown.goal)}`,
                               '--nodes', 'edge-points', '--snap', '2', '--json']);
  compare(`navmesh ${name} astar ${format(shown.start)} -> ${format(shown.goal)}`, shown, reference, reference.waypoints, 1e-9);
  await screenshot(page, 'navmesh.png', 'viewer-navmesh.png');
}

async function flyerView(page) {
  const name = path.basename(options.voxel).replace(/\.[^.]*$/, '');
  await selectWorld(page, name);
  await page.selectOption('#agent', 'flyer');
  const world = await page.evaluate(() => {
    const {size, heights} = window.viewerState.world;
    return {size, heights};
  });
  // From the top of the highest column (a flyer there stands on it) to the far corner of the
  // world from it (an empty column: the flyer is at its bottom).
  const [sx, sy, sz] = world.size;
  let top = 0;
  for (let i = 1; i < world.heights.length; ++i) if (world.heights[i] > world.heights[top]) top = i;
  const start = [top % sx, Math.min(sy - 1, world.heights[top] + 1), Math.floor(top / sx)];
  const corner = [start[0] < sx / 2 ? sx - 3 : 2, start[2] < sz / 2 ? sz - 3 : 2];
  const goal = [corner[0], Math.min(sy - 1, world.heights[corner[1] * sx + corner[0]] + 1), corner[1]];
  await clickStartAndGoal(page, start, goal);
  const shown = await panelShown(page, 0);
  check(JSON.stringify(shown.start) === JSON.stringify(start) && JSON.stringify(shown.goal) === JSON.stringify(goal),
        `the clicks picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}, not ${JSON.stringify(start)} and ${JSON.stringify(goal)}`);
  check(shown.result.agent === 'flyer', `the page searched with the ${shown.result.agent}, not the flyer`);
  const reference = wayfinder(['voxel', 'path', options.voxel, '--from', start.join(','), '--to', goal.join(','),
                               '--profile', 'flyer', '--algo', 'astar', '--json']);
  compare(`voxel ${name} flyer astar ${start} -> ${goal}`, shown, reference, reference.blocks, 0);
  await screenshot(page, 'voxel-flyer.png', options['walker-voxel'] ? undefined : 'viewer-voxel.png');
}

// The walker on a MagicaVoxel scene: two columns of its commonest ground height, near opposite
// corners, that the command finds a long path between (a click on a column stands the walker
// on its top block).
async function walkerView(page) {
  const file = options['walker-voxel'];
  const name = path.basename(file).replace(/\.[^.]*$/, '');
  await selectWorld(page, name);
  await page.selectOption('#agent', 'walker');
  const world = await page.evaluate(() => {
    const {size, heights, kinds} = window.viewerState.world;
    return {size, heights, kinds};
  });
  const [sx, sy, sz] = world.size;
  const counts = new Map();
  for (const h of world.heights) if (h >= 0) counts.set(h, (counts.get(h) ?? 0) + 1);
  const ground = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const columns = [];
  world.heights.forEach((h, i) => { if (h === ground && world.kinds[i] === 's' && h + 2 < sy) columns.push([i % sx, h + 1, Math.floor(i / sx)]); });
  const nearest = (cx, cz) => [...columns].sort((a, b) => Math.hypot(a[0] - cx, a[2] - cz) - Math.hypot(b[0] - cx, b[2] - cz)).slice(0, 4);
  const pairs = [];
  for (const [from, to] of [[[0.08 * sx, 0.08 * sz], [0.92 * sx, 0.92 * sz]], [[0.92 * sx, 0.08 * sz], [0.08 * sx, 0.92 * sz]]])
    for (const a of nearest(...from)) for (const b of nearest(...to)) pairs.push([a, b]);
  let chosen = null;
  for (const [start, goal] of pairs.slice(0, 12)) {
    const answer = wayfinder(['voxel', 'path', file, '--from', start.join(','), '--to', goal.join(','),
                              '--profile', 'walker', '--algo', 'astar', '--json'], {noPathIsAnswer: true});
    if (answer.status === 'found' && answer.cost > Math.hypot(sx, sz) / 2) { chosen = {start, goal, reference: answer}; break; }
  }
  check(chosen, `no two ground columns near opposite corners of ${name} have a long walker path between them`);
  await clickStartAndGoal(page, chosen.start, chosen.goal);
  const shown = await panelShown(page, 0);
  check(JSON.stringify(shown.start) === JSON.stringify(chosen.start) && JSON.stringify(shown.goal) === JSON.stringify(chosen.goal),
        `the clicks picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}, not ${JSON.stringify(chosen.start)} and ${JSON.stringify(chosen.goal)}`);
  check(shown.result.agent === 'walker', `the page searched with the ${shown.result.agent}, not the walker`);
  compare(`voxel ${name} walker astar ${chosen.start} -> ${chosen.goal}`, shown, chosen.reference, chosen.reference.blocks, 0);
  await screenshot(page, 'voxel-walker.png', 'viewer-voxel.png');
}

// ---- The 3D views

const has3d = (page) => page.evaluate(() => document.body.dataset.view3d === 'yes');

// Turns the 3D box on or off and waits for the panels to be built again.
async function show3d(page, on) {
  if (!(await has3d(page))) return;
  await page.setChecked('#view-3d', on);
  await page.waitForFunction((on) => {
    const panels = window.viewerState.panels;
    return panels.length > 0 && panels.every((p) => Boolean(p.view3d) === on && p.canvas.isConnected);
  }, on);
}

// What panel 0 shows in 3D: its answer, and how many of the WebGL canvas's pixels differ from
// the background and have the path's colour (read from a copy: the view keeps its drawing buffer).
async function shown3d(page) {
  await page.waitForTimeout(100);  // the render after the last change runs in the next frame
  return page.evaluate(() => {
    const state = window.viewerState;
    const panel = state.panels[0];
    const copy = document.createElement('canvas');
    copy.width = panel.canvas.width;
    copy.height = panel.canvas.height;
    const context = copy.getContext('2d');
    context.drawImage(panel.canvas, 0, 0);
    const data = context.getImageData(0, 0, copy.width, copy.height).data;
    const close = (i, rgb, tolerance) => rgb.every((v, k) => Math.abs(data[i + k] - v) <= tolerance);
    let drawn = 0, onPath = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (!close(i, [0xdd, 0xdd, 0xdd], 6)) ++drawn;
      if (close(i, [0x21, 0x66, 0xac], 24)) ++onPath;
    }
    const traced = panel.view3d.scene.children.find((child) => child.isPoints);
    return {webgl: Boolean(panel.view3d), drawn, onPath, total: data.length / 4, start: state.start, goal: state.goal,
            canvasState: panel.canvas.dataset.state, status: panel.result?.status, cost: panel.result?.cost,
            drawnPath: panel.drawnPath, traceEvents: panel.result?.trace?.length ?? 0,
            traceDrawn: traced?.geometry.drawRange.count ?? 0};
  });
}

function check3dPicture(label, shown) {
  check(shown.webgl, `${label}: the panel is not a 3D view`);
  check(shown.drawn > 0.05 * shown.total,
        `${label}: only ${shown.drawn} of ${shown.total} pixels differ from the background: nothing rendered`);
  check(shown.onPath > 20, `${label}: ${shown.onPath} pixels of the path's colour: no path drawn`);
  check(shown.traceEvents > 0 && shown.traceDrawn === shown.traceEvents,
        `${label}: the 3D view draws ${shown.traceDrawn} of ${shown.traceEvents} trace events`);
  log(`ok ${label}: ${(100 * shown.drawn / shown.total).toFixed(1)} % of the canvas drawn, ${shown.onPath} path pixels, ` +
      `${shown.traceDrawn} trace events`);
}

// The mesh in 3D: two clicks on its surface pick the points under them (within 0.5), and the
// path is the command's between the points picked.
async function mesh3dView(page) {
  const name = path.basename(options.mesh).replace(/\.[^.]*$/, '');
  const points = await clickOnMesh(page, name, true);
  const shown = await shown3d(page);
  const label = `3D navmesh ${name}`;
  check(shown.start && shown.goal, `${label}: the clicks on the surface set no start or goal`);
  for (const [clicked, picked] of [[points.start, shown.start], [points.goal, shown.goal]])
    check(Math.hypot(...clicked.map((v, i) => v - picked[i])) <= 0.5,
          `${label}: a click on ${JSON.stringify(clicked)} picked ${JSON.stringify(picked)}, more than 0.5 away`);
  const format = (point) => point.map((v) => String(v)).join(',');
  const reference = wayfinder(['mesh', 'path', options.mesh, `--from=${format(shown.start)}`, `--to=${format(shown.goal)}`,
                               '--nodes', 'edge-points', '--snap', '2', '--json']);
  check(shown.canvasState === 'done' && shown.status === reference.status && reference.status === 'found',
        `${label}: the page's search is ${shown.canvasState} with ${shown.status}, the command's ${reference.status}`);
  check(near(shown.cost, reference.cost), `${label}: the path's length is ${shown.cost}, the command's ${reference.cost}`);
  check(samePoints(shown.drawnPath, reference.waypoints, 1e-9), `${label}: the path drawn differs from the command's`);
  check3dPicture(label, shown);
  await screenshot(page, 'navmesh-3d.png');
}

// The voxel world in 3D: the blocks come from the server box by box; clicks on the tops of its
// highest columns (which nothing can hide from a camera above) pick the places on them, and the
// flyer's path between them is the command's.
async function voxel3dView(page) {
  const name = path.basename(options.voxel).replace(/\.[^.]*$/, '');
  await selectWorld(page, name);
  await page.selectOption('#agent', 'flyer');
  await show3d(page, true);
  const {start, goal} = highestTops(await page.evaluate(() => ({size: window.viewerState.world.size, heights: window.viewerState.world.heights})));
  await clickStartAndGoal(page, start, goal);
  const shown = await shown3d(page);
  const label = `3D voxel ${name} flyer`;
  check(JSON.stringify(shown.start) === JSON.stringify(start) && JSON.stringify(shown.goal) === JSON.stringify(goal),
        `${label}: clicks on the tops of ${start} and ${goal} picked ${JSON.stringify(shown.start)} and ${JSON.stringify(shown.goal)}`);
  const reference = wayfinder(['voxel', 'path', options.voxel, '--from', start.join(','), '--to', goal.join(','),
                               '--profile', 'flyer', '--algo', 'astar', '--json']);
  check(shown.canvasState === 'done' && shown.status === reference.status && reference.status === 'found',
        `${label}: the page's search is ${shown.canvasState} with ${shown.status}, the command's ${reference.status}`);
  check(near(shown.cost, reference.cost), `${label}: the path's length is ${shown.cost}, the command's ${reference.cost}`);
  check(samePoints(shown.drawnPath, reference.blocks, 0), `${label}: the path drawn differs from the command's`);
  check3dPicture(label, shown);
  await screenshot(page, 'voxel-3d.png');
}

// A level opened with "Open a level…" (a 20 x 20 floor the server builds into a mesh with
// Recast), in 3D: the level is drawn under its mesh, and a cylinder dropped by a click on the
// 3D surface is drawn standing on it.
async function level3dView(page) {
  const file = path.join(options.artifacts, 'floor.obj');
  writeFileSync(file, 'v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n');
  const built = page.waitForResponse((r) => r.url().endsWith('/api/worlds') && r.request().method() === 'POST');
  await page.setInputFiles('#obstacle-level-file', file);
  if ((await built).status() === 501) return log('skipped the level in 3D: the server was built without Recast');
  await page.waitForFunction(() => {
    const {world, panels} = window.viewerState;
    return world?.name === 'floor' && world.level_geometry && panels.length > 0 && panels.every((p) => p.view3d && p.canvas.isConnected);
  });
  const meshesOf = (page, type) => page.evaluate((type) => {
    let count = 0;
    window.viewerState.panels[0].view3d.scene.traverse((o) => { if (o.isMesh && o.geometry.type === type) ++count; });
    return count;
  }, type);
  const levelShown = await page.evaluate(() => {
    let shown = false;
    window.viewerState.panels[0].view3d.scene.traverse((o) => {
      if (o.isMesh && o.material.transparent && !o.material.depthWrite && o.geometry.attributes.position.count === 6) shown = true;
    });
    return shown;
  });
  check(levelShown, 'the level\'s two triangles are not drawn under its mesh in 3D');
  await page.selectOption('#obstacle-tool', 'cylinder');
  await page.fill('#obstacle-size', '4');
  await clickPoint(page, 0, [10, 0, 10]);
  await page.waitForFunction(() => window.viewerState.obstacles.list.length === 1);
  await page.waitForFunction(() => {
    let cylinders = 0;
    window.viewerState.panels[0]?.view3d?.scene.traverse((o) => { if (o.isMesh && o.geometry.type === 'CylinderGeometry') ++cylinders; });
    return cylinders === 1;
  });
  const shown = await shown3d(page);
  check(shown.drawn > 0.05 * shown.total, `level in 3D: only ${shown.drawn} of ${shown.total} pixels drawn`);
  check(await meshesOf(page, 'CylinderGeometry') === 1, 'the cylinder dropped is not drawn in 3D');
  await page.selectOption('#obstacle-tool', 'none');
  log(`ok level in 3D: drawn under its mesh, a cylinder dropped by a click on the surface drawn on it`);
  await screenshot(page, 'level-3d.png');
}

// A served voxel world in 3D, turned with the left button: how long it took to open (the blocks
// asked for box by box, then meshed) and the frame intervals meanwhile.
async function measureVoxelFrames(page) {
  const file = options['frames-voxel'];
  const name = path.basename(file).replace(/\.[^.]*$/, '');
  const began = Date.now();
  await selectWorld(page, name);
  await show3d(page, true);
  await page.waitForTimeout(200);
  const loaded = (Date.now() - began) / 1000;
  const {size, triangles, chunks} = await page.evaluate(() => {
    const view = window.viewerState.panels[0].view3d;
    const group = view.scene.children.find((child) => child.userData?.triangles !== undefined);
    return {size: window.viewerState.world.size, triangles: group?.userData.triangles, chunks: group?.userData.chunks};
  });
  const times = await frameTimes(page, 'left');
  log(`frames: 3D voxel world ${name} ${size.join(' x ')} (server mode, ${triangles} triangles in ${chunks} chunks, ` +
      `opened in ${loaded.toFixed(1)} s), turning: ${times.frames} frames, median ${times.median.toFixed(1)} ms, ` +
      `95th percentile ${times.p95.toFixed(1)} ms, longest ${times.max.toFixed(1)} ms`);
  await screenshot(page, 'voxel-frames-3d.png');
}

// ---- Main

async function main() {
  if (!existsSync(options.wayfinder)) fail(`--wayfinder ${options.wayfinder} does not exist`);
  requireFiles([['--served-map', options['served-map']], ['--upload-map', options['upload-map']], ['--mesh', options.mesh],
                ['--voxel', options.voxel], ['--walker-voxel', options['walker-voxel']], ['--frames-voxel', options['frames-voxel']]]);
  const browser = await launchChromium({webgl: true});
  mkdirSync(options.artifacts, {recursive: true});
  for (const stale of ['failure.png', 'server.log']) rmSync(path.join(options.artifacts, stale), {force: true});

  const served = [options['served-map'], options.mesh, options.voxel];
  if (options['walker-voxel']) served.push(options['walker-voxel']);
  if (options['frames-voxel']) served.push(options['frames-voxel']);
  const {url, output} = startServer(served);
  let page = null;
  const pageErrors = [];
  try {
    const address = await url;
    log(`wayfinder serve: ${address}`);
    const context = await browser.newContext({viewport: {width: 1280, height: 800}, deviceScaleFactor: 1});
    page = await context.newPage();
    page.setDefaultTimeout(20000);
    page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
    // Every request the page makes should succeed (the HTTP errors are listed with their
    // addresses; Chromium's console only says "Failed to load resource").
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        pageErrors.push(`console error: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} for ${response.request().method()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => pageErrors.push(`request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
    await page.goto(address);
    await page.waitForFunction(() => window.viewerState?.world && window.viewerState.panels.length > 0, null, {timeout: 15000});
    const names = await page.evaluate(() => window.viewerState.worlds.map((w) => `${w.name} (${w.kind})`));
    log(`page loaded: ${names.join(', ')}`);
    const mode = await page.evaluate(() => document.body.dataset.mode);
    check(mode === 'server', `served by wayfinder serve, the page chose the ${mode} mode (it should use the server's API)`);
    check(names.length === served.length, `the page lists ${names.length} worlds, not the ${served.length} named on the command line`);

    await gridViews(page);
    await meshView(page);
    await flyerView(page);
    if (options['walker-voxel']) await walkerView(page);
    if (await has3d(page)) {
      await mesh3dView(page);
      await voxel3dView(page);
      await level3dView(page);
      if (options['frames-voxel']) await measureVoxelFrames(page);
    } else if (process.env.WAYFINDER_REQUIRE_BROWSER === '1') {
      fail('the server\'s page has no 3D view: wayfinder was built without three.js (npm ci in tools/viewer/static, then cmake)');
    } else {
      log('skipped the 3D views: wayfinder was built without three.js (npm ci in tools/viewer/static, then cmake)');
    }
    check(pageErrors.length === 0, `the page reported errors:\n  ${pageErrors.join('\n  ')}`);
    log('all checks passed');
  } catch (error) {
    if (page) {
      const file = path.join(options.artifacts, 'failure.png');
      await page.screenshot({path: file}).then(() => console.error(`screenshot of the failure: ${file}`), () => {});
    }
    if (pageErrors.length) console.error(`the page reported:\n  ${pageErrors.join('\n  ')}`);
    writeFileSync(path.join(options.artifacts, 'server.log'), output());
    throw error;
  } finally {
    await browser.close().catch(() => {});
    stopServer();
  }
}

// The whole test stays well inside CTest's timeout.
runTest(main, {seconds: options['frames-voxel'] ? 600 : 100, cleanUp: stopServer});
