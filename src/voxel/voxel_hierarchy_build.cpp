// HPA* over voxel worlds (see voxel_hierarchy.hpp), the build: the places of every cluster, the
// transitions across its borders grouped into entrances, the transitions chosen to stand for
// them, the nodes, the in-cluster costs between them and the graph in compressed rows. Every
// step that runs on several threads writes only its own cluster's slot, and every step that
// decides between clusters runs on one thread, so the result does not depend on the threads.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "core/hierarchy_search.hpp"
#include "voxel_hierarchy_parts.hpp"
#include "wayfinder/core/joining_thread.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/voxel/voxel_hierarchy.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {

using namespace voxel_hierarchy_detail;

namespace {

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
    std::vector<JoiningThread> pool;
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

/// Whether a flyer's box holds no solid block. Such a box is open: every block is a place, any
/// two are joined by a straight run of moves (costing the octile distance) that stays inside
/// the box, and nothing about it needs storing or searching.
bool box_without_solid_block(const VoxelWorld& world, const ClusterBox& box) {
  const VoxelCoord origin = box.origin;
  const VoxelCoord extent = box.extent;
  bool solid = false;
  for (int y = origin.y; y < origin.y + extent.y && !solid; ++y)
    for (int z = origin.z; z < origin.z + extent.z && !solid; ++z)
      for (int x = origin.x; x < origin.x + extent.x && !solid; ++x) solid = world.solid(x, y, z);
  return !solid;
}

/// The places of the agent in a box of the searched world, in id order. A wide agent's searched
/// world is its footprint world, where it is a one-column agent.
void collect_places(const VoxelWorld& world, const MovementProfile& agent, const ClusterBox& box,
                    std::vector<NodeId>& places) {
  MovementProfile profile = agent;
  profile.agent_width = 1;
  const VoxelCoord origin = box.origin;
  const VoxelCoord extent = box.extent;
  for (int y = origin.y; y < origin.y + extent.y; ++y)
    for (int z = origin.z; z < origin.z + extent.z; ++z)
      for (int x = origin.x; x < origin.x + extent.x; ++x)
        if (voxel_place_allowed(world, profile, {x, y, z})) places.push_back(world.node_of(x, y, z));
  std::sort(places.begin(), places.end());
}

/// Fills s.crossing with the moves that leave a cluster (and, for a cluster that is not open,
/// s.index and s.graph with its places and the moves between them).
void collect_transitions_out(const WorldMoves& moves, const VoxelWorld& world, const ClusterBox& box,
                             std::span<const NodeId> own, bool open, BuildScratch& s) {
  s.crossing.clear();
  if (open) {
    // The moves out of an open box start on its surface.
    std::visit(
        [&](const auto& m) {
          for_each_surface_block(box, [&](VoxelCoord at) {
            const NodeId place = world.node_of(at);
            m.for_each_successor(place, [&](NodeId next, Cost cost) {
              if (!box.contains(world.coord_of(next))) s.crossing.push_back({place, next, cost});
            });
          });
        },
        moves);
  } else {
    s.index.assign(world, box, own);
    std::visit([&](const auto& m) { make_place_graph(m, world, box, own, s.index, false, s.graph, &s.crossing); }, moves);
  }
}

/// Keeps a flyer's one-axis transitions. A diagonal move across a border has its whole box
/// free, so the same blocks can be crossed by one-axis moves, each one either inside a cluster
/// or across a border along one axis: the one-axis transitions alone keep every connection (at
/// 1/9 of the nodes).
void keep_one_axis_transitions(const VoxelWorld& world, std::vector<Transition>& crossing) {
  std::erase_if(crossing, [&](const Transition& t) {
    const VoxelCoord a = world.coord_of(t.from);
    const VoxelCoord b = world.coord_of(t.to);
    return std::abs(b.x - a.x) + std::abs(b.y - a.y) + std::abs(b.z - a.z) != 1;
  });
}

/// A transition with the keys it is ordered by along the borders.
struct KeyedTransition {
  int other;           ///< the cluster entered
  VoxelCoord from;
  NodeId to;
  std::size_t index;   ///< in the cluster's crossing list
};

/// The transitions ordered by the cluster entered, then along the border (start y, z, x), then
/// the end.
std::vector<KeyedTransition> order_along_borders(const VoxelHierarchy& hierarchy,
                                                 const std::vector<Transition>& crossing) {
  const VoxelWorld& world = hierarchy.world();
  std::vector<KeyedTransition> keyed;
  keyed.reserve(crossing.size());
  for (std::size_t i = 0; i < crossing.size(); ++i) {
    const Transition& t = crossing[i];
    keyed.push_back({hierarchy.cluster_of(world.coord_of(t.to)), world.coord_of(t.from), t.to, i});
  }
  std::sort(keyed.begin(), keyed.end(), [](const KeyedTransition& p, const KeyedTransition& q) {
    return std::tie(p.other, p.from.y, p.from.z, p.from.x, p.to) < std::tie(q.other, q.from.y, q.from.z, q.from.x, q.to);
  });
  return keyed;
}

/// Joins the transitions of one cluster into one neighbour that can stand for each other: two
/// are joined when their starts are the same place or places the agent moves between both ways
/// (one move each way, inside the cluster), and so are their ends. Any transition of a group
/// can then be replaced by another one plus moves on both sides.
Groups join_interchangeable_transitions(const WorldMoves& moves, const VoxelWorld& world, const ClusterBox& box,
                                        std::span<const NodeId> own, bool open, const BuildScratch& s,
                                        const std::vector<KeyedTransition>& keyed) {
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
          if (box.contains(next)) join_at(world.node_of(next));
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
  return groups;
}

/// The entrances of a cluster: its groups of transitions, members in key order (so along the
/// border), groups in the order of their first member.
void collect_entrances(Groups& groups, const std::vector<KeyedTransition>& keyed,
                       const std::vector<Transition>& crossing, ClusterTransitions& out) {
  std::vector<std::vector<std::size_t>> members(keyed.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) members[groups.find(k)].push_back(k);
  for (const auto& group : members) {
    if (group.empty()) continue;
    std::vector<Transition>& entrance = out.entrances.emplace_back();
    for (const std::size_t k : group) entrance.push_back(crossing[keyed[k].index]);
  }
}

/// The transitions chosen to stand for one entrance, appended to `chosen`. Along the entrance,
/// its distinct starts in border order: a short entrance (fewer than long_entrance starts) gets
/// its middle one, a long one both ends and the middle, as the grid's HPA* does. Near each
/// wanted start (a quarter of the way to the next), a start whose place is a node already
/// (chosen for the way back, or for another entrance) is taken instead, and from the start the
/// move to a node, else the cheapest: the graph stays small.
void choose_entrance_transitions(const std::vector<Transition>& entrance, int long_entrance,
                                 std::unordered_set<NodeId>& chosen_places,
                                 std::vector<std::pair<std::size_t, std::size_t>>& runs, std::vector<Transition>& chosen) {
  runs.clear();  // members [first, end) with one start
  for (std::size_t k = 0; k < entrance.size(); ++k)
    if (k == 0 || entrance[k].from != entrance[k - 1].from) runs.emplace_back(k, k + 1);
    else runs.back().second = k + 1;
  const std::size_t count = runs.size();
  std::vector<std::size_t> wanted;
  if (count < static_cast<std::size_t>(long_entrance) || count < 3) wanted = {count / 2};
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
    chosen.push_back(entrance[pick]);
    chosen_places.insert(entrance[pick].from);
    chosen_places.insert(entrance[pick].to);
  }
}

