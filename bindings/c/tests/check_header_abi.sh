#!/usr/bin/env bash
# wayfinder.h compiles as strict C99 and C11 and as C++11 and C++20, warnings as errors, and the
# C and C++ compilers give its structs the same layout (abi_layout.c run both ways).
set -euo pipefail
c_compiler=$1
cxx_compiler=$2
include_dir=$3
layout_source=$4
scratch=$5
mkdir -p "$scratch"
warnings=(-Wall -Wextra -Werror -pedantic)
for standard in c99 c11; do
  echo '#include "wayfinder.h"' | "$c_compiler" -std=$standard "${warnings[@]}" -I"$include_dir" -x c -fsyntax-only -
done
for standard in c++11 c++20; do
  echo '#include "wayfinder.h"' | "$cxx_compiler" -std=$standard "${warnings[@]}" -I"$include_dir" -x c++ -fsyntax-only -
done
"$c_compiler" -std=c99 "${warnings[@]}" -I"$include_dir" -x c "$layout_source" -o "$scratch/layout_c"
"$cxx_compiler" -std=c++20 "${warnings[@]}" -I"$include_dir" -x c++ "$layout_source" -o "$scratch/layout_cxx"
"$scratch/layout_c" > "$scratch/layout_c.txt"
"$scratch/layout_cxx" > "$scratch/layout_cxx.txt"
diff "$scratch/layout_c.txt" "$scratch/layout_cxx.txt"
echo "wayfinder.h: C99, C11, C++11 and C++20 compile it; $(wc -l < "$scratch/layout_c.txt") sizes, offsets and values agree"
