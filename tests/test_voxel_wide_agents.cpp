// Agents wider than one column (MovementProfile::agent_width 2 and 3), walkers and flyers.
//
// The reference is a plain Dijkstra written here over the agent's corner positions, with the
// body's box checked block by block against the world (VoxelWorld::block only): no footprint
// world, no domain of the library. On seeded random small worlds the library's A*, Dijkstra
// (and, for flyers, jump point search) must find the same costs; every path must keep the whole
// body clear at every position, and each of its moves must be a move of the reference. On a
// MagicaVoxel scene HPA* built for width 2 must agree with A* on reachability and stay near its
// cost. Bad widths are refused with messages that say what is wrong.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "voxel_test_support.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_connected_parts.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_places.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

std::string text(VoxelCoord at) {
  return "(" + std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z) + ")";
}

/// The wide agent's rules written over boxes of the world (movement_profile.hpp with the
/// footprint rule of voxel_footprint.hpp), for worlds of air and solid blocks and profiles that
/// walk, fall and step up (no jumps, swimming or ladders), or fly.
class BodyRules {
 public:
  BodyRules(const VoxelWorld& world, const MovementProfile& profile) : world_(world), p_(profile), w_(profile.agent_width) {}

  /// Every block of the box [x0, x1] x [y0, y1] x [z0, z1] inside the world along x and z (and y
  /// for a flyer; a walker's head may rise above the top, where there is air) and not solid.
  [[nodiscard]] bool box_free(int x0, int x1, int y0, int y1, int z0, int z1) const {
    if (x0 < 0 || z0 < 0 || x1 >= world_.size_x() || z1 >= world_.size_z()) return false;
    if (y0 < 0 || (p_.fly && y1 >= world_.size_y())) return false;
    for (int y = y0; y <= y1; ++y)
      for (int z = z0; z <= z1; ++z)
        for (int x = x0; x <= x1; ++x)
          if (world_.solid(x, y, z)) return false;
    return true;
  }
  /// The walker's body with its corner at (x, z), from layer y0 to y1.
  [[nodiscard]] bool body_free(int x, int z, int y0, int y1) const { return box_free(x, x + w_ - 1, y0, y1, z, z + w_ - 1); }
  /// At least one solid block in the footprint's layer y.
  [[nodiscard]] bool solid_under(int x, int y, int z) const {
    if (y < 0) return false;
    for (int dz = 0; dz < w_; ++dz)
      for (int dx = 0; dx < w_; ++dx)
        if (world_.solid(x + dx, y, z + dz)) return true;
    return false;
  }
  [[nodiscard]] bool can_be_at(VoxelCoord at) const {
    if (at.y >= world_.size_y()) return false;
    if (p_.fly) return box_free(at.x, at.x + w_ - 1, at.y, at.y + w_ - 1, at.z, at.z + w_ - 1);
    return body_free(at.x, at.z, at.y, at.y + p_.agent_height - 1) && solid_under(at.x, at.y - 1, at.z);
  }