/// The costs between the nodes of an open box: the straight run between two blocks costs the
/// octile distance. `costs` gets k x k entries, row i from node i.
void open_box_costs(const WorldMoves& moves, const std::vector<NodeId>& ends, std::vector<Cost>& costs) {
  const std::size_t k = ends.size();
  costs.assign(k * k, 0.0);
  std::visit(
      [&](const auto& m) {
        for (std::size_t i = 0; i < k; ++i)
          for (std::size_t j = 0; j < k; ++j) costs[i * k + j] = i == j ? 0.0 : m.heuristic(ends[i], ends[j]);
      },
      moves);
}

/// The costs between the nodes of a cluster that is not open: from each node, Dijkstra's
/// search inside the cluster to the others (infinite_cost where none leads). Returns the
/// searches' expansions.
std::uint64_t searched_cluster_costs(const WorldMoves& moves, const VoxelWorld& world, const ClusterBox& box,
                                     std::span<const NodeId> own, const std::vector<NodeId>& ends, BuildScratch& s,
                                     std::vector<Cost>& costs) {
  const std::size_t k = ends.size();
  s.index.assign(world, box, own);
  std::visit([&](const auto& m) { make_place_graph(m, world, box, own, s.index, false, s.graph, nullptr); }, moves);
  s.targets.clear();
  for (const NodeId place : ends)
    s.targets.push_back(static_cast<NodeId>(std::lower_bound(own.begin(), own.end(), place) - own.begin()));
  costs.assign(k * k, infinite_cost);
  std::uint64_t expanded = 0;
  for (std::size_t i = 0; i < k; ++i)
    expanded += hierarchy_search::costs_to_targets(s.graph, s.context, s.targets[i], s.targets, &costs[i * k]).expanded;
  return expanded;
}

