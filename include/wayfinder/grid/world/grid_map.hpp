#pragma once
// A 2D tile map: width x height cells, each blocked or passable with a terrain cost.
//
// Passability is kept twice as padded bit grids, row-major and transposed (column-major), so
// that a neighbourhood test is a few shifts with no bounds checks and jump point search can
// scan 56 cells of a row or a column per memory read (Harabor & Grastien 2014, "Improving Jump
// Point Search", block-based symmetry breaking). Cells outside the map read as blocked.

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wayfinder/core/area_filter.hpp"
#include "wayfinder/core/change_log.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

static_assert(std::endian::native == std::endian::little, "the bit grids assume a little-endian machine");

/// A cell position: x is the column (0 at the left), y the row (0 at the top), as in MovingAI.
struct Cell {
  int x = 0;
  int y = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
};

/// An axis-aligned rectangle of cells: [x, x + width) x [y, y + height). A door is one.
struct GridRect {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
  [[nodiscard]] bool contains(Cell c) const { return c.x >= x && c.y >= y && c.x < x + width && c.y < y + height; }
  [[nodiscard]] Cell centre() const { return {x + width / 2, y + height / 2}; }
};

/// One edited cell, as the map's change log records it.
struct GridCellChange {
  Cell cell;
  /// The cell's cost multiplier before the edit; 0 when it was blocked.
  float cost_before = 0.0f;
  std::uint64_t revision = 0;  ///< the map's revision once the edit was made
  AreaId area_before = 0;      ///< the cell's area before the edit
  AreaFlags flags_before = 0;  ///< the cell's flags before the edit
};

/// Limits that keep every grid allocation reasonable; larger maps are rejected with an error.
inline constexpr int max_grid_side = 1 << 15;
inline constexpr std::int64_t max_grid_cells = std::int64_t{1} << 28;

