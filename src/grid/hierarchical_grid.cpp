#include "wayfinder/grid/hierarchical_grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/hierarchy_search.hpp"
#include "wayfinder/core/best_first_search.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/grid/grid_pathfinder.hpp"
#include "wayfinder/grid/grid_rules.hpp"

namespace wayfinder {

namespace {

constexpr DiagonalMode rule = DiagonalMode::only_if_no_obstacles;

Cost octile(const GridMap& map, NodeId a, NodeId b) {
  const Cell p = map.cell_of(a);
  const Cell q = map.cell_of(b);
  return grid_distance(Heuristic::octile, p.x - q.x, p.y - q.y);
}

// The grid inside one rectangle (a cluster) as a search domain, with local ids
// (y - rect.y) * rect.width + (x - rect.x) so that a search context sized for one cluster
// serves every cluster. One more id, never reached, is the goal of the searches that must
// exhaust the cluster (the costs from one node to all the others). A diagonal move between two
// cells of the rectangle has both side cells in the rectangle too, so restricting the moves to
// the rectangle never changes the corner rule.
class ClusterDomain {
 public:
  ClusterDomain(const GridMap& map, GridRect rect)
      : map_(map),
        rect_(rect),
        shift_(std::bit_width(static_cast<unsigned>(rect.width - 1))),
        scale_(static_cast<double>(map.min_cost())),
        uniform_(map.uniform_cost()) {
    for (int bit = 0; bit < 9; ++bit) {
      const int dx = bit % 3 - 1;
      const int dy = bit / 3 - 1;
      offsets_[bit] = static_cast<NodeId>(dy * (1 << shift_) + dx);
      map_offsets_[bit] = static_cast<NodeId>(dy * map.width() + dx);
    }
  }

  // Local ids are (y - rect.y) << shift | (x - rect.x), rows padded to a power of two so that
  // a cell's coordinates come back by shifts.
  [[nodiscard]] std::size_t node_count() const { return (static_cast<std::size_t>(rect_.height) << shift_) + 1; }
  [[nodiscard]] NodeId sentinel() const { return static_cast<NodeId>(rect_.height) << shift_; }
  [[nodiscard]] NodeId local(NodeId cell) const {
    const Cell c = map_.cell_of(cell);
    return (static_cast<NodeId>(c.y - rect_.y) << shift_) | static_cast<NodeId>(c.x - rect_.x);
  }
  [[nodiscard]] Cell cell_at(NodeId local_id) const {
    return {rect_.x + static_cast<int>(local_id & ((1u << shift_) - 1)), rect_.y + static_cast<int>(local_id >> shift_)};
  }
  [[nodiscard]] NodeId global(NodeId local_id) const { return map_.id_of(cell_at(local_id)); }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == sentinel()) return;
    const Cell at = cell_at(node);
    std::uint32_t around = map_.neighbourhood(at.x, at.y);
    // Cells outside the rectangle are walls here: the moves to them are never allowed, and a
    // diagonal inside the rectangle has both its side cells inside it.
    if (at.x == rect_.x) around &= ~0b001001001u;
    if (at.x == rect_.x + rect_.width - 1) around &= ~0b100100100u;
    if (at.y == rect_.y) around &= ~0b000000111u;
    if (at.y == rect_.y + rect_.height - 1) around &= ~0b111000000u;
    std::uint32_t moves = allowed_moves(rule, around);
    const NodeId here = map_.id_of(at);
    while (moves != 0) {
      const int bit = std::countr_zero(moves);
      moves &= moves - 1;
      const bool diagonal = (bit & 1) == 0;  // bits 0, 2, 6, 8
      if (uniform_)
        sink(node + offsets_[bit], diagonal ? sqrt2 : 1.0);
      else
        sink(node + offsets_[bit], grid_move_cost(map_, here, here + map_offsets_[bit], diagonal));
    }
  }

  [[nodiscard]] Cost heuristic(NodeId from, NodeId to) const {
    if (from == sentinel() || to == sentinel()) return 0.0;
    const Cell a = cell_at(from);
    const Cell b = cell_at(to);
    return scale_ * grid_distance(Heuristic::octile, a.x - b.x, a.y - b.y);
  }

