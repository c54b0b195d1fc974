// Tiled navigation meshes whose tiles change: after seeded random sequences of tile removals and
// replacements every query answers as on a mesh built fresh from the same tiles, references into
// a replaced tile turn invalid, corridors and stepped searches notice, and bad input is refused.
// With Recast, the tiles of a tiled build joined by NavMesh::build_tiled answer as the stitched
// build does.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "navmesh/edge_point_graph.hpp"
#include "navmesh/search_tables.hpp"
#include "test_environment.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/corridor_breaks.hpp"
#include "wayfinder/navmesh/exact_path_search.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/surface_queries.hpp"
#ifdef WAYFINDER_TEST_WITH_RECAST
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh_build/navmesh_builder.hpp"
#endif

namespace wayfinder {
namespace {

constexpr double tile_width = 10.0;

NavMeshTileGrid small_grid() {
  NavMeshTileGrid grid;
  grid.tiles_x = 4;
  grid.tiles_z = 4;
  grid.tile_width = tile_width;
  grid.max_polygons_per_tile = 40;
  return grid;
}

// A tile of `cells` x `cells` squares, each there with probability 0.85, with areas 0 to 2 and
// flag 1 on some. Tiles of different `cells` meet in T-junctions that the join must split.
MeshGeometry square_tile(int tile_x, int tile_z, int cells, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  MeshGeometry tile;
  tile.source = "tile";
  const double step = tile_width / cells;
  auto corner = [&](int i, int j) {
    tile.vertices.push_back({tile_x * tile_width + i * step, 0.0, tile_z * tile_width + j * step});
    return static_cast<std::uint32_t>(tile.vertices.size() - 1);
  };
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i) {
      if (std::uniform_real_distribution<double>(0.0, 1.0)(random) > 0.85) continue;
      tile.polygons.push_back({corner(i, j), corner(i, j + 1), corner(i + 1, j + 1), corner(i + 1, j)});
      tile.polygon_areas.push_back(static_cast<AreaId>(random() % 3));
      tile.polygon_flags.push_back(static_cast<AreaFlags>(random() % 4 == 0 ? 1 : 0));
    }
  return tile;
}

using TileSet = std::map<std::pair<int, int>, MeshGeometry>;

NavMesh fresh_mesh(const NavMeshTileGrid& grid, const TileSet& tiles) {
  std::vector<NavMeshTile> list;
  for (const auto& [at, geometry] : tiles) list.push_back({at.first, at.second, geometry});
  return NavMesh::build_tiled(grid, list);
}

Point random_point(std::mt19937_64& random) {
  std::uniform_real_distribution<double> coordinate(0.0, 4 * tile_width);
  return {coordinate(random), 0.0, coordinate(random)};
}

void expect_same_path(const PathResult& a, const PathResult& b) {
  ASSERT_EQ(a.status, b.status) << a.message << " / " << b.message;
  EXPECT_EQ(a.nodes, b.nodes);
  ASSERT_EQ(a.points.size(), b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) EXPECT_EQ(a.points[i], b.points[i]);
  EXPECT_EQ(a.cost, b.cost);
}

// Every answer of `edited` (and of the query objects made on it before its edits) against the
// mesh built fresh from the same tiles.
void expect_same_answers(const NavMesh& edited, const NavMesh& fresh, NavMeshQuery& edited_query,
                         ExactPathSearch& edited_exact, std::uint64_t seed) {
  ASSERT_EQ(edited.polygon_count(), fresh.polygon_count());
  ASSERT_EQ(edited.region_count(), fresh.region_count());
  for (PolygonId p = 0; p < edited.polygon_count(); ++p) {
    const auto a = edited.polygon_vertices(p), b = fresh.polygon_vertices(p);
    ASSERT_EQ(a.size(), b.size()) << "polygon " << p;
    for (std::size_t j = 0; j < a.size(); ++j) EXPECT_EQ(edited.vertex(a[j]), fresh.vertex(b[j]));
    const auto na = edited.polygon_neighbours(p), nb = fresh.polygon_neighbours(p);
    EXPECT_TRUE(std::equal(na.begin(), na.end(), nb.begin(), nb.end())) << "polygon " << p;
    EXPECT_EQ(edited.area(p), fresh.area(p));
    EXPECT_EQ(edited.flags(p), fresh.flags(p));
    EXPECT_EQ(edited.region(p), fresh.region(p));
  }
  ASSERT_EQ(edited.tiles().size(), fresh.tiles().size());

  NavMeshQuery fresh_query(fresh);
  ExactPathSearch fresh_exact(fresh);
  AreaFilter filter;
  filter.set_area_cost(1, 3.0f).exclude(1);
  std::mt19937_64 random(seed);
  for (int q = 0; q < 60; ++q) {
    const Point start = random_point(random), goal = random_point(random);
    SCOPED_TRACE("query " + std::to_string(q));
    const MeshLocation a = edited.locate(start), b = fresh.locate(start);
    ASSERT_EQ(a.polygon, b.polygon);
    const MeshLocation near_a = edited.nearest_point(start, 3.0), near_b = fresh.nearest_point(start, 3.0);
    EXPECT_EQ(near_a.polygon, near_b.polygon);
    EXPECT_EQ(near_a.point, near_b.point);
    NavMeshSearchOptions options;
    options.snap_distance = 3.0;
    expect_same_path(edited_query.find_path(start, goal, options), fresh_query.find_path(start, goal, options));
    options.filter = filter;
    expect_same_path(edited_query.find_path(start, goal, options), fresh_query.find_path(start, goal, options));
    options.filter.reset();
    options.nodes = CorridorNodes::optimal;
    expect_same_path(edited_query.find_path(start, goal, options), fresh_query.find_path(start, goal, options));
    if (!a.valid()) continue;
    const MeshLocation goal_a = edited.locate(goal), goal_b = fresh.locate(goal);
    if (goal_a.valid()) {
      ASSERT_EQ(goal_a.polygon, goal_b.polygon);
      expect_same_path(edited_exact.find_path(a, goal_a), fresh_exact.find_path(b, goal_b));
    }
    const RaycastResult ray_a = raycast(edited, a, goal), ray_b = raycast(fresh, b, goal);
    EXPECT_EQ(ray_a.reached, ray_b.reached);
    EXPECT_EQ(ray_a.t, ray_b.t);
    EXPECT_EQ(ray_a.polygon, ray_b.polygon);
    const Point near_goal = {start.x + (goal.x - start.x) * 0.1, 0.0, start.z + (goal.z - start.z) * 0.1};
    const SurfaceMoveResult move_a = move_along_surface(edited, a, near_goal, &filter);
    const SurfaceMoveResult move_b = move_along_surface(fresh, b, near_goal, &filter);
    EXPECT_EQ(move_a.message, move_b.message);
    EXPECT_EQ(move_a.point, move_b.point);
    EXPECT_EQ(move_a.corridor, move_b.corridor);
  }
}

TEST(NavMeshTiles, RandomTileChangesAnswerAsAFreshBuild) {
  const NavMeshTileGrid grid = small_grid();
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    TileSet tiles;
    for (int z = 0; z < grid.tiles_z; ++z)
      for (int x = 0; x < grid.tiles_x; ++x) tiles[{x, z}] = square_tile(x, z, 2 + (x + z) % 3, random());
    NavMesh edited = fresh_mesh(grid, tiles);
    // Query objects made before the edits: what they cache of the mesh must follow it.
    NavMeshQuery edited_query(edited);
    ExactPathSearch edited_exact(edited);
    expect_same_answers(edited, fresh_mesh(grid, tiles), edited_query, edited_exact, seed);
    for (int change = 0; change < 12; ++change) {
      const int x = static_cast<int>(random() % 4), z = static_cast<int>(random() % 4);
      const std::uint64_t before = edited.revision();
      if (random() % 3 == 0 && tiles.size() > 1) {
        edited.remove_tile(x, z);
        tiles.erase({x, z});
      } else {
        MeshGeometry tile = square_tile(x, z, 1 + static_cast<int>(random() % 5), random());
        edited.replace_tile(x, z, tile);
        if (tile.polygons.empty()) tiles.erase({x, z});
        else tiles[{x, z}] = tile;
      }
      EXPECT_EQ(edited.revision(), before + 1);
    }
    expect_same_answers(edited, fresh_mesh(grid, tiles), edited_query, edited_exact, seed + 100);
  }
}

