#include "wayfinder/grid/grid_goal_bounds.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <queue>
#include <stdexcept>
#include <thread>

#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

constexpr unsigned char file_magic[8] = {'W', 'F', 'G', 'O', 'A', 'L', 'B', '\n'};
constexpr std::size_t header_size = 8 + 4 * 4 + 8 * 2;

constexpr std::uint64_t fnv_offset = 14695981039346656037ull;
constexpr std::uint64_t fnv_prime = 1099511628211ull;

std::uint64_t boxes_checksum(const std::vector<GoalBox>& boxes) {
  // The boxes' bytes as the file holds them (little-endian int16, as the jump table's).
  const auto* data = reinterpret_cast<const unsigned char*>(boxes.data());
  std::uint64_t hash = fnv_offset;
  for (std::size_t i = 0; i < boxes.size() * sizeof(GoalBox); ++i) hash = (hash ^ data[i]) * fnv_prime;
  return hash;
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

// One thread's Dijkstra searches. The map is copied into a padded passability grid (a border of
// blocked cells), so that neighbours need no bounds checks. A cost is a + b*sqrt2 (a straight
// steps, b diagonal ones): two costs are equal exactly when their (a, b) are, and the heap
// orders by the value, whose rounding error (below 1e-9 for any path on a 2^15 side map) is far
// below the smallest difference between two distinct costs of such paths (above 1e-6).
class FirstMoveDijkstra {
 public:
  FirstMoveDijkstra(const std::vector<unsigned char>& passable, int padded_width)
      : passable_(passable), padded_width_(padded_width), straight_(passable.size()), diagonal_(passable.size()),
        moves_(passable.size()), stamp_(passable.size(), 0), closed_(passable.size(), 0) {
    for (int d = 0; d < jump_direction_count; ++d)
      offset_[d] = jump_direction_dy[d] * padded_width_ + jump_direction_dx[d];
  }

  // Labels every cell reached from `source` (a padded index) with its set of optimal first
  // moves and widens `boxes` (the source's 8) to hold it.
  void run(std::size_t source, GoalBox* boxes) {
    ++generation_;
    while (!heap_.empty()) heap_.pop();
    reach(source, 0, 0, 0);
    heap_.push({0.0, source});
    while (!heap_.empty()) {
      const Entry top = heap_.top();
      heap_.pop();
      const std::size_t at = top.cell;
      if (closed_[at] == generation_) continue;
      closed_[at] = generation_;
      const std::uint8_t label = moves_[at];
      if (at != source) {
        const int x = static_cast<int>(at % static_cast<std::size_t>(padded_width_)) - 1;
        const int y = static_cast<int>(at / static_cast<std::size_t>(padded_width_)) - 1;
        for (int d = 0; d < jump_direction_count; ++d) {
          if ((label & (1u << d)) == 0) continue;
          GoalBox& box = boxes[d];
          if (box.empty()) {
            box = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), static_cast<std::int16_t>(x),
                   static_cast<std::int16_t>(y)};
          } else {
            box.min_x = std::min(box.min_x, static_cast<std::int16_t>(x));
            box.min_y = std::min(box.min_y, static_cast<std::int16_t>(y));
            box.max_x = std::max(box.max_x, static_cast<std::int16_t>(x));
            box.max_y = std::max(box.max_y, static_cast<std::int16_t>(y));
          }
        }
      }
      const std::int32_t a = straight_[at];
      const std::int32_t b = diagonal_[at];
      for (int d = 0; d < jump_direction_count; ++d) {
        const std::size_t next = at + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset_[d]));
        if (passable_[next] == 0) continue;
        const bool diagonal = (d & 1) != 0;
        // No corner cutting: a diagonal step needs both side cells free.
        if (diagonal && (passable_[at + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(
                                           jump_direction_dy[d] * padded_width_))] == 0 ||
                         passable_[at + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(jump_direction_dx[d]))] ==
                             0))
          continue;
        if (closed_[next] == generation_) continue;
        const std::uint8_t moves = at == source ? static_cast<std::uint8_t>(1u << d) : label;
        const std::int32_t na = diagonal ? a : a + 1;
        const std::int32_t nb = diagonal ? b + 1 : b;
        if (stamp_[next] != generation_) {
          reach(next, na, nb, moves);
          heap_.push({value(na, nb), next});
        } else if (straight_[next] == na && diagonal_[next] == nb) {
          moves_[next] |= moves;  // an exact tie: another optimal first move
        } else if (value(na, nb) < value(straight_[next], diagonal_[next])) {
          reach(next, na, nb, moves);
          heap_.push({value(na, nb), next});
        }
      }
    }
  }

 private:
  struct Entry {
    double cost;
    std::size_t cell;
    bool operator<(const Entry& other) const { return cost > other.cost; }  // a min-heap
  };
  static double value(std::int32_t a, std::int32_t b) { return a + b * 1.4142135623730950488; }
  void reach(std::size_t cell, std::int32_t a, std::int32_t b, std::uint8_t moves) {
    stamp_[cell] = generation_;
    straight_[cell] = a;
    diagonal_[cell] = b;
    moves_[cell] = moves;
  }

  const std::vector<unsigned char>& passable_;
  int padded_width_;
  int offset_[jump_direction_count] = {};
  std::vector<std::int32_t> straight_;
  std::vector<std::int32_t> diagonal_;
  std::vector<std::uint8_t> moves_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint32_t> closed_;
  std::uint32_t generation_ = 0;
  std::priority_queue<Entry> heap_;
};

}  // namespace

