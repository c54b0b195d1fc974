#!/usr/bin/env bash
# Builds the viewer's static site: the page of tools/viewer/web with its scripts, three.js and the
# WebAssembly module (bindings/js/dist/wayfinder_wasm.mjs, from bindings/js/scripts/build_wasm.sh)
# bundled by esbuild into one classic script, so that the site runs from any static host and
# from disk (file:// refuses ES modules). Usage: tools/viewer/static/build.sh [output folder]
# (default build/viewer-static under the checkout). Installs three and esbuild with `npm ci`
# from package-lock.json when node_modules is missing. Publish the folder as it is.
set -euo pipefail
static_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$static_dir/../../.." && pwd)"
out="${1:-$root/build/viewer-static}"
web="$root/tools/viewer/web"
wasm="$root/bindings/js/dist/wayfinder_wasm.mjs"
[ -f "$wasm" ] || { echo "$wasm is missing: run bindings/js/scripts/build_wasm.sh first" >&2; exit 1; }
if [ ! -x "$static_dir/node_modules/.bin/esbuild" ] || [ ! -f "$static_dir/node_modules/three/package.json" ]; then
  (cd "$static_dir" && npm ci --no-audit --no-fund)
fi
rm -rf "$out"
mkdir -p "$out"
# The bundle: WAYFINDER_STATIC_BUNDLE turns the 3D view on; wayfinder-wasm is the package's
# source in this checkout. The module's `import.meta.url` (where to find a .wasm file) is
# unused: the WebAssembly is inlined in it.
NODE_PATH="$static_dir/node_modules" "$static_dir/node_modules/.bin/esbuild" "$web/viewer.js" --bundle --format=iife --minify --target=es2021 \
  --define:WAYFINDER_STATIC_BUNDLE=true --alias:wayfinder-wasm="$root/bindings/js/src/index.js" \
  --log-override:empty-import-meta=silent --log-level=warning --outfile="$out/viewer.js"
sed 's|<script type="module" src="viewer.js"></script>|<script defer src="viewer.js"></script>|' "$web/index.html" >"$out/index.html"
grep -q '<script defer src="viewer.js">' "$out/index.html" || { echo "index.html no longer loads viewer.js as expected" >&2; exit 1; }
cp "$web/viewer.css" "$out/viewer.css"
cp "$static_dir/node_modules/three/LICENSE" "$out/LICENSE-three.txt"
echo "built $out ($(du -sk "$out" | cut -f1) kB)"