  /// Every move from `at`, as emit(next, cost).
  void moves(VoxelCoord at, const std::function<void(VoxelCoord, double)>& emit) const {
    if (p_.fly) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz)
          for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0 && dz == 0) continue;
            // The box swept by the whole body: no cell of it cuts a corner.
            if (!box_free(std::min(at.x, at.x + dx), std::max(at.x, at.x + dx) + w_ - 1, std::min(at.y, at.y + dy),
                          std::max(at.y, at.y + dy) + w_ - 1, std::min(at.z, at.z + dz), std::max(at.z, at.z + dz) + w_ - 1))
              continue;
            const int axes = std::abs(dx) + std::abs(dy) + std::abs(dz);
            emit({at.x + dx, at.y + dy, at.z + dz}, p_.fly_cost * (axes == 1 ? 1.0 : axes == 2 ? std::sqrt(2.0) : std::sqrt(3.0)));
          }
      return;
    }
    const int h = p_.agent_height;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dz = -1; dz <= 1; ++dz) {
        if (dx == 0 && dz == 0) continue;
        const bool diagonal = dx != 0 && dz != 0;
        if (diagonal && p_.walk_directions == 4) continue;
        const int nx = at.x + dx;
        const int nz = at.z + dz;
        const double horizontal = diagonal ? p_.diagonal_cost : p_.walk_cost;
        const int top = at.y + h - 1;
        // A diagonal sweeps the square of both ends and both sides: the sides here, the start
        // is clear, the end is checked by the walk or the step up.
        if (diagonal && (!body_free(nx, at.z, at.y, top) || !body_free(at.x, nz, at.y, top))) continue;
        if (body_free(nx, nz, at.y, top)) {
          for (int drop = 0; drop <= p_.max_fall && at.y - drop >= 0; ++drop) {
            const int ny = at.y - drop;
            if (!body_free(nx, nz, ny, top)) break;
            if (solid_under(nx, ny - 1, nz)) {
              emit({nx, ny, nz}, horizontal + p_.fall_cost * drop);
              break;
            }
          }
          continue;
        }
        // Step up: rise in place (and beside, for a diagonal), then move over onto a layer with
        // a solid block, the body clear there.
        for (int rise = 1; rise <= p_.step_height && at.y + rise < world_.size_y(); ++rise) {
          const int head = at.y + rise + h - 1;
          if (!body_free(at.x, at.z, head, head)) break;
          if (diagonal && (!body_free(nx, at.z, head, head) || !body_free(at.x, nz, head, head))) break;
          if (!solid_under(nx, at.y + rise - 1, nz)) continue;
          if (body_free(nx, nz, at.y + rise, head)) {
            emit({nx, at.y + rise, nz}, horizontal + p_.step_up_cost * rise);
            break;
          }
        }
      }
  }

  /// The cheapest cost of a move from a to b, or nullopt if there is none.
  [[nodiscard]] std::optional<double> move_cost(VoxelCoord a, VoxelCoord b) const {
    std::optional<double> best;
    moves(a, [&](VoxelCoord next, double cost) {
      if (next == b && (!best || cost < *best)) best = cost;
    });
    return best;
  }

  /// Dijkstra's costs from `start` to every corner position (infinity where unreachable).
  [[nodiscard]] std::vector<double> costs_from(VoxelCoord start) const {
    std::vector<double> cost(index_count(), std::numeric_limits<double>::infinity());
    using Entry = std::pair<double, std::size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    cost[index(start)] = 0.0;
    open.push({0.0, index(start)});
    while (!open.empty()) {
      const double g = open.top().first;
      const std::size_t i = open.top().second;
      open.pop();
      if (g > cost[i]) continue;
      moves(coord(i), [&](VoxelCoord next, double step) {
        const std::size_t j = index(next);
        if (g + step < cost[j]) {
          cost[j] = g + step;
          open.push({cost[j], j});
        }
      });
    }
    return cost;
  }

  [[nodiscard]] std::vector<VoxelCoord> places() const {
    std::vector<VoxelCoord> found;
    for (std::size_t i = 0; i < index_count(); ++i)
      if (can_be_at(coord(i))) found.push_back(coord(i));
    return found;
  }

 private:
  [[nodiscard]] std::size_t index_count() const { return world_.block_count(); }
  [[nodiscard]] std::size_t index(VoxelCoord at) const {
    return (static_cast<std::size_t>(at.y) * world_.size_z() + at.z) * world_.size_x() + at.x;
  }
  [[nodiscard]] VoxelCoord coord(std::size_t i) const {
    const int x = static_cast<int>(i % world_.size_x());
    const int z = static_cast<int>((i / world_.size_x()) % world_.size_z());
    const int y = static_cast<int>(i / (static_cast<std::size_t>(world_.size_x()) * world_.size_z()));
    return {x, y, z};
  }

  const VoxelWorld& world_;
  MovementProfile p_;
  int w_;
};

