#pragma once
// Helpers shared by the voxel tests: the test environment (data folder, sanitizer build), an
// in-memory .vox writer for hand-made files, path validators written from the movement rules
// documented in movement_profile.hpp, and the check of a flying search on the MovingAI voxel
// benchmark. The validators use nothing of the library but VoxelWorld::block(): no domain, no
// successor generator, so a bug there cannot hide in both.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_environment.hpp"
#include "wayfinder/core/path_result.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::voxel_testing {

using testing::data_directory;
using testing::data_required;
using testing::sanitized_build;

// ---------------------------------------------------------------------------------------------
// .vox writing, for hand-made test files

inline void append_int(std::string& out, std::int64_t value) {
  const auto bits = static_cast<std::uint32_t>(value);
  for (int i = 0; i < 4; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xFF);
}
inline std::string vox_chunk(const std::string& id, const std::string& content, const std::string& children = {}) {
  std::string out = id;
  append_int(out, static_cast<std::int64_t>(content.size()));
  append_int(out, static_cast<std::int64_t>(children.size()));
  return out + content + children;
}
inline std::string vox_string(const std::string& text) {
  std::string out;
  append_int(out, static_cast<std::int64_t>(text.size()));
  return out + text;
}
inline std::string vox_dictionary(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  append_int(out, static_cast<std::int64_t>(entries.size()));
  for (const auto& [key, value] : entries) out += vox_string(key) + vox_string(value);
  return out;
}

struct VoxVoxel {
  int x, y, z, colour;
};

/// SIZE + XYZI chunks of one model.
inline std::string vox_model(int sx, int sy, int sz, const std::vector<VoxVoxel>& voxels) {
  std::string size;
  append_int(size, sx);
  append_int(size, sy);
  append_int(size, sz);
  std::string xyzi;
  append_int(xyzi, static_cast<std::int64_t>(voxels.size()));
  for (const VoxVoxel& v : voxels) {
    xyzi += static_cast<char>(v.x);
    xyzi += static_cast<char>(v.y);
    xyzi += static_cast<char>(v.z);
    xyzi += static_cast<char>(v.colour);
  }
  return vox_chunk("SIZE", size) + vox_chunk("XYZI", xyzi);
}

inline std::string vox_transform(int id, int child, const std::string& translation) {
  std::string content;
  append_int(content, id);
  content += vox_dictionary({});
  append_int(content, child);
  append_int(content, -1);
  append_int(content, 0);
  append_int(content, 1);
  content += translation.empty() ? vox_dictionary({}) : vox_dictionary({{"_t", translation}});
  return vox_chunk("nTRN", content);
}
inline std::string vox_group(int id, const std::vector<int>& children) {
  std::string content;
  append_int(content, id);
  content += vox_dictionary({});
  append_int(content, static_cast<std::int64_t>(children.size()));
  for (const int child : children) append_int(content, child);
  return vox_chunk("nGRP", content);
}
inline std::string vox_shape(int id, int model) {
  std::string content;
  append_int(content, id);
  content += vox_dictionary({});
  append_int(content, 1);
  append_int(content, model);
  content += vox_dictionary({});
  return vox_chunk("nSHP", content);
}
inline std::string vox_file(const std::string& main_children, int version = 150) {
  std::string out = "VOX ";
  append_int(out, version);
  return out + vox_chunk("MAIN", "", main_children);
}

// ---------------------------------------------------------------------------------------------
// Independent move checks

/// Random blocks over a solid floor (y = 0): solid with `solid_percent` chance, water 3 %,
/// ladders 2 %, air otherwise, with open space above: the hierarchy tests' worlds.
inline VoxelWorld random_floor_world(std::mt19937_64& random, int size_x, int size_y, int size_z, int solid_percent) {
  return VoxelWorld::from_function(size_x, size_y, size_z, [&](int, int y, int) {
    if (y == 0) return BlockKind::solid;
    const auto roll = static_cast<int>(random() % 100);
    if (roll < solid_percent) return BlockKind::solid;
    if (roll < solid_percent + 3) return BlockKind::water;
    if (roll < solid_percent + 5) return BlockKind::ladder;
    return BlockKind::air;
  });
}

inline bool body_free(const VoxelWorld& world, const MovementProfile& profile, int x, int z, int from_y, int to_y) {
  for (int y = from_y; y <= to_y; ++y) {
    const BlockKind kind = world.block(x, y, z);
    if (kind == BlockKind::solid) return false;
    if (kind == BlockKind::water && !profile.swim) return false;
  }
  return true;
}

inline bool supported(const VoxelWorld& world, const MovementProfile& profile, int x, int y, int z) {
  const BlockKind feet = world.block(x, y, z);
  if (feet == BlockKind::water) return profile.swim;
  if (feet == BlockKind::ladder && profile.climb) return true;
  const BlockKind below = world.block(x, y - 1, z);
  return below == BlockKind::solid || below == BlockKind::ladder;
}