 private:
  const GridMap& map_;
  GridRect rect_;
  int shift_;
  double scale_;
  bool uniform_;
  NodeId offsets_[9] = {};
  NodeId map_offsets_[9] = {};
};

static_assert(Domain<ClusterDomain>);

/// The sum of the moves of a cell path.
Cost path_cost(const GridMap& map, const std::vector<NodeId>& cells) {
  Cost cost = 0.0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const Cell a = map.cell_of(cells[i - 1]);
    const Cell b = map.cell_of(cells[i]);
    cost += grid_move_cost(map, cells[i - 1], cells[i], a.x != b.x && a.y != b.y);
  }
  return cost;
}

using hierarchy_search::add_stats;

}  // namespace

// Searches restricted to one cluster, with one reusable context.
class ClusterSearch {
 public:
  explicit ClusterSearch(const GridMap& map) : map_(map) {}

  /// Costs from `from` to each of `targets` inside `rect` (infinite_cost where none).
  void costs_from(const GridRect& rect, NodeId from, std::span<const NodeId> targets, Cost* out, SearchStats& stats) {
    rect_ = rect;
    const ClusterDomain domain(map_, rect);
    locals_.clear();
    for (const NodeId target : targets) locals_.push_back(domain.local(target));
    add_stats(stats, hierarchy_search::costs_to_targets(domain, context_, domain.local(from), locals_, out));
  }

  /// After costs_from: the cells of the cheapest path from its `from` to `target` (one whose
  /// cost was finite), appended to `path` in the search's order (from `from`) or reversed
  /// (ending at `from`), without the first cell appended when `path` already ends there.
  void append_tree_path(NodeId target, std::vector<NodeId>& path, bool reversed) {
    const ClusterDomain domain(map_, rect_);
    scratch_.clear();
    for (NodeId at = domain.local(target); at != invalid_node; at = context_.record(at).parent)
      scratch_.push_back(domain.global(at));
    if (!reversed) std::reverse(scratch_.begin(), scratch_.end());
    const bool skip_first = !path.empty() && !scratch_.empty() && path.back() == scratch_.front();
    path.insert(path.end(), scratch_.begin() + (skip_first ? 1 : 0), scratch_.end());
  }

  /// Appends the cells of a cheapest path inside `rect` from `from` to `to` to `path` (without
  /// `from` when the path already ends there). False when there is none.
  bool append_path(const GridRect& rect, NodeId from, NodeId to, std::vector<NodeId>& path, SearchStats& stats) {
    const ClusterDomain domain(map_, rect);
    BestFirstSearch<ClusterDomain> search(domain, context_);
    SearchOptions options;
    options.return_partial = false;
    search.run(domain.local(from), domain.local(to), options);
    add_stats(stats, search.stats());
    if (search.status() != SearchStatus::found) return false;
    search.path_to(domain.local(to), scratch_);
    const bool skip_first = !path.empty() && path.back() == from;
    for (std::size_t i = skip_first ? 1 : 0; i < scratch_.size(); ++i) path.push_back(domain.global(scratch_[i]));
    return true;
  }

 private:
  const GridMap& map_;
  SearchContext context_;
  GridRect rect_;  ///< costs_from's
  std::vector<NodeId> scratch_;
  std::vector<NodeId> locals_;
};

// ---------------------------------------------------------------------------------------------
// Building

HierarchicalGrid::HierarchicalGrid(const GridMap& map, HierarchyOptions options)
    : map_(map), options_(std::move(options)) {
  check_map();
  rebuild();
}

void HierarchicalGrid::check_map() const {
  if (map_.cell_count() == 0) throw std::invalid_argument("hierarchical search: the map is empty");
  if (options_.cluster_size < 4 || options_.cluster_size > 256)
    throw std::invalid_argument("hierarchical search: cluster_size must be from 4 to 256, got " +
                                std::to_string(options_.cluster_size));
  if (options_.long_entrance < 1)
    throw std::invalid_argument("hierarchical search: long_entrance must be at least 1, got " +
                                std::to_string(options_.long_entrance));
}

