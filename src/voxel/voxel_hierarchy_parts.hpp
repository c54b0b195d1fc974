#pragma once
// Internal to the voxel hierarchy (voxel_hierarchy_build.cpp, voxel_hierarchy_query.cpp): the
// cluster boxes, the searches' domains over them and the compressed place graphs that the build
// and the queries both search.

#include <cstdint>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "wayfinder/core/domain.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/voxel/movement_profile.hpp"
#include "wayfinder/voxel/voxel_domain.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::voxel_hierarchy_detail {

/// The agent's moves over the whole world: the walking or the flying domain.
using WorldMoves = std::variant<VoxelWalkingDomain, VoxelFlyingDomain>;

inline WorldMoves make_moves(const VoxelWorld& world, const MovementProfile& profile) {
  if (profile.fly) return WorldMoves{std::in_place_type<VoxelFlyingDomain>, world, profile.fly_cost};
  return WorldMoves{std::in_place_type<VoxelWalkingDomain>, world, profile};
}

/// One cluster's box in the world, with local ids ((y - oy) * ez + (z - oz)) * ex + (x - ox).
struct ClusterBox {
  VoxelCoord origin;
  VoxelCoord extent;
  [[nodiscard]] bool contains(VoxelCoord at) const {
    return static_cast<unsigned>(at.x - origin.x) < static_cast<unsigned>(extent.x) &&
           static_cast<unsigned>(at.y - origin.y) < static_cast<unsigned>(extent.y) &&
           static_cast<unsigned>(at.z - origin.z) < static_cast<unsigned>(extent.z);
  }
  [[nodiscard]] std::size_t volume() const {
    return static_cast<std::size_t>(extent.x) * static_cast<std::size_t>(extent.y) * static_cast<std::size_t>(extent.z);
  }
  [[nodiscard]] NodeId local(VoxelCoord at) const {
    return static_cast<NodeId>(((at.y - origin.y) * extent.z + (at.z - origin.z)) * extent.x + (at.x - origin.x));
  }
  [[nodiscard]] VoxelCoord coord(NodeId local_id) const {
    const int id = static_cast<int>(local_id);
    return {origin.x + id % extent.x, origin.y + id / (extent.x * extent.z), origin.z + (id / extent.x) % extent.z};
  }
};

/// The agent's moves clipped to one cluster's box, as a search domain with box-local ids; one
/// more id, never reached, is the goal of searches that must exhaust the cluster.
template <class Moves>
class BoxDomain {
 public:
  BoxDomain(const Moves& moves, const VoxelWorld& world, ClusterBox box) : moves_(moves), world_(world), box_(box) {}

  [[nodiscard]] std::size_t node_count() const { return box_.volume() + 1; }
  [[nodiscard]] NodeId sentinel() const { return static_cast<NodeId>(box_.volume()); }
  [[nodiscard]] NodeId local(NodeId world_node) const { return box_.local(world_.coord_of(world_node)); }
  [[nodiscard]] NodeId global(NodeId local_id) const { return world_.node_of(box_.coord(local_id)); }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == sentinel()) return;
    moves_.for_each_successor(global(node), [&](NodeId next, Cost cost) {
      const VoxelCoord at = world_.coord_of(next);
      if (box_.contains(at)) sink(box_.local(at), cost);
    });
  }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const {
    if (from == sentinel() || to == sentinel()) return 0.0;
    return moves_.heuristic(global(from), global(to));
  }

 private:
  const Moves& moves_;
  const VoxelWorld& world_;
  ClusterBox box_;
};

/// A cluster's moves as compressed rows over the indices of its places (forward or reversed),
/// and one more index, never reached, for searches that exhaust the cluster.
class PlaceGraph {
 public:
  std::vector<std::uint32_t> offsets;
  std::vector<std::uint32_t> targets;
  std::vector<Cost> costs;
  [[nodiscard]] std::size_t node_count() const { return offsets.size(); }  // places + the sentinel
  [[nodiscard]] NodeId sentinel() const { return static_cast<NodeId>(offsets.size() - 1); }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == sentinel()) return;
    for (std::uint32_t e = offsets[node]; e < offsets[node + 1]; ++e) sink(targets[e], costs[e]);
  }
  [[nodiscard]] Cost heuristic(NodeId, NodeId) const { return 0.0; }  // Dijkstra only
};

