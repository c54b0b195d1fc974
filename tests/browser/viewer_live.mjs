#!/usr/bin/env node
// The viewer's obstacle and crowd panels in a real browser (headless chromium driven by
// playwright-core), against `wayfinder serve`: it opens a level (a 20 x 20 floor written by the
// test) through the obstacle panel, clicks a query across it, drops a cylinder in the way (the
// rebuilt tiles must flash and the path must grow), removes it (the path must come back); then
// adds two agents by clicking, sends them to a point, steps the crowd and lets it run (the agents
// must move towards the point); then opens a grid (uploaded through the page) and walks a crowd
// there the same way, in cell units. About 6 s. With --site (a static site, tools/viewer/static/build.sh)
// it also opens the site from disk, where the obstacle panel must say it needs the server, and
// walks crowds the same way, on the mesh and on the grid, on the WebAssembly build's Crowd.
//
//   node viewer_live.mjs --wayfinder build/release/tools/cli/wayfinder --artifacts build/release/browser-artifacts
//   node viewer_live.mjs --site build/viewer-static --artifacts build/viewer-static-artifacts
//
// Needs what viewer_e2e.mjs needs (`npm ci` in this folder, a chromium); without them it exits 77
// (skipped) unless WAYFINDER_REQUIRE_BROWSER=1. A server built without Recast cannot build the
// level: also a skip. Plain node (18 or later), no test framework.

import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Unavailable, check, fail, launchChromium, log, readOptions, runTest, startViewerServer} from './browser_harness.mjs';

const options = readOptions('viewer_live.mjs', ['wayfinder', 'site', 'artifacts'], ['artifacts']);

let runningServer = null;
function stopServer() { if (runningServer && runningServer.exitCode === null) runningServer.kill('SIGTERM'); }
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { stopServer(); process.exit(1); });

const start = [2, 0, 10];
const goal = [18, 0, 10];

// Clicks a world point on panel 0, scrolled into the window first (choosing a tool in the
// controls below may have scrolled the page).
async function click(page, point) {
  const at = await page.evaluate((point) => {
    window.scrollTo(0, 0);
    return window.viewerState.canvasPointOf(0, point);
  }, point);
  await page.mouse.click(at.x, at.y);
}

async function pathShown(page) {
  await page.waitForFunction(() => {
    const s = window.viewerState;
    return s.obstacles.requests === 0 && !s.busy && s.panels.every((p) => p.canvas.dataset.state === 'done');
  }, null, {timeout: 10000});
  return page.evaluate(() => window.viewerState.panels[0].result);
}

async function crowdState(page) { return page.evaluate(() => window.viewerState.crowd.state); }

// A page that records its errors, and the screenshot and message kept when `steps` fail.
async function onPage(browser, name, steps) {
  const page = await (await browser.newContext({viewport: {width: 1280, height: 800}, deviceScaleFactor: 1})).newPage();
  page.setDefaultTimeout(10000);
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} for ${response.request().method()} ${response.url()}`);
  });
  try {
    await steps(page);
    check(pageErrors.length === 0, `the page reported errors:\n${pageErrors.join('\n')}`);
  } catch (error) {
    await page.screenshot({path: path.join(options.artifacts, `${name}-failure.png`)}).catch(() => {});
    log(`the page says: ${await page.textContent('#message').catch(() => '?')}; page errors: ${pageErrors.join('; ') || 'none'}`);
    throw error;
  }
}

// Two agents added by clicks, sent to a point by a click, stepped three times, then run and
// paused: the crowd's time must advance and each agent come a unit nearer the point.
async function crowdWalks(page, label) {
  await page.selectOption('#crowd-tool', 'add');
  check(await page.inputValue('#obstacle-tool') === 'none', 'choosing a crowd tool left the obstacle tool on');
  await click(page, [3, 0, 3]);
  await page.waitForFunction(() => window.viewerState.crowd.state?.agents.length === 1);
  await click(page, [3, 0, 17]);
  await page.waitForFunction(() => window.viewerState.crowd.state?.agents.length === 2);
  await page.selectOption('#crowd-tool', 'target');
  await click(page, [17, 0, 10]);
  await page.waitForFunction(() => window.viewerState.crowd.state?.agents.every((a) => a.target));
  const before = await crowdState(page);
  for (let i = 0; i < 3; ++i) {
    const steps = await page.evaluate(() => window.viewerState.crowd.steps);
    await page.click('#crowd-step');
    await page.waitForFunction((steps) => window.viewerState.crowd.steps > steps, steps);
  }
  const stepped = await crowdState(page);
  check(stepped.time > before.time, `${label}: stepping did not advance the crowd's time (${before.time} -> ${stepped.time})`);
  await page.click('#crowd-start');
  await page.waitForFunction((time) => window.viewerState.crowd.state.time > time + 0.5, stepped.time);
  await page.click('#crowd-start');
  const ran = await crowdState(page);
  check(!(await page.evaluate(() => window.viewerState.crowd.running)), `${label}: Pause did not stop the crowd`);
  const distance = (p, q) => Math.hypot(p[0] - q[0], p[2] - q[2]);
  ran.agents.forEach((agent, i) => {
    const from = before.agents[i].position;
    check(distance(agent.position, [17, 0, 10]) < distance(from, [17, 0, 10]) - 1,
          `${label}: agent ${agent.id} did not walk towards its target: ${JSON.stringify(from)} -> ${JSON.stringify(agent.position)}`);
  });
  log(`ok ${label}: two agents added by clicks walked towards their target (${ran.time.toFixed(2)} s of crowd time)`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({path: path.join(options.artifacts, `viewer-live-crowd-${label}.png`)});
}

