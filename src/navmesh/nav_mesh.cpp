#include "wayfinder/navmesh/nav_mesh.hpp"

#include <algorithm>
#include <optional>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

// Twice the signed area of triangle (a, b, c) in the x-z plane: positive when a, b, c turn
// counter-clockwise with x to the right and z up (the mathematical orientation).
double cross_xz(const Point& a, const Point& b, const Point& c) {
  return (b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x);
}

double distance_squared(const Point& a, const Point& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

bool finite(const Point& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

std::string describe(const std::string& source, int line, const std::string& what) {
  return line > 0 ? source + ":" + std::to_string(line) + ": " + what : source + ": " + what;
}

// Twice the signed area of a polygon in the x-z plane (shoelace formula), with every vertex
// taken relative to the polygon's first one. Far from the origin the plain formula's products
// (x_i z_j with x, z around 1e8) are so large that their rounding swamps the area of a polygon a
// few units across; the differences to a vertex of the same polygon are exact or nearly so
// (Sterbenz's lemma), and the products of these small numbers keep the area's precision.
double signed_area_xz(const std::vector<Point>& vertices, const std::vector<std::uint32_t>& polygon) {
  const Point& origin = vertices[polygon[0]];
  double twice_area = 0.0;
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
    const Point& a = vertices[polygon[i]];
    const Point& b = vertices[polygon[i + 1]];
    twice_area += (a.x - origin.x) * (b.z - origin.z) - (b.x - origin.x) * (a.z - origin.z);
  }
  return twice_area;
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

// Z-order (Morton) codes of 15-bit x and z: x in the even bits, z in the odd ones.
constexpr std::uint32_t even_bits = 0x55555555u, odd_bits = 0xAAAAAAAAu;
constexpr std::uint32_t no_code = std::numeric_limits<std::uint32_t>::max();

// True if `code` lies in the box whose lowest and highest corners have codes `low` and `high`:
// each coordinate's bits compare as the coordinate does.
bool in_code_box(std::uint32_t code, std::uint32_t low, std::uint32_t high) {
  for (const std::uint32_t bits : {even_bits, odd_bits}) {
    if ((code & bits) < (low & bits) || (code & bits) > (high & bits)) return false;
  }
  return true;
}

// The smallest code above `code` that lies in the box with corner codes `low` and `high`, or
// no_code: BIGMIN of Tropf & Herzog ("Multidimensional range search in dynamically balanced
// trees", 1981), which walks the bits from the top, narrowing the box to the half that can
// still hold the answer.
std::uint32_t next_code_in_box(std::uint32_t code, std::uint32_t low, std::uint32_t high) {
  std::uint32_t best = no_code;
  for (int bit = 29; bit >= 0; --bit) {
    const std::uint32_t mask = 1u << bit;
    // The lower bits of the same coordinate as this bit.
    const std::uint32_t below = (bit % 2 == 0 ? even_bits : odd_bits) & (mask - 1);
    const bool c = (code & mask) != 0, lo = (low & mask) != 0, hi = (high & mask) != 0;
    if (!c && !lo && hi) {
      // The answer is in the upper half (if nothing in the lower one is above `code`): its
      // lowest corner is a candidate; search on in the lower half.
      best = ((low | mask) & ~below);
      high = (high & ~mask) | below;
    } else if (!c && lo && hi) {
      return low;  // the whole box lies above `code`
    } else if (c && !lo && !hi) {
      return best;  // the whole box lies below `code`
    } else if (c && !lo && hi) {
      low = (low | mask) & ~below;  // only the upper half can be above `code`
    }
    // Otherwise all three agree on this bit: go on to the next one.
  }
  return best;
}

// Splits a simple counter-clockwise polygon into triangles by ear clipping (Meisters 1975), made
// near-linear in practice for large faces in the manner of Mapbox's earcut (Agafonkin 2016):
//
// - The ring is a doubly linked list, and after an ear is clipped only its two neighbours are
//   tested again (as with Eberly's ear list), shortest new edge first, instead of walking round
//   the ring for the next ear: a walk costs a whole round for every ear when long chains of
//   straight vertices remain, which made a zigzag band quadratic.
// - Only reflex vertices need testing against an ear: if any vertex of a simple polygon lies in
//   the triangle, a reflex one does (Eberly, "Triangulation by Ear Clipping", 2002): of the
//   vertices in it, the one farthest from the diagonal is reflex, since the polygon's inside
//   lies beyond it (towards the ear's tip). A vertex only ever becomes less reflex as ears are
//   cut, so the candidates are the initially reflex vertices, each dropped for good once it no
//   longer is. Straight vertices (collinear with their neighbours) never lie in a triangle
//   without a reflex one there too; the one exception is a run of them from a corner of the
//   ear along its diagonal, which would leave the diagonal passing through a vertex (a
//   T-junction that breaks adjacency), and is checked directly.
// - The candidates are kept in z-order (Morton 1966: the bits of the quantised x and z
//   interleaved), in which the points of a box have codes between those of its corners, so an
//   ear test looks only at the reflex vertices whose codes lie in its box's range, jumping over
//   stretches of the range outside the box (BIGMIN) and skipping candidates already dropped
//   (path-compressed "next still there" links).
//
// Splitting a 200,000-vertex comb or zigzag band this way takes well under a second, where
// testing every vertex against every ear took over a minute. Faces of long thin spikes (a star
// of random radii) remain the slow case, since each spike's box holds many vertices: about 17 s
// for 200,000. Positions are taken relative to the polygon's first vertex (precision far from
// the origin). Self-intersecting input may have no ear at some point: what is left is then
// split as a fan.
// The work allowed to split one face, in reflex vertices tested against ears. Ordinary faces
// need a few per vertex; a 200,000-vertex comb about that too. Faces of long thin spikes make
// the count grow with the square of the vertex count (a star of 200,000 random radii needs 120
// million tests, about 9 s), so past this budget the split gives up and the loader says so,
// rather than keep a level loading for minutes. The budget lets a 100,000-vertex star through
// (30 million tests, 2 s).
std::uint64_t triangulation_budget(std::size_t vertex_count) { return 32'000'000 + 64 * std::uint64_t{vertex_count}; }

std::optional<std::vector<std::vector<std::uint32_t>>> triangulate(const std::vector<Point>& vertices,
                                                                   const std::vector<std::uint32_t>& polygon) {
  struct Node {
    std::uint32_t index;        // the mesh vertex
    double x, z;                // relative to the polygon's first vertex
    std::uint32_t prev, next;   // around the ring
  };
  const auto n = static_cast<std::uint32_t>(polygon.size());
  std::vector<Node> nodes(n);
  const Point& origin = vertices[polygon[0]];
  double min_x = 0.0, min_z = 0.0, max_x = 0.0, max_z = 0.0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Point& p = vertices[polygon[i]];
    nodes[i] = {polygon[i], p.x - origin.x, p.z - origin.z, i == 0 ? n - 1 : i - 1, i + 1 == n ? 0 : i + 1};
    min_x = std::min(min_x, nodes[i].x);
    min_z = std::min(min_z, nodes[i].z);
    max_x = std::max(max_x, nodes[i].x);
    max_z = std::max(max_z, nodes[i].z);
  }
  auto cross = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    const Node &p = nodes[a], &q = nodes[b], &r = nodes[c];
    return (q.x - p.x) * (r.z - p.z) - (q.z - p.z) * (r.x - p.x);
  };
  auto reflex = [&](std::uint32_t v) { return cross(nodes[v].prev, v, nodes[v].next) < 0.0; };

  // 15 bits per axis, as earcut.
  const double size = std::max(max_x - min_x, max_z - min_z);
  const double scale = size > 0.0 ? 32767.0 / size : 0.0;
  auto code_of = [&](double x, double z) {
    auto spread = [](std::uint32_t v) {  // a zero bit between the bits of v
      v = (v | (v << 8)) & 0x00FF00FFu;
      v = (v | (v << 4)) & 0x0F0F0F0Fu;
      v = (v | (v << 2)) & 0x33333333u;
      v = (v | (v << 1)) & 0x55555555u;
      return v;
    };
    const auto qx = static_cast<std::uint32_t>(std::clamp((x - min_x) * scale, 0.0, 32767.0));
    const auto qz = static_cast<std::uint32_t>(std::clamp((z - min_z) * scale, 0.0, 32767.0));
    return spread(qx) | (spread(qz) << 1);
  };
  // The reflex vertices sorted by code; `skip[k]` leads to the first entry from k on that is
  // still a candidate (itself while it is), `slot_of` finds a vertex's entry.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;  // (code, vertex)
  for (std::uint32_t v = 0; v < n; ++v)
    if (reflex(v)) candidates.emplace_back(code_of(nodes[v].x, nodes[v].z), v);
  std::sort(candidates.begin(), candidates.end());
  const auto m = static_cast<std::uint32_t>(candidates.size());
  std::vector<std::uint32_t> skip(m + 1);
  std::iota(skip.begin(), skip.end(), 0u);
  constexpr std::uint32_t no_slot = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> slot_of(n, no_slot);
  for (std::uint32_t k = 0; k < m; ++k) slot_of[candidates[k].second] = k;
  auto next_candidate = [&](std::uint32_t k) {
    std::uint32_t root = k;
    while (skip[root] != root) root = skip[root];
    while (skip[k] != root) k = std::exchange(skip[k], root);
    return root;
  };
  auto drop_if_not_reflex = [&](std::uint32_t v) {
    if (slot_of[v] != no_slot && !reflex(v)) {
      skip[slot_of[v]] = slot_of[v] + 1;
      slot_of[v] = no_slot;
    }
  };

  // p lies on the segment from `from` to `to` (exactly, in the coordinates used here).
  auto on_segment = [&](std::uint32_t p, std::uint32_t from, std::uint32_t to) {
    if (cross(from, to, p) != 0.0) return false;
    const double dx = nodes[to].x - nodes[from].x, dz = nodes[to].z - nodes[from].z;
    const double along = (nodes[p].x - nodes[from].x) * dx + (nodes[p].z - nodes[from].z) * dz;
    return along > 0.0 && along < dx * dx + dz * dz;
  };
  std::uint64_t tests_left = triangulation_budget(polygon.size());
  bool over_budget = false;
  auto is_ear = [&](std::uint32_t ear) {
    const std::uint32_t a = nodes[ear].prev, c = nodes[ear].next;
    if (cross(a, ear, c) <= 0.0) return false;  // reflex or straight corner: not an ear
    if (on_segment(nodes[c].next, c, a) || on_segment(nodes[a].prev, a, c)) return false;
    const std::uint32_t ia = nodes[a].index, ib = nodes[ear].index, ic = nodes[c].index;
    const double x0 = std::min({nodes[a].x, nodes[ear].x, nodes[c].x});
    const double z0 = std::min({nodes[a].z, nodes[ear].z, nodes[c].z});
    const double x1 = std::max({nodes[a].x, nodes[ear].x, nodes[c].x});
    const double z1 = std::max({nodes[a].z, nodes[ear].z, nodes[c].z});
    const std::uint32_t code_min = code_of(x0, z0), code_max = code_of(x1, z1);
    // The first candidate still there with a code of at least `code`, searching from entry
    // `from` on: galloping (doubling steps, then halving), so that a short jump costs little.
    auto first_from = [&](std::uint32_t from, std::uint32_t code) {
      std::uint32_t low = from, step = 1;
      while (low < m && candidates[low].first < code) {
        const std::uint32_t high = std::min(m, low + step);
        if (high == m || candidates[high].first >= code) {
          low = static_cast<std::uint32_t>(std::lower_bound(candidates.begin() + low, candidates.begin() + high,
                                                            std::pair{code, 0u}) - candidates.begin());
          break;
        }
        low = high;
        step *= 2;
      }
      return next_candidate(low);
    };
    for (std::uint32_t k = first_from(0, code_min); k < m && candidates[k].first <= code_max;) {
      const std::uint32_t code = candidates[k].first;
      if (!in_code_box(code, code_min, code_max)) {
        // Codes between the box's corners' also cover much outside it (a small box across
        // the middle of the face spans nearly all codes): jump to the next code inside it.
        const std::uint32_t next_code = next_code_in_box(code, code_min, code_max);
        if (next_code == no_code) break;
        k = first_from(k + 1, next_code);
        continue;
      }
      if (tests_left-- == 0) {
        over_budget = true;
        return false;
      }
      const std::uint32_t p = candidates[k].second;
      const Node& v = nodes[p];
      k = next_candidate(k + 1);
      if (v.x < x0 || v.x > x1 || v.z < z0 || v.z > z1) continue;
      // The same vertex again (a boundary that touches itself) is one of the corners.
      if (v.index == ia || v.index == ib || v.index == ic) continue;
      if (cross(a, ear, p) >= 0.0 && cross(ear, c, p) >= 0.0 && cross(c, a, p) >= 0.0) return false;
    }
    return true;
  };

  // Ears are cut shortest new edge first (a priority queue keyed by the length of the diagonal
  // that cutting would leave): small ears such as the teeth of a comb go before long slivers
  // across its base, which are tested only once the reflex vertices they would have had to
  // look at are gone, and the triangles come out close to a greedy triangulation's. Cutting an
  // ear changes only its two neighbours' corners, so they are queued again with their new
  // keys (older entries are recognised by a stamp and skipped). A corner can also turn into an
  // ear when a reflex vertex in its triangle stops being reflex, which the queue does not see:
  // when it runs dry every corner left is queued again, and a round that cuts nothing
  // (self-intersecting input) ends the clipping. Usually the first round cuts every ear.
  struct Entry {
    double key;
    std::uint32_t vertex;
    std::uint32_t stamp;
    bool operator<(const Entry& other) const {  // the smallest key on top; ties by vertex
      return key != other.key ? key > other.key : vertex > other.vertex;
    }
  };
  std::vector<std::uint32_t> stamps(n, 0);
  std::vector<Entry> queue;
  queue.reserve(n);
  auto push = [&](std::uint32_t v) {
    const Node &a = nodes[nodes[v].prev], &c = nodes[nodes[v].next];
    queue.push_back({(c.x - a.x) * (c.x - a.x) + (c.z - a.z) * (c.z - a.z), v, stamps[v]});
    std::push_heap(queue.begin(), queue.end());
  };
  std::vector<std::vector<std::uint32_t>> triangles;
  triangles.reserve(n - 2);
  constexpr std::uint32_t gone = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t remaining = n;
  std::uint32_t ear = 0;  // a vertex still in the ring
  bool cut_this_round = true;
  while (remaining > 3) {
    if (queue.empty()) {
      if (!cut_this_round) break;  // a whole round without an ear
      cut_this_round = false;
      for (std::uint32_t i = 0, at = ear; i < remaining; ++i, at = nodes[at].next) push(at);
    }
    std::pop_heap(queue.begin(), queue.end());
    const Entry top = queue.back();
    queue.pop_back();
    if (top.stamp != stamps[top.vertex] || !is_ear(top.vertex)) {
      if (over_budget) return std::nullopt;
      continue;
    }
    const std::uint32_t v = top.vertex, prev = nodes[v].prev, next = nodes[v].next;
    triangles.push_back({nodes[prev].index, nodes[v].index, nodes[next].index});
    nodes[prev].next = next;
    nodes[next].prev = prev;
    stamps[v] = gone;
    --remaining;
    cut_this_round = true;
    drop_if_not_reflex(prev);
    drop_if_not_reflex(next);
    ++stamps[prev];
    ++stamps[next];
    push(prev);
    push(next);
    ear = next;
  }
  // The last triangle, or the fan of what no ear could be cut from.
  std::vector<std::uint32_t> rest;
  rest.reserve(remaining);
  for (std::uint32_t i = 0, at = ear; i < remaining; ++i, at = nodes[at].next) rest.push_back(nodes[at].index);
  for (std::size_t i = 1; i + 1 < rest.size(); ++i) triangles.push_back({rest[0], rest[i], rest[i + 1]});
  return triangles;
}

}  // namespace

