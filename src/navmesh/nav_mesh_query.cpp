#include "wayfinder/navmesh/nav_mesh_query.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "wayfinder/core/best_first_search.hpp"
#include "core/engine_run.hpp"
#include "core/stepped_query.hpp"
#include "wayfinder/core/search_context.hpp"

namespace wayfinder {

std::string_view to_string(CorridorNodes nodes) {
  switch (nodes) {
    case CorridorNodes::polygon_centroids: return "centroids";
    case CorridorNodes::edge_points: return "edge-points";
  }
  return "?";
}

std::optional<CorridorNodes> parse_corridor_nodes(std::string_view name) {
  if (name == "centroids") return CorridorNodes::polygon_centroids;
  if (name == "edge-points") return CorridorNodes::edge_points;
  return std::nullopt;
}

namespace {

double distance(const Point& a, const Point& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// The length seen from above: the corridor search measures moves as the paths' quality is
// measured (the 2D length), and it saves a term in every distance.
double distance_xz(const Point& a, const Point& b) {
  const double dx = a.x - b.x, dz = a.z - b.z;
  return std::sqrt(dx * dx + dz * dz);
}

bool finite(const Point& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

// What is wrong with the options, or nothing. Checked where a query enters, before anything
// else, so that no value the header does not allow reaches the search (an enum cast from an
// out-of-range number, a NaN limit) and every query answers invalid_input instead of throwing
// or searching with nonsense.
std::optional<std::string> option_problem(const NavMeshSearchOptions& options) {
  if (options.nodes != CorridorNodes::polygon_centroids && options.nodes != CorridorNodes::edge_points)
    return "nodes must be CorridorNodes::polygon_centroids or CorridorNodes::edge_points, not " +
           std::to_string(static_cast<int>(options.nodes));
  if (!(options.weight >= 0.0) || !std::isfinite(options.weight))
    return "weight must be finite and non-negative, not " + std::to_string(options.weight);
  if (!(options.height_tolerance >= 0.0))
    return "height_tolerance must be non-negative, not " + std::to_string(options.height_tolerance);
  if (!(options.snap_distance >= 0.0))
    return "snap_distance must be non-negative, not " + std::to_string(options.snap_distance);
  if (!(options.budget.max_cost >= 0.0))
    return "budget.max_cost must be non-negative (infinite for no limit), not " +
           std::to_string(options.budget.max_cost);
  if (options.budget.max_time.count() < 0)
    return "budget.max_time must not be negative (zero for no limit), not " +
           std::to_string(options.budget.max_time.count()) + " ns";
  return std::nullopt;
}

// The corridor search over points on shared edges (see edge_point_graph.hpp). The graph's
// nodes are numbered 0 .. n - 1; the query's start and goal are nodes n and n + 1. Crossing
// points move with each query, so their places live in the query (`crossings`, one per
// directed edge): a successor's candidate place is kept while the engine decides, and stored by
// on_improve() when the engine accepts the cheaper cost.
struct EdgePointDomain {
  const NavMesh& mesh;
  const EdgePointGraph& graph;
  PolygonId start_polygon;
  PolygonId goal_polygon;
  Point start;
  Point goal;
  std::vector<Point>& crossings;
  mutable NodeId candidate_node = invalid_node;
  mutable Point candidate_point;
  mutable double candidate_to_goal = 0.0;
  /// Leave out exits into dead ends. Only sound when the goal is in the start's region: a
  /// search for a partial path towards another region must see everything it can reach.
  bool prune_dead_ends = true;

  static constexpr std::uint32_t points = EdgePointGraph::points_per_edge;
  static constexpr std::uint32_t crossing = EdgePointGraph::crossing_point;
  static constexpr float unused = std::numeric_limits<float>::infinity();

  [[nodiscard]] NodeId start_node() const { return static_cast<NodeId>(graph.node_count()); }
  [[nodiscard]] NodeId goal_node() const { return static_cast<NodeId>(graph.node_count() + 1); }
  [[nodiscard]] std::size_t node_count() const { return graph.node_count() + 2; }

  [[nodiscard]] const Point& position(NodeId node) const {
    if (node >= graph.node_count()) return node == start_node() ? start : goal;
    return node % points == crossing ? crossings[node / points] : graph.position(node);
  }

  // Relaxes the crossing point of the edge whose points start at node `first`: where the line
  // from `here` (at distance `here_to_goal` from the goal) towards the goal crosses the edge,
  // clamped between its end points. When the line does cross the edge before the goal, the
  // step and the candidate's distance to the goal are the two parts of `here_to_goal`.
  template <class Sink>
  void relax_crossing(const Point& here, double here_to_goal, NodeId first, Sink& sink) const {
    const Point& a = graph.position(first);
    const Point& b = graph.position(first + points - 1);
    const double ex = b.x - a.x, ez = b.z - a.z;
    const double dx = goal.x - here.x, dz = goal.z - here.z;
    const double denominator = ex * dz - ez * dx;
    double step;
    if (std::abs(denominator) > 1e-12 * (std::abs(ex) + std::abs(ez)) * (std::abs(dx) + std::abs(dz))) {
      const double t = ((here.x - a.x) * dz - (here.z - a.z) * dx) / denominator;  // along the edge
      const double s = ((here.x - a.x) * ez - (here.z - a.z) * ex) / denominator;  // along here -> goal
      if (t >= 0.0 && t <= 1.0 && s >= 0.0 && s <= 1.0) {
        candidate_point = {a.x + ex * t, a.y + (b.y - a.y) * t, a.z + ez * t};
        step = s * here_to_goal;
        candidate_to_goal = here_to_goal - step;
      } else {
        const double clamped = std::clamp(t, 0.0, 1.0);
        candidate_point = {a.x + ex * clamped, a.y + (b.y - a.y) * clamped, a.z + ez * clamped};
        step = distance_xz(here, candidate_point);
        candidate_to_goal = distance_xz(candidate_point, goal);
      }
    } else {  // heading along the edge: the point of the edge nearest the goal
      const double length_squared = ex * ex + ez * ez;
      const double t = std::clamp(length_squared > 0.0 ? ((goal.x - a.x) * ex + (goal.z - a.z) * ez) / length_squared : 0.0,
                                  0.0, 1.0);
      candidate_point = {a.x + ex * t, a.y + (b.y - a.y) * t, a.z + ez * t};
      step = distance_xz(here, candidate_point);
      candidate_to_goal = distance_xz(candidate_point, goal);
    }
    candidate_node = first + crossing;
    sink(candidate_node, step);
    candidate_node = invalid_node;  // decided: later heuristic calls read the stored place
  }

  // False for an exit into a dead end (see NavMesh::leads_towards).
  [[nodiscard]] bool worth_taking(NodeId first) const {
    return !prune_dead_ends ||
           mesh.leads_towards(EdgePointGraph::shared_edge_of(first), graph.entered_polygon(first), goal_polygon);
  }

  // The points of one exit edge, from a place whose distances to the ends are not stored.
  template <class Sink>
  void relax_edge(const Point& here, double here_to_goal, NodeId first, Sink& sink) const {
    if (!worth_taking(first)) return;
    if (graph.is_corner_point(first)) sink(first, distance_xz(here, graph.position(first)));
    if (graph.is_corner_point(first + points - 1))
      sink(first + points - 1, distance_xz(here, graph.position(first + points - 1)));
    relax_crossing(here, here_to_goal, first, sink);
  }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    if (node == start_node()) {
      const double start_to_goal = distance_xz(start, goal);
      for (NodeId first : graph.exits(start_polygon)) relax_edge(start, start_to_goal, first, sink);
      return;
    }
    const Point& here = position(node);
    const double here_to_goal = distance_xz(here, goal);
    if (graph.entered_polygon(node) == goal_polygon) sink(goal_node(), here_to_goal);
    if (node % points == crossing) {
      for (const EdgePointGraph::Exit& exit : graph.onward_exits(node)) relax_edge(here, here_to_goal, exit.first, sink);
      return;
    }
    for (const EdgePointGraph::Exit& exit : graph.onward_exits(node)) {
      if (!worth_taking(exit.first)) continue;
      if (exit.cost_to_first_end != unused) sink(exit.first, static_cast<Cost>(exit.cost_to_first_end));
      if (exit.cost_to_last_end != unused) sink(exit.first + points - 1, static_cast<Cost>(exit.cost_to_last_end));
      relax_crossing(here, here_to_goal, exit.first, sink);
    }
  }

  [[nodiscard]] Cost heuristic(NodeId node, NodeId) const {
    return node == candidate_node ? candidate_to_goal : distance_xz(position(node), goal);
  }

  /// The engine accepted a cheaper cost for `node`: a crossing point moves to its candidate place.
  void on_improve(NodeId node) const {
    if (node == candidate_node) crossings[node / points] = candidate_point;
  }
};

// Passes the engine's improvements on to the domain.
struct CrossingKeeper {
  const EdgePointDomain& domain;
  void operator()(NodeId node, Cost) const { domain.on_improve(node); }
};

// The classic corridor search: one node per polygon at its centroid; the start and goal
// polygons stand at the query's points instead.
struct CentroidDomain {
  const NavMesh& mesh;
  PolygonId start_polygon;
  PolygonId goal_polygon;
  Point start;
  Point goal;
  bool prune_dead_ends = true;  ///< as EdgePointDomain's

  [[nodiscard]] std::size_t node_count() const { return mesh.polygon_count(); }

  [[nodiscard]] const Point& position(NodeId polygon) const {
    return polygon == start_polygon ? start : polygon == goal_polygon ? goal : mesh.centroid(polygon);
  }

  template <class Sink>
  void for_each_successor(NodeId node, Sink&& sink) const {
    const Point& here = position(node);
    const auto neighbours = mesh.polygon_neighbours(node);
    for (std::uint32_t j = 0; j < neighbours.size(); ++j) {
      const PolygonId neighbour = neighbours[j];
      if (neighbour == invalid_polygon) continue;
      // Dead ends (see NavMesh::leads_towards) are left out.
      if (prune_dead_ends &&
          !mesh.leads_towards(mesh.shared_edge_of_slot(mesh.edge_slot(node, j)), neighbour, goal_polygon))
        continue;
      sink(neighbour, distance(here, position(neighbour)));
    }
  }

  [[nodiscard]] Cost heuristic(NodeId node, NodeId) const { return distance(position(node), goal); }
};

// The point of `polygon` closest to `target` seen from above, at the mesh's height there: where
// a partial path ends.
Point closest_point_in_polygon(const NavMesh& mesh, PolygonId polygon, const Point& target) {
  if (mesh.contains_xz(polygon, target.x, target.z))
    return {target.x, mesh.height_at(polygon, target.x, target.z), target.z};
  const auto indices = mesh.polygon_vertices(polygon);
  Point best = mesh.vertex(indices[0]);
  double best_squared = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const Point& a = mesh.vertex(indices[i]);
    const Point& b = mesh.vertex(indices[i + 1 == indices.size() ? 0 : i + 1]);
    const double ex = b.x - a.x, ez = b.z - a.z;
    const double length_squared = ex * ex + ez * ez;
    double t = length_squared > 0.0 ? ((target.x - a.x) * ex + (target.z - a.z) * ez) / length_squared : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const Point p{a.x + ex * t, a.y + (b.y - a.y) * t, a.z + ez * t};
    const double dx = p.x - target.x, dz = p.z - target.z;
    if (dx * dx + dz * dz < best_squared) {
      best_squared = dx * dx + dz * dz;
      best = p;
    }
  }
  return best;
}

double path_length(const std::vector<Point>& points) {
  double length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) length += distance(points[i - 1], points[i]);
  return length;
}

}  // namespace

