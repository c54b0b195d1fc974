#include "navmesh/polygon_triangulation.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>

#include "wayfinder/core/geometry.hpp"

namespace wayfinder {

namespace {

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

}  // namespace

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
    return geometry::cross_xz(nodes[a], nodes[b], nodes[c]);
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
    const double along = geometry::dot_xz(nodes[from], nodes[to], nodes[p]);
    return along > 0.0 && along < geometry::distance_squared_xz(nodes[from], nodes[to]);
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

}  // namespace wayfinder
