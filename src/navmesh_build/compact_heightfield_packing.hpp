#pragma once
// A compact heightfield before erosion and regions, packed for keeping: per cell its span
// count, per span its floor height, headroom and area. Connections are not kept: they follow
// from the heights (two spans of neighbouring cells connect when their shared room is at least
// the agent's height and their floors differ by at most its climb, the rule Recast's
// rcBuildCompactHeightfield applies) and are worked out again on unpacking. The planes are
// delta-coded and run-length coded, since floors are flat over many cells. Internal to the
// navmesh_build library.

#include "navmesh_build/recast_pointer.hpp"

#include <recastnavigation/Recast.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wayfinder {

/// The packed form; everything but the spans' bytes is in the fields.
struct PackedHeightfield {
  int width = 0, depth = 0, span_count = 0;
  int walkable_height = 0, walkable_climb = 0;
  float bounds_min[3] = {0, 0, 0}, bounds_max[3] = {0, 0, 0};
  float cell_size = 0, cell_height = 0;
  std::vector<std::uint8_t> bytes;

  /// The bytes this object holds (fields and packed planes).
  [[nodiscard]] std::size_t memory_bytes() const { return sizeof(*this) + bytes.capacity(); }
  /// The bytes Recast's rcCompactHeightfield holds for the same field without its distances.
  [[nodiscard]] std::size_t unpacked_bytes() const;
};

/// Packs a compact heightfield that has no regions or distances yet.
PackedHeightfield pack_heightfield(const rcCompactHeightfield& compact);

/// Why `packed` (read from a file) cannot be unpacked safely: planes that do not decode to
/// exactly its cells and spans, cells whose span counts do not add up to span_count, or a span
/// area above `area_ids` (the Recast area ids the cache knows). nullopt when it can. Decodes
/// nothing larger than the bytes can expand to.
std::optional<std::string> packed_heightfield_problem(const PackedHeightfield& packed, std::size_t area_ids);

/// The compact heightfield `pack_heightfield` was given, connections included.
RecastPointer<rcCompactHeightfield> unpack_heightfield(const PackedHeightfield& packed);

}  // namespace wayfinder
