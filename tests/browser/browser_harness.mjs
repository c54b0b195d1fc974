// What the browser tests share: their verdicts (a skip when chromium, playwright-core or the
// data is missing, unless WAYFINDER_REQUIRE_BROWSER=1 or WAYFINDER_REQUIRE_DATA=1), finding
// Debian's chromium and launching it headless, starting `wayfinder serve`, and the timestamps of
// their log lines.
import {spawn} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';

export const skipCode = 77;
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
export const log = (text) => console.log(`[${seconds().padStart(5)} s] ${text}`);

export class Unavailable extends Error {}
export class Failure extends Error {}

export function fail(text) { throw new Failure(text); }
export function check(condition, text) { if (!condition) fail(text); }

export const requireBrowser = process.env.WAYFINDER_REQUIRE_BROWSER === '1';
export const requireData = requireBrowser || process.env.WAYFINDER_REQUIRE_DATA === '1';

// --name value pairs (node 18's util.parseArgs is still experimental there); names in `flags`
// take no value.
export function readOptions(script, known, required, flags = []) {
  const options = {};
  for (let i = 2; i < process.argv.length; ++i) {
    const name = process.argv[i].replace(/^--/, '');
    if (process.argv[i].startsWith('--') && flags.includes(name)) { options[name] = true; continue; }
    if (!process.argv[i].startsWith('--') || !known.includes(name) || i + 1 >= process.argv.length) {
      console.error(`${script}: unexpected argument ${process.argv[i]} (options: ${known.map((k) => `--${k} VALUE`).join(', ')})`);
      process.exit(2);
    }
    options[name] = process.argv[++i];
  }
  for (const name of required)
    if (!options[name]) {
      console.error(`${script}: --${name} is missing (see the comment at the top of this file)`);
      process.exit(2);
    }
  return options;
}

// Data files that must exist: a failure under WAYFINDER_REQUIRE_DATA=1, else a skip.
export function requireFiles(files) {
  for (const [name, file] of files) {
    if (file === undefined || existsSync(file)) continue;
    const why = `${name} ${file} does not exist (the shared data is not there)`;
    if (requireData) fail(why);
    throw new Unavailable(why);
  }
}

function findChromium() {
  const candidates = process.env.WAYFINDER_CHROMIUM ? [process.env.WAYFINDER_CHROMIUM]
                                                    : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((file) => existsSync(file));
  if (!found)
    throw new Unavailable(`no chromium at ${candidates.join(' or ')} (apt-get install chromium, or set WAYFINDER_CHROMIUM)`);
  return found;
}

async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch (error) {
    throw new Unavailable(`playwright-core is not installed (run \`npm ci\` in ${path.dirname(new URL(import.meta.url).pathname)}): ${error.message}`);
  }
}

function playwrightVersion() {
  try {
    const file = new URL('./node_modules/playwright-core/package.json', import.meta.url);
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return '?';
  }
}

