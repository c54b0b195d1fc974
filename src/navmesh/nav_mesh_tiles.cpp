// Tiled navigation meshes: the tiles' geometry kept apart, joined along tile borders into the
// mesh's flat arrays with a fixed range of polygon ids per tile, and single tiles replaced.
// Design and costs: docs/navmesh.md, "Tiles that change".
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "wayfinder/core/load_error.hpp"
#include "navmesh/edge_point_graph.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

namespace {

std::string tile_text(int tile_x, int tile_z) {
  return "tile (" + std::to_string(tile_x) + ", " + std::to_string(tile_z) + ")";
}

void check_grid(const NavMeshTileGrid& grid) {
  if (!std::isfinite(grid.origin_x) || !std::isfinite(grid.origin_z))
    throw std::invalid_argument("tile grid: its origin must be finite");
  if (!(std::isfinite(grid.tile_width) && grid.tile_width > 0.0))
    throw std::invalid_argument("tile grid: tile_width must be a finite number > 0");
  if (grid.tiles_x < 1 || grid.tiles_z < 1) throw std::invalid_argument("tile grid: tiles_x and tiles_z must be >= 1");
  if (grid.max_polygons_per_tile < 1) throw std::invalid_argument("tile grid: max_polygons_per_tile must be >= 1");
  const double ids = static_cast<double>(grid.tiles_x) * grid.tiles_z * grid.max_polygons_per_tile;
  if (ids > static_cast<double>(max_tiled_polygon_ids))
    throw std::invalid_argument("tile grid: tiles_x * tiles_z * max_polygons_per_tile is " + std::to_string(ids) +
                                "; it must be at most 2^22 (" + std::to_string(max_tiled_polygon_ids) + ")");
  if (!(std::isfinite(grid.border_climb) && grid.border_climb >= 0.0))
    throw std::invalid_argument("tile grid: border_climb must be a finite number >= 0");
}

bool inside_grid(const NavMeshTileGrid& grid, int tile_x, int tile_z) {
  return tile_x >= 0 && tile_z >= 0 && tile_x < grid.tiles_x && tile_z < grid.tiles_z;
}

std::size_t tile_index(const NavMeshTileGrid& grid, int tile_x, int tile_z) {
  return static_cast<std::size_t>(tile_z) * static_cast<std::size_t>(grid.tiles_x) + static_cast<std::size_t>(tile_x);
}

// How far a tile's vertex may stray outside its square, and still count as on a border line.
double border_tolerance(const NavMeshTileGrid& grid) { return 1e-3 * grid.tile_width; }

// x (axis 0) or z (axis 2) of a point.
double along_axis(const Point& p, int axis) { return axis == 0 ? p.x : p.z; }

// One tile's geometry checked and repaired as NavMesh::build does (convex, counter-clockwise
// polygons, degenerate ones dropped), with one area and flags per polygon: what the tile keeps.
MeshGeometry repaired_tile(const NavMeshTileGrid& grid, int tile_x, int tile_z, const MeshGeometry& input) {
  if (input.polygons.empty()) return {};
  MeshGeometry named = input;
  named.off_mesh_links.clear();
  named.source = input.source + " (" + tile_text(tile_x, tile_z) + ")";
  MeshGeometry repaired = NavMesh::build(named).to_geometry();
  if (repaired.polygons.size() > grid.max_polygons_per_tile)
    throw std::length_error(named.source + ": " + std::to_string(repaired.polygons.size()) +
                            " polygons, more than the grid's max_polygons_per_tile (" +
                            std::to_string(grid.max_polygons_per_tile) + ")");
  const double tolerance = border_tolerance(grid);
  const double min_x = grid.origin_x + tile_x * grid.tile_width, min_z = grid.origin_z + tile_z * grid.tile_width;
  const double max_x = min_x + grid.tile_width, max_z = min_z + grid.tile_width;
  for (const auto& polygon : repaired.polygons)
    for (const std::uint32_t index : polygon) {
      const Point& p = repaired.vertices[index];
      if (p.x < min_x - tolerance || p.x > max_x + tolerance || p.z < min_z - tolerance || p.z > max_z + tolerance)
        throw std::invalid_argument(named.source + ": a polygon reaches (" + std::to_string(p.x) + ", " +
                                    std::to_string(p.z) + "), outside the tile's square [" + std::to_string(min_x) +
                                    ", " + std::to_string(max_x) + "] x [" + std::to_string(min_z) + ", " +
                                    std::to_string(max_z) + "]");
    }
  repaired.source = input.source;
  return repaired;
}

// The border lines a point lies on: the index of the x = origin_x + k * width line (or -1),
// and the same for z.
std::pair<long long, long long> border_lines(const NavMeshTileGrid& grid, const Point& p) {
  const double tolerance = border_tolerance(grid);
  auto line = [&](double coordinate, double origin) -> long long {
    const double k = std::round((coordinate - origin) / grid.tile_width);
    return std::abs(coordinate - (origin + k * grid.tile_width)) <= tolerance ? static_cast<long long>(k) : -1;
  };
  return {line(p.x, grid.origin_x), line(p.z, grid.origin_z)};
}

// Joins the tiles along their borders, as the tiled Recast build stitches its tiles
// (navmesh_build/tile_border_weld.hpp), in world units: a vertex on a border line is the same as
// an earlier one at the same x-z point within `climb` in height, and a polygon edge along a
// border line is split at the vertices on that line strictly between its ends (within `climb`
// of its height there), so that every stretch two tiles share is a shared edge. The inserted
// vertices have the edge's own line coordinate, so polygons stay convex.
void weld_tile_borders(const NavMeshTileGrid& grid, MeshGeometry& mesh) {
  const double climb = grid.border_climb * (1.0 + 1e-6) + 1e-9;
  std::vector<std::uint32_t> canonical(mesh.vertices.size());
  std::iota(canonical.begin(), canonical.end(), 0u);
  std::vector<char> on_border(mesh.vertices.size(), 0);
  // The border vertices by x-z point (a column), in index order within a point: one sort of
  // plain records rather than a tree of vectors, as this runs on every tile change.
  struct BorderVertex {
    double x, z;
    std::uint32_t vertex;
    bool on_x_line, on_z_line;
  };
  std::vector<BorderVertex> border;
  for (std::uint32_t v = 0; v < mesh.vertices.size(); ++v) {
    const Point& p = mesh.vertices[v];
    const auto [line_x, line_z] = border_lines(grid, p);
    if (line_x < 0 && line_z < 0) continue;
    on_border[v] = 1;
    border.push_back({p.x, p.z, v, line_x >= 0, line_z >= 0});
  }
  std::sort(border.begin(), border.end(), [](const BorderVertex& a, const BorderVertex& b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.z != b.z) return a.z < b.z;
    return a.vertex < b.vertex;
  });
  // Each vertex is the first earlier one of its column within the climb, or is kept. The kept
  // vertices on each line, keyed by (axis, exact coordinate), are then sorted along it.
  std::map<std::pair<int, double>, std::vector<std::uint32_t>> lines;
  std::vector<std::uint32_t> column;
  for (std::size_t i = 0; i < border.size();) {
    std::size_t end = i + 1;
    while (end < border.size() && border[end].x == border[i].x && border[end].z == border[i].z) ++end;
    column.clear();
    for (std::size_t k = i; k < end; ++k) {
      const std::uint32_t v = border[k].vertex;
      for (const std::uint32_t other : column)
        if (std::abs(mesh.vertices[other].y - mesh.vertices[v].y) <= climb) {
          canonical[v] = other;
          break;
        }
      if (canonical[v] != v) continue;
      column.push_back(v);
      if (border[k].on_x_line) lines[{0, border[i].x}].push_back(v);
      if (border[k].on_z_line) lines[{2, border[i].z}].push_back(v);
    }
    i = end;
  }
  for (auto& [key, ids] : lines) {
    const int along = key.first == 0 ? 2 : 0;
    std::sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) {
      return along_axis(mesh.vertices[a], along) < along_axis(mesh.vertices[b], along);
    });
  }
  std::vector<std::uint32_t> split;
  for (auto& polygon : mesh.polygons) {
    for (std::uint32_t& index : polygon) index = canonical[index];
    split.clear();
    for (std::size_t j = 0; j < polygon.size(); ++j) {
      const std::uint32_t a = polygon[j], b = polygon[(j + 1) % polygon.size()];
      split.push_back(a);
      if (!on_border[a] || !on_border[b]) continue;
      const Point &from = mesh.vertices[a], &to = mesh.vertices[b];
      const std::vector<std::uint32_t>* line = nullptr;
      int along = 0;
      for (const int axis : {0, 2}) {
        if (along_axis(from, axis) != along_axis(to, axis)) continue;
        const auto found = lines.find({axis, along_axis(from, axis)});
        if (found == lines.end()) continue;
        line = &found->second;
        along = axis == 0 ? 2 : 0;
      }
      if (line == nullptr) continue;
      const double start = along_axis(from, along), end = along_axis(to, along);
      const double low = std::min(start, end), high = std::max(start, end);
      const std::size_t before = split.size();
      // The line is sorted along itself: only the stretch strictly between the edge's ends is
      // looked at, so a border edge costs the vertices beside it, not the whole level's line.
      const auto inside_from = std::upper_bound(line->begin(), line->end(), low, [&](double at, std::uint32_t c) {
        return at < along_axis(mesh.vertices[c], along);
      });
      const auto inside_to = std::lower_bound(inside_from, line->end(), high, [&](std::uint32_t c, double at) {
        return along_axis(mesh.vertices[c], along) < at;
      });
      for (auto it = inside_from; it != inside_to; ++it) {
        const std::uint32_t c = *it;
        const Point& corner = mesh.vertices[c];
        const double at = along_axis(corner, along);
        const double edge_height = from.y + (to.y - from.y) * (at - start) / (end - start);
        if (std::abs(corner.y - edge_height) > climb) continue;
        split.push_back(c);
      }
      if (start > end) std::reverse(split.begin() + static_cast<std::ptrdiff_t>(before), split.end());
    }
    if (split.size() != polygon.size()) polygon = split;
  }
}

}  // namespace

