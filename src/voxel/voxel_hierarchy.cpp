// HPA* over voxel worlds (see voxel_hierarchy.hpp): the build (places, transitions, entrances,
// in-cluster costs) and the query (connect, abstract A*, refine).
#include "wayfinder/voxel/voxel_hierarchy.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>

#include "core/hierarchy_search.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/voxel/voxel_domain.hpp"
#include "wayfinder/voxel/voxel_pathfinder.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {
namespace {

/// The agent's moves over the whole world: the walking or the flying domain.
using WorldMoves = std::variant<VoxelWalkingDomain, VoxelFlyingDomain>;

WorldMoves make_moves(const VoxelWorld& world, const MovementProfile& profile) {
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

/// Calls visit(at) for every block on the surface of a box, once each.
template <class Visit>
void for_each_surface_block(const ClusterBox& box, Visit&& visit) {
  const VoxelCoord low = box.origin;
  const VoxelCoord high{box.origin.x + box.extent.x - 1, box.origin.y + box.extent.y - 1, box.origin.z + box.extent.z - 1};
  for (int y = low.y; y <= high.y; ++y)
    for (int z = low.z; z <= high.z; ++z) {
      const bool face = y == low.y || y == high.y || z == low.z || z == high.z;
      if (face) {
        for (int x = low.x; x <= high.x; ++x) visit(VoxelCoord{x, y, z});
      } else {
        visit(VoxelCoord{low.x, y, z});
        if (high.x != low.x) visit(VoxelCoord{high.x, y, z});
      }
    }
}

/// Union-find over the transitions of one cluster.
class Groups {
 public:
  explicit Groups(std::size_t count) : parent_(count) { std::iota(parent_.begin(), parent_.end(), std::size_t{0}); }
  std::size_t find(std::size_t a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }
  void join(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::size_t> parent_;
};

/// What the second pass makes of one cluster: its moves out, grouped into entrances.
struct ClusterTransitions {
  std::vector<std::vector<Transition>> entrances;
  std::size_t transitions = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Building

VoxelHierarchy::VoxelHierarchy(const VoxelWorld& world, const MovementProfile& profile, VoxelHierarchyOptions options)
    : world_(world), profile_(profile), options_(std::move(options)) {
  if (const std::string problem = profile_problem(profile_); !problem.empty())
    throw std::invalid_argument("voxel hierarchy: " + problem);
  if (options_.cluster_size < 4 || options_.cluster_size > 64)
    throw std::invalid_argument("voxel hierarchy: cluster_size must be 4 to 64, not " +
                                std::to_string(options_.cluster_size));
  if (options_.cluster_height != 0 && (options_.cluster_height < 4 || options_.cluster_height > 256))
    throw std::invalid_argument("voxel hierarchy: cluster_height must be 0 (automatic) or 4 to 256, not " +
                                std::to_string(options_.cluster_height));
  if (options_.long_entrance < 1)
    throw std::invalid_argument("voxel hierarchy: long_entrance must be at least 1, not " +
                                std::to_string(options_.long_entrance));
  if (options_.build_threads < 1 || options_.build_threads > 64)
    throw std::invalid_argument("voxel hierarchy: build_threads must be 1 to 64, not " +
                                std::to_string(options_.build_threads));
  if (world_.block_count() == 0) throw std::invalid_argument("voxel hierarchy: the world is empty");
  size_ = options_.cluster_size;
  height_ = options_.cluster_height != 0 ? options_.cluster_height
            : profile_.fly               ? options_.cluster_size
                                         : std::min(world_.size_y(), 256);
  if (!profile_.fly && options_.cluster_height == 0 && world_.size_y() > 256) height_ = 256;
  build();
}

VoxelHierarchy::~VoxelHierarchy() = default;
VoxelHierarchy::VoxelHierarchy(VoxelHierarchy&&) noexcept = default;

VoxelCoord VoxelHierarchy::cluster_origin(int cluster) const {
  const int x = cluster % across_;
  const int z = (cluster / across_) % down_;
  const int y = cluster / (across_ * down_);
  return {x * size_, y * height_, z * size_};
}

VoxelCoord VoxelHierarchy::cluster_extent(int cluster) const {
  const VoxelCoord origin = cluster_origin(cluster);
  return {std::min(size_, world_.size_x() - origin.x), std::min(height_, world_.size_y() - origin.y),
          std::min(size_, world_.size_z() - origin.z)};
}

void VoxelHierarchy::rebuild() { build(); }

namespace {

/// Runs job(cluster, thread) for every cluster on `threads` threads; reports progress.
template <class Job>
void for_each_cluster(std::size_t clusters, int threads, const std::function<void(std::size_t, std::size_t)>& progress,
                      std::size_t progress_base, std::size_t progress_total, Job&& job) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex report;
  std::exception_ptr failure;
  auto work = [&](int thread) {
    try {
      for (std::size_t c = next++; c < clusters; c = next++) {
        job(static_cast<int>(c), thread);
        const std::size_t finished = ++done;
        if (progress) {
          const std::lock_guard lock(report);
          progress(progress_base + finished, progress_total);
        }
      }
    } catch (...) {
      const std::lock_guard lock(report);
      if (!failure) failure = std::current_exception();
      next = clusters;
    }
  };
  if (threads <= 1) {
    work(0);
  } else {
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
  }
  if (failure) std::rethrow_exception(failure);
}

struct BuildScratch {
  PlaceIndex index;
  PlaceGraph graph;
  SearchContext context;
  std::vector<Transition> crossing;
  std::vector<NodeId> targets;
};

}  // namespace

void VoxelHierarchy::build() {
  const auto began = std::chrono::steady_clock::now();
  revision_ = world_.revision();
  across_ = (world_.size_x() + size_ - 1) / size_;
  down_ = (world_.size_z() + size_ - 1) / size_;
  up_ = (world_.size_y() + height_ - 1) / height_;
  const std::size_t clusters = static_cast<std::size_t>(across_) * static_cast<std::size_t>(down_) * static_cast<std::size_t>(up_);
  stats_ = {};
  stats_.clusters = clusters;
  const WorldMoves moves = make_moves(world_, profile_);
  const int threads = options_.build_threads;
  const std::size_t progress_total = 3 * clusters;

  // 1. The places of every cluster, in id order.
  std::vector<std::vector<NodeId>> places(clusters);
  std::atomic<std::uint64_t> place_count{0};
  std::atomic<std::uint64_t> open_places{0};
  open_.assign(clusters, 0);
  for_each_cluster(clusters, threads, options_.progress, 0, progress_total, [&](int cluster, int) {
    const VoxelCoord origin = cluster_origin(cluster);
    const VoxelCoord extent = cluster_extent(cluster);
    std::vector<NodeId>& list = places[static_cast<std::size_t>(cluster)];
    if (profile_.fly) {
      // A flyer's cluster without a solid block is open: every block is a place, any two are
      // joined by a straight run of moves (costing the octile distance) that stays inside the
      // box, and nothing about it needs storing or searching.
      bool solid = false;
      for (int y = origin.y; y < origin.y + extent.y && !solid; ++y)
        for (int z = origin.z; z < origin.z + extent.z && !solid; ++z)
          for (int x = origin.x; x < origin.x + extent.x && !solid; ++x) solid = world_.solid(x, y, z);
      open_[static_cast<std::size_t>(cluster)] = solid ? 0 : 1;
      if (!solid) {
        open_places += static_cast<std::uint64_t>(extent.x) * static_cast<std::uint64_t>(extent.y) *
                       static_cast<std::uint64_t>(extent.z);
        return;
      }
    }
    for (int y = origin.y; y < origin.y + extent.y; ++y)
      for (int z = origin.z; z < origin.z + extent.z; ++z)
        for (int x = origin.x; x < origin.x + extent.x; ++x)
          if (voxel_place_allowed(world_, profile_, {x, y, z})) list.push_back(world_.node_of(x, y, z));
    std::sort(list.begin(), list.end());
    const std::uint64_t counted = place_count += list.size();
    if (options_.max_places != 0 && counted > options_.max_places)
      throw std::length_error("voxel hierarchy: the agent has more than " + std::to_string(options_.max_places) +
                              " places to store in this world (max_places)" +
                              (profile_.fly ? "; a flyer's places are the blocks that are not solid, stored for the "
                                              "clusters that hold a solid block"
                                            : ""));
  });
  cluster_places_offsets_.assign(clusters + 1, 0);
  for (std::size_t c = 0; c < clusters; ++c) cluster_places_offsets_[c + 1] = cluster_places_offsets_[c] + places[c].size();
  cluster_places_.clear();
  cluster_places_.reserve(cluster_places_offsets_[clusters]);
  for (auto& list : places) {
    cluster_places_.insert(cluster_places_.end(), list.begin(), list.end());
    std::vector<NodeId>().swap(list);
  }
  stats_.places = cluster_places_.size() + open_places;
  stats_.open_clusters = static_cast<std::size_t>(std::count(open_.begin(), open_.end(), 1));

  // 2. Transitions and entrances: per cluster, its moves out, grouped by the cluster they enter.
  // Two are joined when their starts are the same place or places the agent moves between
  // both ways (one move each way, inside the cluster), and so are their ends: any transition of
  // an entrance can then be replaced by another one plus moves on both sides.
  std::vector<ClusterTransitions> outgoing(clusters);
  std::vector<BuildScratch> scratch(static_cast<std::size_t>(threads));
  for_each_cluster(clusters, threads, options_.progress, clusters, progress_total, [&](int cluster, int thread) {
    BuildScratch& s = scratch[static_cast<std::size_t>(thread)];
    const ClusterBox box{cluster_origin(cluster), cluster_extent(cluster)};
    const std::span<const NodeId> own = cluster_places(cluster);
    const bool open = open_[static_cast<std::size_t>(cluster)] != 0;
    s.crossing.clear();
    if (open) {
      // The moves out of an open box start on its surface.
      std::visit(
          [&](const auto& m) {
            for_each_surface_block(box, [&](VoxelCoord at) {
              const NodeId place = world_.node_of(at);
              m.for_each_successor(place, [&](NodeId next, Cost cost) {
                if (!box.contains(world_.coord_of(next))) s.crossing.push_back({place, next, cost});
              });
            });
          },
          moves);
    } else {
      s.index.assign(world_, box, own);
      std::visit([&](const auto& m) { make_place_graph(m, world_, box, own, s.index, false, s.graph, &s.crossing); },
                 moves);
    }
    if (profile_.fly) {
      // A flyer's diagonal move across a border has its whole box free, so the same blocks can
      // be crossed by one-axis moves, each one either inside a cluster or across a border along
      // one axis: the one-axis transitions alone keep every connection (at 1/9 of the nodes).
      std::erase_if(s.crossing, [&](const Transition& t) {
        const VoxelCoord a = world_.coord_of(t.from);
        const VoxelCoord b = world_.coord_of(t.to);
        return std::abs(b.x - a.x) + std::abs(b.y - a.y) + std::abs(b.z - a.z) != 1;
      });
    }
    ClusterTransitions& out = outgoing[static_cast<std::size_t>(cluster)];
    out.transitions = s.crossing.size();
    if (s.crossing.empty()) return;
    // Order: by the cluster entered, then along the border (start y, z, x), then the end.
    struct Keyed {
      int other;
      VoxelCoord from;
      NodeId to;
      std::size_t index;  ///< in s.crossing
    };
    std::vector<Keyed> keyed;
    keyed.reserve(s.crossing.size());
    for (std::size_t i = 0; i < s.crossing.size(); ++i) {
      const Transition& t = s.crossing[i];
      keyed.push_back({cluster_of(world_.coord_of(t.to)), world_.coord_of(t.from), t.to, i});
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& p, const Keyed& q) {
      return std::tie(p.other, p.from.y, p.from.z, p.from.x, p.to) < std::tie(q.other, q.from.y, q.from.z, q.from.x, q.to);
    });
    // The moves from the ends (places of other clusters), generated once each.
    std::unordered_map<NodeId, std::vector<NodeId>> end_moves;
    auto end_successors = [&](NodeId place) -> const std::vector<NodeId>& {
      const auto inserted = end_moves.try_emplace(place);
      std::vector<NodeId>& successors = inserted.first->second;
      if (inserted.second)
        std::visit([&](const auto& m) { m.for_each_successor(place, [&](NodeId next, Cost) { successors.push_back(next); }); },
                   moves);
      return successors;
    };
    auto contains = [](const std::vector<NodeId>& list, NodeId place) {
      return std::find(list.begin(), list.end(), place) != list.end();
    };
    // Inside the cluster, the forward graph has the moves: an edge from index i to j.
    auto inner_move = [&](std::uint32_t i, std::uint32_t j) {
      for (std::uint32_t e = s.graph.offsets[i]; e < s.graph.offsets[i + 1]; ++e)
        if (s.graph.targets[e] == j) return true;
      return false;
    };
    auto index_of = [&](NodeId place) {
      return static_cast<std::uint32_t>(std::lower_bound(own.begin(), own.end(), place) - own.begin());
    };
    Groups groups(keyed.size());
    std::unordered_map<NodeId, std::vector<std::size_t>> by_start;  // start place -> keyed positions
    for (std::size_t first = 0; first < keyed.size();) {
      std::size_t last = first + 1;
      while (last < keyed.size() && keyed[last].other == keyed[first].other) ++last;
      by_start.clear();
      for (std::size_t k = first; k < last; ++k) by_start[s.crossing[keyed[k].index].from].push_back(k);
      for (std::size_t k = first; k < last; ++k) {
        const NodeId a = s.crossing[keyed[k].index].from;
        auto join_at = [&](NodeId b) {
          const auto found = by_start.find(b);
          if (found == by_start.end()) return;
          for (const std::size_t other : found->second) {
            if (other == k) continue;
            const NodeId end_a = keyed[k].to;
            const NodeId end_b = keyed[other].to;
            if (end_a == end_b || (contains(end_successors(end_a), end_b) && contains(end_successors(end_b), end_a)))
              groups.join(k, other);
          }
        };
        join_at(a);
        if (open) {
          // In an open box, neighbours along an axis move to each other.
          const VoxelCoord at = keyed[k].from;
          for (const VoxelCoord step : {VoxelCoord{1, 0, 0}, VoxelCoord{0, 1, 0}, VoxelCoord{0, 0, 1}}) {
            const VoxelCoord next{at.x + step.x, at.y + step.y, at.z + step.z};
            if (box.contains(next)) join_at(world_.node_of(next));
          }
        } else {
          const std::uint32_t from_index = index_of(a);
          for (std::uint32_t e = s.graph.offsets[from_index]; e < s.graph.offsets[from_index + 1]; ++e) {
            const std::uint32_t b = s.graph.targets[e];
            if (inner_move(b, from_index)) join_at(own[b]);
          }
        }
      }
      first = last;
    }
    // Entrances: members in key order (so along the border).
    std::vector<std::vector<std::size_t>> members(keyed.size());
    for (std::size_t k = 0; k < keyed.size(); ++k) members[groups.find(k)].push_back(k);
    for (const auto& group : members) {
      if (group.empty()) continue;
      std::vector<Transition>& entrance = out.entrances.emplace_back();
      for (const std::size_t k : group) entrance.push_back(s.crossing[keyed[k].index]);
    }
  });

  // 3. The chosen transitions, one cluster after another (so the choice does not depend on the
  // threads). Along an entrance, its distinct starts in border order: a short entrance (fewer
  // than long_entrance starts) gets its middle one, a long one both ends and the middle, as the
  // grid's HPA* does. Near each wanted start (a quarter of the way to the next), a start whose
  // place is a node already (chosen for the way back, or for another entrance) is taken
  // instead, and from the start the move to a node, else the cheapest: the graph stays small.
  std::unordered_set<NodeId> chosen_places;
  std::vector<std::vector<Transition>> chosen(clusters);
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // members [first, end) with one start
  for (std::size_t c = 0; c < clusters; ++c) {
    for (const std::vector<Transition>& entrance : outgoing[c].entrances) {
      runs.clear();
      for (std::size_t k = 0; k < entrance.size(); ++k)
        if (k == 0 || entrance[k].from != entrance[k - 1].from) runs.emplace_back(k, k + 1);
        else runs.back().second = k + 1;
      const std::size_t count = runs.size();
      std::vector<std::size_t> wanted;
      if (count < static_cast<std::size_t>(options_.long_entrance) || count < 3) wanted = {count / 2};
      else wanted = {0, count / 2, count - 1};
      const std::size_t window = wanted.size() == 1 ? count / 4 : count / 8;
      auto known = [&](NodeId place) { return chosen_places.contains(place) ? 1 : 0; };
      std::size_t previous = count;  // no start is taken twice
      for (const std::size_t r : wanted) {
        std::size_t best = r;
        int best_known = -1;
        for (std::size_t j = r > window ? r - window : 0; j <= std::min(count - 1, r + window); ++j) {
          const int score = known(entrance[runs[j].first].from);
          const std::size_t distance = j > r ? j - r : r - j;
          const std::size_t best_distance = best > r ? best - r : r - best;
          if (score > best_known || (score == best_known && distance < best_distance)) {
            best = j;
            best_known = score;
          }
        }
        if (best == previous) continue;
        previous = best;
        std::size_t pick = runs[best].first;
        for (std::size_t k = runs[best].first; k < runs[best].second; ++k) {
          const int score = known(entrance[k].to) - known(entrance[pick].to);
          if (score > 0 || (score == 0 && entrance[k].cost < entrance[pick].cost)) pick = k;
        }
        chosen[c].push_back(entrance[pick]);
        chosen_places.insert(entrance[pick].from);
        chosen_places.insert(entrance[pick].to);
      }
    }
  }

  // 4. The nodes: the places of the chosen transitions, cluster by cluster.
  std::vector<std::vector<NodeId>> nodes(clusters);
  for (std::size_t c = 0; c < clusters; ++c)
    for (const Transition& t : chosen[c]) {
      nodes[c].push_back(t.from);
      nodes[static_cast<std::size_t>(cluster_of(world_.coord_of(t.to)))].push_back(t.to);
      ++stats_.inter_edges;
    }
  for (std::size_t c = 0; c < clusters; ++c) {
    stats_.transitions += outgoing[c].transitions;
    stats_.entrances += outgoing[c].entrances.size();
    std::sort(nodes[c].begin(), nodes[c].end());
    nodes[c].erase(std::unique(nodes[c].begin(), nodes[c].end()), nodes[c].end());
  }
  node_offsets_.assign(clusters + 1, 0);
  for (std::size_t c = 0; c < clusters; ++c)
    node_offsets_[c + 1] = node_offsets_[c] + static_cast<std::uint32_t>(nodes[c].size());
  node_places_.clear();
  node_places_.reserve(node_offsets_[clusters]);
  for (const auto& list : nodes) node_places_.insert(node_places_.end(), list.begin(), list.end());
  auto node_id = [&](NodeId place) {
    const int c = cluster_of(world_.coord_of(place));
    const auto first = node_places_.begin() + node_offsets_[static_cast<std::size_t>(c)];
    const auto end = node_places_.begin() + node_offsets_[static_cast<std::size_t>(c) + 1];
    return static_cast<std::uint32_t>(std::lower_bound(first, end, place) - node_places_.begin());
  };

  // 5. Intra-edges: from each node, Dijkstra's search inside its cluster to the others.
  std::vector<std::vector<Cost>> intra(clusters);  // k x k costs per cluster
  std::atomic<std::uint64_t> expansions{0};
  for_each_cluster(clusters, threads, options_.progress, 2 * clusters, progress_total, [&](int cluster, int thread) {
    const std::size_t k = nodes[static_cast<std::size_t>(cluster)].size();
    if (k < 2) return;
    std::vector<Cost>& costs = intra[static_cast<std::size_t>(cluster)];
    const std::vector<NodeId>& ends = nodes[static_cast<std::size_t>(cluster)];
    if (open_[static_cast<std::size_t>(cluster)] != 0) {
      // An open box: the straight run between two blocks costs the octile distance.
      costs.assign(k * k, 0.0);
      std::visit(
          [&](const auto& m) {
            for (std::size_t i = 0; i < k; ++i)
              for (std::size_t j = 0; j < k; ++j) costs[i * k + j] = i == j ? 0.0 : m.heuristic(ends[i], ends[j]);
          },
          moves);
      return;
    }
    BuildScratch& s = scratch[static_cast<std::size_t>(thread)];
    const ClusterBox box{cluster_origin(cluster), cluster_extent(cluster)};
    const std::span<const NodeId> own = cluster_places(cluster);
    s.index.assign(world_, box, own);
    std::visit([&](const auto& m) { make_place_graph(m, world_, box, own, s.index, false, s.graph, nullptr); }, moves);
    s.targets.clear();
    for (const NodeId place : nodes[static_cast<std::size_t>(cluster)])
      s.targets.push_back(static_cast<NodeId>(std::lower_bound(own.begin(), own.end(), place) - own.begin()));
    costs.assign(k * k, infinite_cost);
    std::uint64_t expanded = 0;
    for (std::size_t i = 0; i < k; ++i)
      expanded += hierarchy_search::costs_to_targets(s.graph, s.context, s.targets[i], s.targets, &costs[i * k]).expanded;
    expansions += expanded;
  });
  stats_.build_expansions = expansions;

  // 6. The graph in compressed rows.
  std::vector<std::vector<Edge>> per_node(node_places_.size());
  for (std::size_t c = 0; c < clusters; ++c) {
    const std::size_t k = nodes[c].size();
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (i != j && intra[c][i * k + j] != infinite_cost) {
          per_node[node_offsets_[c] + i].push_back({static_cast<std::uint32_t>(node_offsets_[c] + j), false, intra[c][i * k + j]});
          ++stats_.intra_edges;
        }
    for (const Transition& t : chosen[c]) per_node[node_id(t.from)].push_back({node_id(t.to), true, t.cost});
  }
  edge_offsets_.assign(node_places_.size() + 1, 0);
  edges_.clear();
  for (std::size_t n = 0; n < per_node.size(); ++n) {
    edges_.insert(edges_.end(), per_node[n].begin(), per_node[n].end());
    edge_offsets_[n + 1] = static_cast<std::uint32_t>(edges_.size());
  }
  stats_.nodes = node_places_.size();
  stats_.memory_bytes = cluster_places_.capacity() * sizeof(NodeId) + cluster_places_offsets_.capacity() * sizeof(std::uint64_t) +
                        node_places_.capacity() * sizeof(NodeId) + node_offsets_.capacity() * sizeof(std::uint32_t) +
                        edge_offsets_.capacity() * sizeof(std::uint32_t) + edges_.capacity() * sizeof(Edge);
  stats_.build_milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
}

// ---------------------------------------------------------------------------------------------
// Queries

namespace {

using hierarchy_search::add_stats;
using hierarchy_search::costs_to_targets;

}  // namespace

namespace {

/// The blocks of the 3-D Bresenham line from a to b (Bresenham 1965, extended to three axes:
/// one step per block along the longest axis, the other two following their error terms),
/// appended to `line` without `a`, if every step is a flyer's move (no solid block in the box it
/// spans); false otherwise. `cost` gets the line's length in moves of 1, sqrt 2 and sqrt 3.
bool free_flying_line(const VoxelWorld& world, VoxelCoord a, VoxelCoord b, std::vector<VoxelCoord>& line, Cost& cost) {
  const int d[3] = {std::abs(b.x - a.x), std::abs(b.y - a.y), std::abs(b.z - a.z)};
  const int sign[3] = {b.x > a.x ? 1 : -1, b.y > a.y ? 1 : -1, b.z > a.z ? 1 : -1};
  const int longest = std::max({d[0], d[1], d[2]});
  int error[3] = {longest / 2, longest / 2, longest / 2};
  int at[3] = {a.x, a.y, a.z};
  cost = 0.0;
  for (int step = 0; step < longest; ++step) {
    int next[3] = {at[0], at[1], at[2]};
    int axes = 0;
    for (int axis = 0; axis < 3; ++axis) {
      error[axis] -= d[axis];
      if (error[axis] < 0) {
        error[axis] += longest;
        next[axis] += sign[axis];
        ++axes;
      }
    }
    for (int x = std::min(at[0], next[0]); x <= std::max(at[0], next[0]); ++x)
      for (int y = std::min(at[1], next[1]); y <= std::max(at[1], next[1]); ++y)
        for (int z = std::min(at[2], next[2]); z <= std::max(at[2], next[2]); ++z)
          if (!world.contains(x, y, z) || world.solid(x, y, z)) return false;
    cost += axes == 1 ? 1.0 : axes == 2 ? sqrt2 : 1.7320508075688772;
    line.push_back({next[0], next[1], next[2]});
    at[0] = next[0];
    at[1] = next[1];
    at[2] = next[2];
  }
  return true;
}

/// Shortens a flyer's path: from each block, straight lines to blocks up to `reach` moves
/// further along (the farthest first, then half as far, down to two) replace the stretch they
/// skip when they are free and shorter, as HPA*'s smoothing does on grids (Botea et al. 2004,
/// section 4). The path stays a chain of legal moves from the same start to the same goal.
void smooth_flying_path(const VoxelWorld& world, std::vector<NodeId>& nodes, int reach, std::vector<NodeId>& scratch,
                        std::vector<VoxelCoord>& line) {
  if (nodes.size() < 3) return;
  // Length of the path up to each block, in units of fly_cost.
  std::vector<Cost> length(nodes.size(), 0.0);
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const VoxelCoord a = world.coord_of(nodes[i - 1]);
    const VoxelCoord b = world.coord_of(nodes[i]);
    const int axes = (a.x != b.x ? 1 : 0) + (a.y != b.y ? 1 : 0) + (a.z != b.z ? 1 : 0);
    length[i] = length[i - 1] + (axes == 1 ? 1.0 : axes == 2 ? sqrt2 : 1.7320508075688772);
  }
  scratch.clear();
  std::size_t i = 0;
  while (i + 1 < nodes.size()) {
    scratch.push_back(nodes[i]);
    std::size_t next = i + 1;
    for (std::size_t span = static_cast<std::size_t>(reach); span >= 2; span /= 2) {
      const std::size_t j = std::min(nodes.size() - 1, i + span);
      if (j < i + 2) continue;
      line.clear();
      Cost cost = 0.0;
      if (free_flying_line(world, world.coord_of(nodes[i]), world.coord_of(nodes[j]), line, cost) &&
          cost < length[j] - length[i] - 1e-9) {
        for (std::size_t k = 0; k + 1 < line.size(); ++k) scratch.push_back(world.node_of(line[k]));
        next = j;
        break;
      }
    }
    i = next;
  }
  scratch.push_back(nodes.back());
  nodes.swap(scratch);
}

}  // namespace

struct VoxelHierarchyQueryState {
  explicit VoxelHierarchyQueryState(const VoxelHierarchy& hierarchy)
      : moves(make_moves(hierarchy.world(), hierarchy.profile())) {}
  WorldMoves moves;
  SearchContext start_context;  ///< the start's search over its cluster (tree kept)
  SearchContext goal_context;   ///< the goal's search over its cluster's reversed moves (tree kept)
  SearchContext refine_context;
  SearchContext abstract_context;
  PlaceIndex index;
  PlaceGraph goal_graph;
  std::vector<Cost> start_costs;
  std::vector<Cost> goal_costs;
  std::vector<NodeId> targets;
  std::vector<NodeId> abstract_path;
  std::vector<NodeId> scratch;
  std::vector<VoxelCoord> line;
  std::vector<NodeId> direct;  ///< the direct search's path between neighbouring clusters
};

namespace {

template <class Moves>
SearchStatus run_query(const VoxelHierarchy& hierarchy_, VoxelHierarchyQueryState& state, const Moves& moves,
                       VoxelCoord start, VoxelCoord goal, PathResult& out, std::chrono::steady_clock::time_point began) {
  const VoxelWorld& world = hierarchy_.world();
  const NodeId from = world.node_of(start);
  const NodeId to = world.node_of(goal);
  const int start_cluster = hierarchy_.cluster_of(start);
  const int goal_cluster = hierarchy_.cluster_of(goal);
  auto box_of = [&](int cluster) { return ClusterBox{hierarchy_.cluster_origin(cluster), hierarchy_.cluster_extent(cluster)}; };
  Cost direct_cost = infinite_cost;  // of state.direct, a path found by a direct search
  auto finish = [&](SearchStatus status, StopReason reason) {
    out.status = status;
    out.reason = reason;
    if (status == SearchStatus::found && hierarchy_.profile().fly)
      smooth_flying_path(world, out.nodes, 4 * hierarchy_.cluster_size(), state.scratch, state.line);
    if (status == SearchStatus::found) {
      Cost cost = 0.0;
      for (std::size_t i = 1; i < out.nodes.size(); ++i) {
        Cost best = infinite_cost;
        moves.for_each_successor(out.nodes[i - 1], [&](NodeId next, Cost c) {
          if (next == out.nodes[i]) best = std::min(best, c);
        });
        cost += best;
      }
      out.cost = cost;
      // Start and goal in neighbouring clusters: the direct search over both, when cheaper.
      if (direct_cost < out.cost) {
        out.nodes.assign(state.direct.begin(), state.direct.end());
        out.cost = direct_cost;
      }
    }
    fill_voxel_points(world, out);
    out.stats.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
    return out.status;
  };
  // Appends a cheapest path inside `cluster` from a to b (a already ends `out.nodes`).
  auto refine_in = [&](const ClusterBox& box, NodeId a, NodeId b) {
    const BoxDomain<Moves> domain(moves, world, box);
    BestFirstSearch<BoxDomain<Moves>> search(domain, state.refine_context);
    SearchOptions options;
    options.return_partial = false;
    search.run(domain.local(a), domain.local(b), options);
    add_stats(out.stats, search.stats());
    if (search.status() != SearchStatus::found) return false;
    search.path_to(domain.local(b), state.scratch);
    for (std::size_t i = 1; i < state.scratch.size(); ++i) out.nodes.push_back(domain.global(state.scratch[i]));
    return true;
  };
  auto refine = [&](int cluster, NodeId a, NodeId b) { return refine_in(box_of(cluster), a, b); };

  out.nodes.push_back(from);
  if (from == to) return finish(SearchStatus::found, StopReason::goal_reached);
  // One cluster: a direct search inside it first.
  if (start_cluster == goal_cluster && refine(start_cluster, from, to)) return finish(SearchStatus::found, StopReason::goal_reached);
  // Neighbouring clusters (touching by a face, an edge or a corner): a direct search over the
  // box of both as well, kept when cheaper than the hierarchy's path. Near pairs are where the
  // detour through the transitions costs most, and the box is small.
  {
    const VoxelCoord a = hierarchy_.cluster_origin(start_cluster);
    const VoxelCoord b = hierarchy_.cluster_origin(goal_cluster);
    if (std::abs(a.x - b.x) <= hierarchy_.cluster_size() && std::abs(a.z - b.z) <= hierarchy_.cluster_size() &&
        std::abs(a.y - b.y) <= hierarchy_.cluster_height()) {
      const VoxelCoord ea = hierarchy_.cluster_extent(start_cluster);
      const VoxelCoord eb = hierarchy_.cluster_extent(goal_cluster);
      const VoxelCoord low{std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)};
      const VoxelCoord high{std::max(a.x + ea.x, b.x + eb.x), std::max(a.y + ea.y, b.y + eb.y),
                            std::max(a.z + ea.z, b.z + eb.z)};
      const ClusterBox both{low, {high.x - low.x, high.y - low.y, high.z - low.z}};
      if (refine_in(both, from, to)) {
        state.direct.assign(out.nodes.begin(), out.nodes.end());
        direct_cost = state.refine_context.record(both.local(world.coord_of(to))).g;
      }
      out.nodes.resize(1);
    }
  }

