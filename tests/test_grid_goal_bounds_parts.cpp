// Goal bounds built in parts (GridGoalBoundsPart) and merged (GridGoalBounds::merge): parts in
// any order give the whole build's file byte for byte, on random maps and a real MovingAI map;
// parts survive their files; merges of parts that overlap, miss cells or belong to another map
// are refused with a message that says which.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

// The parts of `map` split at `cuts` (cell ids, ascending, inside the map).
std::vector<GridGoalBoundsPart> parts_between(const GridMap& map, const std::vector<NodeId>& cuts, int threads = 1) {
  std::vector<GridGoalBoundsPart> parts;
  NodeId first = 0;
  for (const NodeId cut : cuts) {
    parts.emplace_back(map, first, cut, GridGoalBounds::Progress{}, threads);
    first = cut;
  }
  parts.emplace_back(map, first, static_cast<NodeId>(map.cell_count()), GridGoalBounds::Progress{}, threads);
  return parts;
}

// Expects `call` to throw std::invalid_argument whose message holds `words`.
template <class Call>
void expect_refusal(Call call, const std::string& words) {
  try {
    call();
    ADD_FAILURE() << "no refusal; expected one saying \"" << words << "\"";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
  }
}

GridMap small_movingai_map() {
  const std::filesystem::path path = data_directory() / "meshes" / "polyanya" / "utils" / "maps" / "arena.map";
  if (!std::filesystem::exists(path)) return GridMap(1, 1);
  return read_movingai_map(path);
}

TEST(GridGoalBoundsParts, ThreeRangesInAnyOrderMergeIntoTheWholeBuildsFile) {
  TestRandom random(20260227);
  for (int round = 0; round < (sanitized_build() ? 5 : 20); ++round) {
    RandomMapSpec spec;
    spec.min_side = 1;
    spec.max_side = 14;
    spec.max_blocked_fraction = 0.4;
    spec.weighted_chance = 0.0;
    const GridMap map = random_map(random, spec);
    const auto cells = static_cast<NodeId>(map.cell_count());
    std::vector<NodeId> cuts{static_cast<NodeId>(random.between(0, static_cast<int>(cells))),
                             static_cast<NodeId>(random.between(0, static_cast<int>(cells)))};
    std::sort(cuts.begin(), cuts.end());
    std::vector<GridGoalBoundsPart> parts = parts_between(map, cuts, 1 + round % 2);
    std::reverse(parts.begin(), parts.end());
    const GridGoalBounds whole(map, GridGoalBounds::Progress{}, 1);
    const GridGoalBounds merged = GridGoalBounds::merge(parts, map);
    EXPECT_EQ(merged.to_bytes(), whole.to_bytes()) << "round " << round;
    EXPECT_FALSE(merged.mismatch_thoroughly(map).has_value());
  }
}

TEST(GridGoalBoundsParts, ARealMovingAiMapMergesIntoTheSameFile) {
  const GridMap map = small_movingai_map();
  if (map.cell_count() == 1) {
    if (data_required()) FAIL() << "no arena.map; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << "no arena.map in the data folder";
  }
  const auto cells = static_cast<NodeId>(map.cell_count());
  const std::vector<GridGoalBoundsPart> parts = parts_between(map, {cells / 3, 2 * cells / 3}, 2);
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "wayfinder_goal_bounds_parts";
  std::filesystem::create_directories(folder);
  std::vector<GridGoalBoundsPart> loaded;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::filesystem::path file = folder / ("part" + std::to_string(i) + ".wfgp");
    parts[i].save(file);
    loaded.push_back(GridGoalBoundsPart::load(file));
    EXPECT_EQ(loaded.back().to_bytes(), parts[i].to_bytes());
  }
  std::swap(loaded[0], loaded[2]);
  const GridGoalBounds whole(map, GridGoalBounds::Progress{}, 2);
  whole.save(folder / "whole.wfgb");
  GridGoalBounds::merge(loaded, map).save(folder / "merged.wfgb");
  const std::vector<unsigned char> whole_bytes = whole.to_bytes();
  EXPECT_EQ(GridGoalBounds::load(folder / "merged.wfgb", map).to_bytes(), whole_bytes);
  EXPECT_EQ(std::filesystem::file_size(folder / "merged.wfgb"), whole_bytes.size());
  std::filesystem::remove_all(folder);
}

