#pragma once
// The derived data grid tests hand to their pathfinders: what the algorithms under test read
// besides the map, built as a caller builds it (build_grid_derived_data); and the checks every
// table file of a GridCellTable (jump table, goal bounds) must pass.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/grid_derived_data.hpp"
#include "wayfinder/grid/grid_query.hpp"

namespace wayfinder::testing {

/// What queries with every algorithm in `algorithms` (default options otherwise, and this
/// agent size) read on `map` as it is now.
inline GridDerivedData derived_for(const GridMap& map, std::span<const GridAlgorithm> algorithms,
                                   int agent_size = 1) {
  GridDerivedData derived;
  for (const GridAlgorithm algorithm : algorithms) {
    GridSearchOptions options;
    options.algorithm = algorithm;
    options.agent_size = agent_size;
    build_grid_derived_data(map, options, derived);
  }
  return derived;
}

inline GridDerivedData derived_for(const GridMap& map, std::initializer_list<GridAlgorithm> algorithms,
                                   int agent_size = 1) {
  return derived_for(map, std::span<const GridAlgorithm>(algorithms.begin(), algorithms.size()), agent_size);
}

/// The same for every algorithm (JPS+'s table and a hierarchy of 16-cell clusters).
inline GridDerivedData derived_for_every_algorithm(const GridMap& map, int agent_size = 1) {
  return derived_for(map, std::span<const GridAlgorithm>(every_grid_algorithm), agent_size);
}

/// Brings `pathfinder`'s derived data up to date for queries with `options` after its map was
/// edited, as the data's owner does.
inline void rebuild_derived(GridQuery& pathfinder, const GridSearchOptions& options) {
  GridDerivedData derived = pathfinder.derived_data();
  build_grid_derived_data(pathfinder.map(), options, derived);
  pathfinder.set_derived_data(std::move(derived));
}

/// find_path after bringing the pathfinder's derived data up to date for `options`, as the
/// owner of that data does before it queries an edited map.
inline PathResult find_path_with_derived(GridQuery& pathfinder, Cell start, Cell goal,
                                         const GridSearchOptions& options = {}) {
  rebuild_derived(pathfinder, options);
  return pathfinder.find_path(start, goal, options);
}

/// The same for begin().
inline SearchStatus begin_with_derived(GridQuery& pathfinder, Cell start, Cell goal,
                                       const GridSearchOptions& options = {}) {
  rebuild_derived(pathfinder, options);
  return pathfinder.begin(start, goal, options);
}

/// Writes into the header of a saved jump table or goal bounds file (to_bytes()) the checksum of
/// its values as they are now, as someone who edits the values and wants the file to load would:
/// the FNV-1a of the bytes after the 40-byte header, at bytes 32..39, little-endian.
inline void forge_table_checksum(std::vector<unsigned char>& bytes) {
  constexpr std::size_t header = 40;
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t i = header; i < bytes.size(); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  for (std::size_t i = 0; i < 8; ++i) bytes[32 + i] = static_cast<unsigned char>(hash >> (8 * i));
}

/// The cause of the LoadError that reading `bytes` as a `Table` file (GridJumpTable,
/// GridGoalBounds) for `map` throws, "" if it loads; expects the error to name `file_name`.
template <class Table>
std::string table_load_problem(const std::vector<unsigned char>& bytes, const GridMap& map,
                               const std::string& file_name) {
  try {
    (void)Table::from_bytes(bytes.data(), bytes.size(), map, file_name);
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), file_name);
    return error.cause();
  }
  return "";
}

/// What a kind of table file says of itself in its load errors, and how densely its values
/// (after the 40-byte header, every byte of which is tried) are sampled for damage.
struct TableFileWords {
  const char* file_name;        ///< the name errors are expected to carry ("table.jump")
  const char* other_kind;       ///< the words for a file of another kind ("not a jump table file")
  const char* after_values;     ///< the words for bytes after the values ("after the distances")
  std::size_t truncation_step;  ///< lengths tried past the first 64 bytes
  std::size_t flip_step;        ///< bytes whose bits are flipped past the header
};

/// Every GridCellTable file refuses, for `map`, a file of another kind, another version, another
/// map's size or cells, bytes after the values, every truncation and every flipped bit of the
/// header and a sample of the values, and values that no longer match the checksum.
template <class Table>
void expect_damaged_table_files_refused(const GridMap& map, const TableFileWords& words) {
  const auto problem = [&](const std::vector<unsigned char>& bytes, const GridMap& for_map) {
    return table_load_problem<Table>(bytes, for_map, words.file_name);
  };
  const std::vector<unsigned char> good = Table(map).to_bytes();
  EXPECT_EQ(problem(good, map), "");

  std::vector<unsigned char> bytes = good;
  bytes[0] = 'X';
  EXPECT_NE(problem(bytes, map).find(words.other_kind), std::string::npos);

  bytes = good;
  bytes[8] = 2;
  EXPECT_NE(problem(bytes, map).find("version 2"), std::string::npos) << problem(bytes, map);

  const GridMap bigger(map.width() + 1, map.height());
  EXPECT_NE(problem(good, bigger).find("built for a"), std::string::npos);

  GridMap edited = map;
  const std::vector<Cell> cells = passable_cells(map);
  edited.set_passable(cells[cells.size() / 2].x, cells[cells.size() / 2].y, false);
  EXPECT_NE(problem(good, edited).find("another map"), std::string::npos);

  bytes = good;
  bytes.push_back(0);
  EXPECT_NE(problem(bytes, map).find(words.after_values), std::string::npos);

  for (std::size_t length = 0; length < good.size(); length += (length < 64 ? 1 : words.truncation_step)) {
    bytes.assign(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(length));
    EXPECT_NE(problem(bytes, map), "") << "truncated to " << length << " bytes";
  }
  for (std::size_t at = 0; at < good.size(); at += (at < 40 ? 1 : words.flip_step)) {
    for (int bit = 0; bit < 8; bit += (at < 40 ? 1 : 3)) {
      bytes = good;
      bytes[at] = static_cast<unsigned char>(bytes[at] ^ (1u << bit));
      EXPECT_NE(problem(bytes, map), "") << "bit " << bit << " of byte " << at << " flipped";
    }
  }
  bytes = good;
  bytes[100] ^= 0x10;
  EXPECT_NE(problem(bytes, map).find("checksum"), std::string::npos);
}

/// A `Table` file's load errors name the file: a missing one, and one cut short (`extension`,
/// with its dot, is the kind's file name ending).
template <class Table>
void expect_table_load_errors_name_the_file(const std::filesystem::path& directory, const GridMap& map,
                                            const std::string& extension) {
  const std::filesystem::path missing = directory / ("missing" + extension);
  try {
    (void)Table::load(missing, map);
    FAIL() << "loaded a missing file";
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), missing.string());
    EXPECT_NE(std::string(error.what()).find("missing" + extension), std::string::npos);
  }
  const std::filesystem::path cut = directory / ("cut" + extension);
  {
    const std::vector<unsigned char> bytes = Table(map).to_bytes();
    std::ofstream out(cut, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size() - 3));
  }
  try {
    (void)Table::load(cut, map);
    FAIL() << "loaded a truncated file";
  } catch (const LoadError& error) {
    EXPECT_NE(std::string(error.what()).find("cut" + extension), std::string::npos);
    EXPECT_NE(error.cause().find("truncated"), std::string::npos) << error.cause();
  }
}

}  // namespace wayfinder::testing
