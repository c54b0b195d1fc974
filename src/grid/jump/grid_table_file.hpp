#pragma once
// The binary file format that the grid's per-cell tables share (GridJumpTable, GridGoalBounds):
// a 40-byte header, then a fixed number of value bytes per cell, row-major. Layout
// (little-endian):
//
//   8 bytes   the kind's magic text ("WFJUMPT\n", "WFGOALB\n")
//   u32       format version of the kind
//   u32 u32   width, height of the map
//   u32       zero (reserved)
//   u64       passability_checksum() of the map
//   u64       checksum (FNV-1a) of the values
//   ...       width x height x value_bytes_per_cell bytes; nothing may follow them
//
// The reader checks everything the header promises; what the values must satisfy against the
// map (jump distances that follow from it, boxes that fit its regions) is each kind's own check,
// done by its caller.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::grid_table_file {

/// What tells one kind of table file from another, and the words its errors use.
struct Kind {
  unsigned char magic[8];
  std::uint32_t version;
  std::size_t value_bytes_per_cell;
  const char* noun;            ///< "jump table": "not a jump table file", "cannot open the jump table file"
  const char* built_for;       ///< "the table was built for": "... a 12x10 map, not this 8x8 one"
  const char* values_noun;     ///< "distances": "truncated: 12 bytes of distances, 40 expected"
  const char* object_built_for;  ///< "the jump table was built for": mismatch()'s sentences
  const char* short_noun;        ///< "table": "(build the table again after editing the map)"
};

inline constexpr std::size_t header_size = 8 + 4 * 4 + 8 * 2;

/// Little-endian fields, as the tables' files (and the goal bounds' parts) hold them.
inline void put_u32(unsigned char* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
inline void put_u64(unsigned char* out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
inline std::uint32_t get_u32(const unsigned char* p) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return value;
}
inline std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return value;
}

/// The header and the values, as save() writes them. `values` holds
/// width x height x kind.value_bytes_per_cell bytes.
std::vector<unsigned char> to_bytes(const Kind& kind, int width, int height, std::uint64_t map_checksum,
                                    const void* values, std::size_t value_bytes);

/// Writes the header and the values, as to_bytes() lays them out, to `file` without a copy of
/// the values (a table may take gigabytes). Throws std::runtime_error naming the file when it
/// cannot.
void write(const std::filesystem::path& file, const Kind& kind, int width, int height, std::uint64_t map_checksum,
           const void* values, std::size_t value_bytes);

/// Reads `file` for a table of `kind` for `map`: its header into `header` (header_size bytes)
/// and its values straight into `values` (value_bytes, what a table of `kind` for `map` holds),
/// so that no second copy of a large table is made. Returns how many bytes the file has, at
/// most one more than header and values (so that "too long" can be told). Throws LoadError
/// naming the file when it cannot be opened.
std::size_t read(const std::filesystem::path& file, const Kind& kind, unsigned char* header, unsigned char* values,
                 std::size_t value_bytes);

/// The values of a table file checked against `map`: its magic, size of header, version,
/// reserved field, map size, passability checksum, length and checksum of the values. Throws
/// LoadError naming `source_name` and what is wrong. The values are the bytes from
/// `values` on, width x height x kind.value_bytes_per_cell of them.
struct CheckedValues {
  const unsigned char* values;
  std::uint64_t map_checksum;
};
CheckedValues check(const Kind& kind, const unsigned char* data, std::size_t size, const GridMap& map,
                    const std::string& source_name);
/// The same for a header and values held apart (as read() reads them): `size` is the length of
/// the whole file, `values` holds its bytes after the header.
CheckedValues check(const Kind& kind, const unsigned char* header, const unsigned char* values, std::size_t size,
                    const GridMap& map, const std::string& source_name);

/// Why a table stamped with a map's size and revision does not belong to `map`'s current version,
/// or nullopt when it does (the public mismatch() of each kind).
std::optional<std::string> mismatch(const Kind& kind, int width, int height, std::uint64_t revision,
                                    const GridMap& map);
/// The same, also comparing `map_checksum` with the map's passability_checksum().
std::optional<std::string> mismatch_thoroughly(const Kind& kind, int width, int height, std::uint64_t revision,
                                               std::uint64_t map_checksum, const GridMap& map);

/// "WxH", as the errors print a map's size.
std::string size_text(int width, int height);

}  // namespace wayfinder::grid_table_file
