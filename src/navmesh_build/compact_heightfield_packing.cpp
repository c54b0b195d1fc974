#include "navmesh_build/compact_heightfield_packing.hpp"

#include <recastnavigation/RecastAlloc.h>

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <new>
#include <stdexcept>

namespace wayfinder {

namespace {

// Run-length coding: a control byte c < 128 is followed by c + 1 bytes taken as they are; a
// control byte c >= 128 by one byte repeated c - 128 + min_run times.
constexpr std::size_t min_run = 3;
constexpr std::size_t max_run = 127 + min_run;
constexpr std::size_t max_literals = 128;

void run_length_encode(const std::vector<std::uint8_t>& in, std::vector<std::uint8_t>& out) {
  std::size_t i = 0;
  std::size_t literal_start = 0;
  const auto flush_literals = [&](std::size_t end) {
    while (literal_start < end) {
      const std::size_t n = std::min(max_literals, end - literal_start);
      out.push_back(static_cast<std::uint8_t>(n - 1));
      out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(literal_start),
                 in.begin() + static_cast<std::ptrdiff_t>(literal_start + n));
      literal_start += n;
    }
  };
  while (i < in.size()) {
    std::size_t run = 1;
    while (i + run < in.size() && run < max_run && in[i + run] == in[i]) ++run;
    if (run >= min_run) {
      flush_literals(i);
      out.push_back(static_cast<std::uint8_t>(128 + run - min_run));
      out.push_back(in[i]);
      i += run;
      literal_start = i;
    } else {
      i += run;
    }
  }
  flush_literals(in.size());
}

// Returns false when the bytes do not decode to exactly out.size() bytes.
bool run_length_decode(const std::vector<std::uint8_t>& in, std::vector<std::uint8_t>& out) {
  std::size_t p = 0, o = 0;
  while (p < in.size()) {
    const std::uint8_t control = in[p++];
    if (control < 128) {
      const std::size_t n = control + 1u;
      if (p + n > in.size() || o + n > out.size()) return false;
      std::memcpy(out.data() + o, in.data() + p, n);
      p += n;
      o += n;
    } else {
      const std::size_t n = control - 128u + min_run;
      if (p >= in.size() || o + n > out.size()) return false;
      std::memset(out.data() + o, in[p++], n);
      o += n;
    }
  }
  return o == out.size();
}

template <class T>
T* recast_array(std::size_t count) {
  void* memory = rcAlloc(sizeof(T) * std::max<std::size_t>(count, 1), RC_ALLOC_PERM);
  if (memory == nullptr) throw std::bad_alloc();
  return static_cast<T*>(memory);
}

// The connection rule of Recast's compact heightfield: span s reaches the first span of the
// neighbouring column with room for the agent between the higher floor and the lower ceiling
// and a floor within the climb; layers past 62 cannot be named in six bits and stay unconnected.
void connect_spans(rcCompactHeightfield& chf) {
  constexpr int most_layers = RC_NOT_CONNECTED - 1;
  const rcCompactCell* cells = chf.cells;
  rcCompactSpan* spans = chf.spans;
  const int width = chf.width, depth = chf.height;
  for (int z = 0; z < depth; ++z) {
    for (int x = 0; x < width; ++x) {
      const rcCompactCell& cell = cells[x + z * width];
      for (unsigned i = cell.index, end = cell.index + cell.count; i < end; ++i) {
        rcCompactSpan& s = spans[i];
        const int floor = s.y, ceiling = s.y + static_cast<int>(s.h);
        unsigned con = 0;
        for (int dir = 0; dir < 4; ++dir) {
          int layer = RC_NOT_CONNECTED;
          const int nx = x + rcGetDirOffsetX(dir);
          const int nz = z + rcGetDirOffsetY(dir);
          if (nx >= 0 && nz >= 0 && nx < width && nz < depth) {
            const rcCompactCell& next = cells[nx + nz * width];
            for (unsigned k = next.index, k_end = next.index + next.count; k < k_end; ++k) {
              const rcCompactSpan& ns = spans[k];
              const int bottom = std::max<int>(floor, ns.y);
              const int top = std::min<int>(ceiling, ns.y + static_cast<int>(ns.h));
              if (top - bottom < chf.walkableHeight || std::abs(static_cast<int>(ns.y) - floor) > chf.walkableClimb) continue;
              const int found = static_cast<int>(k - next.index);
              if (found > most_layers) continue;
              layer = found;
              break;
            }
          }
          con |= static_cast<unsigned>(layer) << (dir * 6);
        }
        s.con = con & 0xffffffu;
      }
    }
  }
}

}  // namespace

std::size_t PackedHeightfield::unpacked_bytes() const {
  return sizeof(rcCompactHeightfield) + static_cast<std::size_t>(width) * static_cast<std::size_t>(depth) * sizeof(rcCompactCell) +
         static_cast<std::size_t>(span_count) * (sizeof(rcCompactSpan) + 1);
}

