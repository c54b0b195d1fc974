#pragma once
// An agent's path as the crowd walks it: legs on the ground joined by off-mesh links. The agent
// follows one leg's corridor at a time; at the leg's end it crosses the link as a timed move
// (CrowdLinkTraversal, the way DetourCrowd animates its off-mesh connections) and lands at the
// start of the next leg.

#include <cstddef>
#include <vector>

#include "wayfinder/core/path_result.hpp"
#include "wayfinder/crowd/crowd.hpp"

namespace wayfinder::crowd_detail {

class PathLegs {
 public:
  /// Keeps a found or partial path (nodes, points, links) and starts at its first leg.
  void assign(const PathResult& path);
  void clear();
  [[nodiscard]] bool empty() const { return nodes_.empty(); }
  /// True when the leg walked now ends where an off-mesh link starts (not at the path's end).
  [[nodiscard]] bool leg_ends_at_link() const { return leg_ < links_.size(); }
  /// The leg walked now: its polygons into `corridor` (from the polygon it starts on to the one
  /// it ends on); returns its end point (the link's start, or the path's end).
  Point leg(std::vector<PolygonId>& corridor) const;
  /// The crossing of the link that ends the leg walked now, for an agent standing at `from` and
  /// walking at `max_speed`: straight to the link's far end at that speed, and at least `dt` long.
  /// Precondition: leg_ends_at_link().
  [[nodiscard]] CrowdLinkTraversal take_link(const Point& from, double max_speed, double dt) const;
  /// The next leg becomes the one walked (after landing from its link).
  void next_leg() { ++leg_; }

 private:
  std::vector<PolygonId> nodes_;
  std::vector<Point> points_;
  std::vector<PathLinkStep> links_;
  std::size_t leg_ = 0;  ///< leg k runs from link k - 1's landing (or the path's start) to link k's start (or the end)
};

/// Advances a crossing by `dt`; returns the agent's position on it (the far end once landed).
Point advance_link(CrowdLinkTraversal& crossing, double dt);

}  // namespace wayfinder::crowd_detail
