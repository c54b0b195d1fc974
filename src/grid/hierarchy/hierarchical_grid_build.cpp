// HPA* on grids (see hierarchical_grid.hpp), the build: clusters, the transitions of their
// borders, the nodes and the costs and paths between them inside each cluster, the graph in
// compressed rows, and the local update after edits.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "hierarchical_grid_cluster_search.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"

namespace wayfinder {

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

}  // namespace wayfinder