namespace {

// Turns the corridor search's node path into polygons: each node on an edge enters the next.
void corridor_from_nodes(const std::vector<NodeId>& nodes, CorridorNodes placement, const EdgePointGraph& graph,
                         PolygonId start_polygon, std::vector<PolygonId>& corridor) {
  corridor.clear();
  if (placement == CorridorNodes::polygon_centroids) {
    corridor.assign(nodes.begin(), nodes.end());
    return;
  }
  corridor.push_back(start_polygon);
  for (NodeId node : nodes) {
    if (node < graph.node_count()) corridor.push_back(graph.entered_polygon(node));
  }
}

// What a corridor search turns into once it ends: the corridor, its portals and (unless only
// the corridor is wanted) the funnel's waypoints. Lives in the query's state, reused by every
// query so that a warm query allocates nothing.
struct CorridorOutput {
  explicit CorridorOutput(const NavMesh& navmesh) : mesh(navmesh) {}
  const NavMesh& mesh;
  CorridorNodes placement = CorridorNodes::edge_points;
  MeshLocation start, goal;
  bool pull_string = true;       ///< false for find_corridor: the corridor search alone
  PathResult search_result;      ///< the engine's own result, kept for its memory
  PathResult result;             ///< the query's final result
  std::vector<PolygonId> corridor;
  std::vector<Portal> portals;

