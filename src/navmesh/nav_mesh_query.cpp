#include "wayfinder/navmesh/nav_mesh_query.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "core/stepped_query.hpp"
#include "wayfinder/navmesh/exact_path_search.hpp"
#include "navmesh/corridor_search.hpp"
#include "navmesh/straight_path.hpp"
#include "wayfinder/core/geometry.hpp"

namespace wayfinder {

std::string_view to_string(CorridorNodes nodes) {
  switch (nodes) {
    case CorridorNodes::polygon_centroids: return "centroids";
    case CorridorNodes::edge_points: return "edge-points";
    case CorridorNodes::optimal: return "optimal";
  }
  return "?";
}

std::optional<CorridorNodes> parse_corridor_nodes(std::string_view name) {
  if (name == "centroids") return CorridorNodes::polygon_centroids;
  if (name == "edge-points") return CorridorNodes::edge_points;
  if (name == "optimal") return CorridorNodes::optimal;
  return std::nullopt;
}

using namespace corridor_search;

namespace {

using geometry::is_finite;

// Whether every cost of the filter is > 0 (NaN is not), the check AreaFilter::problem() makes,
// counted without a branch so that the compiler compares four or eight costs at a time: a query
// pays about 70 instructions for it rather than a loop of 64 branches (about 500). problem()
// then words the message.
bool costs_usable(const AreaFilter& filter) {
  int usable = 0;
  for (const float cost : filter.area_costs) usable += cost > 0.0f ? 1 : 0;
  return usable == max_areas;
}

// What is wrong with the options, or nothing. Checked where a query enters, before anything
// else, so that no value the header does not allow reaches the search (an enum cast from an
// out-of-range number, a NaN limit) and every query answers invalid_input instead of throwing
// or searching with nonsense.
std::optional<std::string> option_problem(const NavMeshSearchOptions& options) {
  if (options.nodes != CorridorNodes::polygon_centroids && options.nodes != CorridorNodes::edge_points &&
      options.nodes != CorridorNodes::optimal)
    return "nodes must be CorridorNodes::polygon_centroids, edge_points or optimal, not " +
           std::to_string(static_cast<int>(options.nodes));
  if (auto problem = weight_problem(options.weight)) return problem;
  if (!(options.height_tolerance >= 0.0))
    return "height_tolerance must be non-negative, not " + std::to_string(options.height_tolerance);
  if (!(options.snap_distance >= 0.0))
    return "snap_distance must be non-negative, not " + std::to_string(options.snap_distance);
  if (std::optional<std::string> problem = budget_problem(options.budget)) return problem;
  if (options.filter && !costs_usable(*options.filter)) return filter_problem(*options.filter);
  return std::nullopt;
}

// AreaFilter::neutral_for(mesh.areas_in_use(), mesh.flags_in_use()), visiting only the areas
// and flags in use: most meshes use area 0 alone and no flags, and a query with a neutral
// filter should cost what one without a filter costs (neutral_for looks at all 64 areas and
// 16 flags). The same test as neutral_for's, so the two must change together.
bool neutral_on(const AreaFilter& filter, const NavMesh& mesh) {
  for (std::uint64_t areas = mesh.areas_in_use(); areas != 0; areas &= areas - 1)
    if (filter.cost(static_cast<AreaId>(std::countr_zero(areas))) != 1.0f) return false;
  for (unsigned flags = mesh.flags_in_use(); flags != 0; flags &= flags - 1)
    if (!filter.flags_pass(static_cast<AreaFlags>(flags & (~flags + 1)))) return false;
  return true;
}

// Different regions and start and goal in one polygon settle in begin() (SteppedQuery::settle_in_place).
// Searches with and without a filter are different runs, so that the unfiltered one stays
// exactly as fast as before (the filtered ones are compiled elsewhere: corridor_search.hpp).
// An exact search (CorridorNodes::optimal) under way, stepped as the corridor runs are. Its
// result is the search's own (nothing for the corridor output: portals() stays empty).
struct ExactRun {
  ExactPathSearch* search = nullptr;
  const CorridorOutput* output = nullptr;
  SearchStatus step(const StepBudget& budget) { return search->step(budget); }
  [[nodiscard]] SearchStats stats() const { return search->stats(); }
  void result(PathResult& out) const {
    search->result(out);
    if (!output->pull_string && out.found()) out.points.assign({output->start.point, output->goal.point});
  }
};

using ActiveSearch =
    SteppedQuery<CorridorRun<EdgePointDomain<AllAreasAlike>>, CorridorRun<CentroidDomain<AllAreasAlike>>, FilteredRun,
                 LinkedRun, ExactRun>;

// How far a point that is not on the mesh is from it, for the message that refuses it: a user
// who sees "0.02 away" knows the point is a rounding error, "40 away" that it is in another
// place. Only refused queries pay for the search over the mesh's polygons.
std::string off_mesh_distance_text(const NavMesh& mesh, const Point& point) {
  const MeshLocation nearest = mesh.nearest_point(point, std::numeric_limits<double>::infinity());
  if (!nearest.valid()) return {};
  char distance[32];
  std::snprintf(distance, sizeof distance, "%.3f", geometry::distance(point, nearest.point));
  return ": the nearest polygon, " + std::to_string(nearest.polygon) + ", is " + distance + " away";
}

// Starts a corridor run of domain D and runs it to its end when it ends at once.
template <class D>
SearchStatus start_run(ActiveSearch& active, SearchContext& context, CorridorOutput& output, D&& domain, NodeId from,
                       NodeId to, const SearchOptions& search) {
  auto& run = active.start<CorridorRun<D>>(context, output, std::move(domain));
  const SearchStatus status = run.engine.search.start(from, to, search);
  if (status != SearchStatus::in_progress) run.finish();
  return status;
}

}  // namespace

struct NavMeshQueryState {
  explicit NavMeshQueryState(const NavMesh& mesh) : output(mesh) {}
  SearchContext context;
  std::vector<Point> crossings;  ///< per directed edge: where this query's crossing point lies
  CorridorOutput output;
  ActiveSearch active;
  CorridorNodes nodes = CorridorNodes::edge_points;  ///< the current query's (options are not kept whole: a filter is large)
  AreaFilter filter;  ///< the current query's filter, when it has effect (output.filter points here)
  FilteredSearchesPointer filtered;  ///< made by the first filtered query, then reused
  LinkedSearchesPointer linked;      ///< made by the first query on a mesh with off-mesh links, then reused
  std::unique_ptr<ExactPathSearch> exact;  ///< made by the first CorridorNodes::optimal query, then reused
};

NavMeshQuery::NavMeshQuery(const NavMesh& mesh) : QueryObject(mesh), state_(std::make_unique<NavMeshQueryState>(mesh)) {}
NavMeshQuery::~NavMeshQuery() = default;
NavMeshQuery::NavMeshQuery(NavMeshQuery&&) noexcept = default;

const std::vector<Portal>& NavMeshQuery::portals() const { return state_->output.portals; }

std::optional<ExactSearchNode> NavMeshQuery::exact_search_node(NodeId node) const {
  if (const auto* run = state_->active.run_if<ExactRun>()) return run->search->search_node(node);
  return std::nullopt;
}

Point NavMeshQuery::corridor_node_position(NodeId node) const {
  const NavMeshQueryState& state = *state_;
  std::optional<Point> position;
  auto position_in = [&]<class D>(std::type_identity<D>) {
    if (const auto* run = state.active.run_if<CorridorRun<D>>())
      position = node < run->engine.domain.node_count() ? run->engine.domain.position(node) : Point{};
  };
  position_in(std::type_identity<CentroidDomain<AllAreasAlike>>{});
  position_in(std::type_identity<EdgePointDomain<AllAreasAlike>>{});
  if (position) return *position;
  if (const auto* run = state.active.run_if<FilteredRun>()) return run->position(node);
  if (const auto* run = state.active.run_if<LinkedRun>()) return run->position(node);
  if (const auto* run = state.active.run_if<ExactRun>()) {
    // An interval's midpoint.
    const auto view = run->search->search_node(node);
    if (!view) return Point{};
    return {(view->left.x + view->right.x) / 2, (view->left.y + view->right.y) / 2, (view->left.z + view->right.z) / 2};
  }
  if (state.nodes == CorridorNodes::polygon_centroids)
    return node < mesh().polygon_count() ? mesh().centroid(node) : Point{};
  const EdgePointGraph& graph = SearchTables::edge_point_graph(mesh());
  return node < graph.node_count() ? graph.position(node) : Point{};
}

SearchStatus NavMeshQuery::start_query(const Point& start, const Point& goal, const NavMeshSearchOptions& options) {
  NavMeshQueryState& state = *state_;
  state.nodes = options.nodes;
  ActiveSearch& active = state.active;
  active.watch(mesh().revision());
  if (const auto problem = option_problem(options)) return active.reject(*problem);
  if (!is_finite(start) || !is_finite(goal)) return active.reject("start and goal must be finite points");

  const AreaFilter* filter = adopt_filter(options);
  std::string problem;
  auto excluded = [&](const MeshLocation& location, const char* which, const char* how) {
    problem = exclusion_message(mesh(), *filter, location.polygon, std::string(which) + " point " + how);
  };
  auto place = [&](const Point& point, const char* which) -> std::optional<MeshLocation> {
    // With a filter, the point stands on a polygon the filter passes if it can (on an edge
    // between an excluded polygon and another, it stands on the other).
    MeshLocation location =
        filter != nullptr ? mesh().locate(point, options.height_tolerance, *filter) : mesh().locate(point, options.height_tolerance);
    if (!location.valid() && filter != nullptr) {
      if (const MeshLocation on_excluded = mesh().locate(point, options.height_tolerance); on_excluded.valid()) {
        excluded(on_excluded, which, "stands on");
        return std::nullopt;
      }
    }
    if (!location.valid() && options.snap_distance > 0.0) {
      location = mesh().nearest_point(point, options.snap_distance);
      if (location.valid() && filter != nullptr &&
          !filter->passes(mesh().area(location.polygon), mesh().flags(location.polygon))) {
        excluded(location, which, "is off the mesh, and snaps onto");
        return std::nullopt;
      }
    }
    if (!location.valid()) {
      problem = std::string(which) + " point is not on the mesh" + off_mesh_distance_text(mesh(), point) +
                (options.snap_distance > 0.0 ? " (nor within snap_distance of it)" : " (set snap_distance to clamp it)");
      return std::nullopt;
    }
    return location;
  };
  const auto start_location = place(start, "start");
  if (!start_location) return active.reject(problem);
  const auto goal_location = place(goal, "goal");
  if (!goal_location) return active.reject(problem);
  return start_corridor_search(*start_location, *goal_location, options, true, filter);
}

const AreaFilter* NavMeshQuery::adopt_filter(const NavMeshSearchOptions& options) {
  if (!options.filter || neutral_on(*options.filter, mesh())) return nullptr;
  state_->filter = *options.filter;
  return &state_->filter;
}

SearchStatus NavMeshQuery::start_corridor_search(const MeshLocation& start, const MeshLocation& goal,
                                                 const NavMeshSearchOptions& options, bool pull_string,
                                                 const AreaFilter* filter) {
  NavMeshQueryState& state = *state_;
  state.nodes = options.nodes;
  state.active.watch(mesh().revision());
  CorridorOutput& output = state.output;
  output.placement = options.nodes;
  output.start = start;
  output.goal = goal;
  output.pull_string = pull_string;
  output.filter = filter;
  output.corridor.clear();
  output.portals.clear();
  output.links.clear();
  ActiveSearch& active = state.active;
  if (options.nodes == CorridorNodes::optimal) {
    // The exact search checks regions and the filter's costs itself; `filter` points at the
    // query's own copy, which lives as long as the query.
    if (!state.exact) state.exact = std::make_unique<ExactPathSearch>(mesh());
    ExactRun& run = active.start<ExactRun>();
    run.search = state.exact.get();
    run.output = &output;
    return state.exact->begin(start, goal, options, filter);
  }
  // Different regions: no path, known without searching (unless a partial path towards the
  // goal is wanted: then the search finds the closest place).
  const bool same_region = mesh().region(start.polygon) == mesh().region(goal.polygon);
  if (!same_region && !options.partial_when_unreachable) {
    PathResult& result = active.settle_in_place();
    result.status = SearchStatus::no_path;
    result.reason = StopReason::open_list_empty;
    result.message.assign("start and goal are in different connected regions (");
    result.message.append(std::to_string(mesh().region(start.polygon))).append(" and ");
    result.message.append(std::to_string(mesh().region(goal.polygon))).append("); no search was needed");
    return result.status;
  }
  // Inside one convex polygon the straight segment is the path.
  if (start.polygon == goal.polygon) {
    PathResult& result = active.settle_in_place();
    Cost cost = distance(start.point, goal.point);
    if (filter != nullptr) cost *= filter->cost(mesh().area(start.polygon));
    set_straight_path(result, start.polygon, start.point, goal.point, cost);
    output.corridor.push_back(start.polygon);
    return result.status;
  }
  const SearchOptions search = engine_options(options, 1.0, options.weight);
  // Dead ends stay exact under a filter (it only takes polygons away, and a move's cost depends
  // on the polygon it crosses alone, so going into a dead end and back over the same edge is
  // still never shorter), but a partial search towards a goal the filter may have cut off must
  // see everything it can reach, as across regions. Off-mesh links keep pruning exact without a
  // filter (each costs at least its straight line, so a way into a pocket and back is never
  // shorter); under a filter a link's area may cost less than the polygons around the pocket,
  // and a pocket's cheap link could then beat the way round it, so filtered searches on meshes
  // with links do not prune.
  const bool prune_dead_ends =
      same_region &&
      (filter == nullptr || (!options.partial_when_unreachable && mesh().off_mesh_link_count() == 0));
  // The domains are aggregates, built here and moved in: not every compiler supports aggregate
  // initialisation with parentheses yet.
  auto start_search = [&](auto areas, auto links, auto&& start_domain) {
    using Areas = decltype(areas);
    constexpr bool Links = decltype(links)::value;
    if (options.nodes == CorridorNodes::edge_points) {
      state.crossings.resize(SearchTables::edge_point_graph(mesh()).node_count() / EdgePointGraph::points_per_edge);
      EdgePointDomain<Areas, Links> domain{mesh(),       SearchTables::edge_point_graph(mesh()), start.polygon, goal.polygon, start.point,
                                           goal.point,  state.crossings,          invalid_node,  Point{},      0.0,
                                           prune_dead_ends, areas};
      const NodeId from = domain.start_node(), to = domain.goal_node();
      return start_domain(std::move(domain), from, to);
    }
    return start_domain(
        CentroidDomain<Areas, Links>{mesh(), start.polygon, goal.polygon, start.point, goal.point, prune_dead_ends, areas},
        start.polygon, goal.polygon);
  };
  // Without a filter and without links, the search as it always was; filtered searches and
  // searches on meshes with off-mesh links are compiled elsewhere (corridor_search.hpp says why).
  auto start_elsewhere = [&](auto& run) {
    return [&, target = &run](auto&& domain, NodeId from, NodeId to) {
      return target->start(state.context, output, std::move(domain), from, to, search);
    };
  };
  if (mesh().off_mesh_link_count() == 0) {
    if (filter == nullptr) {
      return start_search(AllAreasAlike{}, std::false_type{}, [&](auto&& domain, NodeId from, NodeId to) {
        return start_run(active, state.context, output, std::move(domain), from, to, search);
      });
    }
    if (!state.filtered) state.filtered = make_filtered_searches();
    FilteredRun& run = active.start<FilteredRun>(*state.filtered);
    return start_search(FilteredAreas{&mesh(), filter, filter->smallest_cost(mesh().areas_in_use())}, std::false_type{},
                        start_elsewhere(run));
  }
  if (!state.linked) state.linked = make_linked_searches();
  LinkedRun& run = active.start<LinkedRun>(*state.linked);
  if (filter == nullptr) return start_search(AllAreasAlike{}, std::true_type{}, start_elsewhere(run));
  return start_search(FilteredAreas{&mesh(), filter, filter->smallest_cost(mesh().areas_in_use())}, std::true_type{},
                      start_elsewhere(run));
}

SearchStatus NavMeshQuery::advance_query(const StepBudget& budget) { return state_->active.step(budget, mesh().revision()); }

SearchStats NavMeshQuery::query_stats() const { return state_->active.stats(); }

void NavMeshQuery::write_result(PathResult& out) const { state_->active.result(out); }

PathResult NavMeshQuery::find_corridor(const MeshLocation& start, const MeshLocation& goal,
                                       const NavMeshSearchOptions& options) {
  if (const auto problem = option_problem(options)) return PathResult::invalid(*problem);
  if (!start.valid() || !goal.valid() || start.polygon >= mesh().polygon_count() ||
      goal.polygon >= mesh().polygon_count())
    return PathResult::invalid("start and goal must be located on the mesh");
  if (!is_finite(start.point) || !is_finite(goal.point)) return PathResult::invalid("start and goal must be finite points");
  const AreaFilter* filter = adopt_filter(options);
  if (filter != nullptr) {
    for (const auto& [location, which] : {std::pair{&start, "start"}, std::pair{&goal, "goal"}}) {
      const PolygonId polygon = location->polygon;
      if (!filter->passes(mesh().area(polygon), mesh().flags(polygon)))
        return PathResult::invalid(exclusion_message(mesh(), *filter, polygon, std::string(which) + " is located on"));
    }
  }
  if (start_corridor_search(start, goal, options, false, filter) == SearchStatus::in_progress) step(StepBudget{});
  PathResult corridor = result();
  corridor.points = {start.point, goal.point};
  return corridor;
}

}  // namespace wayfinder