namespace {

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
  std::vector<Point> points(vertex_count);
  const auto* bytes = reinterpret_cast<const unsigned char*>(vertices);
  for (std::size_t i = 0; i < vertex_count; ++i) {
    float xyz[3];
    std::memcpy(xyz, bytes + i * stride_bytes, sizeof xyz);
    points[i] = {static_cast<double>(xyz[0]), static_cast<double>(xyz[1]), static_cast<double>(xyz[2])};
  }
  return points;
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
  MeshGeometry geometry;
  geometry.vertices = float_positions(vertices, vertex_count, stride_bytes);
  add_polygons(geometry, indices, polygon_sizes);
  return build(geometry, options);
}

NavMesh NavMesh::from_arrays(const float* vertices, std::size_t vertex_count, std::size_t stride_bytes,
                             std::span<const std::uint16_t> indices, std::span<const std::uint32_t> polygon_sizes,
                             const NavMeshBuildOptions& options) {
  MeshGeometry geometry;
  geometry.vertices = float_positions(vertices, vertex_count, stride_bytes);
  add_polygons(geometry, indices, polygon_sizes);
  return build(geometry, options);
}

NavMesh NavMesh::build(const MeshGeometry& geometry, const NavMeshBuildOptions& options) {
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
    if (!finite(geometry.vertices[v]))
      throw LoadError(source, vertex_line(v), 0, "vertex " + std::to_string(v) + " has a non-finite coordinate");
  }

  // Vertices at exactly the same position are one vertex, so that polygons which repeat a
  // corner under another index still share their edges.
  std::vector<std::uint32_t> canonical(geometry.vertices.size());
  {
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

  for (std::size_t p = 0; p < geometry.polygons.size(); ++p) {
    const std::vector<std::uint32_t>& input = geometry.polygons[p];
    const int line = polygon_line(p);
    if (input.size() < 3)
      throw LoadError(source, line, 0,
                      "polygon " + std::to_string(p) + " has " + std::to_string(input.size()) +
                          " vertices; a polygon needs at least 3");
    std::vector<std::uint32_t> polygon;
    polygon.reserve(input.size());
    for (std::uint32_t index : input) {
      if (index >= geometry.vertices.size())
        throw LoadError(source, line, 0,
                        "polygon " + std::to_string(p) + " uses vertex " + std::to_string(index) + " but the mesh has " +
                            std::to_string(geometry.vertices.size()) + " vertices");
      polygon.push_back(canonical[index]);
    }
    // Drop repeats: the same vertex twice in a row (or the last equal to the first).
    std::vector<std::uint32_t> distinct;
    for (std::uint32_t index : polygon) {
      if (distinct.empty() || distinct.back() != index) distinct.push_back(index);
    }
    while (distinct.size() > 1 && distinct.front() == distinct.back()) distinct.pop_back();
    if (distinct.size() != polygon.size()) {
      mesh.problems_.push_back({MeshProblem::Kind::repeated_vertex, static_cast<std::uint32_t>(p), line,
                                describe(source, line, "polygon " + std::to_string(p) + " repeats a vertex; the repeat is ignored")});
    }
    const double twice_area = distinct.size() >= 3 ? signed_area_xz(mesh.vertices_, distinct) : 0.0;
    const double area_tolerance = distinct.size() >= 3 ? area_tolerance_of(mesh.vertices_, distinct) : 0.0;
    if (distinct.size() < 3 || std::abs(twice_area) <= area_tolerance) {
      mesh.problems_.push_back({MeshProblem::Kind::degenerate_polygon, static_cast<std::uint32_t>(p), line,
                                describe(source, line, "polygon " + std::to_string(p) +
                                                           " has no area seen from above; it is left out")});
      continue;
    }
    if (twice_area < 0.0) std::reverse(distinct.begin(), distinct.end());
    // A vertex that appears twice, not in a row, makes the boundary touch itself.
    std::vector<std::uint32_t> sorted = distinct;
    std::sort(sorted.begin(), sorted.end());
    const bool self_touching = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
    if (!self_touching && is_convex_ccw(mesh.vertices_, distinct, area_tolerance)) {
      mesh.polygon_indices_.insert(mesh.polygon_indices_.end(), distinct.begin(), distinct.end());
      mesh.polygon_starts_.push_back(static_cast<std::uint32_t>(mesh.polygon_indices_.size()));
      mesh.source_polygons_.push_back(static_cast<std::uint32_t>(p));
      mesh.tags_.push_back(input_tags(p));
      continue;
    }
    mesh.problems_.push_back({MeshProblem::Kind::concave_polygon, static_cast<std::uint32_t>(p), line,
                              describe(source, line, "polygon " + std::to_string(p) +
                                                         " is not convex; it is split into triangles")});
    const auto triangles = triangulate(mesh.vertices_, distinct);
    if (!triangles)
      throw LoadError(source, line, 0,
                      "polygon " + std::to_string(p) + " (" + std::to_string(distinct.size()) +
                          " vertices) is too intricate to split into triangles: the split gave up after " +
                          std::to_string(triangulation_budget(distinct.size())) +
                          " vertex tests; split the face in the modelling tool, or export it triangulated");
    for (const auto& triangle : *triangles) {
      if (std::abs(signed_area_xz(mesh.vertices_, triangle)) <= area_tolerance_of(mesh.vertices_, triangle)) continue;
      mesh.polygon_indices_.insert(mesh.polygon_indices_.end(), triangle.begin(), triangle.end());
      mesh.polygon_starts_.push_back(static_cast<std::uint32_t>(mesh.polygon_indices_.size()));
      mesh.source_polygons_.push_back(static_cast<std::uint32_t>(p));
      mesh.tags_.push_back(input_tags(p));
    }
  }
  if (mesh.polygon_count() == 0)
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
  mesh.edge_point_graph_ = EdgePointGraph(mesh);
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
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(slots);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const std::uint32_t a = polygon_indices_[slot], b = polygon_indices_[slot_end(slot)];
    keyed[slot] = {(static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b), slot};
  }
  std::sort(keyed.begin(), keyed.end());
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