  // The search has ended with `search_result`: the corridor, then portals and funnel.
  void assemble() {
    result.status = search_result.status;
    result.reason = search_result.reason;
    result.stats = search_result.stats;
    result.message = search_result.message;
    result.cost = search_result.cost;
    result.points.clear();
    if (!search_result.nodes.empty())
      corridor_from_nodes(search_result.nodes, placement, mesh.edge_point_graph(), start.polygon, corridor);
    result.nodes = corridor;
    if (!pull_string) {
      result.points = {start.point, goal.point};
      return;
    }
    if (corridor.empty()) return;
    const Point end = result.status == SearchStatus::found ? goal.point
                                                           : closest_point_in_polygon(mesh, corridor.back(), goal.point);
    corridor_portals(mesh, corridor, portals);
    funnel_path(start.point, end, portals, result.points);
    result.cost = path_length(result.points);
  }
};

// A corridor search on the engine (SteppedQuery's run): advances the search, and when it ends
// assembles the output. The edge-point domain also hears of every improvement (its crossing
// points move).
template <class D>
struct CorridorRun {
  CorridorRun(SearchContext& context, CorridorOutput& corridor_output, D&& domain_value)
      : engine(context, std::move(domain_value)), output(corridor_output) {}

  SearchStatus step(const StepBudget& budget) {
    if (finished) return output.result.status;
    SearchStatus status;
    if constexpr (std::is_same_v<D, EdgePointDomain>)
      status = engine.search.step(budget, CrossingKeeper{engine.domain});
    else
      status = engine.step(budget);
    if (status != SearchStatus::in_progress) finish();
    return status;
  }
  // For a search settled in start() (trivial or rejected by the engine).
  void finish() {
    engine.result(output.search_result);
    output.assemble();
    finished = true;
  }
  [[nodiscard]] SearchStats stats() const { return finished ? output.result.stats : engine.stats(); }
  void result(PathResult& out) const {
    if (finished)
      out = output.result;  // assignment keeps out's memory
    else
      engine.result(out);   // in progress: the statistics so far, no path
  }

