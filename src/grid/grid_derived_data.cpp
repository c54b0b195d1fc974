#include "wayfinder/grid/grid_derived_data.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "wayfinder/grid/world/grid_body_map.hpp"
#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/hierarchy/hierarchical_grid.hpp"

namespace wayfinder {

namespace {

/// The options a query would refuse before reading any derived data: nothing is built for them.
bool judged_here(const GridSearchOptions& options) {
  if (static_cast<unsigned>(options.algorithm) > static_cast<unsigned>(GridAlgorithm::hierarchical)) return false;
  if (options.agent_size < 1 || options.agent_size > max_clearance) return false;
  if (options.algorithm == GridAlgorithm::hierarchical && (options.cluster_size < 4 || options.cluster_size > 256))
    return false;
  return true;
}

const char* const how_to_build =
    "build what the query needs with build_grid_derived_data(map, options, data) and give it to the pathfinder with "
    "set_derived_data";

std::string revision_text(std::uint64_t built, const GridMap& map) {
  return "was built for revision " + std::to_string(built) + " of the map, which is now at revision " +
         std::to_string(map.revision());
}

/// Why `hierarchy` cannot serve hierarchical queries with clusters of `cluster_size` on `map`.
std::optional<std::string> hierarchy_problem(const HierarchicalGrid* hierarchy, const GridMap& map, int cluster_size,
                                             std::string_view what) {
  if (hierarchy == nullptr)
    return "hierarchical search (hpa) needs a hierarchy of " + std::string(what) + ": " + how_to_build;
  if (&hierarchy->map() != &map)
    return "hierarchical search (hpa): the hierarchy was built over another map than " + std::string(what) + ": " +
           how_to_build;
  if (hierarchy->cluster_size() != cluster_size)
    return "hierarchical search (hpa): the hierarchy has clusters of " + std::to_string(hierarchy->cluster_size()) +
           " cells and the query asks for " + std::to_string(cluster_size) + ": " + how_to_build;
  if (!hierarchy->current())
    return "hierarchical search (hpa): the hierarchy of " + std::string(what) + " " +
           revision_text(hierarchy->revision(), map) +
           ": bring it up to date (HierarchicalGrid::update, a local update from the map's change log, on a hierarchy "
           "no query reads meanwhile), or " + how_to_build;
  return std::nullopt;
}

std::optional<std::string> jump_table_problem(const GridJumpTable* table, const GridMap& map, std::string_view what) {
  if (table == nullptr)
    return "JPS+ needs a jump table of " + std::string(what) + ": " + how_to_build + " (or set_jump_table)";
  if (auto problem = table->mismatch(map)) return "JPS+: " + *problem + "; " + how_to_build;
  return std::nullopt;
}

std::shared_ptr<const HierarchicalGrid> build_hierarchy(const GridMap& map, int cluster_size) {
  HierarchyOptions options;
  options.cluster_size = cluster_size;
  return std::make_shared<const HierarchicalGrid>(map, options);
}

/// A hierarchy over a body map, which it reads by reference: it owns a share of the body map.
std::shared_ptr<const HierarchicalGrid> build_body_hierarchy(std::shared_ptr<const GridBodyMap> body_map,
                                                             int cluster_size) {
  struct Held {
    Held(std::shared_ptr<const GridBodyMap> body, const HierarchyOptions& options)
        : body_map(std::move(body)), hierarchy(body_map->map(), options) {}
    std::shared_ptr<const GridBodyMap> body_map;
    HierarchicalGrid hierarchy;
  };
  HierarchyOptions options;
  options.cluster_size = cluster_size;
  auto held = std::make_shared<const Held>(std::move(body_map), options);
  return {held, &held->hierarchy};
}

}  // namespace

const GridAgentBodyData* GridDerivedData::body(int agent_size) const {
  for (const GridAgentBodyData& entry : bodies)
    if (entry.agent_size == agent_size) return &entry;
  return nullptr;
}

void build_grid_derived_data(const GridMap& map, const GridSearchOptions& options, GridDerivedData& data) {
  if (!judged_here(options)) return;
  const GridAlgorithm algorithm = options.algorithm;
  const int size = options.agent_size;
  if (size == 1) {
    if (algorithm == GridAlgorithm::jump_point_plus && jump_table_problem(data.jump_table.get(), map, {}))
      data.jump_table = std::make_shared<const GridJumpTable>(map);
    if (algorithm == GridAlgorithm::hierarchical &&
        hierarchy_problem(data.hierarchy.get(), map, options.cluster_size, {}))
      data.hierarchy = build_hierarchy(map, options.cluster_size);
    return;
  }
  if (data.clearance == nullptr || !data.clearance->current_for(map))
    data.clearance = std::make_shared<const GridClearance>(map);
  if (!searches_body_map(algorithm)) return;
  auto found = std::find_if(data.bodies.begin(), data.bodies.end(),
                            [&](const GridAgentBodyData& entry) { return entry.agent_size == size; });
  if (found == data.bodies.end()) found = data.bodies.insert(data.bodies.end(), GridAgentBodyData{size, {}, {}, {}});
  GridAgentBodyData& entry = *found;
  if (entry.body_map == nullptr || !entry.body_map->current_for(map, size)) {
    auto body_map = std::make_shared<GridBodyMap>();
    body_map->update(map, *data.clearance, size);
    entry = GridAgentBodyData{size, std::move(body_map), {}, {}};
  }
  const GridMap& body = entry.body_map->map();
  if (algorithm == GridAlgorithm::jump_point_plus && jump_table_problem(entry.jump_table.get(), body, {}))
    entry.jump_table = std::make_shared<const GridJumpTable>(body);
  if (algorithm == GridAlgorithm::hierarchical &&
      hierarchy_problem(entry.hierarchy.get(), body, options.cluster_size, {}))
    entry.hierarchy = build_body_hierarchy(entry.body_map, options.cluster_size);
}

GridDerivedData build_grid_derived_data(const GridMap& map, const GridSearchOptions& options) {
  GridDerivedData data;
  build_grid_derived_data(map, options, data);
  return data;
}

std::optional<std::string> grid_derived_data_problem(const GridMap& map, const GridSearchOptions& options,
                                                     const GridDerivedData& data) {
  if (!judged_here(options)) return std::nullopt;
  const GridAlgorithm algorithm = options.algorithm;
  const int size = options.agent_size;
  if (size == 1) {
    if (algorithm == GridAlgorithm::jump_point_plus) {
      if (auto problem = jump_table_problem(data.jump_table.get(), map, "the map")) return problem;
      if (data.goal_bounds != nullptr)
        if (auto problem = data.goal_bounds->mismatch(map))
          return "JPS+: " + *problem + "; build the goal bounds again (GridGoalBounds of the map as it is now) and " +
                 "set them, or set null ones to search without them";
    }
    if (algorithm == GridAlgorithm::hierarchical)
      return hierarchy_problem(data.hierarchy.get(), map, options.cluster_size, "the map");
    return std::nullopt;
  }
  const std::string agent = "agent_size " + std::to_string(size);
  if (data.clearance == nullptr)
    return agent + " needs the map's clearance: " + how_to_build + " (or a GridClearance of the map)";
  if (!data.clearance->current_for(map))
    return agent + ": the clearance " + revision_text(data.clearance->revision(), map) +
           ": compute it again (a new GridClearance of the map), or " + how_to_build;
  if (!searches_body_map(algorithm)) return std::nullopt;
  const std::string body_text = "the map as a " + std::to_string(size) + "x" + std::to_string(size) + " agent sees it";
  const GridAgentBodyData* entry = data.body(size);
  if (entry == nullptr || entry->body_map == nullptr)
    return std::string(to_string(algorithm)) + " with " + agent + " searches " + body_text + " (its body map): " +
           how_to_build;
  if (!entry->body_map->current_for(map, size))
    return std::string(to_string(algorithm)) + " with " + agent + ": the body map was built for another revision of "
           "the map (bring it up to date with GridBodyMap::update after the clearance, or " + how_to_build + ")";
  const GridMap& body = entry->body_map->map();
  if (algorithm == GridAlgorithm::jump_point_plus) return jump_table_problem(entry->jump_table.get(), body, body_text);
  if (algorithm == GridAlgorithm::hierarchical)
    return hierarchy_problem(entry->hierarchy.get(), body, options.cluster_size, body_text);
  return std::nullopt;
}

}  // namespace wayfinder