namespace {

// Every off-mesh link as an undirected edge (one-way links too): per polygon, the polygons its
// links reach and the links' ids, for regions and bridges. Empty without links.
struct LinkIncidence {
  std::vector<std::uint32_t> starts;  ///< per polygon + 1
  std::vector<std::pair<PolygonId, std::uint32_t>> ends;  ///< (other polygon, link id)
  [[nodiscard]] std::span<const std::pair<PolygonId, std::uint32_t>> of(PolygonId polygon) const {
    if (starts.empty()) return {};
    return {ends.data() + starts[polygon], starts[polygon + 1] - starts[polygon]};
  }
};

LinkIncidence undirected_links(std::size_t polygons, std::span<const PlacedOffMeshLink> links) {
  LinkIncidence incidence;
  if (links.empty()) return incidence;
  incidence.starts.assign(polygons + 1, 0);
  for (const PlacedOffMeshLink& link : links) {
    ++incidence.starts[link.start_polygon + 1];
    ++incidence.starts[link.end_polygon + 1];
  }
  for (std::size_t p = 0; p < polygons; ++p) incidence.starts[p + 1] += incidence.starts[p];
  incidence.ends.resize(incidence.starts.back());
  std::vector<std::uint32_t> filled(incidence.starts.begin(), incidence.starts.end() - 1);
  for (std::uint32_t id = 0; id < links.size(); ++id) {
    const PlacedOffMeshLink& link = links[id];
    incidence.ends[filled[link.start_polygon]++] = {link.end_polygon, id};
    incidence.ends[filled[link.end_polygon]++] = {link.start_polygon, id};
  }
  return incidence;
}

}  // namespace