// Many changes on a larger level, each tile with up to 8 neighbours whose borders meet it in
// T-junctions: after every change the joined mesh has the shared edges of the same polygons
// built in one piece (NavMesh::build merges vertices at one position itself, which the
// join must already have done), and now and then answers as a fresh build of its tiles.
TEST(NavMeshTiles, ManyChangesOnALargerLevelJoinEveryBorder) {
  NavMeshTileGrid grid = small_grid();
  grid.tiles_x = 8;
  grid.tiles_z = 8;
  std::mt19937_64 random(11);
  TileSet tiles;
  for (int z = 0; z < grid.tiles_z; ++z)
    for (int x = 0; x < grid.tiles_x; ++x) tiles[{x, z}] = square_tile(x, z, 1 + (x * 3 + z) % 5, random());
  NavMesh edited = fresh_mesh(grid, tiles);
  NavMeshQuery edited_query(edited);
  ExactPathSearch edited_exact(edited);
  for (int change = 0; change < 60; ++change) {
    SCOPED_TRACE("change " + std::to_string(change));
    const int x = static_cast<int>(random() % 8), z = static_cast<int>(random() % 8);
    MeshGeometry tile = square_tile(x, z, 1 + static_cast<int>(random() % 5), random());
    if (tile.polygons.empty() && tiles.size() == 1) continue;
    edited.replace_tile(x, z, tile);
    if (tile.polygons.empty()) tiles.erase({x, z});
    else tiles[{x, z}] = tile;
    const NavMesh one_piece = NavMesh::build(edited.to_geometry());
    EXPECT_EQ(edited.shared_edge_count(), one_piece.shared_edge_count());
    if (change % 15 == 14)
      expect_same_answers(edited, fresh_mesh(grid, tiles), edited_query, edited_exact, 300 + change);
  }
}