NavMesh NavMesh::build_tiled(const NavMeshTileGrid& grid, std::span<const NavMeshTile> tiles,
                             const NavMeshBuildOptions& options) {
  check_grid(grid);
  std::vector<StoredTile> stored(static_cast<std::size_t>(grid.tiles_x) * static_cast<std::size_t>(grid.tiles_z));
  std::vector<char> given(stored.size(), 0);
  for (const NavMeshTile& tile : tiles) {
    if (!inside_grid(grid, tile.tile_x, tile.tile_z))
      throw std::invalid_argument(tile_text(tile.tile_x, tile.tile_z) + " is outside the grid of " +
                                  std::to_string(grid.tiles_x) + " x " + std::to_string(grid.tiles_z) + " tiles");
    const std::size_t index = tile_index(grid, tile.tile_x, tile.tile_z);
    if (given[index]) throw std::invalid_argument(tile_text(tile.tile_x, tile.tile_z) + " is given twice");
    given[index] = 1;
    stored[index].geometry = repaired_tile(grid, tile.tile_x, tile.tile_z, tile.geometry);
  }
  NavMesh mesh;
  mesh.tile_grid_ = grid;
  mesh.tiles_ = std::move(stored);
  mesh.build_options_ = options;
  mesh.source_ = tiles.empty() ? std::string("<tiles>") : tiles.front().geometry.source + " (tiled)";
  mesh.rebuild_from_tiles(std::nullopt);
  return mesh;
}