GridRect HierarchicalGrid::cluster_rect(int cluster) const {
  const int x = (cluster % across_) * size_;
  const int y = (cluster / across_) * size_;
  return {x, y, std::min(size_, map_.width() - x), std::min(size_, map_.height() - y)};
}

void HierarchicalGrid::append_intra_path(std::uint32_t from, std::uint32_t to, std::vector<NodeId>& path) const {
  const int cluster = cluster_of(map_.cell_of(node_cells_[from]));
  const ClusterData& data = clusters_[static_cast<std::size_t>(cluster)];
  const GridRect rect = cluster_rect(cluster);
  const std::size_t k = data.cells.size();
  const std::size_t i = from - node_offsets_[static_cast<std::size_t>(cluster)];
  const std::size_t j = to - node_offsets_[static_cast<std::size_t>(cluster)];
  const std::size_t pair = i < j ? i * k + j : j * k + i;
  const std::uint16_t* first = data.path_cells.data() + data.path_offsets[pair];
  const std::uint16_t* last = data.path_cells.data() + data.path_offsets[pair + 1];
  auto cell = [&](std::uint16_t local) { return map_.id_of(rect.x + local % rect.width, rect.y + local / rect.width); };
  const std::size_t before = path.size();
  if (i < j) {
    for (const std::uint16_t* p = first; p != last; ++p) path.push_back(cell(*p));
  } else {
    for (const std::uint16_t* p = last; p != first; --p) path.push_back(cell(*(p - 1)));
  }
  // The path starts at `from`: not twice when `path` already ended there.
  if (before > 0 && path.size() > before && path[before - 1] == path[before]) path.erase(path.begin() + static_cast<std::ptrdiff_t>(before));
}

void HierarchicalGrid::report(std::size_t done, std::size_t total) const {
  if (options_.progress) options_.progress(done, total);
}

// The transitions of a cluster's right and bottom borders: maximal runs of cell pairs passable
// on both sides; a run shorter than long_entrance gets one transition in its middle, a longer
// one two, at its ends (Botea et al. 2004, section 3.1).
void HierarchicalGrid::make_borders(int cluster) {
  const GridRect rect = cluster_rect(cluster);
  auto scan = [&](std::vector<Transition>& out, int length, auto&& pair_at) {
    out.clear();
    int run_start = -1;
    for (int i = 0; i <= length; ++i) {
      const std::optional<Transition> pair = i < length ? pair_at(i) : std::nullopt;
      if (pair && run_start < 0) run_start = i;
      if (!pair && run_start >= 0) {
        const int run = i - run_start;
        if (run < options_.long_entrance) {
          out.push_back(*pair_at(run_start + (run - 1) / 2));
        } else {
          out.push_back(*pair_at(run_start));
          out.push_back(*pair_at(i - 1));
        }
        run_start = -1;
      }
    }
  };
  const int right_x = rect.x + rect.width - 1;
  if (right_x + 1 < map_.width()) {
    scan(right_[cluster], rect.height, [&](int i) -> std::optional<Transition> {
      const int y = rect.y + i;
      if (!map_.passable(right_x, y) || !map_.passable(right_x + 1, y)) return std::nullopt;
      return Transition{map_.id_of(right_x, y), map_.id_of(right_x + 1, y)};
    });
  } else {
    right_[cluster].clear();
  }
  const int bottom_y = rect.y + rect.height - 1;
  if (bottom_y + 1 < map_.height()) {
    scan(bottom_[cluster], rect.width, [&](int i) -> std::optional<Transition> {
      const int x = rect.x + i;
      if (!map_.passable(x, bottom_y) || !map_.passable(x, bottom_y + 1)) return std::nullopt;
      return Transition{map_.id_of(x, bottom_y), map_.id_of(x, bottom_y + 1)};
    });
  } else {
    bottom_[cluster].clear();
  }
}

