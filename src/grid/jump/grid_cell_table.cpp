#include "wayfinder/grid/jump/grid_cell_table.hpp"

#include <cstring>
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
  // The values are read straight into the table: a large table is held once, not twice.
  Table table;
  const std::span<std::byte> values = table.values_for(map);
  unsigned char header[grid_table_file::header_size];
  auto* value_data = reinterpret_cast<unsigned char*>(values.data());
  const std::size_t size = grid_table_file::read(file, Table::file_kind(), header, value_data, values.size());
  const grid_table_file::CheckedValues checked =
      grid_table_file::check(Table::file_kind(), header, value_data, size, map, file.string());
  return finish_loading(std::move(table), checked.map_checksum, map, file.string());
}

template <class Table>
Table GridCellTable<Table>::from_bytes(const unsigned char* data, std::size_t size, const GridMap& map,
                                       const std::string& source_name) {
  const grid_table_file::CheckedValues checked = grid_table_file::check(Table::file_kind(), data, size, map, source_name);
  Table table;
  const std::span<std::byte> values = table.values_for(map);
  if (!values.empty()) std::memcpy(values.data(), checked.values, values.size());
  return finish_loading(std::move(table), checked.map_checksum, map, source_name);
}

template <class Table>
Table GridCellTable<Table>::finish_loading(Table table, std::uint64_t map_checksum, const GridMap& map,
                                           const std::string& source_name) {
  if (std::optional<std::string> problem = table.values_problem(map)) throw LoadError(source_name, 0, 0, *problem);
  table.width_ = map.width();
  table.height_ = map.height();
  table.revision_ = map.revision();
  table.map_checksum_ = map_checksum;
  return table;
}

template class GridCellTable<GridJumpTable>;
template class GridCellTable<GridGoalBounds>;

}  // namespace wayfinder
