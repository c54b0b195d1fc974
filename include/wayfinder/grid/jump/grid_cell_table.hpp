#pragma once
// What the grid's per-cell tables (GridJumpTable, GridGoalBounds) share: a table belongs to one
// version of one map, so it remembers the map's size, revision() (see docs/changing-worlds.md)
// and passability_checksum(), and mismatch() names what differs; it records how long it took to
// build; and it is saved to and loaded from a file of one layout. The table classes derive from
// GridCellTable<Table> (the curiously recurring template pattern, so that load() returns the
// table itself); what a table holds per cell is its own.
//
// File layout (little-endian): the kind's 8 bytes of magic text, u32 format version
// (Table::file_version), u32 width, u32 height, u32 zero, u64 passability checksum of the map,
// u64 checksum (FNV-1a) of the values, then the values, width x height cells of 8 values (one
// per direction, as in JumpDirection), cell by cell in row-major order. Nothing may follow them.
// Each table's header names its magic text and its values.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

template <class Table>
class GridCellTable {
 public:
  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// The map's revision() when the table was built (or, for a loaded table, when it was loaded).
  [[nodiscard]] std::uint64_t revision() const { return revision_; }
  /// passability_checksum() of the map the table was built for.
  [[nodiscard]] std::uint64_t map_checksum() const { return map_checksum_; }

  /// Why the table does not belong to `map`'s current version (its size or revision differ),
  /// or nullopt when it does. Cheap: the passability is not compared.
  [[nodiscard]] std::optional<std::string> mismatch(const GridMap& map) const;
  /// The same, also comparing the checksum of the passability (one pass over the map): for a
  /// table handed over from elsewhere.
  [[nodiscard]] std::optional<std::string> mismatch_thoroughly(const GridMap& map) const;
  /// Throws std::invalid_argument with mismatch()'s text when the table does not fit `map`.
  void check(const GridMap& map) const;

  /// Seconds spent building (0 for a loaded table).
  [[nodiscard]] double build_seconds() const { return build_seconds_; }

  /// Writes the table. Throws std::runtime_error naming the file when it cannot be written.
  void save(const std::filesystem::path& file) const;
  /// Reads a table saved for `map` and checks it: LoadError (core/load_error.hpp) naming the
  /// file and the reason when it is not a file of this table's kind, has another version, was
  /// built for a map of another size or passability, is truncated, too long, its values do not
  /// match their checksum, or a value cannot belong to `map` (each table's header says which).
  /// The loaded table takes `map`'s current revision.
  static Table load(const std::filesystem::path& file, const GridMap& map);
  /// The same from bytes in memory; `source_name` names them in errors.
  static Table from_bytes(const unsigned char* data, std::size_t size, const GridMap& map,
                          const std::string& source_name);
  /// The bytes save() writes.
  [[nodiscard]] std::vector<unsigned char> to_bytes() const;

 protected:
  GridCellTable() = default;
  /// A table whose values (read into Table::values_for(map)) passed the file's checks: checks
  /// them against `map` (Table::values_problem; LoadError naming `source_name`) and stamps it.
  static Table finish_loading(Table table, std::uint64_t map_checksum, const GridMap& map,
                              const std::string& source_name);
  /// Stamped with `map`'s size and current revision; the builder sets map_checksum_ and
  /// build_seconds_ when it is done.
  explicit GridCellTable(const GridMap& map) : width_(map.width()), height_(map.height()), revision_(map.revision()) {}

  int width_ = 0;
  int height_ = 0;
  std::uint64_t revision_ = 0;
  std::uint64_t map_checksum_ = 0;
  double build_seconds_ = 0.0;
};

}  // namespace wayfinder