// The cluster's nodes (its cells in the transitions of its four borders) and the costs between
// them inside the cluster: one Dijkstra search per node, costs being symmetric.
void HierarchicalGrid::make_cluster(int cluster, ClusterSearch& search) {
  ClusterData& data = clusters_[static_cast<std::size_t>(cluster)];
  data.cells.clear();
  const std::size_t at = static_cast<std::size_t>(cluster);
  for (const Transition& t : right_[at]) data.cells.push_back(t.first);
  for (const Transition& t : bottom_[at]) data.cells.push_back(t.first);
  if (cluster % across_ > 0)
    for (const Transition& t : right_[at - 1]) data.cells.push_back(t.second);
  if (cluster / across_ > 0)
    for (const Transition& t : bottom_[at - static_cast<std::size_t>(across_)]) data.cells.push_back(t.second);
  std::sort(data.cells.begin(), data.cells.end());
  data.cells.erase(std::unique(data.cells.begin(), data.cells.end()), data.cells.end());
  const std::size_t k = data.cells.size();
  data.costs.assign(k * k, infinite_cost);
  data.path_offsets.assign(k * k + 1, 0);
  data.path_cells.clear();
  const GridRect rect = cluster_rect(cluster);
  std::vector<Cost> row(k);
  std::vector<NodeId> path;
  SearchStats ignored;
  for (std::size_t i = 0; i < k; ++i) {
    data.costs[i * k + i] = 0.0;
    if (i + 1 < k) {
      const std::span<const NodeId> later(data.cells.data() + i + 1, k - i - 1);
      search.costs_from(rect, data.cells[i], later, row.data(), ignored);
    }
    // The path of each pair i < j, as cells of the cluster (x - rect.x) + (y - rect.y) * width.
    for (std::size_t j = 0; j < k; ++j) {
      if (j > i) {
        data.costs[i * k + j] = row[j - i - 1];
        data.costs[j * k + i] = row[j - i - 1];
        if (row[j - i - 1] != infinite_cost) {
          path.clear();
          search.append_tree_path(data.cells[j], path, false);
          for (const NodeId cell : path) {
            const Cell c = map_.cell_of(cell);
            data.path_cells.push_back(static_cast<std::uint16_t>((c.y - rect.y) * rect.width + (c.x - rect.x)));
          }
        }
      }
      data.path_offsets[i * k + j + 1] = static_cast<std::uint32_t>(data.path_cells.size());
    }
  }
  data.cells.shrink_to_fit();
  data.costs.shrink_to_fit();
  data.path_cells.shrink_to_fit();
}

