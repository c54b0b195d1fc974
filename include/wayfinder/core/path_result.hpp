#pragma once
// The answer every query returns, whatever the world or the algorithm.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

enum class SearchStatus : std::uint8_t {
  in_progress,       ///< a stepped search that has not finished yet
  found,             ///< a path from start to goal
  partial,           ///< no path to the goal (yet); the path leads to the reached node closest to it
  no_path,           ///< the goal is unreachable from the start
  budget_exhausted,  ///< the budget ran out and partial paths were not requested
  invalid_input,     ///< the query was malformed (see PathResult::message)
  world_changed,     ///< the world was edited between begin() and a step: the search stopped rather
                     ///< than mix two versions of it; begin the query again
};

/// Why a search stopped, for detail beyond the status.
enum class StopReason : std::uint8_t {
  none,             ///< still running
  goal_reached,
  open_list_empty,  ///< everything reachable was searched
  expansion_limit,
  cost_limit,
  time_limit,
  invalid_input,
  world_changed,    ///< an edit of the world between steps (revision() moved)
  gave_up,          ///< a reactive walker (no search) stopped short: it cannot tell whether a path exists
  memory_limit,     ///< the search state grew past Budget::max_memory_bytes
};

std::string_view to_string(SearchStatus status);
std::string_view to_string(StopReason reason);

struct SearchStats {
  std::uint64_t expanded = 0;   ///< nodes taken off the open list and expanded
  std::uint64_t generated = 0;  ///< successor edges looked at
  std::uint64_t peak_open = 0;  ///< largest open-list size
  double microseconds = 0.0;    ///< wall time spent searching (summed over steps)
};

/// Where a path leaves the ground and takes a navigation mesh's off-mesh link (a jump, a ladder,
/// a teleporter): the agent walks to points[waypoint], takes the link, and lands at
/// points[waypoint + 1].
struct PathLinkStep {
  std::uint32_t waypoint = 0;  ///< index in points of the link's start (its end is the next point)
  std::uint32_t node = 0;      ///< index in nodes of the polygon the link leaves (nodes[node + 1] is where it lands)
  std::uint32_t link = 0;      ///< the link's id (NavMesh::off_mesh_link)
  bool reverse = false;        ///< a two-way link taken from its end to its start
  friend bool operator==(const PathLinkStep&, const PathLinkStep&) = default;
};

struct PathResult {
  SearchStatus status = SearchStatus::in_progress;
  StopReason reason = StopReason::none;
  /// Nodes from start to the path's end (the goal when found). Grids: cell ids y * width + x.
  std::vector<NodeId> nodes;
  /// The same path as positions in world units (grid cell centres; mesh waypoints).
  std::vector<Point> points;
  /// Cost of the returned path (0 for an empty path).
  Cost cost = 0.0;
  SearchStats stats;
  /// For invalid_input: what was wrong.
  std::string message;
  /// The off-mesh links the path takes, in order (navigation meshes only; empty elsewhere and
  /// on paths that walk all the way).
  std::vector<PathLinkStep> links;

  [[nodiscard]] bool found() const { return status == SearchStatus::found; }
  /// True when the path is worth following: found, or partial with at least one move.
  [[nodiscard]] bool has_path() const {
    return status == SearchStatus::found || (status == SearchStatus::partial && nodes.size() > 1);
  }

  /// Back to a default-constructed result, keeping the memory of nodes, points and message,
  /// so that a result the caller reuses across queries is filled without allocating.
  void reset() {
    status = SearchStatus::in_progress;
    reason = StopReason::none;
    nodes.clear();
    points.clear();
    cost = 0.0;
    stats = {};
    message.clear();
    links.clear();
  }

  static PathResult invalid(std::string why) {
    PathResult result;
    result.status = SearchStatus::invalid_input;
    result.reason = StopReason::invalid_input;
    result.message = std::move(why);
    return result;
  }
};

}  // namespace wayfinder