/// Terrain: a height field of 1 to 4 solid layers, with scattered floating blocks and pillars.
VoxelWorld random_terrain(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const int sx = 12, sy = 8, sz = 12;
  std::vector<int> ground(sx * sz);
  for (int& height : ground) height = 1 + static_cast<int>(random() % 4);
  std::vector<BlockKind> blocks(static_cast<std::size_t>(sx) * sy * sz, BlockKind::air);
  for (int y = 0; y < sy; ++y)
    for (int z = 0; z < sz; ++z)
      for (int x = 0; x < sx; ++x) {
        const bool solid = y < ground[z * sx + x] || (y >= 3 && random() % 100 < 4);
        if (solid) blocks[(static_cast<std::size_t>(y) * sz + z) * sx + x] = BlockKind::solid;
      }
  return VoxelWorld::from_array(sx, sy, sz, blocks);
}

/// Open space with a fifth of its blocks solid.
VoxelWorld random_air(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const int size = 11;
  return VoxelWorld::from_function(size, size, size,
                                   [&](int, int, int) { return random() % 100 < 12 ? BlockKind::solid : BlockKind::air; });
}

/// Clusters small enough that the random worlds have several of them.
VoxelHierarchyOptions small_clusters() {
  VoxelHierarchyOptions options;
  options.cluster_size = 4;
  return options;
}

MovementProfile wide_walker(int width) {
  MovementProfile profile = MovementProfile::walker();
  profile.agent_width = width;
  profile.jump_height = 0;  // the reference knows walks, falls and steps up
  profile.swim = false;
  profile.climb = false;
  return profile;
}

MovementProfile wide_flyer(int width) {
  MovementProfile profile = MovementProfile::flyer();
  profile.agent_width = width;
  return profile;
}

/// Checks a path against the reference: every position a place of the body, every move one of
/// the reference's, the costs summing to the result's. Returns "" when it holds.
std::string check_path(const VoxelWorld& world, const BodyRules& rules, const PathResult& result) {
  double cost = 0.0;
  for (std::size_t i = 0; i < result.nodes.size(); ++i) {
    const VoxelCoord at = world.coord_of(result.nodes[i]);
    if (!rules.can_be_at(at)) return "position " + std::to_string(i) + " " + text(at) + " is not clear for the whole body";
    if (i == 0) continue;
    const VoxelCoord from = world.coord_of(result.nodes[i - 1]);
    const std::optional<double> step = rules.move_cost(from, at);
    if (!step) return "move " + std::to_string(i) + " from " + text(from) + " to " + text(at) + " is not legal";
    cost += *step;
  }
  if (std::abs(cost - result.cost) > 1e-9 * std::max(1.0, cost))
    return "the moves cost " + std::to_string(cost) + ", the result says " + std::to_string(result.cost);
  return {};
}

void expect_optimal_on_random_worlds(const MovementProfile& profile, const std::function<VoxelWorld(std::uint64_t)>& make) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const VoxelWorld world = make(seed * 7919u + static_cast<std::uint64_t>(profile.agent_width));
    const BodyRules rules(world, profile);
    const std::vector<VoxelCoord> places = rules.places();
    ASSERT_GT(places.size(), 10u) << "seed " << seed;
    VoxelQuery query(world, profile);
    std::mt19937_64 random(seed);
    for (int i = 0; i < 12; ++i) {
      const VoxelCoord start = places[random() % places.size()];
      const std::vector<double> reference = rules.costs_from(start);
      for (int j = 0; j < 4; ++j) {
        const VoxelCoord goal = places[random() % places.size()];
        const double best = reference[(static_cast<std::size_t>(goal.y) * world.size_z() + goal.z) * world.size_x() + goal.x];
        const std::string where = "seed " + std::to_string(seed) + " from " + text(start) + " to " + text(goal);
        std::vector<VoxelAlgorithm> algorithms = {VoxelAlgorithm::astar, VoxelAlgorithm::dijkstra};
        if (profile.fly) algorithms.push_back(VoxelAlgorithm::jump_point);
        for (const VoxelAlgorithm algorithm : algorithms) {
          VoxelSearchOptions options;
          options.algorithm = algorithm;
          const PathResult result = query.find_path(start, goal, options);
          const std::string what = where + " " + std::string(to_string(algorithm));
          ASSERT_NE(result.status, SearchStatus::invalid_input) << what << ": " << result.message;
          EXPECT_EQ(result.found(), std::isfinite(best)) << what;
          if (!result.found() || !std::isfinite(best)) continue;
          ++found;
          EXPECT_NEAR(result.cost, best, 1e-9 * std::max(1.0, best)) << what;
          EXPECT_EQ(result.nodes.front(), world.node_of(start)) << what;
          EXPECT_EQ(result.nodes.back(), world.node_of(goal)) << what;
          EXPECT_EQ(check_path(world, rules, result), "") << what;
          // Every move is described as the reference prices it.
          const std::vector<VoxelMove> moves = query.moves_of(result, profile);
          ASSERT_EQ(moves.size() + 1, result.nodes.size()) << what;
          for (std::size_t m = 0; m < moves.size(); ++m)
            EXPECT_NEAR(moves[m].cost, *rules.move_cost(world.coord_of(result.nodes[m]), moves[m].to), 1e-12) << what;
        }
      }
    }
  }
  EXPECT_GT(found, 40) << "too few reachable pairs to prove anything";
}

