#pragma once
// The memory cap on the grid's per-cell tables that the grid commands build (JPS+'s jump
// table, 16 bytes per cell; goal bounds, 64 bytes per cell and more while they are built): the
// size is known before building, so a map too large for the machine is refused in words rather
// than by the operating system (or a std::bad_alloc) minutes later. The cap is an option,
// --max-table-memory MiB, on `grid path`, `grid bench` and `grid preprocess`.

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder::cli {

/// The default cap: 2 GiB, a jump table of a 11585 x 11585 map, goal bounds' build of about
/// 2000 x 2000 on two threads.
inline constexpr std::uint64_t default_table_memory_mebibytes = 2048;

/// Declares --max-table-memory MiB on `command`, bound to `mebibytes`.
void add_table_memory_option(CLI::App& command, std::uint64_t& mebibytes);

/// Throws CommandError when building `what` (e.g. "the jump table") of `map`, which needs
/// `bytes`, would pass the cap of `cap_mebibytes` MiB; the message gives both numbers and the
/// option that raises the cap.
void refuse_table_over_cap(const std::string& what, std::size_t bytes, std::uint64_t cap_mebibytes,
                           const GridMap& map);

}  // namespace wayfinder::cli