// Headless chromium. WebGL (the 3D views) runs on SwiftShader, chromium's software renderer,
// which it no longer falls back to by itself.
export async function launchChromium({webgl = false} = {}) {
  const executablePath = findChromium();
  const {chromium} = await loadPlaywright();
  const args = ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage', '--no-first-run',
                '--disable-component-update', '--disable-sync'];
  args.push(...(webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-gpu']));
  const browser = await chromium.launch({executablePath, headless: true, timeout: 30000, args});
  log(`chromium ${browser.version()} (${executablePath}), playwright-core ${playwrightVersion()}`);
  return browser;
}

// Runs main with a watchdog, and exits 0 (passed), 77 (skipped) or 1 (failed).
export function runTest(main, {seconds: limit, cleanUp = () => {}}) {
  const watchdog = setTimeout(() => {
    console.error(`FAILED: the test did not finish in ${limit} s`);
    cleanUp();
    process.exit(1);
  }, limit * 1000);
  main().then(() => {
    clearTimeout(watchdog);
    log('PASSED');
    process.exit(0);
  }, (error) => {
    clearTimeout(watchdog);
    cleanUp();
    if (error instanceof Unavailable) {
      if (requireBrowser) {
        console.error(`FAILED: ${error.message} (WAYFINDER_REQUIRE_BROWSER=1: the browser test must run)`);
        process.exit(1);
      }
      console.log(`SKIPPED: ${error.message} (WAYFINDER_REQUIRE_BROWSER=1 makes this a failure)`);
      process.exit(skipCode);
    }
    console.error(`FAILED: ${error instanceof Failure ? error.message : error.stack}`);
    process.exit(1);
  });
}

// `wayfinder serve` on a free port with the world `files`: the process, a promise of the page's
// address (rejected when the server ends or prints none in 20 s) and its output so far. The
// caller stops the process.
export function startViewerServer(wayfinder, files) {
  const server = spawn(wayfinder, ['serve', '--port', '0', ...files], {stdio: ['ignore', 'pipe', 'pipe']});
  let output = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Failure(`wayfinder serve printed no URL in 20 s:\n${output}`)), 20000);
    const read = (chunk) => {
      output += chunk;
      const found = output.match(/Wayfinder viewer: (http:\/\/\S+)/);
      if (found) { clearTimeout(timer); resolve(found[1]); }
    };
    server.stdout.setEncoding('utf8').on('data', read);
    server.stderr.setEncoding('utf8').on('data', read);
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Failure(`wayfinder serve ended (exit ${code}, signal ${signal}) before printing its URL:\n${output}`));
    });
    server.on('error', (error) => { clearTimeout(timer); reject(new Failure(`cannot run ${wayfinder}: ${error.message}`)); });
  });
  return {server, url, output: () => output};
}

// requestAnimationFrame intervals while the mouse drags across the canvas (button: 'left' pans a
// grid; 'right' pans the 3D view).
export async function frameTimes(page, button) {
  const box = await page.locator('#canvas-0').boundingBox();
  await page.evaluate(() => {
    window.frameStamps = [];
    const tick = (t) => { window.frameStamps.push(t); if (window.frameStamps.length < 100000) window.frameLoop = requestAnimationFrame(tick); };
    window.frameLoop = requestAnimationFrame(tick);
  });
  const x0 = box.x + box.width * 0.3, y0 = box.y + box.height * 0.4;
  await page.mouse.move(x0, y0);
  await page.mouse.down({button});
  for (let i = 1; i <= 120; ++i) {
    await page.mouse.move(x0 + box.width * 0.4 * Math.sin(i / 20), y0 + box.height * 0.2 * (1 - Math.cos(i / 20)));
    await page.waitForTimeout(16);
  }
  await page.mouse.up({button});
  const stamps = await page.evaluate(() => { cancelAnimationFrame(window.frameLoop); return window.frameStamps; });
  const intervals = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
  const at = (q) => intervals[Math.min(intervals.length - 1, Math.floor(q * intervals.length))];
  return {frames: intervals.length, median: at(0.5), p95: at(0.95), max: intervals[intervals.length - 1]};
}

// Two places on the tops of a voxel world's highest columns (a description's size and heights),
// which no block can hide from a camera above them: the first, and the one farthest from it.
export function highestTops({size, heights}) {
  const highest = Math.max(...heights);
  const tops = [];
  heights.forEach((h, i) => { if (h === highest) tops.push([i % size[0], h + 1, Math.floor(i / size[0])]); });
  check(highest >= 0 && highest + 1 < size[1], `no column top to stand on (highest ${highest} of ${size[1]})`);
  const start = tops[0];
  const goal = tops.reduce((best, t) => (Math.hypot(t[0] - start[0], t[2] - start[2]) > Math.hypot(best[0] - start[0], best[2] - start[2]) ? t : best));
  return {start, goal};
}
