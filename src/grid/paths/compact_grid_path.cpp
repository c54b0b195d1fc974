#include "wayfinder/grid/paths/compact_grid_path.hpp"

#include <stdexcept>
#include <string>

namespace wayfinder {
namespace {

std::string cell_text(Cell cell) { return "(" + std::to_string(cell.x) + ", " + std::to_string(cell.y) + ")"; }

/// The direction code of the move from `from` to `to`, or throws if they are not 8-neighbours.
std::uint8_t direction_code(Cell from, Cell to, std::size_t step) {
  // Indexed by (dy + 1) * 3 + (dx + 1); 8 marks "no move".
  constexpr std::uint8_t codes[9] = {5, 6, 7, 4, 8, 0, 3, 2, 1};
  // In 64 bits: two cells far apart must not wrap round to neighbours.
  const std::int64_t dx = std::int64_t{to.x} - from.x;
  const std::int64_t dy = std::int64_t{to.y} - from.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
    throw std::invalid_argument("CompactGridPath: cells " + std::to_string(step) + " " + cell_text(from) + " and " +
                                std::to_string(step + 1) + " " + cell_text(to) +
                                (dx == 0 && dy == 0 ? " are the same cell" : " are not 8-neighbours"));
  return codes[(dy + 1) * 3 + (dx + 1)];
}

void check_length(std::size_t cells) {
  if (cells > CompactGridPath::max_size)
    throw std::length_error("CompactGridPath: a path of " + std::to_string(cells) + " cells is longer than the " +
                            std::to_string(CompactGridPath::max_size) + " cells it can hold");
}

/// Base-8 digits of `value`, most significant first; 0 is one digit.
std::size_t octal_digit_count(std::uint64_t value) {
  std::size_t digits = 1;
  while (value >= 8) {
    value /= 8;
    ++digits;
  }
  return digits;
}

}  // namespace

CompactGridPath::CompactGridPath(std::span<const Cell> cells, Form form) : form_(form) {
  check_length(cells.size());
  encode(cells);
}

CompactGridPath::CompactGridPath(const GridMap& map, std::span<const NodeId> ids, Form form) : form_(form) {
  check_length(ids.size());
  std::vector<Cell> cells;
  cells.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= map.cell_count())
      throw std::invalid_argument("CompactGridPath: cell id " + std::to_string(ids[i]) + " (cell " +
                                  std::to_string(i) + " of the path) is outside the " + std::to_string(map.width()) +
                                  " x " + std::to_string(map.height()) + " map");
    cells.push_back(map.cell_of(ids[i]));
  }
  encode(cells);
}

void CompactGridPath::encode(std::span<const Cell> cells) {
  if (cells.empty()) return;
  empty_ = false;
  start_ = cells.front();
  steps_ = static_cast<std::uint32_t>(cells.size() - 1);
  if (form_ == Form::plain) codes_.reserve(steps_ / 2);
  // Code 0 goes in the header; codes 1, 2, ... fill the bytes' low, then high nibbles.
  std::size_t written = 0;
  auto push_code = [&](std::uint8_t code) {
    if (written == 0)
      first_code_ = code;
    else if (written % 2 == 1)
      codes_.push_back(code);
    else
      codes_.back() = static_cast<std::uint8_t>(codes_.back() | (code << 4));
    ++written;
  };
  std::size_t step = 0;
  while (step < steps_) {
    const std::uint8_t direction = direction_code(cells[step], cells[step + 1], step);
    std::size_t run = 1;
    if (form_ == Form::run_length) {
      while (step + run < steps_ && direction_code(cells[step + run], cells[step + run + 1], step + run) == direction)
        ++run;
    }
    push_code(direction);
    if (run >= 3) {
      const std::uint64_t count = run - 3;  // the digits say "count + 2 more steps"
      for (std::size_t digit = octal_digit_count(count); digit-- > 0;)
        push_code(static_cast<std::uint8_t>(8 + ((count >> (3 * digit)) & 7)));
    } else if (run == 2) {
      push_code(direction);
    }
    step += run;
  }
}

std::vector<Cell> CompactGridPath::cells() const {
  std::vector<Cell> result;
  result.reserve(size());
  for_each([&](Cell cell) { result.push_back(cell); });
  return result;
}

std::vector<NodeId> CompactGridPath::node_ids(const GridMap& map) const {
  std::vector<NodeId> result;
  result.reserve(size());
  for_each([&](Cell cell) {
    if (!map.contains(cell))
      throw std::invalid_argument("CompactGridPath: cell " + cell_text(cell) + " is outside the " +
                                  std::to_string(map.width()) + " x " + std::to_string(map.height()) + " map");
    result.push_back(map.id_of(cell));
  });
  return result;
}

bool operator==(const CompactGridPath& a, const CompactGridPath& b) {
  if (a.size() != b.size()) return false;
  if (a.form_ == b.form_) {
    // The same form of the same cells is the same bytes.
    return a.empty_ || (a.start_ == b.start_ && a.first_code_ == b.first_code_ && a.codes_ == b.codes_);
  }
  for (CompactGridPath::Iterator i = a.begin(), j = b.begin(), last = a.end(); i != last; ++i, ++j)
    if (*i != *j) return false;
  return true;
}

}  // namespace wayfinder
