#pragma once
// The options every world's queries share, under one set of names. Each world's options
// (GridSearchOptions, NavMeshSearchOptions, VoxelSearchOptions) derive from this and add only
// what is their own: the algorithm, the grid's diagonal rule, the mesh's tolerances, the voxel
// agent's movement profile. `weight` means one thing in every world (weight_problem below; each
// world keeps its own default, so the field lives in each world's options).

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/search_trace.hpp"

namespace wayfinder {

struct QueryOptions {
  /// Limits that end the search (expansions, cost, total time including set-up).
  Budget budget;
  /// When the budget runs out: true returns `partial`, a path to the reached node closest to
  /// the goal; false returns `budget_exhausted` with no path.
  bool return_partial = true;
  /// When the goal is unreachable: true returns `partial` towards the closest reached node
  /// instead of `no_path`.
  bool partial_when_unreachable = false;
  /// Optional event log for drawing what the search explored; null costs nothing.
  SearchTrace* trace = nullptr;
};

/// `weight` in every world's options is the factor on the heuristic of the searches that weight
/// it: they order nodes by g + weight x h and, for weight >= 1, return a cost within weight x
/// optimal. Those searches are `weighted_astar` on grids and voxel worlds (which also need
/// weight >= 1) and the mesh's corridor search, which is always A* (weight 0 makes it
/// Dijkstra's). Every other algorithm does not read `weight`: any usable weight changes nothing
/// there, in all three worlds alike. Every query refuses (invalid_input, these words) a weight
/// that is no usable factor at all — NaN, infinite or negative — whatever its algorithm, so
/// nonsense is never silently ignored.
[[nodiscard]] inline std::optional<std::string> weight_problem(double weight) {
  if (std::isfinite(weight) && weight >= 0.0) return std::nullopt;
  char text[32];
  std::snprintf(text, sizeof text, "%g", weight);
  return std::string("weight must be a finite number >= 0, got ") + text;
}

}  // namespace wayfinder
