// NavMesh's build: checks the input, makes every polygon convex and counter-clockwise, finds
// the shared edges and adopts detail heights, then has the other parts built (point location in
// nav_mesh_locator.cpp, regions and bridges in nav_mesh_regions.cpp, links in off_mesh_links.cpp).
#include "wayfinder/navmesh/nav_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <utility>

#include "navmesh/edge_point_graph.hpp"
#include "navmesh/polygon_triangulation.hpp"
#include "wayfinder/core/geometry.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

using geometry::cross_xz;
using geometry::is_finite;

std::string describe(const std::string& source, int line, const std::string& what) {
  return line > 0 ? source + ":" + std::to_string(line) + ": " + what : source + ": " + what;
}

// Twice the signed area of a polygon in the x-z plane, relative to its first vertex (see
// geometry::twice_area_xz for why).
double signed_area_xz(const std::vector<Point>& vertices, const std::vector<std::uint32_t>& polygon) {
  return geometry::twice_area_xz(polygon.size(), [&](std::size_t i) -> const Point& { return vertices[polygon[i]]; });
}

// The largest distance in x or z from the polygon's first vertex to another: the length scale
// of the polygon's own area tolerance.
double local_extent_xz(const std::vector<Point>& vertices, const std::vector<std::uint32_t>& polygon) {
  const Point& origin = vertices[polygon[0]];
  double extent = 0.0;
  for (const std::uint32_t index : polygon) {
    const Point& p = vertices[index];
    extent = std::max({extent, std::abs(p.x - origin.x), std::abs(p.z - origin.z)});
  }
  return extent;
}

// Twice-areas below this count as zero: a polygon thinner than 1e-12 of its own size has no
// area seen from above but rounding (a wall, a vertical face). The tolerance is the polygon's
// own, not the mesh's, so that small polygons far from others (or from the origin) are kept.
double area_tolerance_of(const std::vector<Point>& vertices, const std::vector<std::uint32_t>& polygon) {
  const double extent = local_extent_xz(vertices, polygon);
  return extent * extent * 1e-12;
}

// Convex (counter-clockwise) when no corner turns clockwise by more than rounding; straight
// corners (collinear vertices) are allowed, as Recast's polygons have them.
bool is_convex_ccw(const std::vector<Point>& vertices, const std::vector<std::uint32_t>& polygon, double tolerance) {
  const std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point& a = vertices[polygon[i]];
    const Point& b = vertices[polygon[(i + 1) % n]];
    const Point& c = vertices[polygon[(i + 2) % n]];
    if (cross_xz(a, b, c) < -tolerance) return false;
  }
  return true;
}

// Cuts `indices` into polygons of `polygon_sizes` vertices each.
template <class Index>
void add_polygons(MeshGeometry& geometry, std::span<const Index> indices, std::span<const std::uint32_t> polygon_sizes) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < polygon_sizes.size(); ++i) {
    const std::uint32_t size = polygon_sizes[i];
    if (size > indices.size() - at)
      throw LoadError(geometry.source, 0, 0,
                      "polygon " + std::to_string(i) + " needs " + std::to_string(size) +
                          " indices but only " + std::to_string(indices.size() - at) + " are left");
    geometry.polygons.emplace_back(indices.begin() + static_cast<std::ptrdiff_t>(at),
                                   indices.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  if (at != indices.size())
    throw LoadError(geometry.source, 0, 0,
                    std::to_string(indices.size() - at) + " indices are left over after the last polygon");
}

// Float positions as doubles (every float is exactly a double), read with memcpy so that any
// stride and alignment is fine.
std::vector<Point> float_positions(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes) {
  const MeshGeometry labels;  // for its source label
  constexpr std::size_t packed = 3 * sizeof(float);
  if (stride_bytes == 0) stride_bytes = packed;
  if (stride_bytes < packed)
    throw LoadError(labels.source, 0, 0,
                    "vertex stride of " + std::to_string(stride_bytes) +
                        " bytes is too small: a vertex needs 3 floats (12 bytes; 0 means tightly packed)");
  if (vertices == nullptr && vertex_count > 0)
    throw LoadError(labels.source, 0, 0,
                    "the vertex pointer is null but the vertex count is " + std::to_string(vertex_count));
  if (vertex_count >= std::numeric_limits<std::uint32_t>::max())
    throw LoadError(labels.source, 0, 0, "mesh too large: at most 2^32 - 1 vertices");
  // The buffer spans (vertex_count - 1) * stride + 12 bytes. No object is larger than
  // PTRDIFF_MAX bytes or runs past the end of the address space, so a stride and count that ask
  // for more describe no buffer; checking first keeps i * stride from wrapping around.
  if (vertex_count > 1) {
    constexpr auto largest = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
    const std::size_t last = vertex_count - 1;
    const bool spans_too_far = stride_bytes > (largest - packed) / last ||
                               reinterpret_cast<std::uintptr_t>(vertices) >
                                   std::numeric_limits<std::uintptr_t>::max() - (last * stride_bytes + packed);
    if (spans_too_far)
      throw LoadError(labels.source, 0, 0,
                      std::to_string(vertex_count) + " vertices at a stride of " + std::to_string(stride_bytes) +
                          " bytes span more memory than a buffer can hold");
  }
  std::vector<Point> points(vertex_count);
  const auto* bytes = reinterpret_cast<const unsigned char*>(vertices);
  for (std::size_t i = 0; i < vertex_count; ++i) {
    float xyz[3];
    std::memcpy(xyz, bytes + i * stride_bytes, sizeof xyz);
    points[i] = {static_cast<double>(xyz[0]), static_cast<double>(xyz[1]), static_cast<double>(xyz[2])};
  }
  return points;
}

template <class Index>
MeshGeometry geometry_from_floats(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes,
                                  std::span<const Index> indices, std::span<const std::uint32_t> polygon_sizes) {
  MeshGeometry geometry;
  geometry.vertices = float_positions(vertices, vertex_count, stride_bytes);
  add_polygons(geometry, indices, polygon_sizes);
  return geometry;
}

}  // namespace