// The corridor search's graph of a changed mesh is copied where the change did not reach and
// measured where it did: node for node, it must be the graph of a fresh build.
void expect_same_graph(const NavMesh& edited, const NavMesh& fresh) {
  const EdgePointGraph& a = SearchTables::edge_point_graph(edited);
  const EdgePointGraph& b = SearchTables::edge_point_graph(fresh);
  ASSERT_EQ(a.node_count(), b.node_count());
  for (NodeId node = 0; node < a.node_count(); ++node) {
    ASSERT_EQ(a.position(node), b.position(node)) << "node " << node;
    ASSERT_EQ(a.entered_polygon(node), b.entered_polygon(node)) << "node " << node;
    ASSERT_EQ(a.is_corner_point(node), b.is_corner_point(node)) << "node " << node;
    const auto onward_a = a.onward_exits(node), onward_b = b.onward_exits(node);
    ASSERT_EQ(onward_a.size(), onward_b.size()) << "node " << node;
    for (std::size_t i = 0; i < onward_a.size(); ++i) {
      EXPECT_EQ(onward_a[i].first, onward_b[i].first) << "node " << node;
      EXPECT_EQ(onward_a[i].cost_to_first_end, onward_b[i].cost_to_first_end) << "node " << node;
      EXPECT_EQ(onward_a[i].cost_to_last_end, onward_b[i].cost_to_last_end) << "node " << node;
    }
  }
  for (PolygonId p = 0; p < edited.polygon_count(); ++p) {
    const auto exits_a = a.exits(p), exits_b = b.exits(p);
    ASSERT_TRUE(std::equal(exits_a.begin(), exits_a.end(), exits_b.begin(), exits_b.end())) << "polygon " << p;
  }
}

