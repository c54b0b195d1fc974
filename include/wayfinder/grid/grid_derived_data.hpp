#pragma once
// What a GridQuery's queries read besides the map: JPS+'s jump table and goal bounds, the
// hierarchy of hierarchical search, the clearance of agents larger than one cell and their
// body maps. Each is a read-only object of one map version (it records the revision it was
// built from), built by the caller once and shared by any number of pathfinders, on any number
// of threads; a pathfinder never builds one. docs/architecture.md ("Derived data") says why
// and what an owner does after an edit.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

class GridBodyMap;
class GridClearance;
class HierarchicalGrid;
struct GridSearchOptions;

/// The map as a k x k agent sees it (grid_body_map.hpp), and the structures built over it for
/// the searches that run on it: jump_point needs body_map, jump_point_plus also jump_table,
/// hierarchical also hierarchy. The jump table and hierarchy keep the body map alive.
struct GridAgentBodyData {
  int agent_size = 0;
  std::shared_ptr<const GridBodyMap> body_map;
  std::shared_ptr<const GridJumpTable> jump_table;
  std::shared_ptr<const HierarchicalGrid> hierarchy;
};

/// Every piece is optional: a query needs only what its options ask for (null pieces are never
/// read). A query that needs a piece that is missing, or that was built for another revision
/// of the map, is refused with invalid_input and a message that says what to build.
struct GridDerivedData {
  /// jump_point_plus with agent_size 1.
  std::shared_ptr<const GridJumpTable> jump_table;
  /// Optional, for jump_point_plus with agent_size 1: prunes jumps, still optimal.
  std::shared_ptr<const GridGoalBounds> goal_bounds;
  /// hierarchical with agent_size 1; its cluster size must be the query's cluster_size.
  std::shared_ptr<const HierarchicalGrid> hierarchy;
  /// Every query with agent_size above 1.
  std::shared_ptr<const GridClearance> clearance;
  /// jump_point, jump_point_plus and hierarchical with agent_size above 1: one entry per size.
  std::vector<GridAgentBodyData> bodies;

  /// The entry for `agent_size`, or null.
  [[nodiscard]] const GridAgentBodyData* body(int agent_size) const;
};

/// Builds into `data` every piece that queries with `options` on `map` need and that `data`
/// lacks or holds for an older revision of the map; the pieces already current are kept (and
/// stay shared). Goal bounds are never built here (their build is quadratic in the passable
/// cells): build a GridGoalBounds and set it when wanted. Options a query would refuse for
/// another reason (an unknown algorithm, a bad cluster size or agent size) build nothing.
/// Not while a query that reads `data` runs on another thread (the pieces it replaces stay
/// alive for queries that hold them, but `data` itself is not synchronised).
void build_grid_derived_data(const GridMap& map, const GridSearchOptions& options, GridDerivedData& data);
/// The same into a new GridDerivedData.
[[nodiscard]] GridDerivedData build_grid_derived_data(const GridMap& map, const GridSearchOptions& options);

/// Why queries with `options` on `map` cannot run with `data` (a piece is missing, or was built
/// for another revision or size of the map, or for another cluster size), naming what to build;
/// nullopt when they can. Options refused for other reasons are not judged here.
[[nodiscard]] std::optional<std::string> grid_derived_data_problem(const GridMap& map, const GridSearchOptions& options,
                                                                   const GridDerivedData& data);

}  // namespace wayfinder
