// Where the tests find the shared data (MovingAI maps, meshes, voxel worlds): WAYFINDER_DATA_DIR,
// else ../shared/data beside the checkout. Without it the data tests are skipped, unless
// WAYFINDER_REQUIRE_DATA=1 (CI), which makes them fail.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const dataDirectory = process.env.WAYFINDER_DATA_DIR ?? path.resolve(checkout, '../shared/data');

/** The file's path, or undefined (the test then skips) when the data is missing. */
export function dataFile(relative, t) {
  const file = path.join(dataDirectory, relative);
  if (fs.existsSync(file)) return file;
  if (process.env.WAYFINDER_REQUIRE_DATA === '1') throw new Error(`missing ${file} (WAYFINDER_REQUIRE_DATA=1)`);
  t.skip(`no ${file}`);
  return undefined;
}

/** How far a computed length may be from the one a scenario file writes (as the native
 *  test_movingai_data does): the bg512 files round to 2 decimals; the others print 6
 *  significant digits, so long paths are known only to half a unit of the last one. */
function lengthTolerance(file, optimal) {
  if (file.includes(`${path.sep}bg512${path.sep}`)) return 0.011;
  const halfLastDigit = optimal >= 1 ? 0.5 * 10 ** (Math.floor(Math.log10(optimal)) - 5) : 0;
  return Math.max(1e-3, halfLastDigit + 1e-9);
}

/** MovingAI scenario lines: bucket, map, width, height, start x/y, goal x/y, optimal length. */
export function readScenario(file) {
  return fs.readFileSync(file, 'utf8').split('\n').slice(1).filter((line) => line.trim() !== '').map((line) => {
    const f = line.trim().split(/\s+/);
    const optimal = Number(f[8]);
    return { start: [Number(f[4]), Number(f[5])], goal: [Number(f[6]), Number(f[7])], optimal,
      tolerance: lengthTolerance(file, optimal) };
  });
}

/** A CSV file as objects keyed by the header's names. */
export function readCsv(file) {
  const [header, ...lines] = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], Number(v)])));
}
