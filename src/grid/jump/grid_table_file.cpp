#include "grid_table_file.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "core/fnv1a.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"

namespace wayfinder {

namespace grid_table_file {

namespace {

std::uint64_t fnv_add_u32(std::uint64_t hash, std::uint32_t value) {
  unsigned char bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  return fnv1a_add(hash, bytes, 4);
}

std::size_t value_bytes_for(const Kind& kind, const GridMap& map) {
  return map.cell_count() * kind.value_bytes_per_cell;
}

}  // namespace

std::string size_text(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

namespace {

// The 40-byte header of a table whose values are `values`.
void put_header(unsigned char* p, const Kind& kind, int width, int height, std::uint64_t map_checksum,
                const unsigned char* values, std::size_t value_bytes) {
  std::memcpy(p, kind.magic, sizeof kind.magic);
  put_u32(p + 8, kind.version);
  put_u32(p + 12, static_cast<std::uint32_t>(width));
  put_u32(p + 16, static_cast<std::uint32_t>(height));
  put_u32(p + 20, 0);
  put_u64(p + 24, map_checksum);
  put_u64(p + 32, fnv1a(values, value_bytes));
}

}  // namespace

std::vector<unsigned char> to_bytes(const Kind& kind, int width, int height, std::uint64_t map_checksum,
                                    const void* values, std::size_t value_bytes) {
  // The values' bytes as memory holds them: little-endian, which the bit grids already require
  // of the machine.
  const auto* value_data = static_cast<const unsigned char*>(values);
  std::vector<unsigned char> out(header_size + value_bytes);
  put_header(out.data(), kind, width, height, map_checksum, value_data, value_bytes);
  if (value_bytes > 0) std::memcpy(out.data() + header_size, value_data, value_bytes);
  return out;
}

void write(const std::filesystem::path& file, const Kind& kind, int width, int height, std::uint64_t map_checksum,
           const void* values, std::size_t value_bytes) {
  const auto* value_data = static_cast<const unsigned char*>(values);
  unsigned char header[header_size];
  put_header(header, kind, width, height, map_checksum, value_data, value_bytes);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(file.string() + ": cannot open the file for writing");
  out.write(reinterpret_cast<const char*>(header), static_cast<std::streamsize>(header_size));
  out.write(reinterpret_cast<const char*>(value_data), static_cast<std::streamsize>(value_bytes));
  out.close();
  if (!out) throw std::runtime_error(file.string() + ": writing the " + kind.noun + " failed");
}

std::size_t read(const std::filesystem::path& file, const Kind& kind, unsigned char* header, unsigned char* values,
                 std::size_t value_bytes) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError(file.string(), 0, 0, std::string("cannot open the ") + kind.noun + " file");
  in.read(reinterpret_cast<char*>(header), static_cast<std::streamsize>(header_size));
  std::size_t size = static_cast<std::size_t>(in.gcount());
  if (size < header_size) return size;
  in.read(reinterpret_cast<char*>(values), static_cast<std::streamsize>(value_bytes));
  size += static_cast<std::size_t>(in.gcount());
  if (size < header_size + value_bytes) return size;
  // One byte more tells a file that is too long.
  char extra = 0;
  in.read(&extra, 1);
  return size + static_cast<std::size_t>(in.gcount());
}

CheckedValues check(const Kind& kind, const unsigned char* data, std::size_t size, const GridMap& map,
                    const std::string& source_name) {
  return check(kind, data, data + header_size, size, map, source_name);
}

CheckedValues check(const Kind& kind, const unsigned char* header, const unsigned char* values, std::size_t size,
                    const GridMap& map, const std::string& source_name) {
  const unsigned char* data = header;
  auto fail = [&](const std::string& why) -> CheckedValues { throw LoadError(source_name, 0, 0, why); };
  const std::string magic_text(reinterpret_cast<const char*>(kind.magic), sizeof kind.magic - 1);
  if (size < sizeof kind.magic || std::memcmp(data, kind.magic, sizeof kind.magic) != 0)
    return fail(std::string("not a ") + kind.noun + " file (it does not begin with \"" + magic_text + "\")");
  if (size < header_size)
    return fail("truncated: the header needs " + std::to_string(header_size) + " bytes, the file has " +
                std::to_string(size));
  const std::uint32_t version = get_u32(data + 8);
  if (version != kind.version)
    return fail(std::string(kind.noun) + " format version " + std::to_string(version) + ", this build reads version " +
                std::to_string(kind.version));
  const std::uint32_t width = get_u32(data + 12);
  const std::uint32_t height = get_u32(data + 16);
  if (get_u32(data + 20) != 0) return fail("corrupted header: the reserved field is not zero");
  if (width != static_cast<std::uint32_t>(map.width()) || height != static_cast<std::uint32_t>(map.height()))
    return fail(std::string(kind.built_for) + " a " + std::to_string(width) + "x" + std::to_string(height) +
                " map, not this " + size_text(map.width(), map.height()) + " one");
  const std::uint64_t map_checksum = get_u64(data + 24);
  if (map_checksum != passability_checksum(map))
    return fail(std::string(kind.built_for) + " another map: the passability checksums differ");
  const std::size_t value_bytes = value_bytes_for(kind, map);
  if (size - header_size < value_bytes)
    return fail("truncated: " + std::to_string(size - header_size) + " bytes of " + kind.values_noun + ", " +
                std::to_string(value_bytes) + " expected");
  if (size - header_size > value_bytes) return fail(std::string("unexpected bytes after the ") + kind.values_noun);
  if (fnv1a(values, value_bytes) != get_u64(data + 32))
    return fail(std::string("corrupted: the ") + kind.values_noun + " do not match their checksum");
  return {values, map_checksum};
}

std::optional<std::string> mismatch(const Kind& kind, int width, int height, std::uint64_t revision,
                                    const GridMap& map) {
  if (map.width() != width || map.height() != height)
    return std::string(kind.object_built_for) + " a " + size_text(width, height) + " map, not this " +
           size_text(map.width(), map.height()) + " one";
  if (map.revision() != revision)
    return std::string(kind.object_built_for) + " revision " + std::to_string(revision) +
           " of the map, which is now at revision " + std::to_string(map.revision()) + " (build the " +
           kind.short_noun + " again after editing the map)";
  return std::nullopt;
}

std::optional<std::string> mismatch_thoroughly(const Kind& kind, int width, int height, std::uint64_t revision,
                                               std::uint64_t map_checksum, const GridMap& map) {
  if (auto problem = mismatch(kind, width, height, revision, map)) return problem;
  if (passability_checksum(map) != map_checksum)
    return std::string(kind.object_built_for) +
           " another map of the same size (the passability checksums differ)";
  return std::nullopt;
}

}  // namespace grid_table_file

std::uint64_t passability_checksum(const GridMap& map) {
  using grid_table_file::fnv_add_u32;
  std::uint64_t hash = fnv_add_u32(fnv_add_u32(fnv1a_offset_basis, static_cast<std::uint32_t>(map.width())),
                                   static_cast<std::uint32_t>(map.height()));
  std::vector<unsigned char> row(static_cast<std::size_t>(map.width() + 7) / 8);
  for (int y = 0; y < map.height(); ++y) {
    std::fill(row.begin(), row.end(), static_cast<unsigned char>(0));
    for (int x = 0; x < map.width(); ++x)
      if (map.passable_unchecked(x, y)) row[static_cast<std::size_t>(x) >> 3] |= static_cast<unsigned char>(1u << (x & 7));
    hash = fnv1a_add(hash, row.data(), row.size());
  }
  return hash;
}

}  // namespace wayfinder