PackedHeightfield pack_heightfield(const rcCompactHeightfield& chf) {
  PackedHeightfield packed;
  packed.width = chf.width;
  packed.depth = chf.height;
  packed.span_count = chf.spanCount;
  packed.walkable_height = chf.walkableHeight;
  packed.walkable_climb = chf.walkableClimb;
  std::copy(chf.bmin, chf.bmin + 3, packed.bounds_min);
  std::copy(chf.bmax, chf.bmax + 3, packed.bounds_max);
  packed.cell_size = chf.cs;
  packed.cell_height = chf.ch;

  // Planes: span counts per cell, then per span the floor's change from the span before (low
  // and high byte), the headroom and the area.
  const auto cells = static_cast<std::size_t>(chf.width) * static_cast<std::size_t>(chf.height);
  const auto spans = static_cast<std::size_t>(chf.spanCount);
  std::vector<std::uint8_t> planes(cells + 4 * spans);
  for (std::size_t c = 0; c < cells; ++c) planes[c] = static_cast<std::uint8_t>(chf.cells[c].count);
  std::uint16_t previous_y = 0;
  for (std::size_t s = 0; s < spans; ++s) {
    const auto delta = static_cast<std::uint16_t>(chf.spans[s].y - previous_y);
    previous_y = chf.spans[s].y;
    planes[cells + s] = static_cast<std::uint8_t>(delta & 0xff);
    planes[cells + spans + s] = static_cast<std::uint8_t>(delta >> 8);
    planes[cells + 2 * spans + s] = static_cast<std::uint8_t>(chf.spans[s].h);
    planes[cells + 3 * spans + s] = chf.areas[s];
  }
  run_length_encode(planes, packed.bytes);
  packed.bytes.shrink_to_fit();
  return packed;
}

std::optional<std::string> packed_heightfield_problem(const PackedHeightfield& packed, std::size_t area_ids) {
  if (packed.width < 0 || packed.depth < 0 || packed.span_count < 0) return "a negative size";
  const auto cells = static_cast<std::size_t>(packed.width) * static_cast<std::size_t>(packed.depth);
  const auto spans = static_cast<std::size_t>(packed.span_count);
  // Two bytes of a run give at most max_run bytes: a larger claim cannot be these bytes.
  const std::size_t planes_size = cells + 4 * spans;
  if (planes_size / (max_run / 2) > packed.bytes.size())
    return std::to_string(packed.bytes.size()) + " packed bytes cannot hold " + std::to_string(cells) + " cells and " +
           std::to_string(spans) + " spans";
  std::vector<std::uint8_t> planes(planes_size);
  if (!run_length_decode(packed.bytes, planes))
    return "the packed planes do not decode to " + std::to_string(cells) + " cells and " + std::to_string(spans) + " spans";
  std::size_t counted = 0;
  for (std::size_t c = 0; c < cells; ++c) counted += planes[c];
  if (counted != spans)
    return "the cells' span counts add up to " + std::to_string(counted) + ", not the " + std::to_string(spans) + " spans";
  for (std::size_t s = 0; s < spans; ++s)
    if (planes[cells + 3 * spans + s] > area_ids)
      return "span " + std::to_string(s) + " has area id " + std::to_string(planes[cells + 3 * spans + s]) +
             "; the level has " + std::to_string(area_ids);
  return std::nullopt;
}

RecastPointer<rcCompactHeightfield> unpack_heightfield(const PackedHeightfield& packed) {
  const auto cells = static_cast<std::size_t>(packed.width) * static_cast<std::size_t>(packed.depth);
  const auto spans = static_cast<std::size_t>(packed.span_count);
  std::vector<std::uint8_t> planes(cells + 4 * spans);
  if (!run_length_decode(packed.bytes, planes)) throw std::logic_error("unpack_heightfield: the packed planes are damaged");

  RecastPointer<rcCompactHeightfield> chf(rcAllocCompactHeightfield());
  if (!chf) throw std::bad_alloc();
  chf->width = packed.width;
  chf->height = packed.depth;
  chf->spanCount = packed.span_count;
  chf->walkableHeight = packed.walkable_height;
  chf->walkableClimb = packed.walkable_climb;
  chf->borderSize = 0;
  chf->maxDistance = 0;
  chf->maxRegions = 0;
  std::copy(packed.bounds_min, packed.bounds_min + 3, chf->bmin);
  std::copy(packed.bounds_max, packed.bounds_max + 3, chf->bmax);
  chf->cs = packed.cell_size;
  chf->ch = packed.cell_height;
  chf->cells = recast_array<rcCompactCell>(cells);
  chf->spans = recast_array<rcCompactSpan>(spans);
  chf->areas = recast_array<unsigned char>(spans);
  chf->dist = nullptr;
  unsigned index = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    chf->cells[c].index = index & 0xffffffu;  // fewer than 2^24 spans: plan_tile_grid bounds a tile
    chf->cells[c].count = planes[c];
    index += planes[c];
  }
  std::uint16_t y = 0;
  for (std::size_t s = 0; s < spans; ++s) {
    y = static_cast<std::uint16_t>(y + (planes[cells + s] | (planes[cells + spans + s] << 8)));
    rcCompactSpan& span = chf->spans[s];
    span.y = y;
    span.reg = 0;
    span.con = 0;
    span.h = planes[cells + 2 * spans + s];
    chf->areas[s] = planes[cells + 3 * spans + s];
  }
  connect_spans(*chf);
  return chf;
}

}  // namespace wayfinder