inline bool valid_position(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at) {
  return world.contains(at) && body_free(world, profile, at.x, at.z, at.y, at.y + profile.agent_height - 1) &&
         supported(world, profile, at.x, at.y, at.z);
}

/// The cheapest cost of a legal walking-profile move from a to b, or nullopt if none is legal.
inline std::optional<double> legal_walk_move_cost(const VoxelWorld& world, const MovementProfile& p, VoxelCoord a,
                                                  VoxelCoord b) {
  if (!valid_position(world, p, a) || !valid_position(world, p, b)) return std::nullopt;
  const int h = p.agent_height;
  const int dx = b.x - a.x;
  const int dy = b.y - a.y;
  const int dz = b.z - a.z;
  std::optional<double> best;
  auto offer = [&](double cost) {
    if (!best || cost < *best) best = cost;
  };
  const bool swimming = p.swim && world.block(a) == BlockKind::water;
  const bool neighbour_column = std::abs(dx) <= 1 && std::abs(dz) <= 1 && (dx != 0 || dz != 0);
  const bool diagonal = dx != 0 && dz != 0;

  // Step up (from land or water): rise dy in place, then move over onto a solid block.
  if (neighbour_column && dy >= 1 && dy <= p.step_height && (!diagonal || (!swimming && p.walk_directions == 8))) {
    bool ok = world.block(b.x, b.y - 1, b.z) == BlockKind::solid && body_free(world, p, a.x, a.z, a.y, b.y + h - 1);
    if (diagonal) ok = ok && body_free(world, p, b.x, a.z, a.y, b.y + h - 1) && body_free(world, p, a.x, b.z, a.y, b.y + h - 1);
    // Only where the agent cannot walk straight over.
    ok = ok && !body_free(world, p, b.x, b.z, a.y, a.y + h - 1);
    if (ok) offer((diagonal ? p.diagonal_cost : p.walk_cost) + p.step_up_cost * dy);
  }
  if (swimming) {
    if (std::abs(dx) + std::abs(dy) + std::abs(dz) == 1) offer(p.swim_cost);
  } else {
    // Walk, possibly off a ledge: across at the take-off height, then straight down to the
    // first place that holds the agent.
    if (neighbour_column && (!diagonal || p.walk_directions == 8) && dy <= 0 && -dy <= p.max_fall) {
      bool ok = body_free(world, p, b.x, b.z, b.y, a.y + h - 1);
      if (diagonal) ok = ok && body_free(world, p, b.x, a.z, a.y, a.y + h - 1) && body_free(world, p, a.x, b.z, a.y, a.y + h - 1);
      for (int y = a.y; ok && y > b.y; --y)
        if (supported(world, p, b.x, y, b.z)) ok = false;  // it would have stopped higher
      if (ok) offer((diagonal ? p.diagonal_cost : p.walk_cost) + p.fall_cost * -dy);
    }
    // Jump: from a solid block, rise jump_height, cross k columns in a cardinal direction, drop.
    const int k = std::max(std::abs(dx), std::abs(dz));
    if (world.block(a.x, a.y - 1, a.z) == BlockKind::solid && p.jump_height > 0 && (dx == 0 || dz == 0) && k >= 1 &&
        k <= p.jump_distance + 1 && a.y - b.y <= p.max_fall) {
      const int apex = a.y + p.jump_height;
      const int sx = dx == 0 ? 0 : dx / std::abs(dx);
      const int sz = dz == 0 ? 0 : dz / std::abs(dz);
      bool ok = apex < world.size_y() && b.y <= apex && body_free(world, p, a.x, a.z, a.y, apex + h - 1);
      for (int i = 1; ok && i <= k; ++i) ok = body_free(world, p, a.x + i * sx, a.z + i * sz, apex, apex + h - 1);
      ok = ok && body_free(world, p, b.x, b.z, b.y, apex + h - 1);
      for (int y = apex; ok && y > b.y; --y)
        if (supported(world, p, b.x, y, b.z)) ok = false;
      if (ok)
        offer(p.walk_cost * k + p.jump_cost + (dy > 0 ? p.step_up_cost * dy : p.fall_cost * -dy));
    }
  }
  // Climb: up out of a ladder block, or down into one.
  if (p.climb && dx == 0 && dz == 0) {
    if (dy == 1 && world.block(a) == BlockKind::ladder) offer(p.climb_cost);
    if (dy == -1 && world.block(b) == BlockKind::ladder) offer(p.climb_cost);
  }
  return best;
}

/// Checks a walking path move by move; returns an empty string if valid and the summed cost.
inline std::string check_walk_path(const VoxelWorld& world, const MovementProfile& profile,
                                   const std::vector<VoxelCoord>& path, double& cost) {
  cost = 0.0;
  if (path.empty()) return "empty path";
  if (!valid_position(world, profile, path.front())) return "the agent cannot be at the start";
  for (std::size_t i = 1; i < path.size(); ++i) {
    const std::optional<double> step = legal_walk_move_cost(world, profile, path[i - 1], path[i]);
    const VoxelCoord& a = path[i - 1];
    const VoxelCoord& b = path[i];
    if (!step)
      return "illegal move " + std::to_string(i) + " from (" + std::to_string(a.x) + "," + std::to_string(a.y) + "," +
             std::to_string(a.z) + ") to (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
    cost += *step;
  }
  return {};
}

