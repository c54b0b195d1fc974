#pragma once
// The options every world's queries share, under one set of names. Each world's options
// (GridSearchOptions, NavMeshSearchOptions, VoxelSearchOptions) derive from this and add only
// what is their own: the algorithm, the grid's diagonal rule, the mesh's tolerances, the voxel
// agent's movement profile. `weight` is also the same word everywhere (the heuristic weight),
// but each world keeps its own default, so it lives in each world's options.

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

}  // namespace wayfinder