/// Lists of ids, one per cluster, laid end to end: `offsets` gets clusters + 1 entries.
template <class Offset>
void lay_end_to_end(const std::vector<std::vector<NodeId>>& lists, std::vector<NodeId>& packed,
                    std::vector<Offset>& offsets) {
  offsets.assign(lists.size() + 1, 0);
  for (std::size_t c = 0; c < lists.size(); ++c) offsets[c + 1] = offsets[c] + static_cast<Offset>(lists[c].size());
  packed.clear();
  packed.reserve(static_cast<std::size_t>(offsets[lists.size()]));
  for (const auto& list : lists) packed.insert(packed.end(), list.begin(), list.end());
}

/// Fills `out` with a cluster's moves out, grouped into entrances (the build's second step).
void find_entrances(const VoxelHierarchy& hierarchy, const WorldMoves& moves, int cluster, BuildScratch& s,
                    ClusterTransitions& out) {
  const VoxelWorld& world = hierarchy.world();
  const ClusterBox box{hierarchy.cluster_origin(cluster), hierarchy.cluster_extent(cluster)};
  const std::span<const NodeId> own = hierarchy.cluster_places(cluster);
  const bool open = hierarchy.cluster_open(cluster);
  collect_transitions_out(moves, world, box, own, open, s);
  if (hierarchy.profile().fly) keep_one_axis_transitions(world, s.crossing);
  out.transitions = s.crossing.size();
  if (s.crossing.empty()) return;
  const std::vector<KeyedTransition> keyed = order_along_borders(hierarchy, s.crossing);
  Groups groups = join_interchangeable_transitions(moves, world, box, own, open, s, keyed);
  collect_entrances(groups, keyed, s.crossing, out);
}

std::string too_many_places(const MovementProfile& profile, std::uint64_t max_places) {
  return "voxel hierarchy: the agent has more than " + std::to_string(max_places) +
         " places to store in this world (max_places)" +
         (profile.fly ? "; a flyer's places are the blocks that are not solid, stored for the clusters that hold a "
                        "solid block"
                      : "");
}

/// How far one move of the agent reads blocks from its start, in blocks: across (x and z),
/// down and up (movement_profile.hpp: a jump crosses jump_distance + 1 columns and checks the
/// agent's clearance at its apex; a fall reads the block that holds the agent, max_fall down).
struct MoveReach {
  int across = 1;
  int down = 1;
  int up = 1;
};

MoveReach move_reach(const MovementProfile& profile) {
  if (profile.fly) return {1, 1, 1};  // the 2 x 2 x 2 boxes around a move
  return {profile.jump_distance + 1, std::max(profile.max_fall, 1) + 1,
          profile.agent_height + std::max({profile.jump_height, profile.step_height, 1})};
}

}  // namespace