// A 20 x 12 grid with a wall across its middle, uploaded through the page: two agents added by
// clicks on cells stand where the clicks fell, (column, 0, row) in cell units; sent past the wall
// by a click, stepped and run, they come nearer the point and never stand in a wall; run on, both
// arrive (within two radii of the point, since they share it). `label` is 'server' or 'static'.
async function gridCrowdWalks(page, label) {
  const rows = Array.from({length: 12}, (_, y) => (y >= 3 && y <= 8 ? '.........@..........' : '....................'));
  const file = path.join(options.artifacts, 'walled.map');
  writeFileSync(file, `type octile\nheight 12\nwidth 20\nmap\n${rows.join('\n')}\n`);
  await page.setInputFiles('#upload', file);
  await page.waitForFunction(() => window.viewerState.world?.kind === 'grid' && window.viewerState.world.name.startsWith('walled') &&
                                   window.viewerState.panels.length);
  check(await page.isVisible('#crowd-step'), `${label}: the crowd tools are hidden on a grid`);
  await page.selectOption('#crowd-tool', 'add');
  await click(page, [2, 2]);
  await page.waitForFunction(() => window.viewerState.crowd.state?.agents.length === 1);
  const first = (await crowdState(page)).agents[0].position;
  check(Math.abs(first[0] - 2.5) < 0.2 && first[1] === 0 && Math.abs(first[2] - 2.5) < 0.2,
        `grid: a click on cell [2, 2] put the agent at ${JSON.stringify(first)}, not near [2.5, 0, 2.5]`);
  await click(page, [2, 9]);
  await page.waitForFunction(() => window.viewerState.crowd.state?.agents.length === 2);
  await page.selectOption('#crowd-tool', 'target');
  const target = [17.5, 0, 6.5];
  await click(page, [17, 6]);
  await page.waitForFunction(() => window.viewerState.crowd.state?.agents.every((a) => a.target));
  const before = await crowdState(page);
  const blocked = (p) => rows[Math.floor(p[2])]?.[Math.floor(p[0])] !== '.';
  for (let i = 0; i < 3; ++i) {
    const steps = await page.evaluate(() => window.viewerState.crowd.steps);
    await page.click('#crowd-step');
    await page.waitForFunction((steps) => window.viewerState.crowd.steps > steps, steps);
    for (const agent of (await crowdState(page)).agents)
      check(!blocked(agent.position), `grid: agent ${agent.id} stands in a wall: ${JSON.stringify(agent.position)}`);
  }
  const stepped = await crowdState(page);
  await page.click('#crowd-start');
  await page.waitForFunction((time) => window.viewerState.crowd.state.time > time + 1, stepped.time);
  await page.click('#crowd-start');
  const ran = await crowdState(page);
  const distance = (p, q) => Math.hypot(p[0] - q[0], p[2] - q[2]);
  ran.agents.forEach((agent, i) => {
    const from = before.agents[i].position;
    check(!blocked(agent.position), `grid: agent ${agent.id} stands in a wall: ${JSON.stringify(agent.position)}`);
    check(distance(agent.position, target) < distance(from, target) - 1,
          `grid: agent ${agent.id} did not walk towards its target: ${JSON.stringify(from)} -> ${JSON.stringify(agent.position)}`);
  });
  log(`ok ${label} grid: two agents added by clicks on cells walked towards their target (${ran.time.toFixed(2)} s of crowd time)`);

  // Run on at the fastest speed until both have arrived, looking at every state the page shows.
  await page.evaluate(() => { document.getElementById('crowd-speed').value = '10'; });
  await page.click('#crowd-start');
  const began = Date.now();
  let last = ran;
  while (!last.agents.every((agent) => agent.status === 'arrived')) {
    check(Date.now() - began < 20000, `${label} grid: the agents did not arrive: ${JSON.stringify(last.agents)}`);
    await page.waitForTimeout(50);
    last = await crowdState(page);
    for (const agent of last.agents)
      check(!blocked(agent.position), `${label} grid: agent ${agent.id} stands in a wall: ${JSON.stringify(agent.position)}`);
  }
  await page.click('#crowd-start');
  for (const agent of last.agents)
    check(distance(agent.position, target) < 2 * agent.radius + 0.2,
          `${label} grid: agent ${agent.id} arrived at ${JSON.stringify(agent.position)}, far from ${JSON.stringify(target)}`);
  log(`ok ${label} grid: both agents arrived past the wall, never in it (${last.time.toFixed(2)} s of crowd time)`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({path: path.join(options.artifacts, `viewer-live-crowd-grid-${label}.png`)});
}

async function withServer(browser) {
  if (!existsSync(options.wayfinder)) fail(`--wayfinder ${options.wayfinder} does not exist`);
  const level = path.join(options.artifacts, 'floor.obj');
  writeFileSync(level, 'v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n');
  // Its one world is the generated grid; the level comes through the page.
  const started = startViewerServer(options.wayfinder, []);
  runningServer = started.server;
  const address = await started.url;
  await onPage(browser, 'viewer-live-server', async (page) => {
    await page.goto(address);
    await page.waitForFunction(() => window.viewerState?.mode === 'server' && window.viewerState.world);
    // The picture is read top-down here (its tiles flash on the 2D canvas): the 3D box off.
    await page.evaluate(() => { document.getElementById('view-3d').checked = false; });
    // ---- Obstacles
    const built = page.waitForResponse((r) => r.url().endsWith('/api/worlds') && r.request().method() === 'POST');
    await page.setInputFiles('#obstacle-level-file', level);
    if ((await built).status() === 501) throw new Unavailable('the server was built without Recast: no levels');
    await page.waitForFunction(() => window.viewerState.world?.name === 'floor' && window.viewerState.world.level);
    check(await page.isVisible('#obstacle-tool'), 'the obstacle tools are hidden on a level');
    await click(page, start);
    await click(page, goal);
    const straight = await pathShown(page);
    check(straight.status === 'found', `no path across the floor: ${straight.status}`);
    log(`ok the path across the floor costs ${straight.cost}`);

    await page.selectOption('#obstacle-tool', 'cylinder');
    await page.fill('#obstacle-size', '4');
    await click(page, [10, 0, 10]);
    await page.waitForFunction(() => window.viewerState.obstacles.list.length === 1);
    const flashed = await page.evaluate(() => window.viewerState.obstacles.flashed.length);
    check(flashed > 0, 'no rebuilt tiles to flash');
    const around = await pathShown(page);
    check(around.status === 'found' && around.cost > straight.cost + 0.5,
          `the path did not go round the cylinder: cost ${around.cost}, before ${straight.cost}`);
    log(`ok a cylinder dropped by a click: ${flashed} tiles rebuilt, the path costs ${around.cost}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({path: path.join(options.artifacts, 'viewer-live-obstacle.png')});

    await page.selectOption('#obstacle-tool', 'remove');
    await click(page, [10, 0, 10]);
    await page.waitForFunction(() => window.viewerState.obstacles.list.length === 0);
    const again = await pathShown(page);
    check(Math.abs(again.cost - straight.cost) < 1e-6, `the path did not come back: cost ${again.cost}, first ${straight.cost}`);
    log('ok the cylinder removed by a click, the path is the first again');

    check(await page.inputValue('#obstacle-tool') === 'remove', 'the obstacle tool changed by itself');
    await crowdWalks(page, 'server');
    await gridCrowdWalks(page, 'server');
  });
  stopServer();
}

async function withoutServer(browser) {
  const index = path.join(options.site, 'index.html');
  if (!existsSync(index)) fail(`--site ${options.site} has no index.html (build it with tools/viewer/static/build.sh)`);
  const mesh = path.join(options.artifacts, 'square_navmesh.obj');
  writeFileSync(mesh, 'v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 4 3 2\n');
  await onPage(browser, 'viewer-live-static', async (page) => {
    await page.goto(pathToFileURL(index).href);
    await page.waitForFunction(() => window.viewerState?.mode === 'static');
    await page.setInputFiles('#upload', mesh);
    await page.waitForFunction(() => window.viewerState.world?.name === 'square_navmesh' && window.viewerState.panels.length);
    if (await page.isVisible('#view-3d')) {
      await page.uncheck('#view-3d');
      await page.waitForFunction(() => window.viewerState.panels.length && !window.viewerState.panels[0].view3d);
    }
    check(!(await page.isVisible('#obstacle-tool')), 'the obstacle tools are shown without a server');
    const note = await page.textContent('#obstacle-note');
    check(/server/.test(note), `the obstacle panel does not say it needs the server: "${note}"`);
    log('ok static: the obstacle panel says it needs the server');
    await crowdWalks(page, 'static');
    await gridCrowdWalks(page, 'static');
  });
}

async function main() {
  if (!options.wayfinder && !options.site) fail('give --wayfinder (the server), --site (the static site) or both');
  const browser = await launchChromium();
  mkdirSync(options.artifacts, {recursive: true});
  try {
    if (options.wayfinder) await withServer(browser);
    if (options.site) await withoutServer(browser);
  } finally {
    await browser.close();
    stopServer();
  }
}

runTest(main, {seconds: 60, cleanUp: stopServer});