NavMesh NavMesh::from_arrays(std::span<const Point> vertices, std::span<const std::uint32_t> indices,
                             std::span<const std::uint32_t> polygon_sizes, const NavMeshBuildOptions& options) {
  MeshGeometry geometry;
  geometry.vertices.assign(vertices.begin(), vertices.end());
  add_polygons(geometry, indices, polygon_sizes);
  return build(geometry, options);
}

NavMesh NavMesh::from_arrays(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes,
                             std::span<const std::uint32_t> indices, std::span<const std::uint32_t> polygon_sizes,
                             const NavMeshBuildOptions& options) {
  return build(geometry_from_floats(vertices, vertex_count, stride_bytes, indices, polygon_sizes), options);
}

NavMesh NavMesh::from_arrays(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes,
                             std::span<const std::uint16_t> indices, std::span<const std::uint32_t> polygon_sizes,
                             const NavMeshBuildOptions& options) {
  return build(geometry_from_floats(vertices, vertex_count, stride_bytes, indices, polygon_sizes), options);
}

NavMesh NavMesh::build(const MeshGeometry& geometry, const NavMeshBuildOptions& options) {
  return build_checked(geometry, options, false);
}

NavMesh NavMesh::build_checked(const MeshGeometry& geometry, const NavMeshBuildOptions& options,
                               bool keep_empty_polygons) {
  NavMesh mesh;
  mesh.source_ = geometry.source;
  const std::string& source = geometry.source;
  auto polygon_line = [&](std::size_t polygon) {
    return polygon < geometry.polygon_lines.size() ? geometry.polygon_lines[polygon] : 0;
  };
  auto vertex_line = [&](std::size_t vertex) {
    return vertex < geometry.vertex_lines.size() ? geometry.vertex_lines[vertex] : 0;
  };

  if (geometry.polygons.empty()) throw LoadError(source, 0, 0, "empty mesh: no polygons");
  // Areas and flags: none given, or one per polygon.
  for (const auto& [name, count] : {std::pair{"polygon_areas", geometry.polygon_areas.size()},
                                    std::pair{"polygon_flags", geometry.polygon_flags.size()}}) {
    if (count != 0 && count != geometry.polygons.size())
      throw LoadError(source, 0, 0,
                      std::string(name) + " has " + std::to_string(count) + " entries for " +
                          std::to_string(geometry.polygons.size()) + " polygons (give one per polygon, or none)");
  }
  for (std::size_t p = 0; p < geometry.polygon_areas.size(); ++p) {
    if (geometry.polygon_areas[p] >= max_areas)
      throw LoadError(source, polygon_line(p), 0,
                      "polygon " + std::to_string(p) + " has area " + std::to_string(geometry.polygon_areas[p]) +
                          "; areas are 0 to " + std::to_string(max_areas - 1));
  }
  mesh.adopt_detail_heights(geometry);
  auto input_tags = [&](std::size_t polygon) {
    return PolygonTags{geometry.polygon_areas.empty() ? AreaId{0} : geometry.polygon_areas[polygon],
                       geometry.polygon_flags.empty() ? AreaFlags{0} : geometry.polygon_flags[polygon]};
  };
  if (geometry.vertices.size() >= std::numeric_limits<std::uint32_t>::max() ||
      geometry.polygons.size() >= std::numeric_limits<std::uint32_t>::max() / 2)
    throw LoadError(source, 0, 0, "mesh too large: at most 2^31 polygons and 2^32 - 1 vertices");
  for (std::size_t v = 0; v < geometry.vertices.size(); ++v) {
    if (!is_finite(geometry.vertices[v]))
      throw LoadError(source, vertex_line(v), 0, "vertex " + std::to_string(v) + " has a non-finite coordinate");
  }

  // Vertices at exactly the same position are one vertex, so that polygons which repeat a
  // corner under another index still share their edges. Joined tiles need no such pass: each
  // tile arrives built (its polygons use one index per position), tiles' insides do not overlap,
  // and the border weld (nav_mesh_tiles.cpp) has already made every vertex at one point of a
  // border one, so the sort would map every used vertex to itself at a cost of the whole level.
  std::vector<std::uint32_t> canonical(geometry.vertices.size());
  if (keep_empty_polygons) {
    std::iota(canonical.begin(), canonical.end(), 0u);
  } else {
    std::vector<std::uint32_t> order(geometry.vertices.size());
    std::iota(order.begin(), order.end(), 0u);
    auto position_less = [&](std::uint32_t a, std::uint32_t b) {
      const Point &p = geometry.vertices[a], &q = geometry.vertices[b];
      if (p.x != q.x) return p.x < q.x;
      if (p.z != q.z) return p.z < q.z;
      if (p.y != q.y) return p.y < q.y;
      return a < b;
    };
    std::sort(order.begin(), order.end(), position_less);
    for (std::size_t i = 0; i < order.size(); ++i) {
      canonical[order[i]] = (i > 0 && geometry.vertices[order[i]] == geometry.vertices[order[i - 1]])
                                ? canonical[order[i - 1]]
                                : order[i];
    }
  }
  mesh.vertices_ = geometry.vertices;

  // Reused from polygon to polygon: a tile change runs this over the whole level.
  std::vector<std::uint32_t> resolved, distinct, sorted;
  for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
    const std::vector<std::uint32_t>& input = geometry.polygons[p];
    const int line = polygon_line(p);
    if (input.empty() && keep_empty_polygons) {
      mesh.polygon_starts_.push_back(static_cast<std::uint32_t>(mesh.polygon_indices_.size()));
      mesh.source_polygons_.push_back(static_cast<std::uint32_t>(p));
      mesh.tags_.push_back(input_tags(p));
      continue;
    }
    if (input.size() < 3)
      throw LoadError(source, line, 0,
                      "polygon " + std::to_string(p) + " has " + std::to_string(input.size()) +
                          " vertices; a polygon needs at least 3");
    resolved.clear();
    for (std::uint32_t index : input) {
      if (index >= geometry.vertices.size())
        throw LoadError(source, line, 0,
                        "polygon " + std::to_string(p) + " uses vertex " + std::to_string(index) + " but the mesh has " +
                            std::to_string(geometry.vertices.size()) + " vertices");
      resolved.push_back(canonical[index]);
    }
    // Drop repeats: the same vertex twice in a row (or the last equal to the first).
    distinct.clear();
    for (std::uint32_t index : resolved) {
      if (distinct.empty() || distinct.back() != index) distinct.push_back(index);
    }
    while (distinct.size() > 1 && distinct.front() == distinct.back()) distinct.pop_back();
    if (distinct.size() != resolved.size()) {
      mesh.problems_.push_back({MeshProblem::Kind::repeated_vertex, static_cast<std::uint32_t>(p), line,
                                describe(source, line, "polygon " + std::to_string(p) + " repeats a vertex; the repeat is ignored")});
    }
    const double twice_area = distinct.size() >= 3 ? signed_area_xz(mesh.vertices_, distinct) : 0.0;
    const double area_tolerance = distinct.size() >= 3 ? area_tolerance_of(mesh.vertices_, distinct) : 0.0;
    if (distinct.size() < 3 || std::abs(twice_area) <= area_tolerance) {
      mesh.problems_.push_back({MeshProblem::Kind::degenerate_polygon, static_cast<std::uint32_t>(p), line,
                                describe(source, line, "polygon " + std::to_string(p) +
                                                           " has no area seen from above; it is left out")});
      if (keep_empty_polygons) {  // its id stays, empty, so that the ids after it keep theirs
        mesh.polygon_starts_.push_back(static_cast<std::uint32_t>(mesh.polygon_indices_.size()));
        mesh.source_polygons_.push_back(static_cast<std::uint32_t>(p));
        mesh.tags_.push_back(input_tags(p));
      }
      continue;
    }
    if (twice_area < 0.0) std::reverse(distinct.begin(), distinct.end());
    // A vertex that appears twice, not in a row, makes the boundary touch itself.
    sorted.assign(distinct.begin(), distinct.end());
    std::sort(sorted.begin(), sorted.end());
    const bool self_touching = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
    if (!self_touching && is_convex_ccw(mesh.vertices_, distinct, area_tolerance)) {
      mesh.polygon_indices_.insert(mesh.polygon_indices_.end(), distinct.begin(), distinct.end());
      mesh.polygon_starts_.push_back(static_cast<std::uint32_t>(mesh.polygon_indices_.size()));
      mesh.source_polygons_.push_back(static_cast<std::uint32_t>(p));
      mesh.tags_.push_back(input_tags(p));
      continue;
    }
    // Tiles arrive repaired and joining them keeps them convex: a split here would shift ids.
    if (keep_empty_polygons)
      throw LoadError(source, line, 0, "polygon " + std::to_string(p) + " is not convex after joining its tile's borders");
    mesh.problems_.push_back({MeshProblem::Kind::concave_polygon, static_cast<std::uint32_t>(p), line,
                              describe(source, line, "polygon " + std::to_string(p) +
                                                         " is not convex; it is split into triangles")});
    auto triangles = triangulate(mesh.vertices_, distinct);
    if (!triangles)
      throw LoadError(source, line, 0,
                      "polygon " + std::to_string(p) + " (" + std::to_string(distinct.size()) +
                          " vertices) is too intricate to split into triangles: the split gave up after " +
                          std::to_string(triangulation_budget(distinct.size())) +
                          " vertex tests; split the face in the modelling tool, or export it triangulated");
    for (auto& triangle : *triangles) {
      const double triangle_area = signed_area_xz(mesh.vertices_, triangle);
      if (std::abs(triangle_area) <= area_tolerance_of(mesh.vertices_, triangle)) continue;
      // A boundary that crosses itself has no one winding: an ear of it may come out clockwise.
      if (triangle_area < 0.0) std::reverse(triangle.begin(), triangle.end());
      mesh.polygon_indices_.insert(mesh.polygon_indices_.end(), triangle.begin(), triangle.end());
      mesh.polygon_starts_.push_back(static_cast<std::uint32_t>(mesh.polygon_indices_.size()));
      mesh.source_polygons_.push_back(static_cast<std::uint32_t>(p));
      mesh.tags_.push_back(input_tags(p));
    }
  }
  if (mesh.polygon_count() == 0 || (keep_empty_polygons && mesh.polygon_indices_.empty()))
    throw LoadError(source, 0, 0, "no usable polygons: every polygon has zero area seen from above");

  // Bounds of what is used, centroids and per-polygon boxes.
  mesh.bounds_ = {{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::infinity()},
                  {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()}};
  mesh.centroids_.resize(mesh.polygon_count());
  mesh.polygon_bounds_.resize(mesh.polygon_count());
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    const auto indices = mesh.polygon_vertices(polygon);
    if (indices.empty()) {
      // An unused id of a tile: a box no point falls in, and no place.
      constexpr double inf = std::numeric_limits<double>::infinity();
      mesh.polygon_bounds_[polygon] = {{inf, inf, inf}, {-inf, -inf, -inf}};
      continue;
    }
    Bounds box = {mesh.vertices_[indices[0]], mesh.vertices_[indices[0]]};
    double twice_area = 0.0, cx = 0.0, cz = 0.0;
    const Point& origin = mesh.vertices_[indices[0]];
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const Point& a = mesh.vertices_[indices[i]];
      box.min = {std::min(box.min.x, a.x), std::min(box.min.y, a.y), std::min(box.min.z, a.z)};
      box.max = {std::max(box.max.x, a.x), std::max(box.max.y, a.y), std::max(box.max.z, a.z)};
      if (i >= 1 && i + 1 < indices.size()) {  // fan triangle (0, i, i + 1), relative to vertex 0
        const Point& b = mesh.vertices_[indices[i + 1]];
        const double t = cross_xz(origin, a, b);
        twice_area += t;
        cx += t * ((a.x - origin.x) + (b.x - origin.x)) / 3.0;
        cz += t * ((a.z - origin.z) + (b.z - origin.z)) / 3.0;
      }
    }
    // With detail heights the ground may rise above or fall below the polygon's corners; point
    // location skips a polygon by its box's heights, so the box holds the ground too.
    if (!mesh.detail_starts_.empty()) {
      const std::uint32_t input = mesh.source_polygons_[polygon];
      for (std::uint32_t t = mesh.detail_starts_[input]; t < mesh.detail_starts_[input + 1]; ++t)
        for (const std::uint32_t corner : mesh.detail_triangles_[t]) {
          box.min.y = std::min(box.min.y, mesh.detail_vertices_[corner].y);
          box.max.y = std::max(box.max.y, mesh.detail_vertices_[corner].y);
        }
    }
    mesh.polygon_bounds_[polygon] = box;
    const double x = origin.x + cx / twice_area, z = origin.z + cz / twice_area;
    mesh.centroids_[polygon] = {x, mesh.height_at(polygon, x, z), z};
    mesh.bounds_.min = {std::min(mesh.bounds_.min.x, box.min.x), std::min(mesh.bounds_.min.y, box.min.y),
                        std::min(mesh.bounds_.min.z, box.min.z)};
    mesh.bounds_.max = {std::max(mesh.bounds_.max.x, box.max.x), std::max(mesh.bounds_.max.y, box.max.y),
                        std::max(mesh.bounds_.max.z, box.max.z)};
  }
  // A coordinate near M is only known to about M * 2^-53: far from the origin the margin of
  // contains_xz grows with it (a few units in the last place), so that a point computed on an
  // edge (interpolated, or moved there by the funnel) is still on it.
  const double largest = std::max({std::abs(mesh.bounds_.min.x), std::abs(mesh.bounds_.max.x),
                                   std::abs(mesh.bounds_.min.z), std::abs(mesh.bounds_.max.z)});
  mesh.xz_margin_ = std::max(1e-9, 8.0 * std::numeric_limits<double>::epsilon() * largest);

  mesh.count_tags();
  mesh.build_adjacency();
  mesh.build_locator(options.locator_cell_size);
  // Links are placed with point location, and join regions and break bridges.
  for (std::size_t i = 0; i < geometry.off_mesh_links.size(); ++i) {
    const OffMeshLink& link = geometry.off_mesh_links[i];
    std::string problem;
    auto placed = mesh.place_link(link, problem);
    if (!placed) throw LoadError(source, link.line, 0, "off-mesh link " + std::to_string(i) + ": " + problem);
    mesh.links_.push_back(std::move(*placed));
  }
  mesh.index_links();
  mesh.build_regions();
  mesh.find_bridges();
  // A tiled mesh's graph is made by rebuild_from_tiles, from the graph before the change.
  if (!keep_empty_polygons) mesh.edge_point_graph_ = std::make_shared<const EdgePointGraph>(mesh);
  return mesh;
}