VoxelHierarchy::VoxelHierarchy(const VoxelWorld& world, const MovementProfile& profile, VoxelHierarchyOptions options)
    : source_world_(world),
      footprint_(wide_agent(profile) && !profile_problem(profile) && !footprint_world_problem(world, profile)
                     ? std::make_unique<VoxelFootprint>(world, profile)
                     : nullptr),
      world_(footprint_ ? footprint_->world() : world),
      profile_(profile),
      options_(std::move(options)) {
  if (const std::optional<std::string> problem = profile_problem(profile_))
    throw std::invalid_argument("voxel hierarchy: " + *problem);
  if (wide_agent(profile_))
    if (const std::optional<std::string> problem = footprint_world_problem(world, profile_))
      throw std::invalid_argument("voxel hierarchy: " + *problem);
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

void VoxelHierarchy::rebuild() {
  if (footprint_) footprint_->update();
  build();
}

void VoxelHierarchy::for_each_cluster_near(int cluster, int reach_x, int reach_y, int reach_z,
                                           const std::function<void(int)>& visit) const {
  const int x = cluster % across_;
  const int z = (cluster / across_) % down_;
  const int y = cluster / (across_ * down_);
  for (int cy = std::max(0, y - reach_y); cy <= std::min(up_ - 1, y + reach_y); ++cy)
    for (int cz = std::max(0, z - reach_z); cz <= std::min(down_ - 1, z + reach_z); ++cz)
      for (int cx = std::max(0, x - reach_x); cx <= std::min(across_ - 1, x + reach_x); ++cx)
        visit((cy * down_ + cz) * across_ + cx);
}

void VoxelHierarchy::build() {
  const auto began = std::chrono::steady_clock::now();
  revision_ = source_world_.revision();
  searched_revision_ = world_.revision();
  world_size_ = {world_.size_x(), world_.size_y(), world_.size_z()};
  across_ = (world_.size_x() + size_ - 1) / size_;
  down_ = (world_.size_z() + size_ - 1) / size_;
  up_ = (world_.size_y() + height_ - 1) / height_;
  const std::size_t clusters = static_cast<std::size_t>(across_) * static_cast<std::size_t>(down_) * static_cast<std::size_t>(up_);
  const WorldMoves moves = make_moves(world_, profile_);
  const int threads = options_.build_threads;
  const std::size_t progress_total = 3 * clusters;
  auto box_of = [&](int cluster) { return ClusterBox{cluster_origin(cluster), cluster_extent(cluster)}; };

  // 1. The places of every cluster, in id order (none stored for a flyer's open clusters).
  std::vector<std::vector<NodeId>> places(clusters);
  std::atomic<std::uint64_t> place_count{0};
  open_.assign(clusters, 0);
  for_each_cluster(clusters, threads, options_.progress, 0, progress_total, [&](int cluster, int) {
    const ClusterBox box = box_of(cluster);
    if (profile_.fly && box_without_solid_block(world_, box)) {
      open_[static_cast<std::size_t>(cluster)] = 1;
      return;
    }
    std::vector<NodeId>& list = places[static_cast<std::size_t>(cluster)];
    collect_places(world_, profile_, box, list);
    const std::uint64_t counted = place_count += list.size();
    if (options_.max_places != 0 && counted > options_.max_places)
      throw std::length_error(too_many_places(profile_, options_.max_places));
  });
  lay_end_to_end(places, cluster_places_, cluster_places_offsets_);
  std::vector<std::vector<NodeId>>().swap(places);

  // 2. Transitions and entrances: per cluster, its moves out, grouped by the cluster they enter
  // into interchangeable sets.
  std::vector<ClusterTransitions> outgoing(clusters);
  std::vector<BuildScratch> scratch(static_cast<std::size_t>(threads));
  for_each_cluster(clusters, threads, options_.progress, clusters, progress_total, [&](int cluster, int thread) {
    find_entrances(*this, moves, cluster, scratch[static_cast<std::size_t>(thread)], outgoing[static_cast<std::size_t>(cluster)]);
  });
  std::vector<BuildScratch>().swap(scratch);

  // 3. The chosen transitions, one cluster after another (so the choice does not depend on the
  // threads).
  std::unordered_set<NodeId> chosen_places;
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::vector<Transition> picked;
  chosen_.assign(clusters, {});
  cluster_transitions_.assign(clusters, 0);
  cluster_entrances_.assign(clusters, 0);
  cluster_expansions_.assign(clusters, 0);
  for (std::size_t c = 0; c < clusters; ++c) {
    picked.clear();
    for (const std::vector<Transition>& entrance : outgoing[c].entrances)
      choose_entrance_transitions(entrance, options_.long_entrance, chosen_places, runs, picked);
    for (const Transition& t : picked) chosen_[c].push_back({t.from, t.to, t.cost});
    cluster_transitions_[c] = static_cast<std::uint32_t>(outgoing[c].transitions);
    cluster_entrances_[c] = static_cast<std::uint32_t>(outgoing[c].entrances.size());
  }
  std::vector<ClusterTransitions>().swap(outgoing);

  connect(std::vector<char>(clusters, 1), 2 * clusters, progress_total);
  stats_.build_milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
}

std::size_t VoxelHierarchy::update() {
  if (current()) return 0;
  const auto began = std::chrono::steady_clock::now();
  if (footprint_) {
    // A wide agent's edits are those of its footprint world, which logs the footprint blocks
    // the world's edits changed; then the update is the one-column update on that world.
    footprint_->update();
    if (world_.revision() == searched_revision_) {  // no footprint block changed: nothing to redo
      revision_ = source_world_.revision();
      stats_.clusters_rebuilt = 0;
      stats_.build_milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
      return 0;
    }
  }
  const auto changes = world_.revision() > searched_revision_ ? world_.changes_since(searched_revision_) : std::nullopt;
  if (!changes || world_size_ != VoxelCoord{world_.size_x(), world_.size_y(), world_.size_z()}) {
    rebuild();
    return stats_.clusters_rebuilt;
  }
  const std::size_t clusters = cluster_count();
  const WorldMoves moves = make_moves(world_, profile_);
  auto box_of = [&](int cluster) { return ClusterBox{cluster_origin(cluster), cluster_extent(cluster)}; };

  // The clusters whose places, entrances or in-cluster costs an edit can change: a cluster's
  // data reads the moves of its places and those of the places they reach, so the blocks
  // within twice a move's reach of its box (and one more, for the block that holds an agent).
  const MoveReach reach = move_reach(profile_);
  const int margin_across = 2 * reach.across + 1;
  const int margin_vertical = 2 * std::max(reach.down, reach.up) + 1;
  std::vector<char> dirty(clusters, 0);
  for (const VoxelBlockChange& change : *changes) {
    const VoxelCoord at = change.at;
    const int x_first = std::max(0, at.x - margin_across) / size_;
    const int x_last = std::min(world_.size_x() - 1, at.x + margin_across) / size_;
    const int z_first = std::max(0, at.z - margin_across) / size_;
    const int z_last = std::min(world_.size_z() - 1, at.z + margin_across) / size_;
    const int y_first = std::max(0, at.y - margin_vertical) / height_;
    const int y_last = std::min(world_.size_y() - 1, at.y + margin_vertical) / height_;
    for (int y = y_first; y <= y_last; ++y)
      for (int z = z_first; z <= z_last; ++z)
        for (int x = x_first; x <= x_last; ++x) dirty[static_cast<std::size_t>((y * down_ + z) * across_ + x)] = 1;
  }
  std::vector<int> redone;
  for (std::size_t c = 0; c < clusters; ++c)
    if (dirty[c] != 0) redone.push_back(static_cast<int>(c));

  // 1. The places of those clusters, checked against max_places before anything changes.
  std::vector<std::vector<NodeId>> places(redone.size());
  std::vector<std::uint8_t> open = open_;
  for_each_cluster(redone.size(), options_.build_threads, {}, 0, 0, [&](int i, int) {
    const int cluster = redone[static_cast<std::size_t>(i)];
    const ClusterBox box = box_of(cluster);
    open[static_cast<std::size_t>(cluster)] = profile_.fly && box_without_solid_block(world_, box) ? 1 : 0;
    if (open[static_cast<std::size_t>(cluster)] == 0) collect_places(world_, profile_, box, places[static_cast<std::size_t>(i)]);
  });
  std::uint64_t stored = cluster_places_.size();
  for (std::size_t i = 0; i < redone.size(); ++i)
    stored = stored - cluster_places(redone[i]).size() + places[i].size();
  if (options_.max_places != 0 && stored > options_.max_places)
    throw std::length_error(too_many_places(profile_, options_.max_places));
  std::vector<NodeId> spliced;
  spliced.reserve(static_cast<std::size_t>(stored));
  std::vector<std::uint64_t> offsets(clusters + 1, 0);
  for (std::size_t c = 0, i = 0; c < clusters; ++c) {
    const std::span<const NodeId> kept = cluster_places(static_cast<int>(c));
    if (dirty[c] != 0) {
      spliced.insert(spliced.end(), places[i].begin(), places[i].end());
      ++i;
    } else {
      spliced.insert(spliced.end(), kept.begin(), kept.end());
    }
    offsets[c + 1] = spliced.size();
  }
  cluster_places_.swap(spliced);
  cluster_places_offsets_.swap(offsets);
  open_ = std::move(open);

  // 2 and 3. The chosen transitions, again cluster by cluster in index order, as the build
  // chooses them: a cluster's choice reads its own entrances and the places chosen before it
  // (by clusters up to two moves' reach away), so it is redone for the clusters marked and, when
  // a choice changes, for the clusters after it within that window.
  const int near_across = 2 * ((reach.across + size_ - 1) / size_);
  const int near_vertical = 2 * ((std::max(reach.down, reach.up) + height_ - 1) / height_);
  std::set<int> to_choose(redone.begin(), redone.end());
  BuildScratch scratch;
  std::unordered_set<NodeId> chosen_places;
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::vector<Transition> picked;
  std::vector<ChosenTransition> choice;
  while (!to_choose.empty()) {
    const int cluster = *to_choose.begin();
    to_choose.erase(to_choose.begin());
    ClusterTransitions outgoing;
    find_entrances(*this, moves, cluster, scratch, outgoing);
    const auto c = static_cast<std::size_t>(cluster);
    cluster_transitions_[c] = static_cast<std::uint32_t>(outgoing.transitions);
    cluster_entrances_[c] = static_cast<std::uint32_t>(outgoing.entrances.size());
    chosen_places.clear();
    for_each_cluster_near(cluster, near_across, near_vertical, near_across, [&](int earlier) {
      if (earlier >= cluster) return;
      for (const ChosenTransition& t : chosen_[static_cast<std::size_t>(earlier)]) {
        chosen_places.insert(t.from);
        chosen_places.insert(t.to);
      }
    });
    picked.clear();
    for (const std::vector<Transition>& entrance : outgoing.entrances)
      choose_entrance_transitions(entrance, options_.long_entrance, chosen_places, runs, picked);
    choice.clear();
    for (const Transition& t : picked) choice.push_back({t.from, t.to, t.cost});
    if (choice == chosen_[c]) continue;
    chosen_[c] = choice;
    for_each_cluster_near(cluster, near_across, near_vertical, near_across, [&](int later) {
      if (later > cluster) to_choose.insert(later);
    });
  }

  connect(std::move(dirty), 0, 0);
  revision_ = source_world_.revision();
  searched_revision_ = world_.revision();
  stats_.build_milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  return stats_.clusters_rebuilt;
}

void VoxelHierarchy::connect(std::vector<char> redo, std::size_t progress_base, std::size_t progress_total) {
  const std::size_t clusters = cluster_count();
  const WorldMoves moves = make_moves(world_, profile_);
  auto box_of = [&](int cluster) { return ClusterBox{cluster_origin(cluster), cluster_extent(cluster)}; };

  // 4. The nodes: the places of the chosen transitions, cluster by cluster.
  std::vector<std::vector<NodeId>> nodes(clusters);
  for (std::size_t c = 0; c < clusters; ++c)
    for (const ChosenTransition& t : chosen_[c]) {
      nodes[c].push_back(t.from);
      nodes[static_cast<std::size_t>(cluster_of(world_.coord_of(t.to)))].push_back(t.to);
    }
  for (std::vector<NodeId>& list : nodes) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }

  // 5. Intra-edges: the costs between the nodes of each cluster, k x k per cluster; a cluster
  // not marked whose nodes did not change keeps the intra-edges of the graph as it is.
  std::vector<int> redone;
  for (std::size_t c = 0; c < clusters; ++c) {
    const std::vector<NodeId>& ends = nodes[c];
    if (redo[c] == 0 && !std::equal(ends.begin(), ends.end(), node_places_.begin() + node_offsets_[c],
                                    node_places_.begin() + node_offsets_[c + 1]))
      redo[c] = 1;
    if (redo[c] != 0) redone.push_back(static_cast<int>(c));
  }
  std::vector<std::vector<Cost>> intra(clusters);
  std::vector<BuildScratch> scratch(static_cast<std::size_t>(options_.build_threads));
  for_each_cluster(redone.size(), options_.build_threads, options_.progress, progress_base,
                   progress_total != 0 ? progress_total : redone.size(), [&](int i, int thread) {
                     const int cluster = redone[static_cast<std::size_t>(i)];
                     const auto c = static_cast<std::size_t>(cluster);
                     const std::vector<NodeId>& ends = nodes[c];
                     cluster_expansions_[c] = 0;
                     if (ends.size() < 2) return;
                     if (cluster_open(cluster))
                       open_box_costs(moves, ends, intra[c]);
                     else
                       cluster_expansions_[c] = searched_cluster_costs(moves, world_, box_of(cluster), cluster_places(cluster),
                                                                       ends, scratch[static_cast<std::size_t>(thread)], intra[c]);
                   });

  // 6. The graph in compressed rows: each node's intra-edges (to the cluster's nodes in order),
  // then its inter-edges (in the order chosen).
  std::vector<NodeId> places;
  std::vector<std::uint32_t> first_nodes;
  lay_end_to_end(nodes, places, first_nodes);
  auto node_id = [&](NodeId place) {
    const int c = cluster_of(world_.coord_of(place));
    const auto first = places.begin() + first_nodes[static_cast<std::size_t>(c)];
    const auto end = places.begin() + first_nodes[static_cast<std::size_t>(c) + 1];
    return static_cast<std::uint32_t>(std::lower_bound(first, end, place) - places.begin());
  };
  stats_ = {};
  std::vector<std::uint32_t> row_offsets(places.size() + 1, 0);
  std::size_t row_count = 0;  // the edges to come, counted first so that the rows take no spare room
  for (std::size_t c = 0; c < clusters; ++c) {
    row_count += chosen_[c].size();
    if (redo[c] != 0) {
      row_count += static_cast<std::size_t>(std::count_if(intra[c].begin(), intra[c].end(),
                                                          [](Cost cost) { return cost != 0.0 && cost != infinite_cost; }));
    } else {
      for (std::uint32_t e = edge_offsets_[node_offsets_[c]]; e < edge_offsets_[node_offsets_[c + 1]]; ++e)
        if (!edges_[e].inter) ++row_count;
    }
  }
  std::vector<Edge> rows;
  rows.reserve(row_count);
  for (std::size_t c = 0; c < clusters; ++c) {
    const std::size_t k = nodes[c].size();
    const std::uint32_t base = first_nodes[c];
    for (std::size_t i = 0; i < k; ++i) {
      if (redo[c] != 0) {
        for (std::size_t j = 0; j < k; ++j)
          if (i != j && intra[c][i * k + j] != infinite_cost)
            rows.push_back({static_cast<std::uint32_t>(base + j), false, intra[c][i * k + j]});
      } else {
        const std::uint32_t old_base = node_offsets_[c];
        for (const Edge& edge : edges(static_cast<std::uint32_t>(old_base + i)))
          if (!edge.inter) rows.push_back({base + (edge.to - old_base), false, edge.cost});
      }
      stats_.intra_edges += rows.size() - row_offsets[base + i];
      for (const ChosenTransition& t : chosen_[c])
        if (t.from == nodes[c][i]) rows.push_back({node_id(t.to), true, t.cost});
      row_offsets[base + i + 1] = static_cast<std::uint32_t>(rows.size());
    }
  }
  node_places_.swap(places);
  node_offsets_.swap(first_nodes);
  edge_offsets_.swap(row_offsets);
  edges_.swap(rows);

  stats_.clusters = clusters;
  stats_.clusters_rebuilt = redone.size();
  std::size_t chosen_bytes = chosen_.capacity() * sizeof(std::vector<ChosenTransition>);
  for (std::size_t c = 0; c < clusters; ++c) {
    if (open_[c] != 0) {
      ++stats_.open_clusters;
      stats_.places += box_of(static_cast<int>(c)).volume();
    }
    stats_.transitions += cluster_transitions_[c];
    stats_.entrances += cluster_entrances_[c];
    stats_.inter_edges += chosen_[c].size();
    stats_.build_expansions += cluster_expansions_[c];
    chosen_bytes += chosen_[c].capacity() * sizeof(ChosenTransition);
  }
  stats_.places += cluster_places_.size();
  stats_.nodes = node_places_.size();
  stats_.memory_bytes = cluster_places_.capacity() * sizeof(NodeId) + cluster_places_offsets_.capacity() * sizeof(std::uint64_t) +
                        node_places_.capacity() * sizeof(NodeId) + node_offsets_.capacity() * sizeof(std::uint32_t) +
                        edge_offsets_.capacity() * sizeof(std::uint32_t) + edges_.capacity() * sizeof(Edge) + chosen_bytes +
                        open_.capacity() + (cluster_transitions_.capacity() + cluster_entrances_.capacity()) * sizeof(std::uint32_t) +
                        cluster_expansions_.capacity() * sizeof(std::uint64_t);
}

}  // namespace wayfinder
