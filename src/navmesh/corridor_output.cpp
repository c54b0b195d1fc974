// What a corridor search's output does about off-mesh links: the corridor from the search's
// nodes (link nodes land in their far polygon) and the funnel on each walked piece between
// links. Compiled apart from nav_mesh_query.cpp, whose inlining budget the unfiltered search
// loops need (see corridor_search.hpp).

#include <span>
#include <utility>
#include <vector>

#include "navmesh/corridor_search.hpp"

namespace wayfinder::corridor_search {

void corridor_from_nodes_with_links(const std::vector<NodeId>& nodes, CorridorNodes placement, const NavMesh& mesh,
                                    PolygonId start_polygon, std::vector<PolygonId>& corridor,
                                    std::vector<PathLinkStep>& links) {
  corridor.clear();
  links.clear();
  const EdgePointGraph& graph = SearchTables::edge_point_graph(mesh);
  auto take_link = [&](std::uint32_t directed) {
    links.push_back({0, static_cast<std::uint32_t>(corridor.size() - 1), directed / 2, (directed & 1u) != 0});
    corridor.push_back(link_landing_polygon(mesh, directed));
  };
  if (placement == CorridorNodes::polygon_centroids) {
    const NodeId first_link = static_cast<NodeId>(mesh.polygon_count());
    bool landed = false;  // the node after a link's is the polygon it landed in, already listed
    for (NodeId node : nodes) {
      if (node >= first_link) {
        take_link(node - first_link);
        landed = true;
      } else if (!std::exchange(landed, false)) {
        corridor.push_back(node);
      }
    }
    return;
  }
  const NodeId first_link = static_cast<NodeId>(graph.node_count() + 2);
  corridor.push_back(start_polygon);
  for (NodeId node : nodes) {
    if (node < graph.node_count())
      corridor.push_back(graph.entered_polygon(node));
    else if (node >= first_link)
      take_link(node - first_link);
  }
}

// The funnel on each walked piece between links, separately (a link's two polygons share no
// portal): start to the first link's take-off point, its landing point to the next one's, and
// so on to the end. The cost adds up the pieces and the links' own costs.
void CorridorOutput::pull_string_across_links(const Point& end) {
  portals.clear();
  result.cost = 0.0;
  std::size_t piece_begin = 0;
  Point from = start.point;
  auto walk = [&](std::size_t piece_end, const Point& to) {
    const std::span<const PolygonId> piece(corridor.data() + piece_begin, piece_end - piece_begin);
    corridor_portals(mesh, piece, piece_portals);
    funnel_path(from, to, piece_portals, piece_points);
    if (mesh.has_detail_heights()) place_turns_on_ground(mesh, piece, piece_portals, piece_points);
    result.cost += filter != nullptr ? weighted_path_cost(mesh, piece, piece_portals, piece_points, *filter)
                                     : geometry::polyline_length(piece_points);
    portals.insert(portals.end(), piece_portals.begin(), piece_portals.end());
    result.points.insert(result.points.end(), piece_points.begin(), piece_points.end());
  };
  for (PathLinkStep& step : links) {
    const std::uint32_t directed = 2 * step.link + (step.reverse ? 1u : 0u);
    walk(step.node + 1, link_takeoff(mesh, directed));
    step.waypoint = static_cast<std::uint32_t>(result.points.size() - 1);
    const PlacedOffMeshLink& link = link_of(mesh, directed);
    result.cost += filter != nullptr ? link.cost * filter->cost(link.input.area) : link.cost;
    from = link_landing(mesh, directed);
    piece_begin = step.node + 1;
  }
  walk(corridor.size(), end);
  result.links = links;
}

}  // namespace wayfinder::corridor_search
