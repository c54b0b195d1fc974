#pragma once
// A grid path stored as its start cell and one 4-bit code per move, two codes per byte: about
// half a byte per step instead of the 4 bytes of a NodeId, for paths that are kept around
// (agents' routes, cached answers, recordings) rather than walked once. The encoding, bit by
// bit (a 12-byte header, then the codes; plain and run-length forms), is in docs/grid.md,
// "Compact paths"; bytes() and the byte view here are exactly that encoding.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "wayfinder/core/types.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

class CompactGridPath {
 public:
  enum class Form : std::uint8_t {
    plain,       ///< one code per step (the default)
    run_length,  ///< long straight runs as a direction and a repeat count
  };

  /// Bytes of the header: start cell (8) and the word holding the step count and first code (4).
  static constexpr std::size_t header_bytes = 12;
  /// The longest path stored, in cells: every step count fits in the header's 28 bits.
  static constexpr std::size_t max_size = std::size_t{1} << 28;

  class Iterator;

  /// The empty path (no cells).
  CompactGridPath() = default;
  /// Encodes cells. Throws std::invalid_argument when two consecutive cells are not
  /// 8-neighbours (equal cells included: a path never waits) and std::length_error for paths of
  /// more than max_size cells. Neighbours need not be passable: this stores a path, it does
  /// not check it against a map (check_grid_path does that).
  explicit CompactGridPath(std::span<const Cell> cells, Form form = Form::plain);
  /// Encodes a path of the map's cell ids, such as PathResult::nodes of a GridQuery. Also
  /// throws std::invalid_argument for an id outside the map.
  CompactGridPath(const GridMap& map, std::span<const NodeId> ids, Form form = Form::plain);

  /// Cells on the path (steps + 1, or 0 for the empty path).
  [[nodiscard]] std::size_t size() const { return empty_ ? 0 : std::size_t{steps_} + 1; }
  [[nodiscard]] bool empty() const { return empty_; }
  /// Moves on the path: size() - 1, or 0 for the empty path.
  [[nodiscard]] std::size_t steps() const { return steps_; }
  [[nodiscard]] Form form() const { return form_; }
  /// The first cell; {0, 0} for the empty path.
  [[nodiscard]] Cell start() const { return start_; }

  /// The encoded size: header_bytes + code_bytes(), or 0 for the empty path (nothing to store).
  [[nodiscard]] std::size_t bytes() const { return empty_ ? 0 : header_bytes + codes_.size(); }
  /// Bytes of the codes after the header: floor(steps / 2) in the plain form, often far fewer
  /// in the run-length form.
  [[nodiscard]] std::size_t code_bytes() const { return codes_.size(); }

  /// Decodes the whole path.
  [[nodiscard]] std::vector<Cell> cells() const;
  /// Decodes the whole path as the map's cell ids. Throws std::invalid_argument if a cell lies
  /// outside the map.
  [[nodiscard]] std::vector<NodeId> node_ids(const GridMap& map) const;

  /// Calls visit(Cell) for every cell in order, without building a vector.
  template <class Visit>
  void for_each(Visit&& visit) const;

  /// Cells in order, decoded one at a time.
  [[nodiscard]] Iterator begin() const;
  [[nodiscard]] Iterator end() const;

  /// Same cells in the same order (the form is not compared).
  friend bool operator==(const CompactGridPath& a, const CompactGridPath& b);

 private:
  friend class Iterator;

  void encode(std::span<const Cell> cells);
  /// Code number `index`: 0 is the header's first code, then the bytes' nibbles; 0 past the end.
  [[nodiscard]] std::uint8_t code_at(std::size_t index) const {
    if (index == 0) return first_code_;
    const std::size_t byte = (index - 1) / 2;
    if (byte >= codes_.size()) return 0;
    return static_cast<std::uint8_t>((index - 1) % 2 == 0 ? codes_[byte] & 0x0f : codes_[byte] >> 4);
  }

  Cell start_{};
  std::uint32_t steps_ = 0;
  std::uint8_t first_code_ = 0;
  bool empty_ = true;
  Form form_ = Form::plain;
  std::vector<std::uint8_t> codes_;
};

/// A forward iterator over the cells of a CompactGridPath; dereferencing gives a Cell by value.
class CompactGridPath::Iterator {
 public:
  using iterator_concept = std::forward_iterator_tag;
  using iterator_category = std::input_iterator_tag;  // yields values, not references
  using value_type = Cell;
  using difference_type = std::ptrdiff_t;
  using reference = Cell;

  Iterator() = default;

  Cell operator*() const { return cell_; }
  Iterator& operator++() {
    advance();
    return *this;
  }
  Iterator operator++(int) {
    Iterator before = *this;
    advance();
    return before;
  }
  /// Iterators of the same path compare by position.
  friend bool operator==(const Iterator& a, const Iterator& b) { return a.position_ == b.position_; }

 private:
  friend class CompactGridPath;
  Iterator(const CompactGridPath* path, std::size_t position) : path_(path), position_(position) {
    if (path != nullptr) cell_ = path->start_;
  }

  void advance();

  const CompactGridPath* path_ = nullptr;
  std::size_t position_ = 0;     ///< index of cell_ on the path; size() at the end
  std::size_t next_code_ = 0;    ///< the next code to read
  std::uint64_t repeats_ = 0;    ///< steps still to take in direction_ before reading a code
  std::uint8_t direction_ = 0;
  Cell cell_{};
};

inline CompactGridPath::Iterator CompactGridPath::begin() const { return Iterator(this, 0); }
inline CompactGridPath::Iterator CompactGridPath::end() const { return Iterator(nullptr, size()); }

inline void CompactGridPath::Iterator::advance() {
  // One step: (dx, dy) of direction codes 0..7.
  constexpr int step_x[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  constexpr int step_y[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  ++position_;
  if (position_ >= path_->size()) {
    position_ = path_->size();
    return;
  }
  if (repeats_ > 0) {
    --repeats_;
  } else {
    direction_ = path_->code_at(next_code_++);
    // The digits of a repeat count, if any, follow the direction at once. The padding nibble
    // is 0, a direction, so it never reads as a digit.
    if (path_->code_at(next_code_) >= 8) {
      std::uint64_t count = 0;
      while (path_->code_at(next_code_) >= 8) count = count * 8 + (path_->code_at(next_code_++) - 8u);
      repeats_ = count + 2;
    }
  }
  cell_.x += step_x[direction_];
  cell_.y += step_y[direction_];
}

template <class Visit>
void CompactGridPath::for_each(Visit&& visit) const {
  for (Iterator it = begin(), last = end(); it != last; ++it) visit(*it);
}

}  // namespace wayfinder