// Seeded random tile replacements, removals and additions on a level large enough that most
// tiles lie beyond a change's reach: after each, the mesh has the graph, polygons and adjacency
// of a fresh build of the same tiles, answers its queries alike, and saves and loads (.wfnav)
// into the same mesh.
TEST(NavMeshTiles, ChangesUpdatedLocallyMatchAFreshBuild) {
  NavMeshTileGrid grid = small_grid();
  grid.tiles_x = 7;
  grid.tiles_z = 6;
  for (const std::uint64_t seed : {21u, 22u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    TileSet tiles;
    for (int z = 0; z < grid.tiles_z; ++z)
      for (int x = 0; x < grid.tiles_x; ++x)
        if (random() % 5 != 0) tiles[{x, z}] = square_tile(x, z, 1 + static_cast<int>(random() % 4), random());
    NavMesh edited = fresh_mesh(grid, tiles);
    NavMeshQuery edited_query(edited);
    ExactPathSearch edited_exact(edited);
    for (int change = 0; change < 24; ++change) {
      SCOPED_TRACE("change " + std::to_string(change));
      const int x = static_cast<int>(random() % 7), z = static_cast<int>(random() % 6);
      const std::uint64_t kind = random() % 4;
      if (kind == 0) {
        if (tiles.size() == 1 || !tiles.contains({x, z})) continue;
        edited.remove_tile(x, z);
        tiles.erase({x, z});
      } else {  // a replacement, or an addition where there was no tile
        const MeshGeometry tile = square_tile(x, z, 1 + static_cast<int>(random() % 5), random());
        if (tile.polygons.empty() && tiles.size() == 1) continue;
        edited.replace_tile(x, z, tile);
        if (tile.polygons.empty()) tiles.erase({x, z});
        else tiles[{x, z}] = tile;
      }
      const NavMesh fresh = fresh_mesh(grid, tiles);
      expect_same_graph(edited, fresh);
      if (change % 6 == 5) expect_same_answers(edited, fresh, edited_query, edited_exact, seed * 1000 + change);
    }
    // The changed mesh saved and loaded: tiled again, the same polygons and answers.
    const NavMesh loaded = navmesh_from_file_bytes(navmesh_file_bytes(edited), "changed.wfnav");
    ASSERT_TRUE(loaded.is_tiled());
    NavMeshQuery loaded_query(loaded);
    ExactPathSearch loaded_exact(loaded);
    expect_same_graph(loaded, edited);
    expect_same_answers(loaded, edited, loaded_query, loaded_exact, seed + 7);
  }
}

TEST(NavMeshTiles, ReferencesIntoAReplacedTileTurnInvalid) {
  const NavMeshTileGrid grid = small_grid();
  TileSet tiles;
  for (int z = 0; z < 4; ++z)
    for (int x = 0; x < 4; ++x) tiles[{x, z}] = square_tile(x, z, 3, 7 * x + z);
  NavMesh mesh = fresh_mesh(grid, tiles);
  const MeshLocation here = mesh.locate({15.5, 0.0, 15.5});  // tile (1, 1)
  const MeshLocation there = mesh.locate({1.0, 0.0, 1.0});   // tile (0, 0)
  ASSERT_TRUE(here.valid() && there.valid());
  const PolygonRef in_changed = mesh.polygon_ref(here.polygon), in_kept = mesh.polygon_ref(there.polygon);
  EXPECT_EQ(in_changed.tile, 5u);
  EXPECT_TRUE(mesh.is_valid(in_changed));
  EXPECT_EQ(mesh.polygon_of(in_changed), here.polygon);
  mesh.replace_tile(1, 1, tiles[{1, 1}]);  // the same geometry, still a new tile
  EXPECT_FALSE(mesh.is_valid(in_changed));
  EXPECT_EQ(mesh.polygon_of(in_changed), invalid_polygon);
  EXPECT_TRUE(mesh.is_valid(in_kept));
  EXPECT_EQ(mesh.polygon_of(in_kept), there.polygon) << "other tiles keep their ids";
  EXPECT_TRUE(mesh.is_valid(mesh.polygon_ref(here.polygon)));
  const PolygonRef renewed = mesh.polygon_ref(here.polygon);
  mesh.remove_tile(1, 1);
  EXPECT_FALSE(mesh.is_valid(renewed));
  EXPECT_FALSE(mesh.locate({15.5, 0.0, 15.5}).valid());
  EXPECT_FALSE(mesh.is_valid(PolygonRef{}));
  EXPECT_FALSE(mesh.is_valid(mesh.polygon_ref(here.polygon))) << "an empty id has no reference";
  EXPECT_EQ(mesh.tiles().size(), 15u);
  EXPECT_THROW(mesh.set_area(here.polygon, 3), std::out_of_range) << "an unused id is no polygon to edit";
  EXPECT_EQ(mesh.tile_geometry(1, 1).polygons.size(), 0u);
}

// Unused polygon ids (a tile's slots past its polygons, a removed tile's whole range) are no
// regions: two full tiles apart count two, joined they count one, whatever the empty slots.
TEST(NavMeshTiles, RegionCountLeavesOutUnusedIds) {
  const NavMeshTileGrid grid = small_grid();
  auto full_tile = [](int x, int z) {
    MeshGeometry tile;
    const double x0 = x * tile_width, z0 = z * tile_width;
    tile.vertices = {{x0, 0, z0}, {x0, 0, z0 + tile_width}, {x0 + tile_width, 0, z0 + tile_width}, {x0 + tile_width, 0, z0}};
    tile.polygons = {{0, 1, 2, 3}};
    return tile;
  };
  NavMesh mesh = NavMesh::build_tiled(grid, std::vector<NavMeshTile>{{0, 0, full_tile(0, 0)}, {2, 0, full_tile(2, 0)}});
  EXPECT_EQ(mesh.region_count(), 2u) << "two tiles apart, and 16 * 40 - 2 unused ids";
  EXPECT_NE(mesh.region(0), mesh.region(2 * grid.max_polygons_per_tile));
  EXPECT_EQ(mesh.region(1), invalid_node) << "an unused id is in no region";
  mesh.replace_tile(1, 0, full_tile(1, 0));
  EXPECT_EQ(mesh.region_count(), 1u);
  mesh.remove_tile(1, 0);
  EXPECT_EQ(mesh.region_count(), 2u);
  const NavMesh one_tile = NavMesh::build_tiled(grid, std::vector<NavMeshTile>{{3, 3, full_tile(3, 3)}});
  EXPECT_EQ(one_tile.region_count(), 1u);
}

// Locality, structurally: a change to one tile leaves every other tile as it was. Its polygons
// keep their ids, references and tags; those away from the changed tile's border also keep
// their corners and their neighbours outside the tile.
TEST(NavMeshTiles, AChangeLeavesTheOtherTilesAlone) {
  NavMeshTileGrid grid = small_grid();
  grid.tiles_x = 6;
  grid.tiles_z = 6;
  TileSet tiles;
  std::mt19937_64 random(5);
  for (int z = 0; z < grid.tiles_z; ++z)
    for (int x = 0; x < grid.tiles_x; ++x) tiles[{x, z}] = square_tile(x, z, 4, random());
  NavMesh mesh = fresh_mesh(grid, tiles);
  const NavMesh before = mesh;
  std::vector<PolygonRef> refs;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) refs.push_back(mesh.polygon_ref(p));
  const int changed_x = 2, changed_z = 3;
  mesh.replace_tile(changed_x, changed_z, square_tile(changed_x, changed_z, 3, 99));
  const std::uint32_t capacity = grid.max_polygons_per_tile;
  const double low_x = changed_x * tile_width, low_z = changed_z * tile_width;
  const double high_x = low_x + tile_width, high_z = low_z + tile_width;
  auto touches_changed_square = [&](const NavMesh& m, PolygonId p) {
    for (const std::uint32_t v : m.polygon_vertices(p)) {
      const Point& q = m.vertex(v);
      if (q.x >= low_x && q.x <= high_x && q.z >= low_z && q.z <= high_z) return true;
    }
    return false;
  };
  std::size_t untouched = 0;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p) {
    const std::uint32_t tile = p / capacity;
    if (tile == static_cast<std::uint32_t>(changed_z * grid.tiles_x + changed_x)) {
      EXPECT_FALSE(mesh.is_valid(refs[p])) << "polygon " << p << " of the changed tile";
      continue;
    }
    SCOPED_TRACE("polygon " + std::to_string(p));
    EXPECT_EQ(mesh.polygon_ref(p), refs[p]) << "other tiles keep their ids and salts";
    if (before.polygon_vertices(p).empty()) {
      EXPECT_TRUE(mesh.polygon_vertices(p).empty());
      continue;
    }
    EXPECT_TRUE(mesh.is_valid(refs[p]));
    EXPECT_EQ(mesh.area(p), before.area(p));
    EXPECT_EQ(mesh.flags(p), before.flags(p));
    if (touches_changed_square(before, p)) continue;  // along the border: may be split anew
    ++untouched;
    const auto a = mesh.polygon_vertices(p), b = before.polygon_vertices(p);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t j = 0; j < a.size(); ++j) EXPECT_EQ(mesh.vertex(a[j]), before.vertex(b[j]));
    const auto na = mesh.polygon_neighbours(p), nb = before.polygon_neighbours(p);
    for (std::size_t j = 0; j < na.size(); ++j) {
      const bool into_changed =
          nb[j] != invalid_polygon && nb[j] / capacity == static_cast<std::uint32_t>(changed_z * grid.tiles_x + changed_x);
      if (!into_changed) {
        EXPECT_EQ(na[j], nb[j]) << "edge " << j;
      }
    }
  }
  EXPECT_GT(untouched, 300u) << "about 35 tiles of 13.6 squares, less the 8 tiles around the change";
}