  EngineRun<D> engine;
  CorridorOutput& output;
  bool finished = false;
};

// Different regions and start and goal in one polygon settle in begin() (SteppedQuery::settle_in_place).
using ActiveSearch = SteppedQuery<CorridorRun<EdgePointDomain>, CorridorRun<CentroidDomain>>;

}  // namespace

struct NavMeshQueryState {
  explicit NavMeshQueryState(const NavMesh& mesh) : output(mesh) {}
  SearchContext context;
  std::vector<Point> crossings;  ///< per directed edge: where this query's crossing point lies
  CorridorOutput output;
  ActiveSearch active;
  NavMeshSearchOptions options;
};

NavMeshQuery::NavMeshQuery(const NavMesh& mesh) : mesh_(mesh), state_(std::make_unique<NavMeshQueryState>(mesh)) {}
NavMeshQuery::~NavMeshQuery() = default;
NavMeshQuery::NavMeshQuery(NavMeshQuery&&) noexcept = default;

const std::vector<Portal>& NavMeshQuery::portals() const { return state_->output.portals; }

Point NavMeshQuery::corridor_node_position(NodeId node) const {
  const NavMeshQueryState& state = *state_;
  if (const auto* run = state.active.run_if<CorridorRun<CentroidDomain>>())
    return node < run->engine.domain.node_count() ? run->engine.domain.position(node) : Point{};
  if (const auto* run = state.active.run_if<CorridorRun<EdgePointDomain>>())
    return node < run->engine.domain.node_count() ? run->engine.domain.position(node) : Point{};
  if (state.options.nodes == CorridorNodes::polygon_centroids)
    return node < mesh_.polygon_count() ? mesh_.centroid(node) : Point{};
  const EdgePointGraph& graph = mesh_.edge_point_graph();
  return node < graph.node_count() ? graph.position(node) : Point{};
}

SearchStatus NavMeshQuery::begin(const Point& start, const Point& goal, const NavMeshSearchOptions& options) {
  NavMeshQueryState& state = *state_;
  state.options = options;
  ActiveSearch& active = state.active;
  active.watch(mesh_.revision());
  if (const auto problem = option_problem(options)) return active.reject(*problem);
  if (!finite(start) || !finite(goal)) return active.reject("start and goal must be finite points");

  std::string problem;
  auto place = [&](const Point& point, const char* which) -> std::optional<MeshLocation> {
    MeshLocation location = mesh_.locate(point, options.height_tolerance);
    if (!location.valid() && options.snap_distance > 0.0) location = mesh_.nearest_point(point, options.snap_distance);
    if (!location.valid()) {
      problem = std::string(which) + " point is not on the mesh" +
                (options.snap_distance > 0.0 ? " (nor within snap_distance of it)" : " (set snap_distance to clamp it)");
      return std::nullopt;
    }
    return location;
  };
  const auto start_location = place(start, "start");
  if (!start_location) return active.reject(problem);
  const auto goal_location = place(goal, "goal");
  if (!goal_location) return active.reject(problem);
  return start_corridor_search(*start_location, *goal_location, options, true);
}