MeshGeometry NavMesh::assemble_tiles() const {
  MeshGeometry out;
  out.source = source_;
  out.declared_navmesh = true;
  const std::uint32_t capacity = tile_grid_.max_polygons_per_tile;
  const bool detail = std::any_of(tiles_.begin(), tiles_.end(),
                                  [](const StoredTile& tile) { return !tile.geometry.detail_starts.empty(); });
  out.polygons.reserve(tiles_.size() * capacity);
  out.polygon_areas.reserve(tiles_.size() * capacity);
  out.polygon_flags.reserve(tiles_.size() * capacity);
  if (detail) out.detail_starts.push_back(0);
  for (const StoredTile& tile : tiles_) {
    const MeshGeometry& g = tile.geometry;
    const auto vertex_offset = static_cast<std::uint32_t>(out.vertices.size());
    const auto detail_offset = static_cast<std::uint32_t>(out.detail_vertices.size());
    out.vertices.insert(out.vertices.end(), g.vertices.begin(), g.vertices.end());
    out.detail_vertices.insert(out.detail_vertices.end(), g.detail_vertices.begin(), g.detail_vertices.end());
    for (std::uint32_t i = 0; i < capacity; ++i) {
      std::vector<std::uint32_t> polygon;
      AreaId area = 0;
      AreaFlags flags = 0;
      if (i < g.polygons.size()) {
        polygon = g.polygons[i];
        for (std::uint32_t& index : polygon) index += vertex_offset;
        area = g.polygon_areas[i];
        flags = g.polygon_flags[i];
        if (detail && !g.detail_starts.empty())
          for (std::uint32_t t = g.detail_starts[i]; t < g.detail_starts[i + 1]; ++t) {
            auto triangle = g.detail_triangles[t];
            for (std::uint32_t& corner : triangle) corner += detail_offset;
            out.detail_triangles.push_back(triangle);
          }
      }
      out.polygons.push_back(std::move(polygon));
      out.polygon_areas.push_back(area);
      out.polygon_flags.push_back(flags);
      if (detail) out.detail_starts.push_back(static_cast<std::uint32_t>(out.detail_triangles.size()));
    }
  }
  weld_tile_borders(tile_grid_, out);
  return out;
}

