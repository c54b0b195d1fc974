#include "wayfinder/navmesh/level_geometry_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "wayfinder/core/bit_copy.hpp"

namespace wayfinder {
namespace {

// cos(60 degrees): a polygon whose normal is further than this from vertical is a wall.
constexpr double steep_normal_y = 0.5;

struct Normal {
  double x = 0.0, y = 0.0, z = 0.0, length = 0.0;
};

bool indices_in_range(const MeshGeometry& geometry, const std::vector<std::uint32_t>& polygon) {
  if (polygon.size() < 3) return false;
  return std::all_of(polygon.begin(), polygon.end(),
                     [&](std::uint32_t index) { return index < geometry.vertices.size(); });
}

// Newell's method: the normal of a planar polygon, twice its area long, relative to the first
// vertex so that meshes far from the origin keep their precision.
Normal newell_normal(const MeshGeometry& geometry, const std::vector<std::uint32_t>& polygon) {
  const Point& origin = geometry.vertices[polygon[0]];
  Normal n;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Point& a = geometry.vertices[polygon[i]];
    const Point& b = geometry.vertices[polygon[(i + 1) % polygon.size()]];
    const double ax = a.x - origin.x, ay = a.y - origin.y, az = a.z - origin.z;
    const double bx = b.x - origin.x, by = b.y - origin.y, bz = b.z - origin.z;
    n.x += (ay - by) * (az + bz);
    n.y += (az - bz) * (ax + bx);
    n.z += (ax - bx) * (ay + by);
  }
  n.length = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  return n;
}

// Vertices at the same position are one: exporters often split them (per-face normals or
// texture coordinates), which would leave every solid looking open.
std::vector<std::uint32_t> welded_vertex_ids(const MeshGeometry& geometry) {
  struct PositionHash {
    std::size_t operator()(const Point& p) const {
      std::uint64_t h = bit_copy<std::uint64_t>(p.x);
      h = h * 0x9E3779B97F4A7C15ULL ^ bit_copy<std::uint64_t>(p.y);
      h = h * 0x9E3779B97F4A7C15ULL ^ bit_copy<std::uint64_t>(p.z);
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  struct PositionEqual {
    bool operator()(const Point& a, const Point& b) const { return a.x == b.x && a.y == b.y && a.z == b.z; }
  };
  std::unordered_map<Point, std::uint32_t, PositionHash, PositionEqual> first_at;
  first_at.reserve(geometry.vertices.size());
  std::vector<std::uint32_t> ids(geometry.vertices.size());
  for (std::uint32_t i = 0; i < geometry.vertices.size(); ++i)
    ids[i] = first_at.try_emplace(geometry.vertices[i], i).first->second;
  return ids;
}

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// The area of the connected parts in which every edge joins exactly two polygons.
double closed_area(const MeshGeometry& geometry, const std::vector<double>& areas) {
  const std::vector<std::uint32_t> ids = welded_vertex_ids(geometry);
  std::vector<std::uint32_t> parent(geometry.vertices.size());
  std::iota(parent.begin(), parent.end(), 0U);
  std::unordered_map<std::uint64_t, std::uint32_t> edge_uses;
  edge_uses.reserve(geometry.polygons.size() * 4);
  for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
    if (!(areas[p] > 0.0)) continue;
    const auto& polygon = geometry.polygons[p];
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      std::uint32_t a = ids[polygon[i]], b = ids[polygon[(i + 1) % polygon.size()]];
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      ++edge_uses[(std::uint64_t{a} << 32) | b];
      parent[find_root(parent, a)] = find_root(parent, b);
    }
  }
  std::vector<bool> open(geometry.vertices.size(), false);
  for (const auto& [edge, uses] : edge_uses)
    if (uses != 2) open[find_root(parent, static_cast<std::uint32_t>(edge >> 32))] = true;
  double closed = 0.0;
  for (std::size_t p = 0; p < geometry.polygons.size(); ++p)
    if (areas[p] > 0.0 && !open[find_root(parent, ids[geometry.polygons[p][0]])]) closed += areas[p];
  return closed;
}

// The polygon's height at (x, z) when its fan of triangles covers that point in plan view.
std::optional<double> height_at(const MeshGeometry& geometry, const std::vector<std::uint32_t>& polygon, double x,
                                double z) {
  const Point& a = geometry.vertices[polygon[0]];
  for (std::size_t k = 1; k + 1 < polygon.size(); ++k) {
    const Point& b = geometry.vertices[polygon[k]];
    const Point& c = geometry.vertices[polygon[k + 1]];
    const double determinant = (b.z - c.z) * (a.x - c.x) + (c.x - b.x) * (a.z - c.z);
    if (std::abs(determinant) < 1e-12) continue;
    const double wa = ((b.z - c.z) * (x - c.x) + (c.x - b.x) * (z - c.z)) / determinant;
    const double wb = ((c.z - a.z) * (x - c.x) + (a.x - c.x) * (z - c.z)) / determinant;
    const double wc = 1.0 - wa - wb;
    constexpr double slack = -1e-9;
    if (wa >= slack && wb >= slack && wc >= slack) return wa * a.y + wb * b.y + wc * c.y;
  }
  return std::nullopt;
}

// Plan-view buckets of polygons by their bounding boxes, for the stacked-surface test.
class PlanGrid {
 public:
  PlanGrid(const MeshGeometry& geometry, const std::vector<double>& areas) : geometry_(geometry) {
    double min_x = INFINITY, max_x = -INFINITY, min_z = INFINITY, max_z = -INFINITY, extent_sum = 0.0;
    std::size_t counted = 0;
    boxes_.resize(geometry.polygons.size());
    for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
      if (!(areas[p] > 0.0)) continue;
      Box& box = boxes_[p];
      box = {INFINITY, -INFINITY, INFINITY, -INFINITY};
      for (const std::uint32_t index : geometry.polygons[p]) {
        const Point& v = geometry.vertices[index];
        box = {std::min(box.min_x, v.x), std::max(box.max_x, v.x), std::min(box.min_z, v.z), std::max(box.max_z, v.z)};
      }
      min_x = std::min(min_x, box.min_x), max_x = std::max(max_x, box.max_x);
      min_z = std::min(min_z, box.min_z), max_z = std::max(max_z, box.max_z);
      extent_sum += std::max(box.max_x - box.min_x, box.max_z - box.min_z);
      ++counted;
    }
    if (counted == 0) return;
    // Cells about as wide as a polygon, at most 1024 a side.
    const double span = std::max(max_x - min_x, max_z - min_z);
    cell_ = std::max({extent_sum / static_cast<double>(counted), span / 1024.0, 1e-9});
    origin_x_ = min_x, origin_z_ = min_z;
    columns_ = static_cast<std::size_t>((max_x - min_x) / cell_) + 1;
    rows_ = static_cast<std::size_t>((max_z - min_z) / cell_) + 1;
    cells_.resize(columns_ * rows_);
    for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
      if (!(areas[p] > 0.0)) continue;
      const Box& box = boxes_[p];
      for (std::size_t row = row_of(box.min_z); row <= row_of(box.max_z); ++row)
        for (std::size_t column = column_of(box.min_x); column <= column_of(box.max_x); ++column)
          cells_[row * columns_ + column].push_back(static_cast<std::uint32_t>(p));
    }
  }

  // Whether a polygon other than `self` lies above (x, y, z) by more than `low` and at most `high`.
  [[nodiscard]] bool covered(std::size_t self, double x, double y, double z, double low, double high) const {
    if (cells_.empty()) return false;
    for (const std::uint32_t other : cells_[row_of(z) * columns_ + column_of(x)]) {
      if (other == self) continue;
      const Box& box = boxes_[other];
      if (x < box.min_x || x > box.max_x || z < box.min_z || z > box.max_z) continue;
      const std::optional<double> above = height_at(geometry_, geometry_.polygons[other], x, z);
      if (above && *above > y + low && *above <= y + high) return true;
    }
    return false;
  }

 private:
  struct Box {
    double min_x, max_x, min_z, max_z;
  };
  [[nodiscard]] std::size_t column_of(double x) const {
    return std::min(columns_ - 1, static_cast<std::size_t>(std::max(0.0, (x - origin_x_) / cell_)));
  }
  [[nodiscard]] std::size_t row_of(double z) const {
    return std::min(rows_ - 1, static_cast<std::size_t>(std::max(0.0, (z - origin_z_) / cell_)));
  }

  const MeshGeometry& geometry_;
  std::vector<Box> boxes_;
  std::vector<std::vector<std::uint32_t>> cells_;
  double cell_ = 1.0, origin_x_ = 0.0, origin_z_ = 0.0;
  std::size_t columns_ = 0, rows_ = 0;
};

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", share * 100.0);
  return text;
}

}  // namespace