TEST(VoxelWideAgents, WalkersOfWidthTwoAndThreeFindTheReferenceCosts) {
  for (const int width : {2, 3}) {
    SCOPED_TRACE("width " + std::to_string(width));
    expect_optimal_on_random_worlds(wide_walker(width), random_terrain);
  }
}

TEST(VoxelWideAgents, FourWayWalkersAndTallerStepsFindTheReferenceCosts) {
  MovementProfile profile = wide_walker(2);
  profile.walk_directions = 4;
  profile.step_height = 2;
  profile.agent_height = 3;
  profile.max_fall = 1;
  expect_optimal_on_random_worlds(profile, random_terrain);
}

TEST(VoxelWideAgents, FlyersOfWidthTwoAndThreeFindTheReferenceCosts) {
  for (const int width : {2, 3}) {
    SCOPED_TRACE("width " + std::to_string(width));
    expect_optimal_on_random_worlds(wide_flyer(width), random_air);
  }
}

TEST(VoxelWideAgents, WideWalkersWithJumpsWaterAndLaddersAgreeAcrossAlgorithms) {
  // The reference knows no jumps, water or ladders: here A* and Dijkstra must agree, and every
  // position of their paths must keep the body clear (water allowed: the agent swims) and held.
  int found = 0;
  for (const int width : {2, 3}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      std::mt19937_64 random(seed * 31u + static_cast<std::uint64_t>(width));
      VoxelWorld world = random_terrain(seed * 131u + static_cast<std::uint64_t>(width));
      for (int i = 0; i < 12; ++i) {
        const int x = static_cast<int>(random() % 12), y = 1 + static_cast<int>(random() % 5), z = static_cast<int>(random() % 12);
        if (world.block(x, y, z) == BlockKind::air) world.set_block(x, y, z, i % 2 == 0 ? BlockKind::water : BlockKind::ladder);
      }
      MovementProfile profile = MovementProfile::walker();
      profile.agent_width = width;
      const std::vector<VoxelCoord> places = all_voxel_places(world, profile);
      ASSERT_GT(places.size(), 10u);
      VoxelQuery query(world, profile);
      for (int q = 0; q < 20; ++q) {
        const VoxelCoord start = places[random() % places.size()];
        const VoxelCoord goal = places[random() % places.size()];
        const std::string where = "width " + std::to_string(width) + " seed " + std::to_string(seed) + " from " +
                                  text(start) + " to " + text(goal);
        VoxelSearchOptions options;
        const PathResult astar = query.find_path(start, goal, options);
        options.algorithm = VoxelAlgorithm::dijkstra;
        const PathResult dijkstra = query.find_path(start, goal, options);
        ASSERT_EQ(astar.found(), dijkstra.found()) << where;
        if (!astar.found()) continue;
        found += astar.nodes.size() > 2 ? 1 : 0;
        EXPECT_NEAR(astar.cost, dijkstra.cost, 1e-9 * std::max(1.0, astar.cost)) << where;
        for (const NodeId node : astar.nodes) {
          const VoxelCoord at = world.coord_of(node);
          bool held = false;
          for (int dz = 0; dz < width; ++dz)
            for (int dx = 0; dx < width; ++dx) {
              for (int k = 0; k < profile.agent_height; ++k)
                EXPECT_FALSE(world.solid(at.x + dx, at.y + k, at.z + dz)) << where << " at " << text(at);
              const BlockKind feet = world.block(at.x + dx, at.y, at.z + dz);
              const BlockKind below = world.block(at.x + dx, at.y - 1, at.z + dz);
              held = held || feet != BlockKind::air || below == BlockKind::solid || below == BlockKind::ladder;
            }
          EXPECT_TRUE(held) << where << " at " << text(at);
        }
        double sum = 0.0;
        for (const VoxelMove& move : query.moves_of(astar)) sum += move.cost;
        EXPECT_NEAR(sum, astar.cost, 1e-9 * std::max(1.0, sum)) << where;
      }
    }
  }
  EXPECT_GT(found, 40) << "too few paths of several moves to prove anything";
}

