#pragma once
// The crowd's neighbour search: a uniform grid over the agents' x-z positions, rebuilt each
// time the positions change (a counting sort into cells, O(agents)). Cells list their agents in
// increasing index order, so every visit order is the same on every run.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "wayfinder/crowd/orca.hpp"

namespace wayfinder::crowd_detail {

class NeighbourGrid {
 public:
  /// `cell_size` > 0; grown so that the grid never has many more cells than agents.
  void build(std::span<const PlanarVector> positions, double cell_size);

  /// Calls visit(index) for every agent whose cell touches the square of half-side `range`
  /// around `centre` (a superset of those within `range`), in cell order then index order.
  /// Calls visit(index, squared_distance) for every agent within `range` of `centre` (the
  /// squared x-z distance at most range * range), in the order for_each_near visits them. It
  /// reads the positions from the grid's own copy, in cell order: a search reads contiguous
  /// memory rather than jumping over the agents' array.
  template <class Visit>
  void for_each_within(PlanarVector centre, double range, Visit&& visit) const {
    const double range_squared = range * range;
    for_each_cell_near(centre, range, [&](std::uint32_t first, std::uint32_t end) {
      for (std::uint32_t k = first; k < end; ++k) {
        const double squared = (sorted_positions_[k] - centre).length_squared();
        if (squared <= range_squared) visit(static_cast<std::size_t>(members_[k]), squared);
      }
    });
  }

  template <class Visit>
  void for_each_near(PlanarVector centre, double range, Visit&& visit) const {
    for_each_cell_near(centre, range, [&](std::uint32_t first, std::uint32_t end) {
      for (std::uint32_t k = first; k < end; ++k) visit(static_cast<std::size_t>(members_[k]));
    });
  }

 private:
  /// Calls visit(first, end) with the range of members_ of every cell touching the square of
  /// half-side `range` around `centre`, rows then columns.
  template <class Visit>
  void for_each_cell_near(PlanarVector centre, double range, Visit&& visit) const {
    if (columns_ == 0) return;
    const std::int64_t first_column = column_of(centre.x - range), last_column = column_of(centre.x + range);
    const std::int64_t first_row = row_of(centre.z - range), last_row = row_of(centre.z + range);
    for (std::int64_t row = std::max<std::int64_t>(first_row, 0); row <= std::min<std::int64_t>(last_row, rows_ - 1); ++row)
      for (std::int64_t column = std::max<std::int64_t>(first_column, 0);
           column <= std::min<std::int64_t>(last_column, columns_ - 1); ++column) {
        const std::size_t cell = static_cast<std::size_t>(row * columns_ + column);
        visit(starts_[cell], starts_[cell + 1]);
      }
  }

  [[nodiscard]] std::int64_t column_of(double x) const { return static_cast<std::int64_t>(std::floor((x - min_x_) / cell_size_)); }
  [[nodiscard]] std::int64_t row_of(double z) const { return static_cast<std::int64_t>(std::floor((z - min_z_) / cell_size_)); }

  double min_x_ = 0.0, min_z_ = 0.0, cell_size_ = 1.0;
  std::int64_t columns_ = 0, rows_ = 0;
  std::vector<std::uint32_t> starts_;   ///< per cell, the first of its members (cells + 1 entries)
  std::vector<std::uint32_t> members_;  ///< agent indices grouped by cell
  std::vector<PlanarVector> sorted_positions_;  ///< beside members_: their positions
  std::vector<std::uint32_t> cell_of_;  ///< per agent, its cell
  std::vector<std::uint32_t> scratch_;  ///< the counting sort's next free slot per cell
};

}  // namespace wayfinder::crowd_detail
