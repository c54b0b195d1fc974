#!/usr/bin/env bash
# Builds the WebAssembly module with Debian's emscripten (package `emscripten`) into
# bindings/js/dist/wayfinder_wasm.mjs. Usage: bindings/js/scripts/build_wasm.sh [build folder]
# (default build/wasm under the checkout). Uses ccache when CMAKE_CXX_COMPILER_LAUNCHER says so.
set -euo pipefail
js_dir="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$js_dir/../.." && pwd)"
build_dir="${1:-$root/build/wasm}"
command -v emcmake >/dev/null || { echo "emcmake not found: install Debian's emscripten package" >&2; exit 1; }
# Debian's emscripten runs its JavaScript optimizer with node, which finds Debian's acorn only here.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
launcher=()
[ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && launcher+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER" "-DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-$CMAKE_CXX_COMPILER_LAUNCHER}")
emcmake cmake -S "$js_dir/wasm" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build "$build_dir" -j"${WAYFINDER_WASM_JOBS:-2}"
mkdir -p "$js_dir/dist"
cp "$build_dir/wayfinder_wasm.mjs" "$js_dir/dist/wayfinder_wasm.mjs"
echo "built $js_dir/dist/wayfinder_wasm.mjs ($(du -k "$js_dir/dist/wayfinder_wasm.mjs" | cut -f1) kB)"