TEST(VoxelWideAgents, StandingNeedsOneSolidBlockUnderTheFootprint) {
  // A 2-wide walker over a floor with one solid block: held; over none: not.
  VoxelWorld world(6, 4, 6);
  world.set_block(2, 0, 2, BlockKind::solid);
  const MovementProfile profile = wide_walker(2);
  EXPECT_TRUE(voxel_place_allowed(world, profile, {1, 1, 1}));  // the block is under its far corner
  EXPECT_TRUE(voxel_place_allowed(world, profile, {2, 1, 2}));
  const std::optional<std::string> problem = voxel_place_problem(world, profile, {3, 1, 3});
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("no solid block or ladder below the footprint (3,0,3) to (4,0,4)"), std::string::npos) << *problem;
  // The body must lie inside the world: a corner one block from the +x side leaves it.
  const std::optional<std::string> outside = voxel_place_problem(world, profile, {5, 1, 2});
  ASSERT_TRUE(outside.has_value());
  EXPECT_NE(outside->find("reaches outside the world"), std::string::npos) << *outside;
  // A solid block anywhere in the body is named.
  world.set_block(3, 2, 3, BlockKind::solid);
  const std::optional<std::string> blocked = voxel_place_problem(world, profile, {2, 1, 2});
  ASSERT_TRUE(blocked.has_value());
  EXPECT_NE(blocked->find("a solid block at head height (3,2,3)"), std::string::npos) << *blocked;
}

TEST(VoxelWideAgents, WidthOneIsUnchanged) {
  // The footprint rules of width 1 are the one-column rules: the same answers as the
  // reference of one column, with no footprint world in between.
  const VoxelWorld world = random_terrain(99);
  MovementProfile profile = wide_walker(1);
  const BodyRules rules(world, profile);
  const std::vector<VoxelCoord> places = rules.places();
  VoxelQuery query(world, profile);
  for (std::size_t i = 0; i + 1 < places.size(); i += 7) {
    const PathResult result = query.find_path(places[i], places[i + 1]);
    const std::vector<double> reference = rules.costs_from(places[i]);
    const VoxelCoord goal = places[i + 1];
    const double best = reference[(static_cast<std::size_t>(goal.y) * world.size_z() + goal.z) * world.size_x() + goal.x];
    ASSERT_EQ(result.found(), std::isfinite(best));
    if (result.found()) {
      EXPECT_NEAR(result.cost, best, 1e-9 * std::max(1.0, best));
    }
  }
}