TEST(NavMeshTiles, CorridorsAndSteppedSearchesNoticeATileChange) {
  const NavMeshTileGrid grid = small_grid();
  // Full tiles, so that a straight corridor runs along z = 5 through every tile of the row.
  TileSet tiles;
  for (int z = 0; z < 4; ++z)
    for (int x = 0; x < 4; ++x) {
      MeshGeometry tile;
      const double x0 = x * tile_width, z0 = z * tile_width;
      tile.vertices = {{x0, 0, z0}, {x0, 0, z0 + tile_width}, {x0 + tile_width, 0, z0 + tile_width}, {x0 + tile_width, 0, z0}};
      tile.polygons = {{0, 1, 2, 3}};
      tiles[{x, z}] = tile;
    }
  NavMesh mesh = fresh_mesh(grid, tiles);
  NavMeshQuery query(mesh);
  const PathResult path = query.find_path({1, 0, 5}, {39, 0, 5});
  ASSERT_TRUE(path.found());
  ASSERT_EQ(path.nodes.size(), 4u);
  const std::uint64_t planned = mesh.revision();
  mesh.replace_tile(3, 3, tiles[{3, 3}]);  // off the corridor
  EXPECT_FALSE(first_blocked_polygon(mesh, path.nodes, planned).has_value());
  mesh.remove_tile(2, 0);
  const auto broken = first_blocked_polygon(mesh, path.nodes, planned);
  ASSERT_TRUE(broken.has_value());
  EXPECT_EQ(broken->index, 2u);
  EXPECT_EQ(broken->reason, CorridorBreak::tile_replaced);
  const PathResult around = query.find_path({1, 0, 5}, {39, 0, 5});
  ASSERT_TRUE(around.found());
  EXPECT_GT(around.cost, path.cost + 1.0) << "around the hole, through the next row";
  for (const NodeId polygon : around.nodes) EXPECT_NE(polygon / grid.max_polygons_per_tile, 2u);

  // A stepped search stops when a tile changes between its steps.
  ASSERT_EQ(query.begin({1, 0, 35}, {39, 0, 35}), SearchStatus::in_progress);
  mesh.replace_tile(0, 0, tiles[{0, 0}]);
  EXPECT_EQ(query.step(StepBudget::expansions(1)), SearchStatus::world_changed);

  // Edits of areas made before survive another tile's change.
  const PolygonId corner = mesh.locate({35, 0, 35}).polygon;
  mesh.set_area(corner, 5);
  mesh.replace_tile(0, 3, tiles[{0, 3}]);
  EXPECT_EQ(mesh.area(mesh.locate({35, 0, 35}).polygon), 5);
  EXPECT_EQ(mesh.tile_geometry(3, 3).polygon_areas.front(), 5);
}

