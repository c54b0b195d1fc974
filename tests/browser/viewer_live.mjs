#!/usr/bin/env node
// The viewer's obstacle and crowd panels in a real browser (headless chromium driven by
// playwright-core), against `wayfinder serve`: it opens a level (a 20 x 20 floor written by the
// test) through the obstacle panel, clicks a query across it, drops a cylinder in the way (the
// rebuilt tiles must flash and the path must grow), removes it (the path must come back); then
// adds two agents by clicking, sends them to a point, steps the crowd and lets it run (the agents
// must move towards the point). About 5 s.
//
//   node viewer_live.mjs --wayfinder build/release/tools/cli/wayfinder --artifacts build/release/browser-artifacts
//
// Needs what viewer_e2e.mjs needs (`npm ci` in this folder, a chromium); without them it exits 77
// (skipped) unless WAYFINDER_REQUIRE_BROWSER=1. A server built without Recast cannot build the
// level: also a skip. Plain node (18 or later), no test framework.

import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {Failure, Unavailable, check, fail, launchChromium, log, readOptions, runTest} from './browser_harness.mjs';

const options = readOptions('viewer_live.mjs', ['wayfinder', 'artifacts'], ['wayfinder', 'artifacts']);

let runningServer = null;
function stopServer() { if (runningServer && runningServer.exitCode === null) runningServer.kill('SIGTERM'); }
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { stopServer(); process.exit(1); });

// `wayfinder serve` on a free port (its one world the generated grid), and its URL.
function startServer() {
  const server = spawn(options.wayfinder, ['serve', '--port', '0'], {stdio: ['ignore', 'pipe', 'pipe']});
  runningServer = server;
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Failure(`wayfinder serve printed no URL in 20 s:\n${output}`)), 20000);
    const read = (chunk) => {
      output += chunk;
      const found = output.match(/Wayfinder viewer: (http:\/\/\S+)/);
      if (found) { clearTimeout(timer); resolve(found[1]); }
    };
    server.stdout.setEncoding('utf8').on('data', read);
    server.stderr.setEncoding('utf8').on('data', read);
    server.on('exit', (code) => { clearTimeout(timer); reject(new Failure(`wayfinder serve ended (exit ${code}):\n${output}`)); });
  });
}

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

async function main() {
  if (!existsSync(options.wayfinder)) fail(`--wayfinder ${options.wayfinder} does not exist`);
  const browser = await launchChromium();
  mkdirSync(options.artifacts, {recursive: true});
  const level = path.join(options.artifacts, 'floor.obj');
  writeFileSync(level, 'v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n');
  const address = await startServer();
  const page = await (await browser.newContext({viewport: {width: 1280, height: 800}, deviceScaleFactor: 1})).newPage();
  page.setDefaultTimeout(10000);
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} for ${response.request().method()} ${response.url()}`);
  });
  try {
    await page.goto(address);
    await page.waitForFunction(() => window.viewerState?.mode === 'server' && window.viewerState.world);

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

    // ---- Crowd
    check(await page.inputValue('#obstacle-tool') === 'remove', 'the obstacle tool changed by itself');
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
    check(stepped.time > before.time, `stepping did not advance the crowd's time (${before.time} -> ${stepped.time})`);
    await page.click('#crowd-start');
    await page.waitForFunction((time) => window.viewerState.crowd.state.time > time + 0.5, stepped.time);
    await page.click('#crowd-start');
    const ran = await crowdState(page);
    check(!(await page.evaluate(() => window.viewerState.crowd.running)), 'Pause did not stop the crowd');
    const distance = (p, q) => Math.hypot(p[0] - q[0], p[2] - q[2]);
    ran.agents.forEach((agent, i) => {
      const from = before.agents[i].position;
      check(distance(agent.position, [17, 0, 10]) < distance(from, [17, 0, 10]) - 1,
            `agent ${agent.id} did not walk towards its target: ${JSON.stringify(from)} -> ${JSON.stringify(agent.position)}`);
    });
    log(`ok two agents added by clicks walked towards their target (${ran.time.toFixed(2)} s of crowd time)`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({path: path.join(options.artifacts, 'viewer-live-crowd.png')});
    check(pageErrors.length === 0, `the page reported errors:\n${pageErrors.join('\n')}`);
  } catch (error) {
    await page.screenshot({path: path.join(options.artifacts, 'viewer-live-failure.png')}).catch(() => {});
    log(`the page says: ${await page.textContent('#message').catch(() => '?')}; page errors: ${pageErrors.join('; ') || 'none'}`);
    throw error;
  } finally {
    await browser.close();
    stopServer();
  }
}

runTest(main, {seconds: 60, cleanUp: stopServer});