TEST(VoxelWideAgents, BadWidthsAreRefusedWithTheirRange) {
  const VoxelWorld world(8, 4, 8);
  for (const int width : {0, 4, -1}) {
    MovementProfile profile = MovementProfile::walker();
    profile.agent_width = width;
    const std::optional<std::string> problem = profile_problem(profile);
    ASSERT_TRUE(problem.has_value()) << width;
    EXPECT_NE(problem->find("agent_width must be 1 to 3"), std::string::npos) << *problem;
    EXPECT_NE(problem->find("got " + std::to_string(width)), std::string::npos) << *problem;
    try {
      VoxelQuery query(world, profile);
      ADD_FAILURE() << "width " << width << " was accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("agent_width must be 1 to 3"), std::string::npos) << error.what();
    }
    EXPECT_THROW(VoxelHierarchy(world, profile), std::invalid_argument);
    VoxelQuery query(world);
    VoxelSearchOptions options;
    options.profile = profile;
    const PathResult result = query.find_path({1, 1, 1}, {2, 1, 2}, options);
    EXPECT_EQ(result.status, SearchStatus::invalid_input);
    EXPECT_NE(result.message.find("agent_width must be 1 to 3"), std::string::npos) << result.message;
  }
}

TEST(VoxelWideAgents, AWorldNarrowerThanTheAgentIsRefused) {
  const VoxelWorld world(2, 4, 5);
  const MovementProfile profile = wide_walker(3);
  try {
    VoxelHierarchy hierarchy(world, profile);
    ADD_FAILURE() << "a hierarchy was built for a world narrower than the agent";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("narrower than the agent (3 blocks wide)"), std::string::npos) << error.what();
  }
  VoxelQuery query(world, profile);
  const PathResult result = query.find_path({0, 1, 0}, {0, 1, 1});
  EXPECT_EQ(result.status, SearchStatus::invalid_input);
}

TEST(VoxelWideAgents, HierarchyRefusesAWidthItWasNotBuiltFor) {
  const VoxelWorld world = random_terrain(5);
  auto hierarchy = std::make_shared<const VoxelHierarchy>(world, wide_walker(2), small_clusters());
  VoxelQuery query(world, wide_walker(3));
  query.set_hierarchy(hierarchy);
  VoxelSearchOptions options;
  options.algorithm = VoxelAlgorithm::hierarchical;
  const std::optional<std::string> problem = query.options_problem(options);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("built for agents 2 blocks wide, not 3"), std::string::npos) << *problem;
}

TEST(VoxelWideAgents, HierarchyOfWideAgentsFindsLegalPathsOnRandomWorlds) {
  for (const MovementProfile& profile : {wide_walker(2), wide_flyer(2)}) {
    SCOPED_TRACE(profile.fly ? "flyer" : "walker");
    const VoxelWorld world = profile.fly ? random_air(31) : random_terrain(31);
    const BodyRules rules(world, profile);
    auto hierarchy = std::make_shared<const VoxelHierarchy>(world, profile, small_clusters());
    EXPECT_EQ(&hierarchy->source_world(), &world);
    VoxelQuery query(world, profile);
    query.set_hierarchy(hierarchy);
    const std::vector<VoxelCoord> places = rules.places();
    std::mt19937_64 random(3);
    for (int i = 0; i < 30; ++i) {
      const VoxelCoord start = places[random() % places.size()];
      const VoxelCoord goal = places[random() % places.size()];
      VoxelSearchOptions options;
      const PathResult optimal = query.find_path(start, goal, options);
      options.algorithm = VoxelAlgorithm::hierarchical;
      const PathResult found = query.find_path(start, goal, options);
      const std::string where = "from " + text(start) + " to " + text(goal);
      ASSERT_NE(found.status, SearchStatus::invalid_input) << where << ": " << found.message;
      ASSERT_EQ(found.found(), optimal.found()) << where;
      if (!found.found()) continue;
      EXPECT_GE(found.cost, optimal.cost - 1e-9 * std::max(1.0, optimal.cost)) << where;
      EXPECT_EQ(check_path(world, rules, found), "") << where;
      EXPECT_EQ(found.nodes.front(), world.node_of(start)) << where;
      EXPECT_EQ(found.nodes.back(), world.node_of(goal)) << where;
    }
  }
}

