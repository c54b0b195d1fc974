#include "neighbour_grid.hpp"

namespace wayfinder::crowd_detail {

void NeighbourGrid::build(std::span<const PlanarVector> positions, double cell_size) {
  columns_ = rows_ = 0;
  if (positions.empty()) return;
  double min_x = positions[0].x, max_x = min_x, min_z = positions[0].z, max_z = min_z;
  for (const PlanarVector& p : positions) {
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_z = std::min(min_z, p.z);
    max_z = std::max(max_z, p.z);
  }
  // A few cells per agent at most: agents spread over a large world get larger cells.
  const double cells_allowed = 4.0 * static_cast<double>(positions.size()) + 64.0;
  const double area = std::max(max_x - min_x, cell_size) * std::max(max_z - min_z, cell_size);
  cell_size_ = std::max(cell_size, std::sqrt(area / cells_allowed));
  min_x_ = min_x;
  min_z_ = min_z;
  columns_ = static_cast<std::int64_t>(std::floor((max_x - min_x) / cell_size_)) + 1;
  rows_ = static_cast<std::int64_t>(std::floor((max_z - min_z) / cell_size_)) + 1;
  const std::size_t cells = static_cast<std::size_t>(columns_ * rows_);
  starts_.assign(cells + 1, 0);
  cell_of_.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::int64_t column = std::min(column_of(positions[i].x), columns_ - 1);
    const std::int64_t row = std::min(row_of(positions[i].z), rows_ - 1);
    cell_of_[i] = static_cast<std::uint32_t>(row * columns_ + column);
    ++starts_[cell_of_[i] + 1];
  }
  for (std::size_t cell = 0; cell < cells; ++cell) starts_[cell + 1] += starts_[cell];
  members_.resize(positions.size());
  std::vector<std::uint32_t>& next = scratch_;
  next.assign(starts_.begin(), starts_.end() - 1);
  sorted_positions_.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::uint32_t slot = next[cell_of_[i]]++;
    members_[slot] = static_cast<std::uint32_t>(i);
    sorted_positions_[slot] = positions[i];
  }
}

}  // namespace wayfinder::crowd_detail