// The polygon ids of the tiles within `radius` tiles (in x and z) of tile `index`, ascending.
std::vector<std::uint32_t> NavMesh::polygons_around_tile(std::size_t index, int radius) const {
  const auto columns = static_cast<std::size_t>(tile_grid_.tiles_x);
  const int tile_x = static_cast<int>(index % columns), tile_z = static_cast<int>(index / columns);
  const std::uint32_t capacity = tile_grid_.max_polygons_per_tile;
  std::vector<std::uint32_t> out;
  for (int z = std::max(0, tile_z - radius); z <= std::min(tile_grid_.tiles_z - 1, tile_z + radius); ++z)
    for (int x = std::max(0, tile_x - radius); x <= std::min(tile_grid_.tiles_x - 1, tile_x + radius); ++x) {
      const auto first = static_cast<std::uint32_t>(tile_index(tile_grid_, x, z) * capacity);
      for (std::uint32_t i = 0; i < capacity; ++i) out.push_back(first + i);
    }
  return out;
}

void NavMesh::rebuild_from_tiles(std::optional<std::size_t> changed_tile) {
  NavMesh fresh = build_checked(assemble_tiles(), build_options_, true);
  // The join of one tile reaches its 8 neighbours' polygons and no farther (the border weld
  // looks at the border lines around the tile only): every polygon two tiles away or more keeps
  // its geometry and neighbours, and the corridor search's graph is copied there.
  if (changed_tile && edge_point_graph_) {
    const std::vector<std::uint32_t> near = polygons_around_tile(*changed_tile, 2);
    const std::vector<std::uint32_t> around = polygons_around_tile(*changed_tile, 3);
    fresh.edge_point_graph_ = std::make_shared<const EdgePointGraph>(fresh, *this, *edge_point_graph_, near, around);
  } else {
    fresh.edge_point_graph_ = std::make_shared<const EdgePointGraph>(fresh);
  }
  fresh.source_ = source_;
  fresh.tile_grid_ = tile_grid_;
  fresh.tiles_ = std::move(tiles_);
  fresh.build_options_ = build_options_;
  fresh.geometry_revision_ = geometry_revision_;
  fresh.changes_ = std::move(changes_);
  // Off-mesh links are placed again on the new polygons; one whose end lost its ground waits,
  // detached, for a tile to return under it.
  if (!links_.empty()) {
    for (const PlacedOffMeshLink& link : links_) {
      std::string problem;
      auto placed = fresh.place_link(link.input, problem);
      if (placed) {
        fresh.links_.push_back(std::move(*placed));
      } else {
        PlacedOffMeshLink detached;
        detached.input = link.input;
        fresh.links_.push_back(detached);
      }
    }
    fresh.index_links();
    fresh.build_regions();
    fresh.find_bridges();
  }
  *this = std::move(fresh);
}