static_assert(Domain<PlaceGraph>);

/// One move between two clusters.
struct Transition {
  NodeId from = 0;  ///< a place of the cluster being built
  NodeId to = 0;    ///< a place of another cluster
  Cost cost = 0.0;
};

/// Per-thread scratch of the build and the queries: a table from box-local ids to place indices.
class PlaceIndex {
 public:
  void assign(const VoxelWorld& world, const ClusterBox& box, std::span<const NodeId> places) {
    if (table_.size() < box.volume()) table_.assign(box.volume(), none);
    for (const NodeId local : set_) table_[local] = none;
    set_.clear();
    for (std::size_t i = 0; i < places.size(); ++i) {
      const NodeId local = box.local(world.coord_of(places[i]));
      table_[local] = static_cast<std::uint32_t>(i);
      set_.push_back(local);
    }
  }
  [[nodiscard]] std::uint32_t operator[](NodeId local) const { return table_[local]; }
  static constexpr std::uint32_t none = 0xFFFFFFFFu;

 private:
  std::vector<std::uint32_t> table_;
  std::vector<NodeId> set_;
};

/// Fills `graph` with the moves inside `box` between `places` (reversed: a move from a to b is
/// stored in b's row, as an edge to a, so that a search over it runs towards a goal), and
/// `crossing` with the moves that leave the box (forward graphs only; may be null).
template <class Moves>
void make_place_graph(const Moves& moves, const VoxelWorld& world, const ClusterBox& box, std::span<const NodeId> places,
                      const PlaceIndex& index, bool reversed, PlaceGraph& graph, std::vector<Transition>* crossing) {
  const std::size_t count = places.size();
  graph.offsets.assign(count + 2, 0);
  graph.targets.clear();
  graph.costs.clear();
  if (!reversed) {
    for (std::size_t i = 0; i < count; ++i) {
      graph.offsets[i] = static_cast<std::uint32_t>(graph.targets.size());
      moves.for_each_successor(places[i], [&](NodeId next, Cost cost) {
        const VoxelCoord at = world.coord_of(next);
        if (box.contains(at)) {
          const std::uint32_t j = index[box.local(at)];
          if (j != PlaceIndex::none) {
            graph.targets.push_back(j);
            graph.costs.push_back(cost);
          }
        } else if (crossing != nullptr) {
          crossing->push_back({places[i], next, cost});
        }
      });
    }
    graph.offsets[count] = graph.offsets[count + 1] = static_cast<std::uint32_t>(graph.targets.size());
    return;
  }
  // Reversed: count the incoming moves of each place, then place them.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (to, from)
  std::vector<Cost> pair_costs;
  for (std::size_t i = 0; i < count; ++i)
    moves.for_each_successor(places[i], [&](NodeId next, Cost cost) {
      const VoxelCoord at = world.coord_of(next);
      if (!box.contains(at)) return;
      const std::uint32_t j = index[box.local(at)];
      if (j == PlaceIndex::none) return;
      pairs.emplace_back(j, static_cast<std::uint32_t>(i));
      pair_costs.push_back(cost);
    });
  for (const auto& [to, from] : pairs) ++graph.offsets[to + 1];
  for (std::size_t i = 1; i < graph.offsets.size(); ++i) graph.offsets[i] += graph.offsets[i - 1];
  graph.targets.resize(pairs.size());
  graph.costs.resize(pairs.size());
  std::vector<std::uint32_t> fill(graph.offsets.begin(), graph.offsets.end() - 1);
  for (std::size_t e = 0; e < pairs.size(); ++e) {
    const std::uint32_t slot = fill[pairs[e].first]++;
    graph.targets[slot] = pairs[e].second;
    graph.costs[slot] = pair_costs[e];
  }
  graph.offsets[count + 1] = graph.offsets[count];
}

}  // namespace wayfinder::voxel_hierarchy_detail