TEST(GridGoalBoundsParts, BadMergesAreRefusedSayingWhy) {
  GridMap map(6, 5);
  map.block({2, 2});
  const std::vector<GridGoalBoundsPart> parts = parts_between(map, {10, 20});
  expect_refusal([&] { (void)GridGoalBounds::merge({}, map); }, "no goal bounds' parts");
  // A part missing: its cells are in no part.
  expect_refusal([&] { (void)GridGoalBounds::merge(std::vector{parts[0], parts[2]}, map); },
                 "the cells [10, 20) are in no part");
  expect_refusal([&] { (void)GridGoalBounds::merge(std::vector{parts[0], parts[1]}, map); },
                 "the cells [20, 30) are in no part (the map has 30 cells)");
  // Overlaps, the same part twice included.
  const GridGoalBoundsPart wide(map, 5, 20, {}, 1);
  expect_refusal([&] { (void)GridGoalBounds::merge(std::vector{parts[0], wide, parts[1], parts[2]}, map); },
                 "the part of cells [0, 10) and the part of cells [5, 20) overlap (the cells [5, 10) are in both)");
  expect_refusal([&] { (void)GridGoalBounds::merge(std::vector{parts[0], parts[1], parts[1], parts[2]}, map); },
                 "overlap (the cells [10, 20) are in both)");
  // Another map: another size, or the same size and other walls.
  GridMap other_walls(6, 5);
  other_walls.block({3, 3});
  expect_refusal([&] { (void)GridGoalBounds::merge(parts, other_walls); },
                 "the part of cells [0, 10) was built for another map of the same size");
  const GridMap other_size(5, 6);
  expect_refusal([&] { (void)GridGoalBounds::merge(parts, other_size); }, "was built for a 6x5 map, not this 5x6 one");
  // A range outside the map.
  expect_refusal([&] { (void)GridGoalBoundsPart(map, 20, 31, {}, 1); }, "are not a range of this 6x5 map's 30 cells");
  expect_refusal([&] { (void)GridGoalBoundsPart(map, 12, 11, {}, 1); }, "[12, 11) are not a range");
  // Empty ranges are allowed and change nothing.
  std::vector<GridGoalBoundsPart> with_empty = parts;
  with_empty.emplace_back(map, 10, 10, GridGoalBounds::Progress{}, 1);
  EXPECT_EQ(GridGoalBounds::merge(with_empty, map).to_bytes(), GridGoalBounds(map).to_bytes());
}

TEST(GridGoalBoundsParts, DamagedPartFilesAreRefused) {
  GridMap map(4, 3);
  const GridGoalBoundsPart part(map, 2, 9, {}, 1);
  const std::vector<unsigned char> good = part.to_bytes();
  ASSERT_EQ(good.size(), GridGoalBoundsPart::header_size + 7 * 64);
  auto refusal = [](std::vector<unsigned char> bytes) {
    try {
      (void)GridGoalBoundsPart::from_bytes(bytes.data(), bytes.size(), "part");
    } catch (const LoadError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(GridGoalBoundsPart::from_bytes(good.data(), good.size(), "part").to_bytes(), good);
  std::vector<unsigned char> bytes = good;
  bytes[0] = 'X';
  EXPECT_NE(refusal(bytes).find("not a goal bounds' part file"), std::string::npos);
  bytes = good;
  bytes[8] = 9;
  EXPECT_NE(refusal(bytes).find("format version 9"), std::string::npos);
  bytes = good;
  bytes[40] = 13;  // last = 13 > 12 cells
  EXPECT_NE(refusal(bytes).find("not a range of a 4x3 map"), std::string::npos);
  bytes = good;
  bytes.pop_back();
  EXPECT_NE(refusal(bytes).find("truncated"), std::string::npos);
  bytes = good;
  bytes.push_back(0);
  EXPECT_NE(refusal(bytes).find("unexpected bytes after the boxes"), std::string::npos);
  bytes = good;
  bytes.back() ^= 1;
  EXPECT_NE(refusal(bytes).find("do not match their checksum"), std::string::npos);
  EXPECT_THROW((void)GridGoalBoundsPart::load("/nonexistent/part.wfgp"), LoadError);
}

}  // namespace
}  // namespace wayfinder