/// Checks a flying path: 26-neighbour steps inside the world, every block of each move's box
/// non-solid (no corner cutting); returns an empty string if valid, and the summed length.
inline std::string check_fly_path(const VoxelWorld& world, const std::vector<VoxelCoord>& path, double& length) {
  length = 0.0;
  if (path.empty()) return "empty path";
  for (std::size_t i = 0; i < path.size(); ++i) {
    const VoxelCoord& b = path[i];
    if (!world.contains(b) || world.solid(b.x, b.y, b.z)) return "node " + std::to_string(i) + " is blocked or outside";
    if (i == 0) continue;
    const VoxelCoord& a = path[i - 1];
    const int dx = b.x - a.x;
    const int dy = b.y - a.y;
    const int dz = b.z - a.z;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || std::abs(dz) > 1 || (dx == 0 && dy == 0 && dz == 0))
      return "move " + std::to_string(i) + " is not to a neighbour";
    for (int x = std::min(a.x, b.x); x <= std::max(a.x, b.x); ++x)
      for (int y = std::min(a.y, b.y); y <= std::max(a.y, b.y); ++y)
        for (int z = std::min(a.z, b.z); z <= std::max(a.z, b.z); ++z)
          if (world.solid(x, y, z)) return "move " + std::to_string(i) + " cuts a corner";
    length += std::sqrt(static_cast<double>(dx * dx + dy * dy + dz * dz));
  }
  return {};
}

/// The blocks of a result's nodes, in order.
inline std::vector<VoxelCoord> coords_of(const VoxelWorld& world, const PathResult& result) {
  std::vector<VoxelCoord> path;
  for (const NodeId node : result.nodes) path.push_back(world.coord_of(node));
  return path;
}

/// Skips the running test when `file` is missing, or fails it when WAYFINDER_REQUIRE_DATA=1.
inline void skip_or_fail_without(const std::filesystem::path& file) {
  if (std::filesystem::exists(file)) return;
  const std::string message = file.string() + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
  if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
  GTEST_SKIP() << message;
}

/// Every query of the MovingAI voxel benchmark scenario warframe/`name` (every 20th in sanitizer
/// builds), searched by a flyer with `options`, has the scenario's optimal length and a legal
/// path (check_fly_path) of that length from the start to the goal; skipped (or failed) without
/// the data.
inline void expect_every_warframe_query_optimal(const std::string& name, const VoxelSearchOptions& options) {
  const std::filesystem::path scenario_path = data_directory() / "voxel" / "warframe" / (name + ".3dmap.3dscen");
  skip_or_fail_without(scenario_path);
  if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
  const VoxelScenario scenario = read_voxel_scenario(scenario_path);
  const VoxelWorld world = read_voxel_benchmark_map(voxel_scenario_map_path(scenario_path));
  ASSERT_NO_THROW(check_voxel_scenario_fits_world(scenario, world));
  ASSERT_GE(scenario.queries.size(), 1000u);

  VoxelQuery pathfinder(world, MovementProfile::flyer());
  const std::size_t stride = sanitized_build() ? 20 : 1;
  std::size_t checked = 0;
  std::size_t failures = 0;
  double max_error = 0.0;
  for (std::size_t i = 0; i < scenario.queries.size(); i += stride) {
    const VoxelScenarioQuery& query = scenario.queries[i];
    const PathResult result = pathfinder.find_path(query.start, query.goal, options);
    ++checked;
    const std::string where = scenario.source_name + ":" + std::to_string(query.line);
    if (!result.found()) {
      if (++failures <= 10) ADD_FAILURE() << where << ": no path (" << to_string(result.status) << ")";
      continue;
    }
    const double error = std::abs(result.cost - query.optimal_length);
    max_error = std::max(max_error, error);
    if (error > 1e-3 && ++failures <= 10)
      ADD_FAILURE() << where << ": cost " << result.cost << ", optimal " << query.optimal_length;
    double length = 0.0;
    const std::string problem = check_fly_path(world, coords_of(world, result), length);
    if (!problem.empty() && ++failures <= 10) ADD_FAILURE() << where << ": " << problem;
    if (problem.empty() && std::abs(length - result.cost) > 1e-6 && ++failures <= 10)
      ADD_FAILURE() << where << ": path length " << length << " but reported cost " << result.cost;
    if (result.nodes.front() != world.node_of(query.start) || result.nodes.back() != world.node_of(query.goal))
      if (++failures <= 10) ADD_FAILURE() << where << ": path does not join start and goal";
  }
  EXPECT_EQ(failures, 0u);
  std::cout << name << ": " << checked << " queries, max |cost - optimal| " << max_error << "\n";
}

}  // namespace wayfinder::voxel_testing
