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

# ---- voxel worlds, hand-made ----------------------------------------------------------------

# le32 N: N as 4 little-endian bytes.
le32() {
  printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"
}
# A MagicaVoxel file with one model, 8 x 1 x 5 (z up): a floor of colour 1 along x; a pool of
# colour 2 over x = 2..3; a column of colour 3 at x = 6 beside a wall of colour 1 at x = 7, three
# blocks high. In the world (y up) the walker starts at 0,1,0; the pool ends at 4,1,0 and the top
# of the wall is 7,4,0. Colour 2 read as water is swum through; colour 3 read as a ladder is
# climbed.
voxels_list=(0,0,0,1 1,0,0,1 2,0,0,1 3,0,0,1 4,0,0,1 5,0,0,1 6,0,0,1 7,0,0,1 2,0,1,2 3,0,1,2
             6,0,1,3 6,0,2,3 6,0,3,3 7,0,1,1 7,0,2,1 7,0,3,1)
{
  printf 'VOX '; le32 150
  printf 'MAIN'; le32 0; le32 $((24 + 12 + 4 + 4 * ${#voxels_list[@]}))
  printf 'SIZE'; le32 12; le32 0; le32 8; le32 1; le32 5
  printf 'XYZI'; le32 $((4 + 4 * ${#voxels_list[@]})); le32 0; le32 ${#voxels_list[@]}
  for voxel in "${voxels_list[@]}"; do
    IFS=, read -r x y z colour <<<"$voxel"
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' "$x" "$y" "$z" "$colour")"
  done
} >"$scratch/pool_and_ladder.vox"
vox=$scratch/pool_and_ladder.vox

expect 0 "voxel info" -- "$wayfinder" voxel info "$vox" --water-colours 2 --ladder-colours 3
contains "size:     8 x 5 x 1" "voxel info gives the size, y up"
contains "blocks:   air 24, solid 11, water 2, ladder 3" "voxel info counts each kind of block"
contains "MagicaVoxel's default palette" "voxel info says where the colours come from"
contains "where the walker (the default for .vox worlds) can be" "voxel info names the agent"
contains "try:      wayfinder voxel path" "voxel info suggests a query"
contains "--water-colours 2 --ladder-colours 3" "the suggested query keeps the colour mapping"
expect 0 "voxel info as JSON" -- "$wayfinder" voxel info "$vox" --water-colours 2 --ladder-colours 3 --places 3 --json
contains '"size":[8,5,1]' "voxel info JSON size"
contains '"blocks":{"air":24,"solid":11,"water":2,"ladder":3}' "voxel info JSON block counts"
contains '"palette_source":"default"' "voxel info JSON palette source"
contains '{"index":2,"rgba":[255,255,204,255],"hex":"#ffffccff","voxels":2,"block":"water"}' "voxel info JSON colours"
contains '"profile":"walker"' "voxel info JSON profile"
contains '"place_count":11' "voxel info JSON counts the walker's places"
contains '"places":[[' "voxel info JSON lists places"
expect 0 "voxel info warns of an unused colour" -- "$wayfinder" voxel info "$vox" --ladder-colours 9
contains "warning: colour 9 (--ladder-colours) is not used" "the unused colour is named"
expect 2 "a colour both water and ladder" -- "$wayfinder" voxel info "$vox" --water-colours 2,3 --ladder-colours 3
contains "colour 3 is in both --water-colours and --ladder-colours" "the clash is named"
expect 2 "a colour index out of range" -- "$wayfinder" voxel info "$vox" --water-colours 0
contains "--water-colours: expected colour indices from 1 to 255" "the colour range is given in words"

# Swimming and climbing from the command line.
expect 0 "voxel path swims through the pool" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --water-colours 2 --json
contains '"swim"' "the path swims"
expect 0 "voxel path jumps the pool without swimming" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --water-colours 2 --no-swim --json
contains '"jump"' "the path jumps"
[[ "$output" != *'"swim"'* ]] || { echo "FAIL (--no-swim): the path swims"; failures=$((failures + 1)); }
expect 1 "no path over the pool with a short jump" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --water-colours 2 --no-swim --jump-gap 1
expect 0 "voxel path climbs the ladder" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --json
contains '"climb"' "the path climbs"
expect 1 "no path up the wall without the ladder" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 7,4,0 --water-colours 2
expect 1 "no path up the wall without climbing" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --no-climb
expect 0 "a tall step up the wall" -- "$wayfinder" voxel path "$vox" --from 5,1,0 --to 6,4,0 --step-height 3
expect 2 "an agent height of 0" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --agent-height 0
contains "--agent-height: must be a whole number of blocks from 1 to 64, got '0'" "the height range is given in words"
expect 2 "a fall too deep to allow" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --max-fall 257
contains "--max-fall: must be a whole number of blocks from 0 to 256" "the fall range is given in words"
expect 2 "walking options for a flyer" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --profile flyer --jump-height 2
contains "--jump-height describes a walking agent, but the agent is a flyer; add --profile walker" "the clash is explained"

# Why a start or goal is refused, and snapping it to the nearest place.
expect 2 "a start inside the floor" -- "$wayfinder" voxel path "$vox" --from 1,0,0 --to 5,1,0
contains "start (1,0,0) is inside a solid block" "the refused start says why"
contains "--snap D" "the message points to --snap"
expect 2 "a goal in the air" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,3,0
contains "goal (5,3,0): the block below (5,2,0) is air, so nothing holds the agent" "the refused goal says why"
expect 2 "a goal outside the world" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 9,1,0
contains "goal (9,1,0) is outside the world (size 8x5x1)" "the outside goal names the size"
expect 0 "voxel path --snap moves start and goal" -- "$wayfinder" voxel path "$vox" --from 1,0,0 --to 0,3,0 --snap 2
contains "start moved:  1,0,0 -> 1,1,0 (1.00 blocks; (1,0,0) is inside a solid block)" "the moved start is reported"
contains "goal moved:   0,3,0 -> 0,1,0 (2.00 blocks; (0,3,0): the block below (0,2,0) is air" "the moved goal is reported"
expect 0 "voxel path --snap in JSON" -- "$wayfinder" voxel path "$vox" --from 1,0,0 --to 5,1,0 --snap 1 --json
contains '"from":[1,1,0]' "JSON gives the start used"
contains '"snapped_from":{"requested":[1,0,0],"distance":1.0,"reason":"(1,0,0) is inside a solid block"}' "JSON says where the start was moved from"
contains '"snapped_to":null' "JSON says the goal was not moved"
expect 2 "--snap too short" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 3,4,0 --snap 1
contains "no place within 1 block where the agent can be" "the failed snap says so"

# Pictures: a legend with the markers, and a height range.
expect 0 "voxel path --svg" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --svg "$scratch/pool.svg"
svg=$(cat "$scratch/pool.svg")
for label in ">start 0,1,0<" ">goal 7,4,0<" ">path<" ">explored column<" ">water on top<" ">ladder on top<"; do
  [[ "$svg" == *"$label"* ]] || { echo "FAIL (voxel svg legend): no '$label'"; failures=$((failures + 1)); }
done
expect 0 "voxel path --svg --y-range" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 7,4,0 --water-colours 2 --ladder-colours 3 --svg "$scratch/pool_top.svg" --y-range 3,4
svg=$(cat "$scratch/pool_top.svg")
for label in ">no block at y 3..4<" ">path outside y 3..4<" ">path at y 3..4<"; do
  [[ "$svg" == *"$label"* ]] || { echo "FAIL (voxel svg --y-range): no '$label'"; failures=$((failures + 1)); }
done
[[ "$svg" != *">water on top<"* ]] || { echo "FAIL (voxel svg --y-range): the pool below the range is drawn"; failures=$((failures + 1)); }
expect 2 "--y-range without --svg" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --y-range 0,2
expect 2 "--y-range above the world" -- "$wayfinder" voxel path "$vox" --from 0,1,0 --to 5,1,0 --svg "$scratch/x.svg" --y-range 9,12
contains "holds no block" "the empty range is named"

# .3dmap worlds: the flyer by default, the walker on request; weights that would overflow.
printf 'voxel 4 4 4\n1 1 1\n' >"$scratch/tiny.3dmap"
expect 0 "a .3dmap defaults to the flyer" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 --json
contains '"profile":"flyer"' "the flyer is chosen"
expect 0 "a .3dmap with --profile walker" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 1,2,1 --to 1,2,1 --profile walker --json
contains '"profile":"walker"' "the walker is kept"
expect 0 "voxel info on a .3dmap" -- "$wayfinder" voxel info "$scratch/tiny.3dmap" --json
contains '"palette_source":null' "a .3dmap has no palette"
contains '"place_count":63' "the flyer can be in every free block"
expect 2 "colours on a .3dmap" -- "$wayfinder" voxel info "$scratch/tiny.3dmap" --water-colours 2
contains "--water-colours and --ladder-colours apply to .vox files" "colours on a .3dmap are refused"
expect 2 "a weight that overflows" -- "$wayfinder" voxel path "$scratch/tiny.3dmap" --from 0,0,0 --to 3,3,3 -a weighted-astar --weight 1e308
contains "weight 1e+308 is too large for this world" "the weight is refused"

# Scenarios written for another map.
printf 'version 1\ntiny.3dmap\n0 0 0 3 0 0 3 1\n' >"$scratch/tiny.3dmap.3dscen"
expect 0 "voxel bench on its own map" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --json
contains '"mismatches":0' "the scenario agrees with its map"
cp "$scratch/tiny.3dmap" "$scratch/other.3dmap"
cp "$scratch/tiny.3dmap.3dscen" "$scratch/other.3dmap.3dscen"
expect 2 "voxel bench on a map the scenario was not written for" -- "$wayfinder" voxel bench "$scratch/other.3dmap.3dscen"
contains "this scenario was written for tiny.3dmap, not other.3dmap" "the mismatch is named"
expect 0 "voxel bench --map another map, with a warning" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --map "$scratch/other.3dmap" --json
contains "warning: $scratch/tiny.3dmap.3dscen: this scenario was written for tiny.3dmap, not other.3dmap" "the warning names both maps"
expect 2 "voxel bench with a weight that overflows" -- "$wayfinder" voxel bench "$scratch/tiny.3dmap.3dscen" --algo weighted-astar --weight 1e308
contains "too large for this world" "the bench refuses the weight before running"

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
