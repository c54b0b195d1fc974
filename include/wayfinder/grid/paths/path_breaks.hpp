#pragma once
// Has the map changed under a path? An agent walking a planned path asks, after edits (a door
// closing, a bridge burning), whether and where its path is broken, and replans only then.
// Only the cells the change log lists since the path was planned are looked at, so the check
// costs O(changes + path) and nothing when nothing changed.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/grid/world/grid_rules.hpp"

namespace wayfinder {

enum class PathBreak : std::uint8_t {
  blocked_cell,    ///< the step enters a cell that is now blocked
  blocked_corner,  ///< a diagonal step whose corner cells now forbid it (the diagonal rule)
  cost_grew,       ///< the step's cells cost more than when the path was planned
  unknown_history, ///< the change log no longer reaches back to the planning revision, and
                   ///< the path is valid on the map as it is: costs may have changed unseen
};

struct BrokenStep {
  /// The step from path[step] to path[step + 1].
  std::size_t step = 0;
  PathBreak reason = PathBreak::blocked_cell;
};

/// The first step of `path` (cell ids of `map`, start first, as PathResult::nodes) that edits
/// made after `planned_revision` (the map's revision() when the path was planned) broke: a step
/// onto a now-blocked cell, a diagonal through a now-blocked corner, or a step whose cells'
/// costs grew. Nullopt when no step is affected (cheaper cells do not break a path, though a
/// shorter one may now exist). When the change log no longer reaches back that far, the whole
/// path is checked against the map as it is: a blocked cell or corner is reported as such,
/// otherwise the answer is unknown_history at step 0 (replan to be sure).
/// With the `filter` the path was planned under (GridSearchOptions::filter), cells whose new
/// area or flags the filter excludes count as blocked, and costs are compared with the area
/// multipliers applied: a door flagged shut breaks a monster's path, not a key holder's.
/// Throws std::invalid_argument if consecutive cells are not neighbours or an id is outside
/// the map.
[[nodiscard]] std::optional<BrokenStep> first_blocked_step(const GridMap& map, std::span<const NodeId> path,
                                                           std::uint64_t planned_revision,
                                                           DiagonalMode diagonal = DiagonalMode::only_if_no_obstacles,
                                                           const AreaFilter* filter = nullptr);

}  // namespace wayfinder
