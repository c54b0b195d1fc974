#include "wayfinder/grid/grid_jump_table.hpp"

#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

constexpr unsigned char file_magic[8] = {'W', 'F', 'J', 'U', 'M', 'P', 'T', '\n'};
constexpr std::size_t header_size = 8 + 4 * 4 + 8 * 2;

constexpr std::uint64_t fnv_offset = 14695981039346656037ull;
constexpr std::uint64_t fnv_prime = 1099511628211ull;

std::uint64_t fnv_add(std::uint64_t hash, const unsigned char* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * fnv_prime;
  return hash;
}

std::uint64_t fnv_add_u32(std::uint64_t hash, std::uint32_t value) {
  unsigned char bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  return fnv_add(hash, bytes, 4);
}

std::uint64_t distances_checksum(const std::vector<std::int16_t>& distances) {
  // The distances' bytes as the file holds them (little-endian, which the bit grids already
  // require of the machine).
  return fnv_add(fnv_offset, reinterpret_cast<const unsigned char*>(distances.data()),
                 distances.size() * sizeof(std::int16_t));
}

void put_u32(unsigned char* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
void put_u64(unsigned char* out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
std::uint32_t get_u32(const unsigned char* p) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return value;
}
std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return value;
}

std::string size_text(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

// Whether a straight traveller arriving at (x, y) in direction (dx, dy) has a forced neighbour
// there: a side cell free while the side cell one step back is blocked (JumpPointDomain's rule).
bool forced(const GridMap& map, int x, int y, int dx, int dy) {
  const int side_x = dy;  // perpendicular to the travel
  const int side_y = dx;
  for (const int s : {-1, 1}) {
    if (map.passable(x + s * side_x, y + s * side_y) && !map.passable(x + s * side_x - dx, y + s * side_y - dy))
      return true;
  }
  return false;
}

}  // namespace

std::uint64_t passability_checksum(const GridMap& map) {
  std::uint64_t hash = fnv_add_u32(fnv_add_u32(fnv_offset, static_cast<std::uint32_t>(map.width())),
                                   static_cast<std::uint32_t>(map.height()));
  std::vector<unsigned char> row(static_cast<std::size_t>(map.width() + 7) / 8);
  for (int y = 0; y < map.height(); ++y) {
    std::fill(row.begin(), row.end(), static_cast<unsigned char>(0));
    for (int x = 0; x < map.width(); ++x)
      if (map.passable_unchecked(x, y)) row[static_cast<std::size_t>(x) >> 3] |= static_cast<unsigned char>(1u << (x & 7));
    hash = fnv_add(hash, row.data(), row.size());
  }
  return hash;
}

GridJumpTable::GridJumpTable(const GridMap& map, const Progress& progress)
    : width_(map.width()), height_(map.height()), revision_(map.revision()) {
  const auto began = std::chrono::steady_clock::now();
  distances_.assign(map.cell_count() * jump_direction_count, 0);
  const std::size_t total = static_cast<std::size_t>(height_) * jump_direction_count;
  std::size_t done = 0;
  auto at = [&](int x, int y, int direction) -> std::int16_t& {
    return distances_[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)) *
                          jump_direction_count +
                      static_cast<std::size_t>(direction)];
  };
  // Straight directions first (the diagonals read them), each swept against its direction so
  // that the next cell's distance is known: d(cell) = 0 before a wall, 1 before a jump point,
  // else d(next) one step further.
  auto sweep = [&](int direction, auto&& distance_of) {
    const int dx = jump_direction_dx[direction];
    const int dy = jump_direction_dy[direction];
    for (int row = 0; row < height_; ++row) {
      const int y = dy > 0 ? height_ - 1 - row : row;
      for (int column = 0; column < width_; ++column) {
        const int x = dx > 0 ? width_ - 1 - column : column;
        if (!map.passable_unchecked(x, y)) continue;
        at(x, y, direction) = distance_of(x, y, dx, dy);
      }
      ++done;
      if (progress && (done % 64 == 0 || done == total)) progress(done, total);
    }
  };
  auto continued = [](int next) { return static_cast<std::int16_t>(next > 0 ? next + 1 : next - 1); };
  for (const int direction : {0, 2, 4, 6}) {
    sweep(direction, [&](int x, int y, int dx, int dy) -> std::int16_t {
      const int nx = x + dx;
      const int ny = y + dy;
      if (!map.passable(nx, ny)) return 0;
      if (forced(map, nx, ny, dx, dy)) return 1;
      return continued(at(nx, ny, direction));
    });
  }
  for (const int direction : {1, 3, 5, 7}) {
    sweep(direction, [&](int x, int y, int dx, int dy) -> std::int16_t {
      const int nx = x + dx;
      const int ny = y + dy;
      // No corner cutting: both side cells and the diagonal one must be free.
      if (!map.passable(nx, y) || !map.passable(x, ny) || !map.passable(nx, ny)) return 0;
      if (at(nx, ny, jump_direction_index(dx, 0)) > 0 || at(nx, ny, jump_direction_index(0, dy)) > 0) return 1;
      return continued(at(nx, ny, direction));
    });
  }
  map_checksum_ = passability_checksum(map);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

