#!/usr/bin/env bash
# Packs bindings/js with `npm pack` and runs test_project against the tarball, installed as an
# application installs it (in a temporary copy of test_project, with no network: the package
# has no dependencies), then type-checks test_project/uses_types.ts against the package's
# declarations with tsc. Needs dist/wayfinder_wasm.mjs (scripts/build_wasm.sh).
set -euo pipefail
js_dir="$(cd "$(dirname "$0")/.." && pwd)"
[ -f "$js_dir/dist/wayfinder_wasm.mjs" ] || { echo "no dist/wayfinder_wasm.mjs: run scripts/build_wasm.sh first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$js_dir/../../LICENSE" "$js_dir/LICENSE"
tarball="$(cd "$js_dir" && npm pack --silent --pack-destination "$work")"
echo "packed $tarball: $(tar -tzf "$work/$tarball" | tr '\n' ' ')"
cp -r "$js_dir/test_project" "$work/project"
(cd "$work/project" && npm install --silent --no-audit --no-fund --offline "$work/$tarball" && npm test)
# The declarations, as an application's TypeScript meets them (Debian's node-typescript).
if command -v tsc >/dev/null; then
  (cd "$work/project" && tsc -p tsconfig.json) && echo "uses_types.ts type-checks against the package"
elif [ "${WAYFINDER_REQUIRE_WASM:-}" = 1 ]; then
  echo "tsc not found (Debian: node-typescript) and WAYFINDER_REQUIRE_WASM=1" >&2
  exit 1
else
  echo "tsc not found (Debian: node-typescript): the declarations were not type-checked"
fi
