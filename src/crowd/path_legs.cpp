#include "path_legs.hpp"

#include <algorithm>
#include <cmath>

namespace wayfinder::crowd_detail {

void PathLegs::assign(const PathResult& path) {
  nodes_.assign(path.nodes.begin(), path.nodes.end());
  points_.assign(path.points.begin(), path.points.end());
  links_.assign(path.links.begin(), path.links.end());
  leg_ = 0;
}

void PathLegs::clear() {
  nodes_.clear();
  points_.clear();
  links_.clear();
  leg_ = 0;
}

Point PathLegs::leg(std::vector<PolygonId>& corridor) const {
  // Leg k's polygons: from where link k - 1 lands (nodes[node + 1]) to where link k leaves.
  const std::size_t first = leg_ == 0 ? 0 : links_[leg_ - 1].node + 1;
  const std::size_t last = leg_ < links_.size() ? links_[leg_].node : nodes_.size() - 1;
  corridor.assign(nodes_.begin() + static_cast<std::ptrdiff_t>(first),
                  nodes_.begin() + static_cast<std::ptrdiff_t>(std::max(first, last) + 1));
  return leg_ < links_.size() ? points_[links_[leg_].waypoint] : points_.back();
}

CrowdLinkTraversal PathLegs::take_link(const Point& from, double max_speed, double dt) const {
  const PathLinkStep& step = links_[leg_];
  CrowdLinkTraversal crossing;
  crossing.link = step.link;
  crossing.reverse = step.reverse;
  crossing.start = from;
  crossing.end = points_[step.waypoint + 1];
  crossing.end_polygon = nodes_[step.node + 1];
  const double length = std::sqrt((crossing.end.x - from.x) * (crossing.end.x - from.x) +
                                  (crossing.end.y - from.y) * (crossing.end.y - from.y) +
                                  (crossing.end.z - from.z) * (crossing.end.z - from.z));
  crossing.duration = std::max(dt, max_speed > 0.0 ? length / max_speed : dt);
  return crossing;
}

Point advance_link(CrowdLinkTraversal& crossing, double dt) {
  crossing.elapsed += dt;
  const double t = crossing.progress();
  if (t >= 1.0) return crossing.end;
  return {crossing.start.x + t * (crossing.end.x - crossing.start.x),
          crossing.start.y + t * (crossing.end.y - crossing.start.y),
          crossing.start.z + t * (crossing.end.z - crossing.start.z)};
}

}  // namespace wayfinder::crowd_detail
