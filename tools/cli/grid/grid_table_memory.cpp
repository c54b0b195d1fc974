#include "grid/grid_table_memory.hpp"

#include "command_error.hpp"
#include "command_line_values.hpp"

namespace wayfinder::cli {

void add_table_memory_option(CLI::App& command, std::uint64_t& mebibytes) {
  add_whole_number_option(command, "--max-table-memory", mebibytes, 1, std::uint64_t{1} << 30,
                          "refuse to build a JPS+ jump table or goal bounds that would need more than this many MiB")
      ->type_name("MiB")
      ->default_str(std::to_string(default_table_memory_mebibytes));
}

void refuse_table_over_cap(const std::string& what, std::size_t bytes, std::uint64_t cap_mebibytes,
                           const GridMap& map) {
  constexpr std::size_t mebibyte = std::size_t{1} << 20;
  if (bytes <= cap_mebibytes * mebibyte) return;
  const std::size_t needed = (bytes + mebibyte - 1) / mebibyte;
  throw CommandError(what + " of this " + std::to_string(map.width()) + "x" + std::to_string(map.height()) +
                     " map needs " + std::to_string(needed) + " MiB, above the cap of " +
                     std::to_string(cap_mebibytes) + " MiB; raise it with --max-table-memory " +
                     std::to_string(needed) + " if the machine has the memory");
}

}  // namespace wayfinder::cli