TEST(NavMeshTiles, OffMeshLinksDetachWithTheirTileAndComeBack) {
  const NavMeshTileGrid grid = small_grid();
  TileSet tiles;
  for (const auto& at : {std::pair{0, 0}, std::pair{3, 3}}) {
    MeshGeometry tile;
    const double x0 = at.first * tile_width, z0 = at.second * tile_width;
    tile.vertices = {{x0, 0, z0}, {x0, 0, z0 + tile_width}, {x0 + tile_width, 0, z0 + tile_width}, {x0 + tile_width, 0, z0}};
    tile.polygons = {{0, 1, 2, 3}};
    tiles[at] = tile;
  }
  NavMesh mesh = fresh_mesh(grid, tiles);
  NavMeshQuery query(mesh);
  EXPECT_FALSE(query.find_path({5, 0, 5}, {35, 0, 35}).found());
  OffMeshLink link;
  link.start = {9, 0, 9};
  link.end = {31, 0, 31};
  mesh.add_off_mesh_link(link);
  EXPECT_TRUE(query.find_path({5, 0, 5}, {35, 0, 35}).found());
  mesh.remove_tile(3, 3);
  EXPECT_FALSE(mesh.off_mesh_link_attached(0));
  EXPECT_EQ(mesh.off_mesh_link_count(), 1u);
  EXPECT_EQ(mesh.to_geometry().off_mesh_links.size(), 0u) << "a detached link is not saved";
  mesh.replace_tile(3, 3, tiles[{3, 3}]);
  EXPECT_TRUE(mesh.off_mesh_link_attached(0));
  EXPECT_TRUE(query.find_path({5, 0, 5}, {35, 0, 35}).found());
}