SearchStatus NavMeshQuery::start_corridor_search(const MeshLocation& start, const MeshLocation& goal,
                                                 const NavMeshSearchOptions& options, bool pull_string) {
  NavMeshQueryState& state = *state_;
  state.options = options;
  state.active.watch(mesh_.revision());
  CorridorOutput& output = state.output;
  output.placement = options.nodes;
  output.start = start;
  output.goal = goal;
  output.pull_string = pull_string;
  output.corridor.clear();
  output.portals.clear();
  ActiveSearch& active = state.active;
  // Different regions: no path, known without searching (unless a partial path towards the
  // goal is wanted: then the search finds the closest place).
  const bool same_region = mesh_.region(start.polygon) == mesh_.region(goal.polygon);
  if (!same_region && !options.partial_when_unreachable) {
    PathResult& result = active.settle_in_place();
    result.status = SearchStatus::no_path;
    result.reason = StopReason::open_list_empty;
    result.message.assign("start and goal are in different connected regions (");
    result.message.append(std::to_string(mesh_.region(start.polygon))).append(" and ");
    result.message.append(std::to_string(mesh_.region(goal.polygon))).append("); no search was needed");
    return result.status;
  }
  // Inside one convex polygon the straight segment is the path.
  if (start.polygon == goal.polygon) {
    PathResult& result = active.settle_in_place();
    result.status = SearchStatus::found;
    result.reason = StopReason::goal_reached;
    result.nodes.push_back(start.polygon);
    result.points.push_back(start.point);
    result.points.push_back(goal.point);
    result.cost = distance(start.point, goal.point);
    output.corridor.push_back(start.polygon);
    return result.status;
  }
  const SearchOptions search = engine_options(options, 1.0, options.weight);
  if (options.nodes == CorridorNodes::edge_points) {
    state.crossings.resize(mesh_.edge_point_graph().node_count() / EdgePointGraph::points_per_edge);
    // The domains are aggregates, built here and moved in: not every compiler supports
    // aggregate initialisation with parentheses yet.
    auto& run = active.start<CorridorRun<EdgePointDomain>>(
        state.context, output,
        EdgePointDomain{mesh_, mesh_.edge_point_graph(), start.polygon, goal.polygon, start.point, goal.point,
                        state.crossings, invalid_node, Point{}, 0.0, same_region});
    const SearchStatus status = run.engine.search.start(run.engine.domain.start_node(), run.engine.domain.goal_node(), search);
    if (status != SearchStatus::in_progress) run.finish();
    return status;
  }
  auto& run = active.start<CorridorRun<CentroidDomain>>(
      state.context, output, CentroidDomain{mesh_, start.polygon, goal.polygon, start.point, goal.point, same_region});
  const SearchStatus status = run.engine.search.start(start.polygon, goal.polygon, search);
  if (status != SearchStatus::in_progress) run.finish();
  return status;
}

SearchStatus NavMeshQuery::step(std::uint64_t max_expansions) { return step(StepBudget::expansions(max_expansions)); }

SearchStatus NavMeshQuery::step(const StepBudget& budget) { return state_->active.step(budget, mesh_.revision()); }

SearchStats NavMeshQuery::stats() const { return state_->active.stats(); }

PathResult NavMeshQuery::result() const {
  PathResult out;
  result(out);
  return out;
}

void NavMeshQuery::result(PathResult& out) const { state_->active.result(out); }

PathResult NavMeshQuery::find_path(const Point& start, const Point& goal, const NavMeshSearchOptions& options) {
  PathResult out;
  find_path(start, goal, options, out);
  return out;
}

SearchStatus NavMeshQuery::find_path(const Point& start, const Point& goal, const NavMeshSearchOptions& options,
                                     PathResult& out) {
  if (begin(start, goal, options) == SearchStatus::in_progress) step(StepBudget{});
  result(out);
  return out.status;
}

PathResult NavMeshQuery::find_corridor(const MeshLocation& start, const MeshLocation& goal,
                                       const NavMeshSearchOptions& options) {
  if (const auto problem = option_problem(options)) return PathResult::invalid(*problem);
  if (!start.valid() || !goal.valid() || start.polygon >= mesh_.polygon_count() ||
      goal.polygon >= mesh_.polygon_count())
    return PathResult::invalid("start and goal must be located on the mesh");
  if (!finite(start.point) || !finite(goal.point)) return PathResult::invalid("start and goal must be finite points");
  if (start_corridor_search(start, goal, options, false) == SearchStatus::in_progress) step(StepBudget{});
  PathResult corridor = result();
  corridor.points = {start.point, goal.point};
  return corridor;
}

}  // namespace wayfinder