LevelGeometrySigns measure_level_geometry_signs(const MeshGeometry& geometry, const LevelGeometryCheckOptions& options) {
  LevelGeometrySigns signs;
  std::vector<double> areas(geometry.polygons.size(), 0.0);
  std::vector<bool> steep_polygon(geometry.polygons.size(), false);
  double steep = 0.0, facing_up = 0.0, facing_down = 0.0;
  for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
    const auto& polygon = geometry.polygons[p];
    if (!indices_in_range(geometry, polygon)) continue;
    const Normal normal = newell_normal(geometry, polygon);
    if (!(normal.length > 0.0) || !std::isfinite(normal.length)) continue;
    areas[p] = normal.length / 2.0;
    signs.total_area += areas[p];
    const double up = normal.y / normal.length;
    if (std::abs(up) < steep_normal_y) {
      steep += areas[p];
      steep_polygon[p] = true;
    } else if (up > 0.0) {
      facing_up += areas[p];
    } else {
      facing_down += areas[p];
    }
  }
  if (!(signs.total_area > 0.0)) return signs;
  signs.steep_share = steep / signs.total_area;
  const double flat = facing_up + facing_down;
  if (flat > 0.0) signs.flipped_share = std::min(facing_up, facing_down) / flat;
  signs.closed_share = closed_area(geometry, areas) / signs.total_area;

  // A floor's centre with another surface just above it: tested at the centre alone, which
  // is enough to measure a share of the area.
  const PlanGrid grid(geometry, areas);
  const double hair = options.agent_height * 0.05;
  double stacked = 0.0;
  for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
    if (!(areas[p] > 0.0) || steep_polygon[p]) continue;
    const auto& polygon = geometry.polygons[p];
    double x = 0.0, y = 0.0, z = 0.0;
    for (const std::uint32_t index : polygon) {
      x += geometry.vertices[index].x, y += geometry.vertices[index].y, z += geometry.vertices[index].z;
    }
    const double count = static_cast<double>(polygon.size());
    x /= count, y /= count, z /= count;
    y = height_at(geometry, polygon, x, z).value_or(y);
    if (grid.covered(p, x, y, z, hair, options.agent_height)) stacked += areas[p];
  }
  if (flat > 0.0) signs.stacked_share = stacked / flat;
  return signs;
}