void NavMesh::build_regions() {
  regions_.assign(polygon_count(), invalid_node);
  const LinkIncidence links = undirected_links(polygon_count(), links_);
  std::vector<PolygonId> stack;
  std::uint32_t next_region = 0;
  for (PolygonId seed = 0; seed < polygon_count(); ++seed) {
    if (regions_[seed] != invalid_node) continue;
    regions_[seed] = next_region;
    stack.push_back(seed);
    auto reach = [&](PolygonId neighbour) {
      if (neighbour != invalid_polygon && regions_[neighbour] == invalid_node) {
        regions_[neighbour] = next_region;
        stack.push_back(neighbour);
      }
    };
    while (!stack.empty()) {
      const PolygonId polygon = stack.back();
      stack.pop_back();
      for (PolygonId neighbour : polygon_neighbours(polygon)) reach(neighbour);
      for (const auto& [other, link] : links.of(polygon)) reach(other);
    }
    ++next_region;
  }
  region_count_ = next_region;
}

// Bridges by Tarjan's low-link method (Tarjan 1974), iteratively so that long chains of
// polygons cannot overflow the call stack. The parent is skipped by edge, not by polygon, so
// two polygons that share two edges are not a bridge. Off-mesh links are edges too (numbered
// after the shared edges; never pruned themselves): a one-way link taken as undirected only
// makes fewer bridges, and a bridge of this larger graph still separates the mesh, so the
// pruning stays exact (a way into a pocket and back over the same edge is never shorter than
// not going in, links included, as every link costs at least its straight line).
void NavMesh::find_bridges() {
  const std::size_t polygons = polygon_count();
  const auto shared_edges = static_cast<std::uint32_t>(shared_edges_.size());
  const LinkIncidence links = undirected_links(polygons, links_);
  bridge_children_.assign(shared_edges_.size(), invalid_polygon);
  dfs_enter_.assign(polygons, invalid_node);
  dfs_exit_.assign(polygons, 0);
  std::vector<std::uint32_t> low(polygons, 0);
  struct Frame {
    PolygonId polygon;
    std::uint32_t parent_edge;  ///< the edge it was entered by (invalid_node for a root)
    std::uint32_t next;         ///< the next edge slot to look at, then its links
  };
  std::vector<Frame> stack;
  std::uint32_t time = 0;
  for (PolygonId root = 0; root < polygons; ++root) {
    if (dfs_enter_[root] != invalid_node) continue;
    dfs_enter_[root] = low[root] = time++;
    stack.push_back({root, invalid_node, polygon_starts_[root]});
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const PolygonId polygon = frame.polygon;
      const std::uint32_t slots_end = polygon_starts_[polygon + 1];
      const auto polygon_links = links.of(polygon);
      if (frame.next < slots_end + polygon_links.size()) {
        const std::uint32_t next = frame.next++;
        PolygonId neighbour;
        std::uint32_t edge;
        if (next < slots_end) {
          neighbour = neighbours_[next];
          edge = slot_shared_edge_[next];
        } else {
          neighbour = polygon_links[next - slots_end].first;
          edge = shared_edges + polygon_links[next - slots_end].second;
        }
        if (neighbour == invalid_polygon || edge == frame.parent_edge) continue;
        if (dfs_enter_[neighbour] == invalid_node) {
          dfs_enter_[neighbour] = low[neighbour] = time++;
          stack.push_back({neighbour, edge, polygon_starts_[neighbour]});
        } else {
          low[polygon] = std::min(low[polygon], dfs_enter_[neighbour]);
        }
        continue;
      }
      dfs_exit_[polygon] = time;
      const std::uint32_t parent_edge = frame.parent_edge;
      stack.pop_back();
      if (stack.empty()) break;
      const PolygonId parent = stack.back().polygon;
      low[parent] = std::min(low[parent], low[polygon]);
      if (low[polygon] > dfs_enter_[parent] && parent_edge < shared_edges) bridge_children_[parent_edge] = polygon;
    }
  }
}

