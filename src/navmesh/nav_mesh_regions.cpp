// Connectivity that the build and add_off_mesh_link derive from the polygon adjacency and the
// off-mesh links: connected regions, and the bridges behind dead-end pruning.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

namespace {

// Every off-mesh link as an undirected edge (one-way links too): per polygon, the polygons its
// links reach and the links' ids, for regions and bridges. Empty without links.
struct LinkIncidence {
  std::vector<std::uint32_t> starts;  ///< per polygon + 1
  std::vector<std::pair<PolygonId, std::uint32_t>> ends;  ///< (other polygon, link id)
  [[nodiscard]] std::span<const std::pair<PolygonId, std::uint32_t>> of(PolygonId polygon) const {
    if (starts.empty()) return {};
    return {ends.data() + starts[polygon], starts[polygon + 1] - starts[polygon]};
  }
};

LinkIncidence undirected_links(std::size_t polygons, std::span<const PlacedOffMeshLink> links) {
  LinkIncidence incidence;
  if (links.empty()) return incidence;
  incidence.starts.assign(polygons + 1, 0);
  // A detached link (an end on a removed tile) joins nothing.
  auto attached = [](const PlacedOffMeshLink& link) {
    return link.start_polygon != invalid_node && link.end_polygon != invalid_node;
  };
  for (const PlacedOffMeshLink& link : links) {
    if (!attached(link)) continue;
    ++incidence.starts[link.start_polygon + 1];
    ++incidence.starts[link.end_polygon + 1];
  }
  for (std::size_t p = 0; p < polygons; ++p) incidence.starts[p + 1] += incidence.starts[p];
  incidence.ends.resize(incidence.starts.back());
  std::vector<std::uint32_t> filled(incidence.starts.begin(), incidence.starts.end() - 1);
  for (std::uint32_t id = 0; id < links.size(); ++id) {
    const PlacedOffMeshLink& link = links[id];
    if (!attached(link)) continue;
    incidence.ends[filled[link.start_polygon]++] = {link.end_polygon, id};
    incidence.ends[filled[link.end_polygon]++] = {link.start_polygon, id};
  }
  return incidence;
}

}  // namespace

void NavMesh::build_regions() {
  regions_.assign(polygon_count(), invalid_node);
  const LinkIncidence links = undirected_links(polygon_count(), links_);
  std::vector<PolygonId> stack;
  std::uint32_t next_region = 0;
  for (PolygonId seed = 0; seed < polygon_count(); ++seed) {
    // An unused id of a tiled mesh's tile joins nothing and is no region (it keeps invalid_node).
    if (regions_[seed] != invalid_node || is_empty_polygon(seed)) continue;
    regions_[seed] = next_region;
    stack.push_back(seed);
    auto reach = [&](PolygonId neighbour) {
      if (neighbour != invalid_polygon && regions_[neighbour] == invalid_node) {
        regions_[neighbour] = next_region;
        stack.push_back(neighbour);
      }
    };
    while (!stack.empty()) {
      const PolygonId polygon = stack.back();
      stack.pop_back();
      for (PolygonId neighbour : polygon_neighbours(polygon)) reach(neighbour);
      for (const auto& [other, link] : links.of(polygon)) reach(other);
    }
    ++next_region;
  }
  region_count_ = next_region;
}

// Bridges by Tarjan's low-link method (Tarjan 1974), iteratively so that long chains of
// polygons cannot overflow the call stack. The parent is skipped by edge, not by polygon, so
// two polygons that share two edges are not a bridge. Off-mesh links are edges too (numbered
// after the shared edges; never pruned themselves): a one-way link taken as undirected only
// makes fewer bridges, and a bridge of this larger graph still separates the mesh, so the
// pruning stays exact (a way into a pocket and back over the same edge is never shorter than
// not going in, links included, as every link costs at least its straight line).
void NavMesh::find_bridges() {
  const std::size_t polygons = polygon_count();
  const auto shared_edges = static_cast<std::uint32_t>(shared_edges_.size());
  const LinkIncidence links = undirected_links(polygons, links_);
  bridges_.children.assign(shared_edges_.size(), invalid_polygon);
  bridges_.enter.assign(polygons, invalid_node);
  bridges_.exit.assign(polygons, 0);
  std::vector<std::uint32_t> low(polygons, 0);
  struct Frame {
    PolygonId polygon;
    std::uint32_t parent_edge;  ///< the edge it was entered by (invalid_node for a root)
    std::uint32_t next;         ///< the next edge slot to look at, then its links
  };
  std::vector<Frame> stack;
  std::uint32_t time = 0;
  for (PolygonId root = 0; root < polygons; ++root) {
    if (bridges_.enter[root] != invalid_node) continue;
    bridges_.enter[root] = low[root] = time++;
    stack.push_back({root, invalid_node, polygon_starts_[root]});
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const PolygonId polygon = frame.polygon;
      const std::uint32_t slots_end = polygon_starts_[polygon + 1];
      const auto polygon_links = links.of(polygon);
      if (frame.next < slots_end + polygon_links.size()) {
        const std::uint32_t next = frame.next++;
        PolygonId neighbour;
        std::uint32_t edge;
        if (next < slots_end) {
          neighbour = neighbours_[next];
          edge = slot_shared_edge_[next];
        } else {
          neighbour = polygon_links[next - slots_end].first;
          edge = shared_edges + polygon_links[next - slots_end].second;
        }
        if (neighbour == invalid_polygon || edge == frame.parent_edge) continue;
        if (bridges_.enter[neighbour] == invalid_node) {
          bridges_.enter[neighbour] = low[neighbour] = time++;
          stack.push_back({neighbour, edge, polygon_starts_[neighbour]});
        } else {
          low[polygon] = std::min(low[polygon], bridges_.enter[neighbour]);
        }
        continue;
      }
      bridges_.exit[polygon] = time;
      const std::uint32_t parent_edge = frame.parent_edge;
      stack.pop_back();
      if (stack.empty()) break;
      const PolygonId parent = stack.back().polygon;
      low[parent] = std::min(low[parent], low[polygon]);
      if (low[polygon] > bridges_.enter[parent] && parent_edge < shared_edges) bridges_.children[parent_edge] = polygon;
    }
  }
}

}  // namespace wayfinder