void NavMesh::build_adjacency() {
  // Sort every edge slot by its (smaller, larger) vertex pair: slots of one shared edge end up
  // side by side.
  const std::size_t slots = polygon_indices_.size();
  neighbours_.assign(slots, invalid_polygon);
  slot_shared_edge_.assign(slots, invalid_node);
  std::vector<PolygonId> slot_polygon(slots);
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    for (std::uint32_t slot = polygon_starts_[polygon]; slot < polygon_starts_[polygon + 1]; ++slot)
      slot_polygon[slot] = polygon;
  }
  auto slot_end = [&](std::uint32_t slot) {
    const PolygonId polygon = slot_polygon[slot];
    return slot + 1 == polygon_starts_[polygon + 1] ? polygon_starts_[polygon] : slot + 1;
  };
  // Sorted in linear time, as this runs over the whole level on every tile change: counted
  // into buckets by the smaller vertex (slots in order within each), then each bucket, a few
  // slots around one vertex, sorted by the larger one. The order is that of sorting the
  // (key, slot) pairs outright.
  std::vector<std::uint32_t> bucket_starts(vertices_.size() + 1, 0);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const std::uint32_t a = polygon_indices_[slot], b = polygon_indices_[slot_end(slot)];
    ++bucket_starts[std::min(a, b) + 1];
  }
  std::partial_sum(bucket_starts.begin(), bucket_starts.end(), bucket_starts.begin());
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(slots);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const std::uint32_t a = polygon_indices_[slot], b = polygon_indices_[slot_end(slot)];
    keyed[bucket_starts[std::min(a, b)]++] = {(static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b), slot};
  }
  for (std::size_t i = 0; i < keyed.size();) {
    std::size_t j = i + 1;
    while (j < keyed.size() && (keyed[j].first >> 32) == (keyed[i].first >> 32)) ++j;
    if (j - i > 1) std::sort(keyed.begin() + static_cast<std::ptrdiff_t>(i), keyed.begin() + static_cast<std::ptrdiff_t>(j));
    i = j;
  }
  for (std::size_t i = 0; i < keyed.size();) {
    std::size_t j = i + 1;
    while (j < keyed.size() && keyed[j].first == keyed[i].first) ++j;
    const std::size_t users = j - i;
    if (users == 2) {
      const std::uint32_t s = keyed[i].second, t = keyed[i + 1].second;
      const PolygonId p = slot_polygon[s], q = slot_polygon[t];
      if (p != q) {
        if (polygon_indices_[s] == polygon_indices_[t]) {
          problems_.push_back({MeshProblem::Kind::inconsistent_winding, source_polygons_[p], 0,
                               describe(source_, 0, "polygons " + std::to_string(source_polygons_[p]) + " and " +
                                                        std::to_string(source_polygons_[q]) +
                                                        " overlap along a shared edge (same direction); they are joined anyway")});
        }
        const auto shared = static_cast<std::uint32_t>(shared_edges_.size());
        shared_edges_.push_back({polygon_indices_[s], polygon_indices_[slot_end(s)], p, q});
        neighbours_[s] = q;
        neighbours_[t] = p;
        slot_shared_edge_[s] = shared;
        slot_shared_edge_[t] = shared;
      }
    } else if (users > 2) {
      const PolygonId first = slot_polygon[keyed[i].second];
      problems_.push_back({MeshProblem::Kind::non_manifold_edge, source_polygons_[first], 0,
                           describe(source_, 0, "the edge between vertices " + std::to_string(keyed[i].first >> 32) +
                                                    " and " + std::to_string(keyed[i].first & 0xffffffffu) +
                                                    " is used by " + std::to_string(users) +
                                                    " polygons; it is treated as a wall")});
    }
    i = j;
  }
}