  // The start's costs to the nodes of its cluster (forward, inside the cluster).
  const BoxDomain<Moves> start_domain(moves, world, box_of(start_cluster));
  {
    const std::uint32_t first = hierarchy_.cluster_first_node(start_cluster);
    const std::uint32_t end = hierarchy_.cluster_end_node(start_cluster);
    state.start_costs.assign(end - first, infinite_cost);
    state.targets.clear();
    for (std::uint32_t n = first; n < end; ++n) state.targets.push_back(start_domain.local(hierarchy_.node_place(n)));
    if (end > first)
      add_stats(out.stats, costs_to_targets(start_domain, state.start_context, start_domain.local(from), state.targets,
                                            state.start_costs.data()));
  }
  // The costs from the nodes of the goal's cluster to the goal: one search over its reversed
  // moves (walkers' moves are one-way where they fall); a flyer's moves go both ways, so its
  // search runs forward from the goal, in the box like the start's.
  const bool symmetric = hierarchy_.profile().fly;
  const std::span<const NodeId> goal_places = hierarchy_.cluster_places(goal_cluster);
  const BoxDomain<Moves> goal_domain(moves, world, box_of(goal_cluster));
  {
    const std::uint32_t first = hierarchy_.cluster_first_node(goal_cluster);
    const std::uint32_t end = hierarchy_.cluster_end_node(goal_cluster);
    state.goal_costs.assign(end - first, infinite_cost);
    state.targets.clear();
    if (symmetric) {
      for (std::uint32_t n = first; n < end; ++n) state.targets.push_back(goal_domain.local(hierarchy_.node_place(n)));
      if (end > first)
        add_stats(out.stats, costs_to_targets(goal_domain, state.goal_context, goal_domain.local(to), state.targets,
                                              state.goal_costs.data()));
    } else {
      const ClusterBox box = box_of(goal_cluster);
      state.index.assign(world, box, goal_places);
      make_place_graph(moves, world, box, goal_places, state.index, true, state.goal_graph, nullptr);
      auto index_of = [&](NodeId place) {
        return static_cast<NodeId>(std::lower_bound(goal_places.begin(), goal_places.end(), place) - goal_places.begin());
      };
      for (std::uint32_t n = first; n < end; ++n) state.targets.push_back(index_of(hierarchy_.node_place(n)));
      if (end > first)
        add_stats(out.stats,
                  costs_to_targets(state.goal_graph, state.goal_context, index_of(to), state.targets, state.goal_costs.data()));
    }
  }