void NavMesh::replace_tile(int tile_x, int tile_z, const MeshGeometry& tile_geometry) {
  if (!is_tiled()) throw std::logic_error("replace_tile: the mesh was not built with build_tiled");
  if (!inside_grid(tile_grid_, tile_x, tile_z))
    throw std::out_of_range("replace_tile: " + tile_text(tile_x, tile_z) + " is outside the grid of " +
                            std::to_string(tile_grid_.tiles_x) + " x " + std::to_string(tile_grid_.tiles_z) + " tiles");
  const std::size_t index = tile_index(tile_grid_, tile_x, tile_z);
  MeshGeometry repaired = repaired_tile(tile_grid_, tile_x, tile_z, tile_geometry);
  if (repaired.polygons.empty()) {
    const bool last = std::none_of(tiles_.begin(), tiles_.end(), [&](const StoredTile& tile) {
      return &tile != &tiles_[index] && !tile.geometry.polygons.empty();
    });
    if (last) throw std::logic_error("replace_tile: " + tile_text(tile_x, tile_z) + " is the mesh's last tile; a mesh keeps one");
  }
  // The other tiles keep their polygons' tags as edited since they were given.
  const std::uint32_t capacity = tile_grid_.max_polygons_per_tile;
  for (std::size_t t = 0; t < tiles_.size(); ++t) {
    MeshGeometry& g = tiles_[t].geometry;
    for (std::size_t i = 0; i < g.polygons.size(); ++i) {
      const PolygonTags& tags = tags_[t * capacity + i];
      g.polygon_areas[i] = tags.area;
      g.polygon_flags[i] = tags.flags;
    }
  }
  const auto first = static_cast<PolygonId>(index * capacity);
  const std::size_t touched = std::max(tiles_[index].geometry.polygons.size(), repaired.polygons.size());
  std::vector<NavMeshPolygonChange> logged;
  logged.reserve(touched);
  for (std::size_t i = 0; i < touched; ++i) {
    const PolygonTags& before = tags_[first + i];
    NavMeshPolygonChange change;
    change.polygon = static_cast<PolygonId>(first + i);
    change.area_before = before.area;
    change.flags_before = before.flags;
    change.tile_replaced = true;
    logged.push_back(change);
  }
  // Only the build of the joined arrays can throw, before rebuild_from_tiles moves anything.
  MeshGeometry previous = std::exchange(tiles_[index].geometry, std::move(repaired));
  try {
    rebuild_from_tiles(index);
  } catch (...) {
    tiles_[index].geometry = std::move(previous);
    throw;
  }
  StoredTile& tile = tiles_[index];
  tile.salt = tile.salt == std::numeric_limits<std::uint32_t>::max() ? 1 : tile.salt + 1;
  ++geometry_revision_;
  for (const NavMeshPolygonChange& change : logged) changes_.record(change);
  changes_.commit();
}