MeshGeometryVerdict classify_mesh_geometry(const MeshGeometry& geometry, const LevelGeometryCheckOptions& options) {
  MeshGeometryVerdict verdict;
  if (geometry.declared_navmesh) {
    verdict.declared = true;
    return verdict;
  }
  verdict.signs = measure_level_geometry_signs(geometry, options);
  const LevelGeometrySigns& signs = verdict.signs;
  std::vector<std::string> reasons;
  // Walls are a sure sign. Polygons facing both ways alone are not: NavMesh::build accepts a
  // mesh whose polygons are wound inconsistently (and reports it); with a few walls, they are
  // ceilings.
  if (signs.steep_share > 0.05 || (signs.flipped_share > 0.10 && signs.steep_share > 0.02))
    reasons.push_back(percent(signs.steep_share) + " of its area is steeper than 60 degrees (walls) and " +
                      percent(signs.flipped_share) + " faces the other way (ceilings)");
  if (signs.closed_share > 0.02) reasons.push_back(percent(signs.closed_share) + " of its area is in closed solids");
  if (signs.stacked_share > 0.01) {
    char height[32];
    std::snprintf(height, sizeof height, "%g", options.agent_height);
    reasons.push_back(percent(signs.stacked_share) + " of its floors lie under another surface less than " + height +
                      " units above (an agent's height)");
  }
  if (reasons.empty()) return verdict;
  verdict.kind = MeshGeometryKind::level;
  for (std::size_t i = 0; i < reasons.size(); ++i) verdict.reason += (i == 0 ? "" : "; ") + reasons[i];
  return verdict;
}

std::optional<std::string> level_geometry_warning(const MeshGeometry& geometry, const LevelGeometryCheckOptions& options) {
  const MeshGeometryVerdict verdict = classify_mesh_geometry(geometry, options);
  if (verdict.kind == MeshGeometryKind::navmesh) return std::nullopt;
  return geometry.source + " looks like a level's geometry, not a navigation mesh: " + verdict.reason +
         ". Paths on it would climb walls, cross ceilings and pass through solids; build its navigation mesh first "
         "(`wayfinder mesh build LEVEL.obj -o NAVMESH.wfnav`, or build_navmesh_geometry).";
}

}  // namespace wayfinder