GridGoalBounds::GridGoalBounds(const GridMap& map, const Progress& progress, int threads)
    : width_(map.width()), height_(map.height()), revision_(map.revision()) {
  const auto began = std::chrono::steady_clock::now();
  threads = std::max(threads, 1);
  build_threads_ = threads;
  boxes_.assign(map.cell_count() * jump_direction_count, GoalBox{});
  const int padded_width = width_ + 2;
  std::vector<unsigned char> passable(static_cast<std::size_t>(padded_width) * static_cast<std::size_t>(height_ + 2), 0);
  std::vector<NodeId> sources;
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x)
      if (map.passable_unchecked(x, y)) {
        passable[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(padded_width) +
                 static_cast<std::size_t>(x + 1)] = 1;
        sources.push_back(map.id_of(x, y));
      }
  // Sources are handed out in chunks; each writes only its own cell's boxes, so the result does
  // not depend on the threads' order.
  constexpr std::size_t chunk = 64;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  const std::size_t total = sources.size();
  auto work = [&](bool reports) {
    FirstMoveDijkstra dijkstra(passable, padded_width);
    while (true) {
      const std::size_t begin = next.fetch_add(chunk);
      if (begin >= total) break;
      const std::size_t end = std::min(total, begin + chunk);
      for (std::size_t i = begin; i < end; ++i) {
        const NodeId cell = sources[i];
        const std::size_t x = cell % static_cast<NodeId>(width_);
        const std::size_t y = cell / static_cast<NodeId>(width_);
        dijkstra.run((y + 1) * static_cast<std::size_t>(padded_width) + x + 1,
                     boxes_.data() + static_cast<std::size_t>(cell) * jump_direction_count);
      }
      const std::size_t now = done.fetch_add(end - begin) + (end - begin);
      if (reports && progress) progress(now, total);
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work, false);
  try {
    work(true);
  } catch (...) {
    // A progress callback that throws stops the build: the helpers finish their chunk and stop.
    next.store(total);
    for (std::thread& helper : helpers) helper.join();
    throw;
  }
  for (std::thread& helper : helpers) helper.join();
  if (progress) progress(total, total);
  map_checksum_ = passability_checksum(map);
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

std::optional<std::string> GridGoalBounds::mismatch(const GridMap& map) const {
  if (map.width() != width_ || map.height() != height_)
    return "the goal bounds were built for a " + size_text(width_, height_) + " map, not this " +
           size_text(map.width(), map.height()) + " one";
  if (map.revision() != revision_)
    return "the goal bounds were built for revision " + std::to_string(revision_) +
           " of the map, which is now at revision " + std::to_string(map.revision()) +
           " (build the bounds again after editing the map)";
  return std::nullopt;
}

std::optional<std::string> GridGoalBounds::mismatch_thoroughly(const GridMap& map) const {
  if (auto problem = mismatch(map)) return problem;
  if (passability_checksum(map) != map_checksum_)
    return std::string("the goal bounds were built for another map of the same size (the passability checksums differ)");
  return std::nullopt;
}

void GridGoalBounds::check(const GridMap& map) const {
  if (auto problem = mismatch(map)) throw std::invalid_argument(*problem);
}

std::vector<unsigned char> GridGoalBounds::to_bytes() const {
  const std::size_t payload = boxes_.size() * sizeof(GoalBox);
  std::vector<unsigned char> out(header_size + payload);
  unsigned char* p = out.data();
  std::memcpy(p, file_magic, sizeof file_magic);
  put_u32(p + 8, file_version);
  put_u32(p + 12, static_cast<std::uint32_t>(width_));
  put_u32(p + 16, static_cast<std::uint32_t>(height_));
  put_u32(p + 20, 0);
  put_u64(p + 24, map_checksum_);
  put_u64(p + 32, boxes_checksum(boxes_));
  if (payload > 0) std::memcpy(p + header_size, boxes_.data(), payload);
  return out;
}

void GridGoalBounds::save(const std::filesystem::path& file) const {
  const std::vector<unsigned char> bytes = to_bytes();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(file.string() + ": cannot open the file for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(file.string() + ": writing the goal bounds failed");
}

GridGoalBounds GridGoalBounds::load(const std::filesystem::path& file, const GridMap& map) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError(file.string(), 0, 0, "cannot open the goal bounds file");
  // Never read more than bounds for this map can hold (plus one byte, to tell "too long").
  const std::size_t expected = header_size + map.cell_count() * jump_direction_count * sizeof(GoalBox);
  std::vector<unsigned char> bytes(expected + 1);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return from_bytes(bytes.data(), bytes.size(), map, file.string());
}

GridGoalBounds GridGoalBounds::from_bytes(const unsigned char* data, std::size_t size, const GridMap& map,
                                          const std::string& source_name) {
  static_assert(sizeof(GoalBox) == 8);
  auto fail = [&](const std::string& why) -> GridGoalBounds { throw LoadError(source_name, 0, 0, why); };
  if (size < sizeof file_magic || std::memcmp(data, file_magic, sizeof file_magic) != 0)
    return fail("not a goal bounds file (it does not begin with \"WFGOALB\")");
  if (size < header_size)
    return fail("truncated: the header needs " + std::to_string(header_size) + " bytes, the file has " +
                std::to_string(size));
  const std::uint32_t version = get_u32(data + 8);
  if (version != file_version)
    return fail("goal bounds format version " + std::to_string(version) + ", this build reads version " +
                std::to_string(file_version));
  const std::uint32_t width = get_u32(data + 12);
  const std::uint32_t height = get_u32(data + 16);
  if (get_u32(data + 20) != 0) return fail("corrupted header: the reserved field is not zero");
  if (width != static_cast<std::uint32_t>(map.width()) || height != static_cast<std::uint32_t>(map.height()))
    return fail("the goal bounds were built for a " + std::to_string(width) + "x" + std::to_string(height) +
                " map, not this " + size_text(map.width(), map.height()) + " one");
  const std::uint64_t map_checksum = get_u64(data + 24);
  if (map_checksum != passability_checksum(map))
    return fail("the goal bounds were built for another map: the passability checksums differ");
  const std::size_t count = map.cell_count() * jump_direction_count;
  const std::size_t payload = count * sizeof(GoalBox);
  if (size - header_size < payload)
    return fail("truncated: " + std::to_string(size - header_size) + " bytes of boxes, " + std::to_string(payload) +
                " expected");
  if (size - header_size > payload) return fail("unexpected bytes after the boxes");
  GridGoalBounds bounds;
  bounds.boxes_.resize(count);
  std::memcpy(bounds.boxes_.data(), data + header_size, payload);
  if (boxes_checksum(bounds.boxes_) != get_u64(data + 32))
    return fail("corrupted: the boxes do not match their checksum");
  // The boxes are only compared with coordinates, never used as indices, so no box can make a
  // search read outside its arrays; still refuse boxes that cannot come from this map.
  for (std::size_t i = 0; i < count; ++i) {
    const GoalBox& box = bounds.boxes_[i];
    if (box.empty()) continue;
    if (box.min_x < 0 || box.min_y < 0 || box.max_x >= map.width() || box.max_y >= map.height())
      return fail("corrupted: the box of cell " + std::to_string(i / jump_direction_count) + " in direction " +
                  std::to_string(i % jump_direction_count) + " leaves the map");
  }
  bounds.width_ = map.width();
  bounds.height_ = map.height();
  bounds.revision_ = map.revision();
  bounds.map_checksum_ = map_checksum;
  return bounds;
}

}  // namespace wayfinder