class GridMap {
 public:
  /// An empty map is 0 x 0; use the sized constructor or a loader.
  GridMap() = default;
  /// A width x height map with every cell passable at cost 1. Throws std::invalid_argument if
  /// a side is not in [1, max_grid_side] or the map has more than max_grid_cells cells.
  GridMap(int width, int height);
  /// A width x height map from row-major arrays of width * height cells (index y * width + x):
  /// `costs[i]` is cell i's cost multiplier, finite and > 0, or +infinity for a blocked cell
  /// (empty: cost 1 everywhere); `blocked[i]` non-zero blocks cell i whatever its cost (empty:
  /// only infinite costs block). Throws std::invalid_argument, saying which array or which cell
  /// and why, when a side is out of range (as the sized constructor), a non-empty array does not
  /// hold width * height values, or a cell that is not blocked has a cost that is NaN, zero,
  /// negative or -infinity. The map starts at revision 0 with nothing in its change log.
  [[nodiscard]] static GridMap from_costs(int width, int height, std::span<const float> costs,
                                          std::span<const std::uint8_t> blocked = {});

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] std::size_t cell_count() const { return static_cast<std::size_t>(width_) * height_; }
  [[nodiscard]] bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  [[nodiscard]] bool contains(Cell c) const { return contains(c.x, c.y); }

  [[nodiscard]] NodeId id_of(int x, int y) const { return static_cast<NodeId>(y) * static_cast<NodeId>(width_) + x; }
  [[nodiscard]] NodeId id_of(Cell c) const { return id_of(c.x, c.y); }
  /// The cell of an id, without an integer division (the search's hot loops need this): in
  /// double precision (id + 0.5) / width is never closer than 0.5 / width to an integer, far
  /// more than the rounding error of multiplying by 1 / width for any id below 2^32.
  [[nodiscard]] WAYFINDER_FORCE_INLINE Cell cell_of(NodeId id) const {
    const int y = static_cast<int>((id + 0.5) * inverse_width_);
    return {static_cast<int>(id - static_cast<NodeId>(y) * static_cast<NodeId>(width_)), y};
  }
  /// The centre of a cell in world units.
  [[nodiscard]] static Point centre(Cell c) { return {c.x + 0.5, c.y + 0.5, 0.0}; }

  /// Passable test; false outside the map.
  [[nodiscard]] bool passable(int x, int y) const { return contains(x, y) && passable_unchecked(x, y); }
  [[nodiscard]] bool passable(Cell c) const { return passable(c.x, c.y); }
  /// Passable test for x in [-1, width] and y in [-1, height] (the padding reads as blocked).
  [[nodiscard]] bool passable_unchecked(int x, int y) const {
    const std::size_t bit = row_bit(x, y);
    return (rows_[bit >> 6] >> (bit & 63)) & 1u;
  }
  /// Terrain cost multiplier of a passable cell (>= some positive minimum); undefined when blocked.
  [[nodiscard]] float cost(int x, int y) const { return costs_[id_of(x, y)]; }
  [[nodiscard]] float cost(NodeId id) const { return costs_[id]; }

  // ---- Editing. Every edit that changes at least one cell increments revision() once and
  // logs the cells it changed; an edit that changes nothing leaves both alone. Edits need
  // exclusive access: no query may be searching this map, in any thread (docs/changing-worlds.md).
  // A stepped search notices an edit made between its steps (SearchStatus::world_changed).
  // Cells outside the map throw std::out_of_range.

  /// Makes a cell blocked or passable (with its current cost).
  void set_passable(int x, int y, bool passable);
  /// Makes a cell passable with the given cost multiplier. Throws std::invalid_argument unless
  /// cost is finite and > 0.
  void set_cost(int x, int y, float cost);
  void block(Cell c) { set_passable(c.x, c.y, false); }
  void unblock(Cell c) { set_passable(c.x, c.y, true); }
  /// The same for every cell of a rectangle, as one edit (one revision). The rectangle must lie
  /// inside the map (std::out_of_range otherwise, and nothing is changed).
  void block_rect(const GridRect& area) { set_passable(area, false); }
  void unblock_rect(const GridRect& area) { set_passable(area, true); }
  void set_passable(const GridRect& area, bool passable);
  void set_cost(const GridRect& area, float cost);

  // ---- Areas and flags, for per-query filters (AreaFilter, GridSearchOptions::filter). Every
  // cell starts in area 0 with no flags; the arrays are only allocated once something is set,
  // so maps that use neither pay nothing. Setting them is an edit like the others (revision,
  // change log, exclusive access). Areas >= max_areas throw std::invalid_argument.

  [[nodiscard]] AreaId area(int x, int y) const { return areas_.empty() ? AreaId{0} : areas_[id_of(x, y)]; }
  [[nodiscard]] AreaId area(Cell c) const { return area(c.x, c.y); }
  [[nodiscard]] AreaFlags flags(int x, int y) const { return flags_.empty() ? AreaFlags{0} : flags_[id_of(x, y)]; }
  [[nodiscard]] AreaFlags flags(Cell c) const { return flags(c.x, c.y); }
  void set_area(Cell c, AreaId area);
  void set_area(const GridRect& rect, AreaId area);
  void set_flags(Cell c, AreaFlags flags);
  void set_flags(const GridRect& rect, AreaFlags flags);
  /// Bit a is set when some cell (blocked or not) is in area a.
  [[nodiscard]] std::uint64_t areas_in_use() const;
  /// The union of every cell's flags.
  [[nodiscard]] AreaFlags flags_in_use() const;
  /// The per-cell arrays, indexed by cell id; null while no cell has an area (or flags) set.
  [[nodiscard]] const AreaId* area_data() const { return areas_.empty() ? nullptr : areas_.data(); }
  [[nodiscard]] const AreaFlags* flag_data() const { return flags_.empty() ? nullptr : flags_.data(); }

  /// Incremented by every edit that changes a cell; 0 for a map nobody edited since
  /// construction or forget_changes().
  [[nodiscard]] std::uint64_t revision() const { return changes_.revision(); }
  /// The cells changed by the edits after `revision`, oldest first (a cell edited twice is
  /// listed twice), or nullopt when the log does not reach back that far (more than
  /// change_log_limit cells were edited since, or the revision is not one this map had): plan
  /// from scratch then. The span is valid until the next edit.
  [[nodiscard]] std::optional<std::span<const GridCellChange>> changes_since(std::uint64_t revision) const {
    return changes_.since(revision);
  }
  /// The log keeps the latest this many cell changes (older ones are dropped in halves).
  static constexpr std::size_t change_log_limit = ChangeLog<GridCellChange>::limit;
  /// Empties the change log and restarts the revision at 0 (readers call this once a map is
  /// built, so that loading is not history). Never call it while a query is stepping on the map.
  void forget_changes() { changes_.clear(); }

  /// True when every passable cell costs 1 (jump point search needs this).
  [[nodiscard]] bool uniform_cost() const { return non_unit_cells_ == 0; }
  /// A lower bound of the cost multiplier of any passable cell; heuristics are scaled by it so
  /// they stay admissible on weighted terrain.
  [[nodiscard]] float min_cost() const { return min_cost_; }
  [[nodiscard]] std::size_t passable_count() const;

  /// The 3x3 neighbourhood of (x, y) as 9 bits: bit (dy + 1) * 3 + (dx + 1) is set when the
  /// cell (x + dx, y + dy) is passable. Valid for any (x, y) inside the map.
  [[nodiscard]] std::uint32_t neighbourhood(int x, int y) const {
    const std::size_t bit = row_bit(x - 1, y - 1);
    const std::uint32_t shift = static_cast<std::uint32_t>(bit & 7);
    const unsigned char* base = reinterpret_cast<const unsigned char*>(rows_.data()) + (bit >> 3);
    const std::size_t stride = words_per_row_ * 8;
    return static_cast<std::uint32_t>((load64(base) >> shift) & 7u) |
           static_cast<std::uint32_t>(((load64(base + stride) >> shift) & 7u) << 3) |
           static_cast<std::uint32_t>(((load64(base + 2 * stride) >> shift) & 7u) << 6);
  }

  /// 57 passability bits of row y starting at column x (bit 0 = column x); x may be -64..width.
  [[nodiscard]] std::uint64_t row_bits_forward(int x, int y) const { return forward(rows_, row_bit(x, y)); }
  /// 57 bits of row y ending at column x (bit 63 = column x, bit 62 = x - 1, ...).
  [[nodiscard]] std::uint64_t row_bits_backward(int x, int y) const { return backward(rows_, row_bit(x, y)); }
  /// The same for column x read downwards from row y, and upwards ending at row y.
  [[nodiscard]] std::uint64_t column_bits_forward(int x, int y) const { return forward(columns_, column_bit(x, y)); }
  [[nodiscard]] std::uint64_t column_bits_backward(int x, int y) const { return backward(columns_, column_bit(x, y)); }

 private:
  // Each row of the bit grid has 64 blocked bits on the left, the cells, and at least 64
  // blocked bits on the right; one blocked row above and below. Column grid likewise.
  static constexpr int pad_bits = 64;

  static std::uint64_t load64(const unsigned char* p) {
    std::uint64_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
  }
  static std::uint64_t forward(const std::vector<std::uint64_t>& bits, std::size_t bit) {
    const unsigned char* base = reinterpret_cast<const unsigned char*>(bits.data());
    return load64(base + (bit >> 3)) >> (bit & 7);
  }
  static std::uint64_t backward(const std::vector<std::uint64_t>& bits, std::size_t bit) {
    const std::size_t first = bit - 56;
    const unsigned char* base = reinterpret_cast<const unsigned char*>(bits.data());
    return (load64(base + (first >> 3)) >> (first & 7)) << 7;
  }
  [[nodiscard]] std::size_t row_bit(int x, int y) const {
    return (static_cast<std::size_t>(y + 1) * words_per_row_) * 64 + static_cast<std::size_t>(x + pad_bits);
  }
  [[nodiscard]] std::size_t column_bit(int x, int y) const {
    return (static_cast<std::size_t>(x + 1) * words_per_column_) * 64 + static_cast<std::size_t>(y + pad_bits);
  }
  void write_bit(int x, int y, bool value);
  // One cell's edit without the bookkeeping; true if the cell changed.
  [[nodiscard]] float cost_or_blocked(int x, int y) const { return passable_unchecked(x, y) ? costs_[id_of(x, y)] : 0.0f; }
  [[nodiscard]] GridCellChange before_edit(int x, int y) const {
    return {{x, y}, cost_or_blocked(x, y), 0, area(x, y), flags(x, y)};
  }
  bool apply_passable(int x, int y, bool passable);
  bool apply_area(int x, int y, AreaId area);
  bool apply_flags(int x, int y, AreaFlags flags);
  bool apply_cost(int x, int y, float cost);
  void check_inside(const GridRect& area) const;
  // Applies `apply(x, y)` (true when it changed the cell) to every cell of the rectangle as one
  // edit: each changed cell is logged with what it was before, and the revision moves once.
  template <class Apply>
  void edit_cells(const GridRect& rect, Apply&& apply) {
    check_inside(rect);
    bool changed = false;
    for (int y = rect.y; y < rect.y + rect.height; ++y)
      for (int x = rect.x; x < rect.x + rect.width; ++x) {
        const GridCellChange before = before_edit(x, y);
        if (apply(x, y)) {
          changes_.record(before);
          changed = true;
        }
      }
    if (changed) changes_.commit();
  }

  int width_ = 0;
  int height_ = 0;
  double inverse_width_ = 0.0;
  std::size_t words_per_row_ = 0;
  std::size_t words_per_column_ = 0;
  std::vector<std::uint64_t> rows_;
  std::vector<std::uint64_t> columns_;
  std::vector<float> costs_;
  std::size_t non_unit_cells_ = 0;
  float min_cost_ = 1.0f;
  std::vector<AreaId> areas_;     ///< empty: every cell in area 0
  std::vector<AreaFlags> flags_;  ///< empty: no cell has flags
  std::array<std::size_t, max_areas> area_counts_{};  ///< cells per area
  std::array<std::size_t, 16> flag_counts_{};         ///< cells per flag bit
  ChangeLog<GridCellChange> changes_;
};

}  // namespace wayfinder