void NavMesh::build_locator(double cell_size) {
  const double width = std::max(bounds_.max.x - bounds_.min.x, 1e-9);
  const double depth = std::max(bounds_.max.z - bounds_.min.z, 1e-9);
  if (!(cell_size > 0.0) || !std::isfinite(cell_size)) {
    // About one polygon per cell on average: the mean polygon box side.
    double total = 0.0;
    for (const Bounds& box : polygon_bounds_) total += (box.max.x - box.min.x) + (box.max.z - box.min.z);
    cell_size = std::max(total / (2.0 * static_cast<double>(polygon_count())), 1e-9);
  }
  // At most a few cells per polygon (and never an absurd number for a degenerate size).
  const double max_cells = 4.0 * static_cast<double>(polygon_count()) + 64.0;
  while ((width / cell_size + 1.0) * (depth / cell_size + 1.0) > max_cells) cell_size *= 1.5;
  locator_columns_ = static_cast<std::uint32_t>(width / cell_size) + 1;
  locator_rows_ = static_cast<std::uint32_t>(depth / cell_size) + 1;
  locator_origin_x_ = bounds_.min.x;
  locator_origin_z_ = bounds_.min.z;
  locator_inverse_cell_ = 1.0 / cell_size;

  const std::size_t cells = static_cast<std::size_t>(locator_columns_) * locator_rows_;
  auto cell_range = [&](const Bounds& box, std::uint32_t& x0, std::uint32_t& x1, std::uint32_t& z0, std::uint32_t& z1) {
    auto clamp_column = [&](double x) {
      const double c = std::floor((x - locator_origin_x_) * locator_inverse_cell_);
      return static_cast<std::uint32_t>(std::clamp(c, 0.0, static_cast<double>(locator_columns_ - 1)));
    };
    auto clamp_row = [&](double z) {
      const double r = std::floor((z - locator_origin_z_) * locator_inverse_cell_);
      return static_cast<std::uint32_t>(std::clamp(r, 0.0, static_cast<double>(locator_rows_ - 1)));
    };
    x0 = clamp_column(box.min.x);
    x1 = clamp_column(box.max.x);
    z0 = clamp_row(box.min.z);
    z1 = clamp_row(box.max.z);
  };
  std::vector<std::uint32_t> counts(cells + 1, 0);
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    std::uint32_t x0, x1, z0, z1;
    cell_range(polygon_bounds_[polygon], x0, x1, z0, z1);
    for (std::uint32_t z = z0; z <= z1; ++z)
      for (std::uint32_t x = x0; x <= x1; ++x) ++counts[static_cast<std::size_t>(z) * locator_columns_ + x + 1];
  }
  std::partial_sum(counts.begin(), counts.end(), counts.begin());
  locator_starts_ = counts;
  locator_polygons_.resize(counts.back());
  std::vector<std::uint32_t> fill(counts.begin(), counts.end() - 1);
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    std::uint32_t x0, x1, z0, z1;
    cell_range(polygon_bounds_[polygon], x0, x1, z0, z1);
    for (std::uint32_t z = z0; z <= z1; ++z)
      for (std::uint32_t x = x0; x <= x1; ++x)
        locator_polygons_[fill[static_cast<std::size_t>(z) * locator_columns_ + x]++] = polygon;
  }
}