// Numbers the nodes cluster by cluster and lays the edges out in compressed rows.
void HierarchicalGrid::flatten() {
  const std::size_t count = clusters_.size();
  node_offsets_.assign(count + 1, 0);
  for (std::size_t c = 0; c < count; ++c)
    node_offsets_[c + 1] = node_offsets_[c] + static_cast<std::uint32_t>(clusters_[c].cells.size());
  const std::size_t nodes = node_offsets_[count];
  node_cells_.resize(nodes);
  for (std::size_t c = 0; c < count; ++c)
    std::copy(clusters_[c].cells.begin(), clusters_[c].cells.end(), node_cells_.begin() + node_offsets_[c]);

  auto node_of = [&](std::size_t cluster, NodeId cell) {
    const std::vector<NodeId>& cells = clusters_[cluster].cells;
    const auto found = std::lower_bound(cells.begin(), cells.end(), cell);
    return node_offsets_[cluster] + static_cast<std::uint32_t>(found - cells.begin());
  };
  // Degrees first, then the rows.
  std::vector<std::uint32_t> degree(nodes, 0);
  std::size_t intra = 0;
  for (std::size_t c = 0; c < count; ++c) {
    const ClusterData& data = clusters_[c];
    const std::size_t k = data.cells.size();
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (i != j && data.costs[i * k + j] != infinite_cost) {
          ++degree[node_offsets_[c] + i];
          ++intra;
        }
  }
  auto for_each_transition = [&](auto&& visit) {
    for (std::size_t c = 0; c < count; ++c) {
      for (const Transition& t : right_[c]) visit(node_of(c, t.first), node_of(c + 1, t.second), t);
      for (const Transition& t : bottom_[c])
        visit(node_of(c, t.first), node_of(c + static_cast<std::size_t>(across_), t.second), t);
    }
  };
  std::size_t inter = 0;
  for_each_transition([&](std::uint32_t a, std::uint32_t b, const Transition&) {
    ++degree[a];
    ++degree[b];
    inter += 2;
  });
  edge_offsets_.assign(nodes + 1, 0);
  for (std::size_t n = 0; n < nodes; ++n) edge_offsets_[n + 1] = edge_offsets_[n] + degree[n];
  edges_.resize(edge_offsets_[nodes]);
  std::vector<std::uint32_t> fill(edge_offsets_.begin(), edge_offsets_.end() - 1);
  for (std::size_t c = 0; c < count; ++c) {
    const ClusterData& data = clusters_[c];
    const std::size_t k = data.cells.size();
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (i != j && data.costs[i * k + j] != infinite_cost)
          edges_[fill[node_offsets_[c] + i]++] = {node_offsets_[c] + static_cast<std::uint32_t>(j), false,
                                                   data.costs[i * k + j]};
  }
  for_each_transition([&](std::uint32_t a, std::uint32_t b, const Transition& t) {
    const Cost cost = grid_move_cost(map_, t.first, t.second, false);
    edges_[fill[a]++] = {b, true, cost};
    edges_[fill[b]++] = {a, true, cost};
  });

  stats_.clusters = count;
  stats_.nodes = nodes;
  stats_.inter_edges = inter;
  stats_.intra_edges = intra;
  std::size_t bytes = sizeof(*this);
  for (std::size_t c = 0; c < count; ++c)
    bytes += right_[c].capacity() * sizeof(Transition) + bottom_[c].capacity() * sizeof(Transition) +
             clusters_[c].cells.capacity() * sizeof(NodeId) + clusters_[c].costs.capacity() * sizeof(Cost) +
             clusters_[c].path_offsets.capacity() * sizeof(std::uint32_t) +
             clusters_[c].path_cells.capacity() * sizeof(std::uint16_t);
  bytes += (right_.capacity() + bottom_.capacity()) * sizeof(std::vector<Transition>) +
           clusters_.capacity() * sizeof(ClusterData) + node_cells_.capacity() * sizeof(NodeId) +
           (node_offsets_.capacity() + edge_offsets_.capacity()) * sizeof(std::uint32_t) +
           edges_.capacity() * sizeof(Edge);
  stats_.memory_bytes = bytes;
}

void HierarchicalGrid::rebuild() {
  const auto began = std::chrono::steady_clock::now();
  check_map();
  size_ = options_.cluster_size;
  width_ = map_.width();
  height_ = map_.height();
  across_ = (map_.width() + size_ - 1) / size_;
  down_ = (map_.height() + size_ - 1) / size_;
  const std::size_t count = static_cast<std::size_t>(across_) * static_cast<std::size_t>(down_);
  right_.assign(count, {});
  bottom_.assign(count, {});
  clusters_.assign(count, {});
  for (std::size_t c = 0; c < count; ++c) make_borders(static_cast<int>(c));
  ClusterSearch search(map_);
  for (std::size_t c = 0; c < count; ++c) {
    make_cluster(static_cast<int>(c), search);
    if ((c & 63) == 63) report(c + 1, count);
  }
  report(count, count);
  flatten();
  revision_ = map_.revision();
  stats_.clusters_rebuilt = count;
  stats_.build_milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
}