  auto locate = [&](NodeId node) { return hierarchy_.node_place(node); };
  auto estimate = [&](NodeId a, NodeId b) { return moves.heuristic(a, b); };
  using Abstract = hierarchy_search::AbstractDomain<VoxelHierarchy, decltype(locate), decltype(estimate)>;
  const Abstract domain(hierarchy_, locate, estimate, from, to, start_cluster, goal_cluster, state.start_costs,
                        state.goal_costs);
  BestFirstSearch<Abstract> search(domain, state.abstract_context);
  SearchOptions engine;
  engine.return_partial = false;
  search.run(domain.start(), domain.goal(), engine);
  add_stats(out.stats, search.stats());
  if (search.status() != SearchStatus::found) {
    out.nodes.clear();
    return finish(SearchStatus::no_path, StopReason::open_list_empty);
  }
  search.path_to(domain.goal(), state.abstract_path);

  // Refine: the start's search holds its path to the first node, the goal's (reversed) search
  // the path from the last node to the goal; an inter-edge is one move; an intra-edge a search
  // inside its cluster.
  const std::vector<NodeId>& abstract = state.abstract_path;
  const std::size_t last = abstract.size() - 1;  // the goal; abstract[0] is the start
  {
    state.scratch.clear();
    for (NodeId at = start_domain.local(domain.place(abstract[1])); at != invalid_node;
         at = state.start_context.record(at).parent)
      state.scratch.push_back(start_domain.global(at));
    for (std::size_t i = state.scratch.size() - 1; i-- > 0;) out.nodes.push_back(state.scratch[i]);
  }
  for (std::size_t i = 2; i < last; ++i) {
    const NodeId a = hierarchy_.node_place(abstract[i - 1]);
    const NodeId b = hierarchy_.node_place(abstract[i]);
    const int cluster_a = hierarchy_.cluster_of(world.coord_of(a));
    if (cluster_a != hierarchy_.cluster_of(world.coord_of(b)))
      out.nodes.push_back(b);
    else if (!refine(cluster_a, a, b)) {
      out.nodes.clear();
      out.message = "an intra-edge of the hierarchy has no path inside its cluster: the world changed under it";
      return finish(SearchStatus::no_path, StopReason::invalid_input);
    }
  }
  {
    // Parents of the goal's search lead towards the goal.
    const NodeId node_place = domain.place(abstract[last - 1]);
    if (symmetric) {
      for (NodeId at = state.goal_context.record(goal_domain.local(node_place)).parent; at != invalid_node;
           at = state.goal_context.record(at).parent)
        out.nodes.push_back(goal_domain.global(at));
    } else {
      auto at = static_cast<NodeId>(std::lower_bound(goal_places.begin(), goal_places.end(), node_place) - goal_places.begin());
      for (at = state.goal_context.record(at).parent; at != invalid_node; at = state.goal_context.record(at).parent)
        out.nodes.push_back(goal_places[at]);
    }
  }
  return finish(SearchStatus::found, StopReason::goal_reached);
}

}  // namespace