bool NavMesh::contains_xz(PolygonId polygon, double x, double z) const {
  const auto indices = polygon_vertices(polygon);
  const Point p{x, 0.0, z};
  // Inside or on the boundary: left of (or on) every edge, up to a rounding margin (xz_margin_,
  // about 1e-9 world units near the origin), so points on a shared edge belong to both polygons.
  for (std::size_t i = 0, n = indices.size(); i < n; ++i) {
    const Point& a = vertices_[indices[i]];
    const Point& b = vertices_[indices[i + 1 == n ? 0 : i + 1]];
    const double cross = cross_xz(a, b, p);
    if (cross < 0.0 && cross < -xz_margin_ * (std::abs(b.x - a.x) + std::abs(b.z - a.z))) return false;
  }
  return true;
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
    if (!finite(geometry.detail_vertices[v]))
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

namespace {

// The height at (x, z) of the triangle among `count` (corners(i) gives triangle i's three
// corners) that contains the point seen from above, by barycentric coordinates; of the one it
// is least outside of when rounding puts it outside all of them; `fallback` when none has an
// area. Triangles wound clockwise count too when `either_winding` (a detail mesh's may be).
template <class Corners>
double height_over_triangles(double x, double z, std::size_t count, double fallback, bool either_winding,
                             Corners&& corners) {
  const Point p{x, 0.0, z};
  double best_height = fallback, best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    const auto [a, b, c] = corners(i);
    const double area = cross_xz(*a, *b, *c);
    if (either_winding ? area == 0.0 : area <= 0.0) continue;
    const double wa = cross_xz(*b, *c, p) / area, wb = cross_xz(*c, *a, p) / area, wc = cross_xz(*a, *b, p) / area;
    const double score = std::min({wa, wb, wc});
    if (score > best_score) {
      best_score = score;
      best_height = wa * a->y + wb * b->y + wc * c->y;
      if (score >= 0.0) break;
    }
  }
  return best_height;
}

}  // namespace

double NavMesh::height_at(PolygonId polygon, double x, double z) const {
  const auto indices = polygon_vertices(polygon);
  const double corner_height = vertices_[indices[0]].y;
  if (!detail_starts_.empty()) {
    const std::uint32_t input = source_polygons_[polygon];
    const std::uint32_t first = detail_starts_[input];
    if (first != detail_starts_[input + 1]) {
      return height_over_triangles(x, z, detail_starts_[input + 1] - first, corner_height, true, [&](std::size_t i) {
        const auto& triangle = detail_triangles_[first + i];
        return std::array{&detail_vertices_[triangle[0]], &detail_vertices_[triangle[1]], &detail_vertices_[triangle[2]]};
      });
    }
  }
  // The polygon's fan of triangles (0, i, i + 1).
  return height_over_triangles(x, z, indices.size() - 2, corner_height, false, [&](std::size_t i) {
    return std::array{&vertices_[indices[0]], &vertices_[indices[i + 1]], &vertices_[indices[i + 2]]};
  });
}