TEST(NavMeshTiles, BordersJoinWithinTheClimbAndAtTJunctions) {
  NavMeshTileGrid grid = small_grid();
  grid.tiles_x = 2;
  grid.tiles_z = 1;
  grid.border_climb = 0.5;
  // Left tile: one square; right tile: two halves, its border corners 0.3 higher.
  MeshGeometry left, right;
  left.vertices = {{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}};
  left.polygons = {{0, 1, 2, 3}};
  right.vertices = {{10, 0.3, 0}, {10, 0.3, 5}, {10, 0.3, 10}, {20, 0.3, 0}, {20, 0.3, 5}, {20, 0.3, 10}};
  right.polygons = {{0, 1, 4, 3}, {1, 2, 5, 4}};
  const std::vector<NavMeshTile> both = {{0, 0, left}, {1, 0, right}};
  const NavMesh joined = NavMesh::build_tiled(grid, both);
  NavMeshQuery query(joined);
  EXPECT_TRUE(query.find_path({2, 0, 2}, {18, 0.3, 8}).found());
  grid.border_climb = 0.2;
  const NavMesh apart = NavMesh::build_tiled(grid, both);
  NavMeshQuery apart_query(apart);
  EXPECT_FALSE(apart_query.find_path({2, 0, 2}, {18, 0.3, 8}).found()) << "0.3 apart is more than a 0.2 climb";
}

TEST(NavMeshTiles, BadInputIsRefused) {
  const NavMeshTileGrid grid = small_grid();
  TileSet tiles;
  tiles[{0, 0}] = square_tile(0, 0, 2, 1);
  tiles[{1, 0}] = square_tile(1, 0, 2, 2);
  NavMesh mesh = fresh_mesh(grid, tiles);
  const std::uint64_t revision = mesh.revision();
  EXPECT_THROW(mesh.replace_tile(4, 0, square_tile(0, 0, 2, 1)), std::out_of_range);
  EXPECT_THROW(mesh.replace_tile(-1, 0, square_tile(0, 0, 2, 1)), std::out_of_range);
  MeshGeometry not_finite = square_tile(0, 0, 2, 1);
  not_finite.vertices[0].x = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(mesh.replace_tile(0, 0, not_finite), LoadError);
  EXPECT_THROW(mesh.replace_tile(1, 1, square_tile(0, 0, 2, 1)), std::invalid_argument) << "outside its square";
  EXPECT_THROW(mesh.replace_tile(0, 0, square_tile(0, 0, 9, 1)), std::length_error) << "more than 40 polygons";
  mesh.remove_tile(1, 0);
  EXPECT_THROW(mesh.remove_tile(0, 0), std::logic_error) << "the last tile";
  EXPECT_EQ(mesh.revision(), revision + 1) << "refused changes change nothing";
  EXPECT_EQ(mesh.tiles().size(), 1u);

  const std::vector<NavMeshTile> twice = {{0, 0, tiles[{0, 0}]}, {0, 0, tiles[{0, 0}]}};
  EXPECT_THROW((void)NavMesh::build_tiled(grid, twice), std::invalid_argument);
  const std::vector<NavMeshTile> outside = {{0, 9, tiles[{0, 0}]}};
  EXPECT_THROW((void)NavMesh::build_tiled(grid, outside), std::invalid_argument);
  NavMeshTileGrid bad = grid;
  bad.tile_width = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW((void)NavMesh::build_tiled(bad, {}), std::invalid_argument);
  // Every polygon id costs memory, filled or not: more than 2^22 of them are refused up front.
  NavMeshTileGrid too_many_ids = grid;
  too_many_ids.max_polygons_per_tile = static_cast<std::uint32_t>(max_tiled_polygon_ids / 16 + 1);
  try {
    (void)NavMesh::build_tiled(too_many_ids, std::vector<NavMeshTile>{{0, 0, tiles[{0, 0}]}});
    ADD_FAILURE() << "a grid of more than 2^22 polygon ids was built";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("must be at most 2^22"), std::string::npos) << error.what();
  }
  EXPECT_THROW((void)NavMesh::build_tiled(grid, {}), LoadError) << "no tile at all";
  NavMesh untiled = NavMesh::build(tiles[{0, 0}]);
  EXPECT_THROW(untiled.replace_tile(0, 0, tiles[{0, 0}]), std::logic_error);
  EXPECT_TRUE(untiled.is_valid(untiled.polygon_ref(0)));
}

