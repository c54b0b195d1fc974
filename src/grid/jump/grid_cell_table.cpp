#include "wayfinder/grid/jump/grid_cell_table.hpp"

#include <stdexcept>

#include "grid_table_file.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/jump/grid_goal_bounds.hpp"
#include "wayfinder/grid/jump/grid_jump_table.hpp"

namespace wayfinder {

template <class Table>
std::optional<std::string> GridCellTable<Table>::mismatch(const GridMap& map) const {
  return grid_table_file::mismatch(Table::file_kind(), width_, height_, revision_, map);
}

template <class Table>
std::optional<std::string> GridCellTable<Table>::mismatch_thoroughly(const GridMap& map) const {
  return grid_table_file::mismatch_thoroughly(Table::file_kind(), width_, height_, revision_, map_checksum_, map);
}

template <class Table>
void GridCellTable<Table>::check(const GridMap& map) const {
  if (auto problem = mismatch(map)) throw std::invalid_argument(*problem);
}

template <class Table>
std::vector<unsigned char> GridCellTable<Table>::to_bytes() const {
  // The values' bytes as the file holds them (little-endian int16).
  const std::span<const std::byte> values = static_cast<const Table&>(*this).value_bytes();
  return grid_table_file::to_bytes(Table::file_kind(), width_, height_, map_checksum_, values.data(), values.size());
}

template <class Table>
void GridCellTable<Table>::save(const std::filesystem::path& file) const {
  const std::span<const std::byte> values = static_cast<const Table&>(*this).value_bytes();
  grid_table_file::write(file, Table::file_kind(), width_, height_, map_checksum_, values.data(), values.size());
}

template <class Table>
Table GridCellTable<Table>::load(const std::filesystem::path& file, const GridMap& map) {
  const std::vector<unsigned char> bytes = grid_table_file::read(file, Table::file_kind(), map);
  return from_bytes(bytes.data(), bytes.size(), map, file.string());
}

template <class Table>
Table GridCellTable<Table>::from_bytes(const unsigned char* data, std::size_t size, const GridMap& map,
                                       const std::string& source_name) {
  const grid_table_file::CheckedValues checked = grid_table_file::check(Table::file_kind(), data, size, map, source_name);
  Table table;
  if (std::optional<std::string> problem = table.take_values(checked.values, map))
    throw LoadError(source_name, 0, 0, *problem);
  table.width_ = map.width();
  table.height_ = map.height();
  table.revision_ = map.revision();
  table.map_checksum_ = checked.map_checksum;
  return table;
}

template class GridCellTable<GridJumpTable>;
template class GridCellTable<GridGoalBounds>;

}  // namespace wayfinder