std::size_t HierarchicalGrid::update() {
  if (map_.revision() == revision_) return 0;
  const auto began = std::chrono::steady_clock::now();
  const auto changes = map_.revision() > revision_ ? map_.changes_since(revision_) : std::nullopt;
  if (!changes || map_.width() != width_ || map_.height() != height_) {
    rebuild();
    return stats_.clusters_rebuilt;
  }
  const std::size_t count = clusters_.size();
  std::vector<char> touched(count, 0);
  for (const GridCellChange& change : *changes) touched[static_cast<std::size_t>(cluster_of(change.cell))] = 1;
  // The borders of a touched cluster: its own right and bottom ones, its left neighbour's right
  // one and its upper neighbour's bottom one.
  std::vector<char> redo(count, 0);
  for (std::size_t c = 0; c < count; ++c) {
    if (!touched[c]) continue;
    const int cluster = static_cast<int>(c);
    make_borders(cluster);
    if (cluster % across_ > 0) make_borders(cluster - 1);
    if (cluster / across_ > 0) make_borders(cluster - across_);
    redo[c] = 1;
  }
  // A neighbour whose cells did not change keeps its in-cluster costs unless its set of nodes
  // changed with the borders just redone.
  for (std::size_t c = 0; c < count; ++c) {
    if (!touched[c]) continue;
    const int x = static_cast<int>(c) % across_;
    const int y = static_cast<int>(c) / across_;
    const int around[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
    for (const auto& [nx, ny] : around)
      if (nx >= 0 && ny >= 0 && nx < across_ && ny < down_) {
        const std::size_t n = static_cast<std::size_t>(ny * across_ + nx);
        if (redo[n]) continue;
        std::vector<NodeId> cells;
        const std::size_t at = n;
        for (const Transition& t : right_[at]) cells.push_back(t.first);
        for (const Transition& t : bottom_[at]) cells.push_back(t.first);
        if (nx > 0)
          for (const Transition& t : right_[at - 1]) cells.push_back(t.second);
        if (ny > 0)
          for (const Transition& t : bottom_[at - static_cast<std::size_t>(across_)]) cells.push_back(t.second);
        std::sort(cells.begin(), cells.end());
        cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
        if (cells != clusters_[n].cells) redo[n] = 1;
      }
  }
  const std::size_t total = static_cast<std::size_t>(std::count(redo.begin(), redo.end(), 1));
  ClusterSearch search(map_);
  std::size_t done = 0;
  for (std::size_t c = 0; c < count; ++c)
    if (redo[c]) {
      make_cluster(static_cast<int>(c), search);
      report(++done, total);
    }
  flatten();
  revision_ = map_.revision();
  stats_.clusters_rebuilt = total;
  stats_.build_milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  return total;
}

// ---------------------------------------------------------------------------------------------
// Smoothing (Botea et al. 2004, section 4)

// A straight run from cell i can only replace the stretch up to a later cell j that lies on one
// of the 8 lines through i, so instead of walking all 8 rays from every cell, the later cells
// within `reach` moves along the path are tested for that (a few integer operations each), and a
// run is walked only where its cheapest possible cost (its moves at the map's smallest terrain
// cost) would save something. Detours longer than `reach` moves that a ray could cut are left as
// they are; HPA*'s refined paths rarely have them.
struct PathSmoother {
  std::vector<Cost> prefix;
  std::vector<Cell> at;
  std::vector<NodeId> out;

  Cost smooth(const GridMap& map, std::vector<NodeId>& cells, int max_ray, int reach);
};

Cost PathSmoother::smooth(const GridMap& map, std::vector<NodeId>& cells, int max_ray, int reach) {
  const std::size_t n = cells.size();
  if (n <= 2) return path_cost(map, cells);
  prefix.assign(n, 0.0);
  at.resize(n);
  at[0] = map.cell_of(cells[0]);
  for (std::size_t i = 1; i < n; ++i) {
    at[i] = map.cell_of(cells[i]);
    const Cell a = at[i - 1];
    const Cell b = at[i];
    prefix[i] = prefix[i - 1] + grid_move_cost(map, cells[i - 1], cells[i], a.x != b.x && a.y != b.y);
  }
  const double cheapest = static_cast<double>(map.min_cost());
  // The cost of the straight run from `from` by `steps` moves of (dx, dy), or infinity when a
  // move is not allowed.
  auto run_cost = [&](Cell from, int dx, int dy, int steps) {
    const int bit = (dy + 1) * 3 + (dx + 1);
    const bool diagonal = dx != 0 && dy != 0;
    Cell c = from;
    NodeId previous = map.id_of(c);
    Cost run = 0.0;
    for (int step = 0; step < steps; ++step) {
      if (!((allowed_moves(rule, map.neighbourhood(c.x, c.y)) >> bit) & 1u)) return infinite_cost;
      c = {c.x + dx, c.y + dy};
      const NodeId id = map.id_of(c);
      run += grid_move_cost(map, previous, id, diagonal);
      previous = id;
    }
    return run;
  };

  out.clear();
  std::size_t i = 0;
  while (true) {
    out.push_back(cells[i]);
    if (i + 1 == n) break;
    const Cell here = at[i];
    std::size_t best_end = i + 1;
    Cost best_saving = 1e-9;
    const std::size_t last = std::min(n - 1, i + static_cast<std::size_t>(reach));
    for (std::size_t j = i + 2; j <= last; ++j) {
      const Cell to = at[j];
      const int adx = std::abs(to.x - here.x);
      const int ady = std::abs(to.y - here.y);
      if (!(adx == 0 || ady == 0 || adx == ady)) continue;
      const int steps = std::max(adx, ady);
      if (steps == 0 || steps > max_ray) continue;
      const double stretch = prefix[j] - prefix[i];
      const double length = (adx != 0 && ady != 0 ? sqrt2 : 1.0) * steps;
      if (stretch - length * cheapest <= best_saving) continue;
      const Cost run = run_cost(here, (to.x > here.x) - (to.x < here.x), (to.y > here.y) - (to.y < here.y), steps);
      if (stretch - run > best_saving) {
        best_saving = stretch - run;
        best_end = j;
      }
    }
    if (best_end > i + 1) {
      const Cell to = at[best_end];
      const int dx = (to.x > here.x) - (to.x < here.x);
      const int dy = (to.y > here.y) - (to.y < here.y);
      for (Cell c{here.x + dx, here.y + dy}; !(c == to); c = {c.x + dx, c.y + dy}) out.push_back(map.id_of(c));
    }
    i = best_end;
  }
  cells.swap(out);
  return path_cost(map, cells);
}

Cost smooth_cell_path(const GridMap& map, std::vector<NodeId>& cells, int max_ray) {
  PathSmoother smoother;
  return smoother.smooth(map, cells, max_ray, 4 * max_ray);
}


// ---------------------------------------------------------------------------------------------
// Queries

namespace {



std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

}  // namespace

struct HierarchicalQueryState {
  explicit HierarchicalQueryState(const GridMap& map) : cluster(map), goal_cluster(map) {}
  ClusterSearch cluster;       ///< the direct search, then the start's search (its tree kept)
  ClusterSearch goal_cluster;  ///< the goal's search (its tree kept)
  SearchContext abstract;
  std::vector<Cost> start_costs;
  std::vector<Cost> goal_costs;
  std::vector<NodeId> abstract_path;
  PathSmoother smoother;
};

HierarchicalPathfinder::HierarchicalPathfinder(const HierarchicalGrid& hierarchy)
    : hierarchy_(hierarchy), state_(std::make_unique<HierarchicalQueryState>(hierarchy.map())) {}
HierarchicalPathfinder::~HierarchicalPathfinder() = default;
HierarchicalPathfinder::HierarchicalPathfinder(HierarchicalPathfinder&&) noexcept = default;

PathResult HierarchicalPathfinder::find_path(Cell start, Cell goal, const HierarchicalSearchOptions& options) {
  PathResult out;
  find_path(start, goal, options, out);
  return out;
}

SearchStatus HierarchicalPathfinder::find_path(Cell start, Cell goal, const HierarchicalSearchOptions& options,
                                               PathResult& out) {
  const auto began = std::chrono::steady_clock::now();
  out.reset();
  const GridMap& map = hierarchy_.map();
  auto reject = [&](std::string why) {
    out.status = SearchStatus::invalid_input;
    out.reason = StopReason::invalid_input;
    out.message = std::move(why);
    return out.status;
  };
  const std::string size = std::to_string(map.width()) + "x" + std::to_string(map.height());
  if (!map.contains(start)) return reject("start " + cell_text(start) + " is outside the " + size + " map");
  if (!map.contains(goal)) return reject("goal " + cell_text(goal) + " is outside the " + size + " map");
  if (!map.passable(start)) return reject("start " + cell_text(start) + " is blocked");
  if (!map.passable(goal)) return reject("goal " + cell_text(goal) + " is blocked");
  if (!hierarchy_.current())
    return reject("the map was edited since its hierarchy was built (hierarchy at revision " +
                  std::to_string(hierarchy_.revision()) + ", map at " + std::to_string(map.revision()) +
                  "): call HierarchicalGrid::update() first");

  HierarchicalQueryState& state = *state_;
  const NodeId from = map.id_of(start);
  const NodeId to = map.id_of(goal);
  const int start_cluster = hierarchy_.cluster_of(start);
  const int goal_cluster = hierarchy_.cluster_of(goal);
  auto finish = [&](SearchStatus status, StopReason reason) {
    out.status = status;
    out.reason = reason;
    if (status == SearchStatus::found) {
      out.cost = options.smooth ? state.smoother.smooth(map, out.nodes, 2 * hierarchy_.cluster_size(),
                                                        4 * hierarchy_.cluster_size())
                                : path_cost(map, out.nodes);
    }
    fill_cell_centres(map, out);
    out.stats.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
    return out.status;
  };

  if (from == to) {
    out.nodes.push_back(from);
    return finish(SearchStatus::found, StopReason::goal_reached);
  }
  // One cluster: a direct search inside it first.
  if (start_cluster == goal_cluster &&
      state.cluster.append_path(hierarchy_.cluster_rect(start_cluster), from, to, out.nodes, out.stats))
    return finish(SearchStatus::found, StopReason::goal_reached);
  out.nodes.clear();

  // Connect start and goal to the nodes of their clusters.
  auto connect = [&](ClusterSearch& searcher, int cluster, NodeId cell, std::vector<Cost>& costs) {
    const std::uint32_t first = hierarchy_.cluster_first_node(cluster);
    const std::uint32_t end = hierarchy_.cluster_end_node(cluster);
    costs.assign(end - first, infinite_cost);
    if (end == first) return;
    std::vector<NodeId>& targets = state.abstract_path;
    targets.clear();
    for (std::uint32_t n = first; n < end; ++n) targets.push_back(hierarchy_.node_cell(n));
    searcher.costs_from(hierarchy_.cluster_rect(cluster), cell, targets, costs.data(), out.stats);
  };
  connect(state.cluster, start_cluster, from, state.start_costs);
  connect(state.goal_cluster, goal_cluster, to, state.goal_costs);

  auto locate = [&](NodeId node) { return hierarchy_.node_cell(node); };
  const double scale = static_cast<double>(map.min_cost());
  auto estimate = [&](NodeId a, NodeId b) { return scale * octile(map, a, b); };
  using Abstract = hierarchy_search::AbstractDomain<HierarchicalGrid, decltype(locate), decltype(estimate)>;
  const Abstract domain(hierarchy_, locate, estimate, from, to, start_cluster, goal_cluster, state.start_costs,
                        state.goal_costs);
  BestFirstSearch<Abstract> search(domain, state.abstract);
  SearchOptions engine;
  engine.return_partial = false;
  search.run(domain.start(), domain.goal(), engine);
  add_stats(out.stats, search.stats());
  if (search.status() != SearchStatus::found) return finish(SearchStatus::no_path, StopReason::open_list_empty);
  search.path_to(domain.goal(), state.abstract_path);

  // Refine: the start's and the goal's searches hold their paths to the first and from the last
  // node; an edge between two clusters is one move; an edge inside a cluster is the path the
  // hierarchy keeps for it.
  const std::vector<NodeId>& abstract = state.abstract_path;
  const std::size_t last = abstract.size() - 1;  // the goal; abstract[0] is the start
  out.nodes.push_back(from);
  state.cluster.append_tree_path(domain.place(abstract[1]), out.nodes, false);
  for (std::size_t i = 2; i < last; ++i) {
    const NodeId a = abstract[i - 1];
    const NodeId b = abstract[i];
    const NodeId b_cell = hierarchy_.node_cell(b);
    if (hierarchy_.cluster_of(map.cell_of(hierarchy_.node_cell(a))) != hierarchy_.cluster_of(map.cell_of(b_cell)))
      out.nodes.push_back(b_cell);
    else
      hierarchy_.append_intra_path(a, b, out.nodes);
  }
  state.goal_cluster.append_tree_path(domain.place(abstract[last - 1]), out.nodes, true);
  return finish(SearchStatus::found, StopReason::goal_reached);
}

}  // namespace wayfinder