std::optional<std::string> GridJumpTable::mismatch(const GridMap& map) const {
  if (map.width() != width_ || map.height() != height_)
    return "the jump table was built for a " + size_text(width_, height_) + " map, not this " +
           size_text(map.width(), map.height()) + " one";
  if (map.revision() != revision_)
    return "the jump table was built for revision " + std::to_string(revision_) + " of the map, which is now at " +
           "revision " + std::to_string(map.revision()) + " (build the table again after editing the map)";
  return std::nullopt;
}

std::optional<std::string> GridJumpTable::mismatch_thoroughly(const GridMap& map) const {
  if (auto problem = mismatch(map)) return problem;
  if (passability_checksum(map) != map_checksum_)
    return std::string("the jump table was built for another map of the same size (the passability checksums differ)");
  return std::nullopt;
}

void GridJumpTable::check(const GridMap& map) const {
  if (auto problem = mismatch(map)) throw std::invalid_argument(*problem);
}

std::vector<unsigned char> GridJumpTable::to_bytes() const {
  const std::size_t payload = distances_.size() * sizeof(std::int16_t);
  std::vector<unsigned char> out(header_size + payload);
  unsigned char* p = out.data();
  std::memcpy(p, file_magic, sizeof file_magic);
  put_u32(p + 8, file_version);
  put_u32(p + 12, static_cast<std::uint32_t>(width_));
  put_u32(p + 16, static_cast<std::uint32_t>(height_));
  put_u32(p + 20, 0);
  put_u64(p + 24, map_checksum_);
  put_u64(p + 32, distances_checksum(distances_));
  if (payload > 0) std::memcpy(p + header_size, distances_.data(), payload);
  return out;
}

void GridJumpTable::save(const std::filesystem::path& file) const {
  const std::vector<unsigned char> bytes = to_bytes();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(file.string() + ": cannot open the file for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(file.string() + ": writing the jump table failed");
}

GridJumpTable GridJumpTable::load(const std::filesystem::path& file, const GridMap& map) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError(file.string(), 0, 0, "cannot open the jump table file");
  // Never read more than a table for this map can hold (plus one byte, to tell "too long").
  const std::size_t expected = header_size + map.cell_count() * jump_direction_count * sizeof(std::int16_t);
  std::vector<unsigned char> bytes(expected + 1);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return from_bytes(bytes.data(), bytes.size(), map, file.string());
}

GridJumpTable GridJumpTable::from_bytes(const unsigned char* data, std::size_t size, const GridMap& map,
                                        const std::string& source_name) {
  auto fail = [&](const std::string& why) -> GridJumpTable { throw LoadError(source_name, 0, 0, why); };
  if (size < sizeof file_magic || std::memcmp(data, file_magic, sizeof file_magic) != 0)
    return fail("not a jump table file (it does not begin with \"WFJUMPT\")");
  if (size < header_size)
    return fail("truncated: the header needs " + std::to_string(header_size) + " bytes, the file has " +
                std::to_string(size));
  const std::uint32_t version = get_u32(data + 8);
  if (version != file_version)
    return fail("jump table format version " + std::to_string(version) + ", this build reads version " +
                std::to_string(file_version));
  const std::uint32_t width = get_u32(data + 12);
  const std::uint32_t height = get_u32(data + 16);
  if (get_u32(data + 20) != 0) return fail("corrupted header: the reserved field is not zero");
  if (width != static_cast<std::uint32_t>(map.width()) || height != static_cast<std::uint32_t>(map.height()))
    return fail("the table was built for a " + std::to_string(width) + "x" + std::to_string(height) +
                " map, not this " + size_text(map.width(), map.height()) + " one");
  const std::uint64_t map_checksum = get_u64(data + 24);
  if (map_checksum != passability_checksum(map))
    return fail("the table was built for another map: the passability checksums differ");
  const std::size_t count = map.cell_count() * jump_direction_count;
  const std::size_t payload = count * sizeof(std::int16_t);
  if (size - header_size < payload)
    return fail("truncated: " + std::to_string(size - header_size) + " bytes of distances, " +
                std::to_string(payload) + " expected");
  if (size - header_size > payload) return fail("unexpected bytes after the distances");
  GridJumpTable table;
  table.distances_.resize(count);
  std::memcpy(table.distances_.data(), data + header_size, payload);
  if (distances_checksum(table.distances_) != get_u64(data + 32))
    return fail("corrupted: the distances do not match their checksum");
  // A checksum only catches accidents: also make sure that no jump leaves the map, so that even
  // a crafted file cannot make the search read outside its arrays.
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const std::int16_t* cell =
          table.distances_.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(map.width()) +
                                     static_cast<std::size_t>(x)) * jump_direction_count;
      for (int direction = 0; direction < jump_direction_count; ++direction) {
        const int steps = cell[direction] < 0 ? -cell[direction] : cell[direction];
        if (!map.passable_unchecked(x, y) ? steps != 0
                                          : !map.contains(x + jump_direction_dx[direction] * steps,
                                                          y + jump_direction_dy[direction] * steps))
          return fail("corrupted: the distance of cell (" + std::to_string(x) + "," + std::to_string(y) +
                      ") in direction " + std::to_string(direction) + " leaves the map or starts on a blocked cell");
      }
    }
  table.width_ = map.width();
  table.height_ = map.height();
  table.revision_ = map.revision();
  table.map_checksum_ = map_checksum;
  return table;
}

}  // namespace wayfinder