void NavMesh::adopt_detail_heights(const MeshGeometry& geometry) {
  const std::string& source = geometry.source;
  if (geometry.detail_starts.empty()) {
    if (!geometry.detail_triangles.empty() || !geometry.detail_vertices.empty())
      throw LoadError(source, 0, 0, "detail triangles are given without detail_starts (one entry per polygon plus one)");
    return;
  }
  if (geometry.detail_starts.size() != geometry.polygons.size() + 1)
    throw LoadError(source, 0, 0,
                    "detail_starts has " + std::to_string(geometry.detail_starts.size()) + " entries for " +
                        std::to_string(geometry.polygons.size()) + " polygons (give one per polygon plus one)");
  if (geometry.detail_starts.front() != 0 || geometry.detail_starts.back() != geometry.detail_triangles.size())
    throw LoadError(source, 0, 0, "detail_starts must run from 0 to the number of detail triangles (" +
                                      std::to_string(geometry.detail_triangles.size()) + ")");
  for (std::size_t p = 0; p + 1 < geometry.detail_starts.size(); ++p)
    if (geometry.detail_starts[p] > geometry.detail_starts[p + 1])
      throw LoadError(source, 0, 0, "detail_starts decreases at polygon " + std::to_string(p));
  for (std::size_t v = 0; v < geometry.detail_vertices.size(); ++v)
    if (!is_finite(geometry.detail_vertices[v]))
      throw LoadError(source, 0, 0, "detail vertex " + std::to_string(v) + " has a coordinate that is not finite");
  for (std::size_t t = 0; t < geometry.detail_triangles.size(); ++t)
    for (const std::uint32_t corner : geometry.detail_triangles[t])
      if (corner >= geometry.detail_vertices.size())
        throw LoadError(source, 0, 0,
                        "detail triangle " + std::to_string(t) + " uses detail vertex " + std::to_string(corner) +
                            " but there are " + std::to_string(geometry.detail_vertices.size()));
  detail_vertices_ = geometry.detail_vertices;
  detail_triangles_ = geometry.detail_triangles;
  detail_starts_ = geometry.detail_starts;
}

}  // namespace wayfinder
