#pragma once
// The derived data grid tests hand to their pathfinders: what the algorithms under test read
// besides the map, built as a caller builds it (build_grid_derived_data).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

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

}  // namespace wayfinder::testing
