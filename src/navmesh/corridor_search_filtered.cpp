// The corridor searches under an area filter (on meshes without off-mesh links), compiled apart
// from the unfiltered ones (see corridor_search.hpp for why).

#include <algorithm>
#include <string>
#include <type_traits>
#include <variant>

#include "navmesh/corridor_search.hpp"
#include "navmesh/separate_run.hpp"

namespace wayfinder::corridor_search {

class FilteredSearches {
 public:
  std::variant<std::monostate, CorridorRun<EdgePointDomain<FilteredAreas>>, CorridorRun<CentroidDomain<FilteredAreas>>>
      run;
};

void SeparateSearchesDeleter::operator()(FilteredSearches* searches) const noexcept { delete searches; }

FilteredSearchesPointer make_filtered_searches() { return FilteredSearchesPointer(new FilteredSearches); }

namespace {

std::string hex(unsigned value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 15u]);
    value >>= 4;
  } while (value != 0);
  return "0x" + text;
}

// Why `filter` keeps out a polygon with this area and these flags.
std::string exclusion_reason(const AreaFilter& filter, AreaId area, AreaFlags flags) {
  if (!filter.area_passes(area)) return "its area " + std::to_string(area) + " costs +infinity";
  if ((flags & filter.exclude_flags) != 0)
    return "its flags " + hex(flags) + " include excluded flags " + hex(flags & filter.exclude_flags);
  return "its flags " + hex(flags) + " share none of include_flags " + hex(filter.include_flags);
}

}  // namespace

double weighted_path_cost(const NavMesh& mesh, std::span<const PolygonId> corridor, std::span<const Portal> portals,
                          const std::vector<Point>& points, const AreaFilter& filter) {
  if (points.size() < 2 || corridor.empty()) return 0.0;
  double total = 0.0;
  std::size_t next = 1;  // the waypoint the path is heading for
  Point at = points[0];
  for (std::size_t i = 0; i < portals.size() && i + 1 < corridor.size(); ++i) {
    const Point& left = portals[i].left;
    const Point& right = portals[i].right;
    // Positive on the side of polygon corridor[i]; within rounding of 0 on the portal's line
    // (cross_xz relative to the portal's left end: precision far from the origin).
    const double near_sign = geometry::cross_xz(left, right, mesh.centroid(corridor[i])) >= 0.0 ? 1.0 : -1.0;
    const double portal_length = distance_xz(left, right);
    const double on_line = 1e-9 * portal_length * (portal_length + 1.0);
    double piece = 0.0;
    while (next < points.size()) {
      const Point& target = points[next];
      const double target_side = near_sign * geometry::cross_xz(left, right, target);
      if (target_side <= on_line) {
        const double at_side = near_sign * geometry::cross_xz(left, right, at);
        const double t = at_side > on_line && at_side - target_side > 0.0
                             ? std::clamp(at_side / (at_side - target_side), 0.0, 1.0)
                             : 0.0;
        const Point crossing = geometry::lerp(at, target, t);
        piece += distance(at, crossing);
        at = t == 1.0 ? target : crossing;
        break;
      }
      piece += distance(at, target);
      at = target;
      ++next;
    }
    total += piece * filter.cost(mesh.area(corridor[i]));
  }
  // The rest lies in the last polygon.
  double rest = 0.0;
  for (; next < points.size(); ++next) {
    rest += distance(at, points[next]);
    at = points[next];
  }
  return total + rest * filter.cost(mesh.area(corridor.back()));
}

std::string exclusion_message(const NavMesh& mesh, const AreaFilter& filter, PolygonId polygon, const std::string& subject) {
  return subject + " polygon " + std::to_string(polygon) +
         ", which the filter excludes: " + exclusion_reason(filter, mesh.area(polygon), mesh.flags(polygon));
}

std::optional<std::string> filter_problem(const AreaFilter& filter) { return filter.problem(); }

template class SeparateRun<FilteredSearches>;
template SearchStatus FilteredRun::start(SearchContext&, CorridorOutput&, EdgePointDomain<FilteredAreas>&&, NodeId,
                                         NodeId, const SearchOptions&);
template SearchStatus FilteredRun::start(SearchContext&, CorridorOutput&, CentroidDomain<FilteredAreas>&&, NodeId,
                                         NodeId, const SearchOptions&);

}  // namespace wayfinder::corridor_search