VoxelHierarchicalPathfinder::VoxelHierarchicalPathfinder(const VoxelHierarchy& hierarchy)
    : hierarchy_(hierarchy), state_(std::make_unique<VoxelHierarchyQueryState>(hierarchy)) {}
VoxelHierarchicalPathfinder::~VoxelHierarchicalPathfinder() = default;
VoxelHierarchicalPathfinder::VoxelHierarchicalPathfinder(VoxelHierarchicalPathfinder&&) noexcept = default;

std::size_t VoxelHierarchicalPathfinder::search_memory_bytes() const {
  const VoxelHierarchyQueryState& s = *state_;
  return s.start_context.reserved_bytes() + s.goal_context.reserved_bytes() + s.refine_context.reserved_bytes() +
         s.abstract_context.reserved_bytes() + s.goal_graph.offsets.capacity() * sizeof(std::uint32_t) +
         s.goal_graph.targets.capacity() * sizeof(std::uint32_t) + s.goal_graph.costs.capacity() * sizeof(Cost);
}

PathResult VoxelHierarchicalPathfinder::find_path(VoxelCoord start, VoxelCoord goal) {
  PathResult out;
  find_path(start, goal, out);
  return out;
}

SearchStatus VoxelHierarchicalPathfinder::find_path(VoxelCoord start, VoxelCoord goal, PathResult& out) {
  const auto began = std::chrono::steady_clock::now();
  out.reset();
  const VoxelWorld& world = hierarchy_.world();
  const MovementProfile& profile = hierarchy_.profile();
  auto reject = [&](std::string why) {
    out.status = SearchStatus::invalid_input;
    out.reason = StopReason::invalid_input;
    out.message = std::move(why);
    return out.status;
  };
  if (const std::string problem = voxel_place_problem(world, profile, start); !problem.empty())
    return reject("start " + problem);
  if (const std::string problem = voxel_place_problem(world, profile, goal); !problem.empty())
    return reject("goal " + problem);
  if (!hierarchy_.current())
    return reject("the world was edited since its hierarchy was built (hierarchy at revision " +
                  std::to_string(hierarchy_.revision()) + ", world at " + std::to_string(world.revision()) +
                  "): call VoxelHierarchy::rebuild() first");
  VoxelHierarchyQueryState& state = *state_;
  return std::visit([&](const auto& moves) { return run_query(hierarchy_, state, moves, start, goal, out, began); },
                    state.moves);
}

}  // namespace wayfinder