TEST(NavMeshTiles, AFlattenedTiledMeshSavesAndBuildsAgain) {
  const NavMeshTileGrid grid = small_grid();
  TileSet tiles;
  for (int z = 0; z < 2; ++z)
    for (int x = 0; x < 2; ++x) tiles[{x, z}] = square_tile(x, z, 2 + x, 11 * x + z);
  NavMesh tiled = fresh_mesh(grid, tiles);
  tiled.remove_tile(1, 0);  // a removed tile leaves unused ids in the middle
  // Saved as a .wfnav (flattened: the unused ids left out) and read back.
  const NavMesh flat = NavMesh::build(parse_navmesh_file(navmesh_file_bytes(tiled), "tiled.wfnav"));
  EXPECT_EQ(flat.polygon_count(), tiled.to_geometry().polygons.size());
  NavMeshQuery a(tiled), b(flat);
  std::mt19937_64 random(5);
  for (int q = 0; q < 40; ++q) {
    std::uniform_real_distribution<double> coordinate(0.0, 2 * tile_width);
    const Point start = {coordinate(random), 0.0, coordinate(random)};
    const Point goal = {coordinate(random), 0.0, coordinate(random)};
    NavMeshSearchOptions options;
    options.nodes = CorridorNodes::optimal;
    const PathResult pa = a.find_path(start, goal, options), pb = b.find_path(start, goal, options);
    ASSERT_EQ(pa.status, pb.status);
    if (pa.found()) {
      EXPECT_NEAR(pa.cost, pb.cost, 1e-9);
    }
  }
}

#ifdef WAYFINDER_TEST_WITH_RECAST
std::filesystem::path level(const char* name) {
  return testing::data_directory() / "meshes" / "recastnavigation" / name;
}

// Regions among the polygons in use (a tiled mesh's unused ids are regions of their own).
std::size_t used_regions(const NavMesh& mesh) {
  std::set<std::uint32_t> regions;
  for (PolygonId p = 0; p < mesh.polygon_count(); ++p)
    if (!mesh.polygon_vertices(p).empty()) regions.insert(mesh.region(p));
  return regions.size();
}

TEST(NavMeshTiles, TheBuildersTilesAnswerAsItsStitchedMesh) {
  if (!std::filesystem::exists(level("dungeon.obj"))) {
    if (testing::data_required()) FAIL() << level("dungeon.obj") << " not found";
    GTEST_SKIP() << level("dungeon.obj") << " not found";
  }
  for (const char* name : {"nav_test.obj", "dungeon.obj"}) {
    SCOPED_TRACE(name);
    const MeshGeometry level_mesh = read_obj_mesh(level(name));
    AgentSettings settings;
    settings.tile_size = 32;
    const NavMesh stitched = NavMesh::build(build_navmesh_geometry(level_mesh, settings));
    const NavMeshTileSet set = build_navmesh_tiles(level_mesh, settings);
    ASSERT_GT(set.tiles.size(), 4u);
    NavMesh tiled = NavMesh::build_tiled(set.grid, set.tiles);
    const MeshGeometry flat = tiled.to_geometry();
    EXPECT_EQ(flat.polygons.size(), stitched.polygon_count());
    EXPECT_EQ(used_regions(tiled), stitched.region_count());
    NavMeshQuery stitched_query(stitched), tiled_query(tiled);
    NavMeshSearchOptions options;
    options.nodes = CorridorNodes::optimal;
    int reachable = 0;
    for (PolygonId from = 0; from < stitched.polygon_count(); from += 5)
      for (PolygonId to = 1; to < stitched.polygon_count(); to += 11) {
        const Point start = stitched.centroid(from), goal = stitched.centroid(to);
        const PathResult a = stitched_query.find_path(start, goal, options);
        const PathResult b = tiled_query.find_path(start, goal, options);
        ASSERT_EQ(a.status, b.status) << "from polygon " << from << " to " << to << ": " << b.message;
        if (!a.found()) continue;
        ++reachable;
        EXPECT_NEAR(a.cost, b.cost, 1e-6 * std::max(1.0, a.cost));
      }
    EXPECT_GT(reachable, 50);
    // A tile rebuilt with the same settings replaces its tile and changes nothing else.
    const NavMeshTile& middle = set.tiles[set.tiles.size() / 2];
    tiled.replace_tile(middle);
    EXPECT_EQ(used_regions(tiled), stitched.region_count());
    EXPECT_EQ(tiled.to_geometry().polygons.size(), stitched.polygon_count());
  }
}
#endif

}  // namespace
}  // namespace wayfinder