TEST(VoxelWideAgents, EditsReachAWideAgentsQueriesAndHierarchy) {
  // A wall across a 2-wide flyer's way: the cached footprint world and the hierarchy follow it.
  VoxelWorld world(10, 4, 10);
  const MovementProfile profile = wide_flyer(2);
  auto hierarchy = std::make_shared<VoxelHierarchy>(world, profile, small_clusters());
  VoxelQuery query(world, profile);
  query.set_hierarchy(hierarchy);
  const PathResult before = query.find_path({0, 0, 0}, {8, 0, 0});
  ASSERT_TRUE(before.found());
  EXPECT_NEAR(before.cost, 8.0, 1e-12);
  for (int y = 0; y < 4; ++y)
    for (int z = 0; z < 9; ++z) world.set_block(5, y, z, BlockKind::solid);  // a gap of 1 at z = 9: too narrow
  const PathResult blocked = query.find_path({0, 0, 0}, {8, 0, 0});
  EXPECT_EQ(blocked.status, SearchStatus::no_path);
  VoxelSearchOptions options;
  options.algorithm = VoxelAlgorithm::hierarchical;
  EXPECT_EQ(query.find_path({0, 0, 0}, {8, 0, 0}, options).status, SearchStatus::invalid_input);  // not current
  hierarchy->update();
  EXPECT_TRUE(hierarchy->current());
  EXPECT_EQ(query.find_path({0, 0, 0}, {8, 0, 0}, options).status, SearchStatus::no_path);
  world.set_block(5, 0, 8, BlockKind::air);  // now a 2 x 2 hole at z 8 to 9, y 0
  world.set_block(5, 1, 8, BlockKind::air);
  world.set_block(5, 1, 9, BlockKind::air);
  const PathResult through = query.find_path({0, 0, 0}, {8, 0, 0});
  ASSERT_TRUE(through.found());
  hierarchy->update();
  const PathResult through_hierarchy = query.find_path({0, 0, 0}, {8, 0, 0}, options);
  ASSERT_TRUE(through_hierarchy.found());
  EXPECT_GE(through_hierarchy.cost, through.cost - 1e-9);
}

TEST(VoxelWideAgents, ConnectedPartsAgreeWithTheReference) {
  // Two places share a part exactly when the reference reaches each from the other.
  for (const MovementProfile& profile : {wide_walker(2), wide_walker(3), wide_flyer(2)}) {
    SCOPED_TRACE(std::string(profile.fly ? "flyer " : "walker ") + std::to_string(profile.agent_width));
    const VoxelWorld world = profile.fly ? random_air(17) : random_terrain(17);
    const BodyRules rules(world, profile);
    const VoxelConnectedParts parts(world, profile);
    const std::vector<VoxelCoord> places = rules.places();
    EXPECT_EQ(parts.place_count(), places.size());
    auto index = [&](VoxelCoord at) {
      return (static_cast<std::size_t>(at.y) * world.size_z() + at.z) * world.size_x() + at.x;
    };
    std::vector<VoxelCoord> sample;
    for (std::size_t i = 0; i < places.size(); i += 4) sample.push_back(places[i]);
    std::vector<std::vector<double>> from;
    for (const VoxelCoord at : sample) from.push_back(rules.costs_from(at));
    for (std::size_t i = 0; i < sample.size(); ++i)
      for (std::size_t j = 0; j < sample.size(); ++j) {
        const bool both_ways = std::isfinite(from[i][index(sample[j])]) && std::isfinite(from[j][index(sample[i])]);
        EXPECT_EQ(parts.part_of(sample[i]) == parts.part_of(sample[j]), both_ways) << text(sample[i]) << " " << text(sample[j]);
      }
  }
}

// ---- A MagicaVoxel scene: HPA* built for width 2 against A*.

