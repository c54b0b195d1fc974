// NavMesh's off-mesh links: placing a link's ends on the mesh, indexing links by the polygons
// they leave, and adding a link to a built mesh. The model is Detour's off-mesh connections
// (Mononen): two end points snapped onto polygons within a radius, one-way or two-way, with an
// area and flags a query filter reads.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "wayfinder/core/geometry.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

namespace {

using geometry::distance;
using geometry::is_finite;

std::string point_text(const Point& p) {
  std::ostringstream text;
  text << '(' << p.x << ", " << p.y << ", " << p.z << ')';
  return text.str();
}

}  // namespace

std::optional<std::string> NavMesh::link_value_problem(const OffMeshLink& link) {
  if (!is_finite(link.start) || !is_finite(link.end)) return "its start and end must be finite points";
  if (!(link.radius >= 0.0) || !std::isfinite(link.radius))
    return "its radius must be finite and non-negative, not " + std::to_string(link.radius);
  if (link.cost && (!(*link.cost >= 0.0) || !std::isfinite(*link.cost)))
    return "its cost must be finite and non-negative, not " + std::to_string(*link.cost);
  if (link.area >= max_areas)
    return "its area " + std::to_string(link.area) + " is not in [0, " + std::to_string(max_areas) + ")";
  return std::nullopt;
}

std::optional<PlacedOffMeshLink> NavMesh::place_link(const OffMeshLink& link, std::string& problem) const {
  if (auto value_problem = link_value_problem(link)) {
    problem = std::move(*value_problem);
    return std::nullopt;
  }
  // An end stands on the polygon under or over it (as a query's start does), else it moves to
  // the nearest mesh point within the link's radius (Detour snaps connection ends the same way).
  auto place = [&](const Point& point, const char* which) -> MeshLocation {
    MeshLocation location = locate(point);
    if (!location.valid() && link.radius > 0.0) location = nearest_point(point, link.radius);
    if (!location.valid())
      problem = std::string("its ") + which + " " + point_text(point) + " is not on the mesh (nor within its radius " +
                std::to_string(link.radius) + " of it)";
    return location;
  };
  const MeshLocation start = place(link.start, "start");
  if (!start.valid()) return std::nullopt;
  const MeshLocation end = place(link.end, "end");
  if (!end.valid()) return std::nullopt;
  PlacedOffMeshLink placed;
  placed.input = link;
  placed.start_polygon = start.polygon;
  placed.end_polygon = end.polygon;
  placed.start = start.point;
  placed.end = end.point;
  // Never below the straight line: the corridor search's heuristic is a straight-line distance,
  // and a link cheaper than its own length would make it overestimate.
  const double length = distance(start.point, end.point);
  placed.cost = link.cost ? std::max(*link.cost, length) : length;
  return placed;
}

void NavMesh::index_links() {
  link_exit_starts_.clear();
  link_exits_.clear();
  link_areas_in_use_ = 0;
  link_flags_in_use_ = 0;
  if (links_.empty()) return;
  link_exit_starts_.assign(polygon_count() + 1, 0);
  for (OffMeshLinkId id = 0; id < links_.size(); ++id) {
    const PlacedOffMeshLink& link = links_[id];
    link_areas_in_use_ |= std::uint64_t{1} << link.input.area;
    link_flags_in_use_ = static_cast<AreaFlags>(link_flags_in_use_ | link.input.flags);
    if (!off_mesh_link_attached(id)) continue;
    ++link_exit_starts_[link.start_polygon + 1];
    if (link.input.bidirectional) ++link_exit_starts_[link.end_polygon + 1];
  }
  for (std::size_t p = 0; p < polygon_count(); ++p) link_exit_starts_[p + 1] += link_exit_starts_[p];
  link_exits_.resize(link_exit_starts_.back());
  std::vector<std::uint32_t> filled(link_exit_starts_.begin(), link_exit_starts_.end() - 1);
  for (std::uint32_t id = 0; id < links_.size(); ++id) {
    const PlacedOffMeshLink& link = links_[id];
    if (!off_mesh_link_attached(id)) continue;
    link_exits_[filled[link.start_polygon]++] = 2 * id;
    if (link.input.bidirectional) link_exits_[filled[link.end_polygon]++] = 2 * id + 1;
  }
}

OffMeshLinkId NavMesh::add_off_mesh_link(const OffMeshLink& link) {
  std::string problem;
  auto placed = place_link(link, problem);
  if (!placed) throw std::invalid_argument("off-mesh link: " + problem);
  const auto id = static_cast<OffMeshLinkId>(links_.size());
  links_.push_back(std::move(*placed));
  index_links();
  build_regions();
  find_bridges();
  // An edit that changes no polygon: the revision moves (stepped searches stop with
  // world_changed) and the log stays as it is (no planned corridor is broken by a new way).
  changes_.commit();
  return id;
}

}  // namespace wayfinder
