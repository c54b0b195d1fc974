#include "wayfinder/grid/jump/grid_goal_bounds_part.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "core/fnv1a.hpp"
#include "goal_box_build.hpp"
#include "grid_table_file.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

constexpr unsigned char part_magic[8] = {'W', 'F', 'G', 'O', 'A', 'L', 'P', '\n'};

std::string range_text(NodeId first, NodeId last) {
  return "[" + std::to_string(first) + ", " + std::to_string(last) + ")";
}

std::string part_text(const GridGoalBoundsPart& part) {
  return "the part of cells " + range_text(part.first(), part.last());
}

}  // namespace

GridGoalBoundsPart::GridGoalBoundsPart(const GridMap& map, NodeId first, NodeId last,
                                       const GridGoalBounds::Progress& progress, int threads)
    : width_(map.width()), height_(map.height()), first_(first), last_(last) {
  if (first > last || last > map.cell_count())
    throw std::invalid_argument("the cells " + range_text(first, last) + " are not a range of this " +
                                grid_table_file::size_text(map.width(), map.height()) + " map's " +
                                std::to_string(map.cell_count()) + " cells");
  const auto began = std::chrono::steady_clock::now();
  boxes_.assign(static_cast<std::size_t>(last - first) * jump_direction_count, GoalBox{});
  build_goal_boxes(map, first, last, boxes_.data(), progress, threads);
  map_checksum_ = passability_checksum(map);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

std::vector<unsigned char> GridGoalBoundsPart::to_bytes() const {
  using namespace grid_table_file;
  const auto* values = reinterpret_cast<const unsigned char*>(boxes_.data());
  const std::size_t value_bytes = boxes_.size() * sizeof(GoalBox);
  std::vector<unsigned char> out(header_size + value_bytes);
  unsigned char* p = out.data();
  std::memcpy(p, part_magic, sizeof part_magic);
  put_u32(p + 8, file_version);
  put_u32(p + 12, static_cast<std::uint32_t>(width_));
  put_u32(p + 16, static_cast<std::uint32_t>(height_));
  put_u32(p + 20, 0);
  put_u64(p + 24, map_checksum_);
  put_u64(p + 32, first_);
  put_u64(p + 40, last_);
  put_u64(p + 48, fnv1a(values, value_bytes));
  if (value_bytes > 0) std::memcpy(p + header_size, values, value_bytes);
  return out;
}

void GridGoalBoundsPart::save(const std::filesystem::path& file) const {
  const std::vector<unsigned char> bytes = to_bytes();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(file.string() + ": cannot open the file for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(file.string() + ": writing the goal bounds' part failed");
}

GridGoalBoundsPart GridGoalBoundsPart::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError(file.string(), 0, 0, "cannot open the goal bounds' part file");
  const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return from_bytes(bytes.data(), bytes.size(), file.string());
}

GridGoalBoundsPart GridGoalBoundsPart::from_bytes(const unsigned char* data, std::size_t size,
                                                  const std::string& source_name) {
  using namespace grid_table_file;
  // Every refusal names the byte it concerns, as the baked navmesh file's do.
  auto fail = [&](const std::string& why, std::size_t at) -> GridGoalBoundsPart {
    throw LoadError(source_name, 0, 0, why + " (at byte " + std::to_string(at) + ")");
  };
  if (size < sizeof part_magic || std::memcmp(data, part_magic, sizeof part_magic) != 0)
    return fail("not a goal bounds' part file (it does not begin with \"WFGOALP\")", 0);
  if (size < header_size)
    return fail("truncated: the header needs " + std::to_string(header_size) + " bytes, the file has " +
                std::to_string(size), size);
  const std::uint32_t version = get_u32(data + 8);
  if (version != file_version)
    return fail("goal bounds' part format version " + std::to_string(version) + ", this build reads version " +
                std::to_string(file_version), 8);
  if (get_u32(data + 20) != 0) return fail("corrupted header: the reserved field is not zero", 20);
  const std::uint32_t width = get_u32(data + 12);
  const std::uint32_t height = get_u32(data + 16);
  const std::uint64_t first = get_u64(data + 32);
  const std::uint64_t last = get_u64(data + 40);
  const std::uint64_t cells = std::uint64_t{width} * height;
  if (width > static_cast<std::uint32_t>(max_grid_side) || height > static_cast<std::uint32_t>(max_grid_side) ||
      first > last || last > cells)
    return fail("corrupted header: the cells " + std::to_string(first) + " to " + std::to_string(last) +
                " are not a range of a " + std::to_string(width) + "x" + std::to_string(height) + " map", 12);
  const std::size_t value_bytes = static_cast<std::size_t>(last - first) * jump_direction_count * sizeof(GoalBox);
  if (size - header_size < value_bytes)
    return fail("truncated: " + std::to_string(size - header_size) + " bytes of boxes, " +
                std::to_string(value_bytes) + " expected", size);
  if (size - header_size > value_bytes) return fail("unexpected bytes after the boxes", header_size + value_bytes);
  if (fnv1a(data + header_size, value_bytes) != get_u64(data + 48))
    return fail("corrupted: the boxes do not match their checksum", 48);
  GridGoalBoundsPart part;
  part.width_ = static_cast<int>(width);
  part.height_ = static_cast<int>(height);
  part.map_checksum_ = get_u64(data + 24);
  part.first_ = static_cast<NodeId>(first);
  part.last_ = static_cast<NodeId>(last);
  part.boxes_.resize(static_cast<std::size_t>(last - first) * jump_direction_count);
  if (value_bytes > 0) std::memcpy(part.boxes_.data(), data + header_size, value_bytes);
  return part;
}

GridGoalBounds GridGoalBounds::merge(std::span<const GridGoalBoundsPart> parts, const GridMap& map) {
  if (parts.empty()) throw std::invalid_argument("no goal bounds' parts to merge");
  const std::uint64_t checksum = passability_checksum(map);
  std::vector<const GridGoalBoundsPart*> ordered;
  for (const GridGoalBoundsPart& part : parts) {
    if (part.width() != map.width() || part.height() != map.height())
      throw std::invalid_argument(part_text(part) + " was built for a " +
                                  grid_table_file::size_text(part.width(), part.height()) + " map, not this " +
                                  grid_table_file::size_text(map.width(), map.height()) + " one");
    if (part.map_checksum() != checksum)
      throw std::invalid_argument(part_text(part) +
                                  " was built for another map of the same size (the passability checksums differ)");
    if (part.first() < part.last()) ordered.push_back(&part);
  }
  std::sort(ordered.begin(), ordered.end(),
            [](const GridGoalBoundsPart* a, const GridGoalBoundsPart* b) { return a->first() < b->first(); });
  const auto cells = static_cast<NodeId>(map.cell_count());
  NodeId covered = 0;  // the parts so far cover [0, covered)
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    const GridGoalBoundsPart& part = *ordered[i];
    if (part.first() < covered)
      throw std::invalid_argument(part_text(*ordered[i - 1]) + " and " + part_text(part) + " overlap (the cells " +
                                  range_text(part.first(), std::min(covered, part.last())) + " are in both)");
    if (part.first() > covered)
      throw std::invalid_argument("the cells " + range_text(covered, part.first()) + " are in no part");
    covered = part.last();
  }
  if (covered < cells)
    throw std::invalid_argument("the cells " + range_text(covered, cells) + " are in no part (the map has " +
                                std::to_string(cells) + " cells)");
  GridGoalBounds bounds;
  bounds.width_ = map.width();
  bounds.height_ = map.height();
  bounds.revision_ = map.revision();
  bounds.map_checksum_ = checksum;
  bounds.boxes_.reserve(map.cell_count() * jump_direction_count);
  for (const GridGoalBoundsPart* part : ordered) {
    bounds.boxes_.insert(bounds.boxes_.end(), part->boxes().begin(), part->boxes().end());
    bounds.build_seconds_ += part->build_seconds();
  }
  if (std::optional<std::string> problem = bounds.values_problem(map))
    throw std::invalid_argument("the merged parts do not fit the map: " + *problem);
  return bounds;
}

}  // namespace wayfinder
