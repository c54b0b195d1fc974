#!/usr/bin/env bash
# Runs the `wayfinder` command the way a user would and checks exit codes and key output:
# the mesh and voxel commands on small inputs, and on the shared data when it is there.
#
#   tests/cli/run_cli_tests.sh WAYFINDER_BINARY DATA_DIR SCRATCH_DIR
set -uo pipefail
wayfinder=$1
data=${WAYFINDER_DATA_DIR:-$2}
scratch=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$scratch"
failures=0

# expect CODE DESCRIPTION -- COMMAND...: runs the command, checks its exit code, keeps its output.
expect() {
  local code=$1 description=$2
  shift 3
  output=$("$@" 2>&1)
  local status=$?
  if [[ $status -ne $code ]]; then
    echo "FAIL ($description): exit $status, expected $code: $*"
    echo "$output" | head -n 20
    failures=$((failures + 1))
    return 1
  fi
  echo "ok   ($description)"
}

# contains TEXT DESCRIPTION: the last command's output contains TEXT.
contains() {
  if [[ "$output" != *"$1"* ]]; then
    echo "FAIL ($2): output lacks '$1'"
    echo "$output" | head -n 20
    failures=$((failures + 1))
  fi
}

mesh=$here/two_rooms.obj
expect 0 "mesh info" -- "$wayfinder" mesh info "$mesh" --json
contains '"polygons":4' "mesh info counts the polygons"
contains '"regions":2' "mesh info finds the ledge as its own region"

expect 0 "mesh path through the door" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --json --svg "$scratch/two_rooms.svg"
contains '"status":"found"' "mesh path is found"
contains '[4.0,0.0,1.5]' "mesh path turns at the door's corner"
[[ -s "$scratch/two_rooms.svg" ]] || { echo "FAIL (mesh path --svg): no picture"; failures=$((failures + 1)); }

expect 1 "mesh path to another region" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7
contains "message:      start and goal are in different connected regions" "mesh path says why there is no path"
expect 1 "mesh path to another region, JSON" -- "$wayfinder" mesh path "$mesh" --from 1,0,1 --to 1,3,7 --json
contains '"message":"start and goal are in different connected regions' "mesh path --json says why there is no path"
# Pictures of one height range: the ledge (y 3) alone, by --y-range or as height band 1.
expect 0 "mesh path --svg --y-range" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/ledge.svg" --y-range 2,4
if [[ $(grep -o '<polygon ' "$scratch/ledge.svg" | wc -l) -ne 1 ]] || ! grep -q 'showing y 2 to 4' "$scratch/ledge.svg"; then
  echo "FAIL (mesh path --y-range): the picture should hold the ledge alone"; failures=$((failures + 1))
fi
expect 0 "mesh path --svg --level" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/level1.svg" --level 1
if [[ $(grep -o '<polygon ' "$scratch/level1.svg" | wc -l) -ne 1 ]] || ! grep -q 'showing y 3 to 3' "$scratch/level1.svg"; then
  echo "FAIL (mesh path --level 1): the picture should hold the ledge alone"; failures=$((failures + 1))
fi
grep -q 'id="legend"' "$scratch/two_rooms.svg" || { echo "FAIL (mesh path --svg): no legend"; failures=$((failures + 1)); }
expect 2 "mesh path --level past the last band" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/none.svg" --level 2
contains "the mesh has 2 height bands" "the error lists the bands"
expect 2 "mesh path --y-range the wrong way round" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --svg "$scratch/none.svg" --y-range 4,2
contains "--y-range" "the error names the option"
expect 2 "mesh path --y-range without --svg" -- "$wayfinder" mesh path "$mesh" --from 1,0,0.5 --to 8,0,0.5 --y-range 2,4
expect 2 "mesh path from off the mesh" -- "$wayfinder" mesh path "$mesh" --from 20,0,20 --to 1,0,1
contains "not on the mesh" "off-mesh start is named"
expect 0 "mesh path snapped onto the mesh" -- "$wayfinder" mesh path "$mesh" --from 4.5,0,0.5 --to 1,0,1 --snap 1
expect 2 "mesh path with a malformed point" -- "$wayfinder" mesh path "$mesh" --from 1,nan,1 --to 1,0,1
printf 'v 0 0 0\nv 1 0 0\nf 1 2\n' >"$scratch/bad.obj"
expect 2 "mesh info on a malformed OBJ" -- "$wayfinder" mesh info "$scratch/bad.obj"
contains "bad.obj:3" "the error names the file and line"

meshes=$data/meshes/derived
if [[ -f $meshes/nav_test_navmesh.obj ]]; then
  expect 0 "mesh bench on nav_test" -- "$wayfinder" mesh bench "$meshes/nav_test_navmesh.obj" \
    --queries "$meshes/nav_test_reference_queries.csv" --repeat 1 --json
  contains '"queries":10000' "mesh bench runs every query"
  contains '"reachability_mismatches":0' "mesh bench agrees on reachability"
  contains '"shorter_than_optimal":0' "no path is shorter than the optimum"
fi

voxels=$data/voxel/warframe
if [[ -f $voxels/Simple.3dmap ]]; then
  # The first query of Simple.3dmap.3dscen: optimal length 15.31710829.
  expect 0 "voxel path flying" -- "$wayfinder" voxel path "$voxels/Simple.3dmap" --from 56,76,52 --to 48,85,45 --profile flyer --json
  contains '"status":"found"' "voxel path is found"
  contains '15.3171' "voxel path has the optimal length"
  expect 2 "voxel path outside the world" -- "$wayfinder" voxel path "$voxels/Simple.3dmap" --from -5,1,1 --to 48,85,45 --profile flyer
fi

if [[ $failures -ne 0 ]]; then
  echo "$failures command-line check(s) failed"
  exit 1
fi
echo "all command-line checks passed"