template <class Visit>
void NavMesh::for_each_polygon_near(double min_x, double min_z, double max_x, double max_z, Visit&& visit) const {
  const double c0 = std::floor((min_x - locator_origin_x_) * locator_inverse_cell_);
  const double c1 = std::floor((max_x - locator_origin_x_) * locator_inverse_cell_);
  const double r0 = std::floor((min_z - locator_origin_z_) * locator_inverse_cell_);
  const double r1 = std::floor((max_z - locator_origin_z_) * locator_inverse_cell_);
  if (c1 < 0.0 || r1 < 0.0 || c0 >= locator_columns_ || r0 >= locator_rows_) return;
  const auto x0 = static_cast<std::uint32_t>(std::max(c0, 0.0));
  const auto x1 = static_cast<std::uint32_t>(std::min(c1, static_cast<double>(locator_columns_ - 1)));
  const auto z0 = static_cast<std::uint32_t>(std::max(r0, 0.0));
  const auto z1 = static_cast<std::uint32_t>(std::min(r1, static_cast<double>(locator_rows_ - 1)));
  for (std::uint32_t z = z0; z <= z1; ++z) {
    for (std::uint32_t x = x0; x <= x1; ++x) {
      const std::size_t cell = static_cast<std::size_t>(z) * locator_columns_ + x;
      for (std::uint32_t i = locator_starts_[cell]; i < locator_starts_[cell + 1]; ++i) visit(locator_polygons_[i]);
    }
  }
}

MeshLocation NavMesh::locate(const Point& point, double height_tolerance) const {
  return locate_where(point, height_tolerance, [](PolygonId) { return true; });
}

MeshLocation NavMesh::locate(const Point& point, double height_tolerance, const AreaFilter& filter) const {
  return locate_where(point, height_tolerance,
                      [&](PolygonId polygon) { return filter.passes(tags_[polygon].area, tags_[polygon].flags); });
}

template <class Accept>
MeshLocation NavMesh::locate_where(const Point& point, double height_tolerance, Accept&& accept) const {
  MeshLocation best;
  if (!finite(point) || !(height_tolerance >= 0.0)) return best;
  double best_gap = std::numeric_limits<double>::infinity();
  // Boxes are widened by the same margin as contains_xz's, so a point on a box edge is seen.
  const double margin = xz_margin_;
  for_each_polygon_near(point.x - margin, point.z - margin, point.x + margin, point.z + margin, [&](PolygonId polygon) {
    const Bounds& box = polygon_bounds_[polygon];
    // The tests are joined with | rather than ||: whether a polygon listed near the point holds
    // it is unpredictable, and one branch mispredicts less often than four.
    const bool outside = (point.x < box.min.x - margin) | (point.x > box.max.x + margin) |
                         (point.z < box.min.z - margin) | (point.z > box.max.z + margin);
    if (outside) return;
    // The surface lies within the box's heights, so a box farther away in height than the
    // tolerance, or than the nearest surface found so far, cannot hold a nearer one. (With the
    // vertical extent of 4, boxes of other floors often pass the first test; the second stops
    // them once the point's own floor is found.)
    const double reach = std::min(height_tolerance, best_gap);
    if ((point.y < box.min.y - reach) | (point.y > box.max.y + reach)) return;
    if (!contains_xz(polygon, point.x, point.z) || !accept(polygon)) return;
    const double height = height_at(polygon, point.x, point.z);
    const double gap = std::abs(point.y - height);
    if (gap <= height_tolerance && (gap < best_gap || (gap == best_gap && polygon < best.polygon))) {
      best_gap = gap;
      best = {polygon, {point.x, height, point.z}};
    }
  });
  return best;
}

