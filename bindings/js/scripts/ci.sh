#!/usr/bin/env bash
# The JavaScript package's checks, as CI runs them: Debian's emscripten and node-typescript
# (installed when emcc or tsc is missing), the WebAssembly build, the node tests on the shared
# data (WAYFINDER_REQUIRE_DATA=1 makes missing data fail them), and the packed tarball installed
# into test_project, used, and its TypeScript type-checked. Every step is required here.
set -euo pipefail
js_dir="$(cd "$(dirname "$0")/.." && pwd)"
export WAYFINDER_REQUIRE_WASM=1
packages=()
command -v emcc >/dev/null || packages+=(emscripten)
command -v tsc >/dev/null || packages+=(node-typescript)
if [ ${#packages[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi
"$js_dir/scripts/build_wasm.sh"
(cd "$js_dir" && npm test)
"$js_dir/scripts/test_package.sh"