TEST(VoxelWideAgents, HierarchyAndAStarAgreeOnASceneForWidthTwo) {
  const std::filesystem::path file = data_directory() / "voxel" / "vox" / "scene_park3.vox";
  if (!std::filesystem::exists(file)) {
    const std::string message = file.string() + " not found (set WAYFINDER_DATA_DIR to the shared data folder)";
    if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it";
    GTEST_SKIP() << message;
  }
  const VoxelWorld world = read_vox_file(file);
  MovementProfile profile = MovementProfile::walker();
  profile.agent_width = 2;
  auto hierarchy = std::make_shared<const VoxelHierarchy>(world, profile);
  VoxelQuery query(world, profile);
  query.set_hierarchy(hierarchy);
  const VoxelPlaceSample sample = sample_voxel_places(world, profile, 12);
  ASSERT_GE(sample.places.size(), 6u);
  int found = 0;
  double ratio_sum = 0.0;
  for (std::size_t i = 0; i + 1 < sample.places.size(); ++i) {
    const VoxelCoord start = sample.places[i];
    const VoxelCoord goal = sample.places[i + 1];
    const std::string where = "from " + text(start) + " to " + text(goal);
    VoxelSearchOptions options;
    const PathResult astar = query.find_path(start, goal, options);
    options.algorithm = VoxelAlgorithm::hierarchical;
    const PathResult hpa = query.find_path(start, goal, options);
    ASSERT_NE(hpa.status, SearchStatus::invalid_input) << where << ": " << hpa.message;
    ASSERT_EQ(hpa.found(), astar.found()) << where;
    if (!astar.found()) continue;
    ++found;
    // HPA* is near-optimal (voxel_hierarchy.hpp): never cheaper than A*, close to it.
    EXPECT_GE(hpa.cost, astar.cost - 1e-9 * std::max(1.0, astar.cost)) << where;
    EXPECT_LE(hpa.cost, 1.25 * astar.cost + 1e-9) << where;
    if (astar.cost > 0.0) ratio_sum += hpa.cost / astar.cost;
    for (const NodeId node : hpa.nodes) EXPECT_TRUE(voxel_place_allowed(world, profile, world.coord_of(node))) << where;
  }
  ASSERT_GE(found, 3) << "too few reachable pairs in " << file;
  EXPECT_LT(ratio_sum / found, 1.10);
}

// docs/architecture.md tells programs that run wide agents on many threads to share one
// footprint world and search it with one-column queries: those must give the wide query's paths.
TEST(VoxelWideAgents, OneColumnQueriesOnASharedFootprintWorldGiveTheWideAgentsPaths) {
  int found = 0;
  for (const bool fly : {false, true}) {
    for (const int width : {2, 3}) {
      const MovementProfile wide = fly ? wide_flyer(width) : wide_walker(width);
      MovementProfile one_column = wide;
      one_column.agent_width = 1;
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const VoxelWorld world = fly ? random_air(seed * 31u + static_cast<std::uint64_t>(width))
                                     : random_terrain(seed * 31u + static_cast<std::uint64_t>(width));
        const VoxelWorld shared = footprint_world(world, wide);
        const std::vector<VoxelCoord> places = BodyRules(world, wide).places();
        ASSERT_GT(places.size(), 10u);
        VoxelQuery wide_query(world, wide);
        VoxelQuery shared_query(shared, one_column);
        std::mt19937_64 random(seed);
        for (int i = 0; i < 20; ++i) {
          const VoxelCoord start = places[random() % places.size()];
          const VoxelCoord goal = places[random() % places.size()];
          const std::string where = std::string(fly ? "flyer" : "walker") + " width " + std::to_string(width) +
                                    " seed " + std::to_string(seed) + " from " + text(start) + " to " + text(goal);
          const PathResult expected = wide_query.find_path(start, goal);
          const PathResult got = shared_query.find_path(start, goal);
          ASSERT_EQ(got.found(), expected.found()) << where << ": " << got.message;
          if (!expected.found()) continue;
          ++found;
          EXPECT_NEAR(got.cost, expected.cost, 1e-9 * std::max(1.0, expected.cost)) << where;
          ASSERT_EQ(got.nodes.size(), expected.nodes.size()) << where;
          for (std::size_t k = 0; k < got.nodes.size(); ++k)
            EXPECT_EQ(shared.coord_of(got.nodes[k]), world.coord_of(expected.nodes[k])) << where << " point " << k;
        }
      }
    }
  }
  EXPECT_GT(found, 60) << "too few reachable pairs to prove anything";
}

}  // namespace
}  // namespace wayfinder