namespace {

// The closest point to p on triangle abc in 3D (Ericson, Real-Time Collision Detection, 2005,
// section 5.1.5).
Point closest_point_on_triangle(const Point& p, const Point& a, const Point& b, const Point& c) {
  auto sub = [](const Point& u, const Point& v) { return Point{u.x - v.x, u.y - v.y, u.z - v.z}; };
  auto dot = [](const Point& u, const Point& v) { return u.x * v.x + u.y * v.y + u.z * v.z; };
  auto along = [](const Point& origin, const Point& direction, double t) {
    return Point{origin.x + t * direction.x, origin.y + t * direction.y, origin.z + t * direction.z};
  };
  const Point ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Point bp = sub(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return along(a, ab, d1 / (d1 - d3));
  const Point cp = sub(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return along(a, ac, d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return along(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denominator = 1.0 / (va + vb + vc);
  const double v = vb * denominator, w = vc * denominator;
  return {a.x + ab.x * v + ac.x * w, a.y + ab.y * v + ac.y * w, a.z + ab.z * v + ac.z * w};
}

}  // namespace

MeshLocation NavMesh::nearest_point(const Point& point, double max_distance) const {
  MeshLocation best;
  if (!finite(point) || !(max_distance >= 0.0) || std::isnan(max_distance)) return best;
  // A point straight above or below a polygon, within reach, stays where it is in x and z.
  best = locate(point, max_distance);
  if (best.valid()) return best;
  // No point of the mesh is farther (in x-z) than the distance to its box plus the box's size:
  // that bounds the cells to look at when max_distance is huge.
  const double outside_x = std::max({bounds_.min.x - point.x, 0.0, point.x - bounds_.max.x});
  const double outside_z = std::max({bounds_.min.z - point.z, 0.0, point.z - bounds_.max.z});
  const double reach = std::min(max_distance, std::hypot(outside_x, outside_z) + (bounds_.max.x - bounds_.min.x) +
                                                  (bounds_.max.z - bounds_.min.z) + 1.0);
  double best_squared = max_distance * max_distance;
  if (std::isinf(best_squared)) best_squared = std::numeric_limits<double>::max();
  for_each_polygon_near(point.x - reach, point.z - reach, point.x + reach, point.z + reach, [&](PolygonId polygon) {
    const Bounds& box = polygon_bounds_[polygon];
    const double dx = std::max({box.min.x - point.x, 0.0, point.x - box.max.x});
    const double dy = std::max({box.min.y - point.y, 0.0, point.y - box.max.y});
    const double dz = std::max({box.min.z - point.z, 0.0, point.z - box.max.z});
    if (dx * dx + dy * dy + dz * dz > best_squared) return;
    const auto indices = polygon_vertices(polygon);
    for (std::size_t i = 1; i + 1 < indices.size(); ++i) {
      const Point candidate = closest_point_on_triangle(point, vertices_[indices[0]], vertices_[indices[i]],
                                                        vertices_[indices[i + 1]]);
      const double squared = distance_squared(point, candidate);
      if (squared <= best_squared && (squared < best_squared || !best.valid() || polygon < best.polygon)) {
        best_squared = squared;
        best = {polygon, candidate};
      }
    }
  });
  // The search measured distances to the polygons' flat surfaces; the point returned stands on
  // the ground.
  if (best.valid() && has_detail_heights()) best.point.y = height_at(best.polygon, best.point.x, best.point.z);
  return best;
}

// ---- Areas and flags

void NavMesh::count_tags() {
  polygons_per_area_.fill(0);
  polygons_per_flag_.fill(0);
  for (const PolygonTags& tags : tags_) {
    ++polygons_per_area_[tags.area];
    for (unsigned bit = 0; bit < polygons_per_flag_.size(); ++bit) polygons_per_flag_[bit] += (tags.flags >> bit) & 1u;
  }
  areas_in_use_ = 0;
  flags_in_use_ = 0;
  for (unsigned area = 0; area < polygons_per_area_.size(); ++area)
    if (polygons_per_area_[area] != 0) areas_in_use_ |= std::uint64_t{1} << area;
  for (unsigned bit = 0; bit < polygons_per_flag_.size(); ++bit)
    if (polygons_per_flag_[bit] != 0) flags_in_use_ = static_cast<AreaFlags>(flags_in_use_ | (1u << bit));
}

PolygonId NavMesh::checked_polygon(PolygonId polygon) const {
  if (polygon >= polygon_count())
    throw std::out_of_range("polygon " + std::to_string(polygon) + " is not in the mesh (it has " +
                            std::to_string(polygon_count()) + " polygons)");
  return polygon;
}

AreaId NavMesh::checked_area(AreaId area) {
  if (area >= max_areas)
    throw std::invalid_argument("area " + std::to_string(area) + " is not in [0, " + std::to_string(max_areas) + ")");
  return area;
}

bool NavMesh::retag(PolygonId polygon, AreaId area, AreaFlags flags) {
  PolygonTags& tags = tags_[polygon];
  if (tags.area == area && tags.flags == flags) return false;
  changes_.record({polygon, tags.area, tags.flags});
  // The per-area and per-flag counts keep areas_in_use() and flags_in_use() exact in O(1) per
  // edit, so queries can ask them on every begin().
  if (--polygons_per_area_[tags.area] == 0) areas_in_use_ &= ~(std::uint64_t{1} << tags.area);
  if (polygons_per_area_[area]++ == 0) areas_in_use_ |= std::uint64_t{1} << area;
  for (unsigned bit = 0; bit < polygons_per_flag_.size(); ++bit) {
    const bool had = ((tags.flags >> bit) & 1u) != 0, has = ((flags >> bit) & 1u) != 0;
    if (had == has) continue;
    const auto mask = static_cast<AreaFlags>(1u << bit);
    if (had && --polygons_per_flag_[bit] == 0) flags_in_use_ = static_cast<AreaFlags>(flags_in_use_ & ~mask);
    if (has && polygons_per_flag_[bit]++ == 0) flags_in_use_ = static_cast<AreaFlags>(flags_in_use_ | mask);
  }
  tags = {area, flags};
  return true;
}

void NavMesh::set_area(PolygonId polygon, AreaId area) {
  checked_polygon(polygon);
  set_area_and_flags(polygon, area, tags_[polygon].flags);
}

void NavMesh::set_flags(PolygonId polygon, AreaFlags flags) {
  checked_polygon(polygon);
  set_area_and_flags(polygon, tags_[polygon].area, flags);
}

void NavMesh::set_area_and_flags(PolygonId polygon, AreaId area, AreaFlags flags) {
  checked_polygon(polygon);
  checked_area(area);
  if (retag(polygon, area, flags)) changes_.commit();
}

void NavMesh::set_area(std::span<const PolygonId> polygons, AreaId area) {
  checked_area(area);
  for (const PolygonId polygon : polygons) checked_polygon(polygon);
  bool changed = false;
  for (const PolygonId polygon : polygons) changed |= retag(polygon, area, tags_[polygon].flags);
  if (changed) changes_.commit();
}

void NavMesh::set_flags(std::span<const PolygonId> polygons, AreaFlags flags) {
  for (const PolygonId polygon : polygons) checked_polygon(polygon);
  bool changed = false;
  for (const PolygonId polygon : polygons) changed |= retag(polygon, tags_[polygon].area, flags);
  if (changed) changes_.commit();
}

}  // namespace wayfinder