std::vector<NavMeshTileInfo> NavMesh::tiles() const {
  std::vector<NavMeshTileInfo> out;
  for (std::size_t t = 0; t < tiles_.size(); ++t) {
    const auto count = static_cast<std::uint32_t>(tiles_[t].geometry.polygons.size());
    if (count == 0) continue;
    out.push_back({static_cast<int>(t % static_cast<std::size_t>(tile_grid_.tiles_x)),
                   static_cast<int>(t / static_cast<std::size_t>(tile_grid_.tiles_x)),
                   static_cast<std::uint32_t>(t * tile_grid_.max_polygons_per_tile), count, tiles_[t].salt});
  }
  return out;
}

MeshGeometry NavMesh::tile_geometry(int tile_x, int tile_z) const {
  if (!is_tiled()) throw std::logic_error("tile_geometry: the mesh was not built with build_tiled");
  if (!inside_grid(tile_grid_, tile_x, tile_z))
    throw std::out_of_range("tile_geometry: " + tile_text(tile_x, tile_z) + " is outside the grid");
  const std::size_t index = tile_index(tile_grid_, tile_x, tile_z);
  MeshGeometry out = tiles_[index].geometry;
  const std::size_t first = index * tile_grid_.max_polygons_per_tile;
  for (std::size_t i = 0; i < out.polygons.size(); ++i) {
    out.polygon_areas[i] = tags_[first + i].area;
    out.polygon_flags[i] = tags_[first + i].flags;
  }
  return out;
}

PolygonRef NavMesh::polygon_ref(PolygonId polygon) const {
  if (polygon >= polygon_count() || is_empty_polygon(polygon)) return {};
  if (!is_tiled()) return {0, polygon, 1};
  const std::uint32_t capacity = tile_grid_.max_polygons_per_tile;
  const std::uint32_t tile = polygon / capacity;
  return {tile, polygon % capacity, tiles_[tile].salt};
}

bool NavMesh::is_valid(const PolygonRef& ref) const {
  if (!is_tiled()) return ref.tile == 0 && ref.salt == 1 && ref.polygon < polygon_count() && !is_empty_polygon(ref.polygon);
  return ref.tile < tiles_.size() && ref.salt == tiles_[ref.tile].salt &&
         ref.polygon < tiles_[ref.tile].geometry.polygons.size();
}

PolygonId NavMesh::polygon_of(const PolygonRef& ref) const {
  if (!is_valid(ref)) return invalid_polygon;
  return is_tiled() ? ref.tile * tile_grid_.max_polygons_per_tile + ref.polygon : ref.polygon;
}

// A tiled mesh with its links, as a baked file holds it (navmesh_file_reader.cpp).
NavMesh NavMesh::build_tiled(const NavMeshTileGrid& grid, std::span<const NavMeshTile> tiles,
                             std::span<const OffMeshLink> links, const NavMeshBuildOptions& options) {
  for (std::size_t i = 0; i < links.size(); ++i)
    if (auto problem = link_value_problem(links[i]))
      throw std::invalid_argument("off-mesh link " + std::to_string(i) + ": " + *problem);
  NavMesh mesh = build_tiled(grid, tiles, options);
  if (links.empty()) return mesh;
  mesh.links_.reserve(links.size());
  for (const OffMeshLink& link : links) {
    std::string problem;
    std::optional<PlacedOffMeshLink> placed = mesh.place_link(link, problem);
    if (!placed) placed.emplace().input = link;  // detached until a tile returns under its end
    mesh.links_.push_back(std::move(*placed));
  }
  mesh.index_links();
  mesh.build_regions();
  mesh.find_bridges();
  return mesh;
}

}  // namespace wayfinder
