#!/usr/bin/env bash
# The JavaScript package's checks, as CI runs them: Debian's emscripten, node-typescript and
# chromium (installed when emcc, tsc or chromium is missing), the WebAssembly build, the node
# tests on the shared data (WAYFINDER_REQUIRE_DATA=1 makes missing data fail them), the packed
# tarball installed into test_project, used, and its TypeScript type-checked, and the web
# viewer's static site bundled from the same module and tested in headless chromium. Every step
# is required here.
set -euo pipefail
js_dir="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$js_dir/../.." && pwd)"
export WAYFINDER_REQUIRE_WASM=1
export WAYFINDER_REQUIRE_BROWSER=1
packages=()
command -v emcc >/dev/null || packages+=(emscripten)
command -v tsc >/dev/null || packages+=(node-typescript)
[ -x /usr/bin/chromium ] || packages+=(chromium)
if [ ${#packages[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi
"$js_dir/scripts/build_wasm.sh"
(cd "$js_dir" && npm test)
"$js_dir/scripts/test_package.sh"

# The viewer's static site, bundled from the module built above (no second WebAssembly build),
# and its browser test (tests/browser/viewer_static.mjs): about 20 s. three, esbuild and
# playwright-core come from their lock files (npm ci).
"$root/tools/viewer/static/build.sh" "$root/build/viewer-static"
[ -d "$root/tests/browser/node_modules/playwright-core" ] || (cd "$root/tests/browser" && npm ci --no-audit --no-fund)
data="${WAYFINDER_DATA_DIR:-$root/../shared/data}"
node "$root/tests/browser/viewer_static.mjs" --site "$root/build/viewer-static" \
  --map "$data/movingai/dao/arena2.map" \
  --mesh "$data/meshes/polyanya/meshes/arena.mesh" \
  --mesh-queries "$data/meshes/derived/arena_polyanya_optimal.csv" \
  --obj-mesh "$data/meshes/derived/nav_test_navmesh.obj" \
  --level "$data/meshes/recastnavigation/nav_test.obj" \
  --voxel "$data/voxel/warframe/Simple.3dmap" \
  --artifacts "$root/build/viewer-static-artifacts"
# The crowd panel on the WebAssembly build's Crowd, and the obstacle panel's note (tests/browser/
# viewer_live.mjs without a server): a few seconds.
node "$root/tests/browser/viewer_live.mjs" --site "$root/build/viewer-static" --artifacts "$root/build/viewer-static-artifacts"
