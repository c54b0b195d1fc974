#include "path_audit.hpp"

#include <algorithm>
#include <cmath>

#include "command_line_values.hpp"
#include "text_table.hpp"
#include "wayfinder/grid/paths/path_validation.hpp"

namespace wayfinder::cli {

std::optional<std::string> find_path_problem(const GridMap& map, Cell start, Cell goal, const PathResult& result,
                                             DiagonalMode diagonal) {
  if (result.nodes.empty()) return "the result has no cells";
  const GridPathCheck check = check_grid_path(map, result.nodes, diagonal);
  if (!check.valid) return "invalid path: " + check.problem;
  const Cell first = map.cell_of(result.nodes.front());
  const Cell last = map.cell_of(result.nodes.back());
  if (first != start || last != goal)
    return "the path runs from " + format_cell(first) + " to " + format_cell(last) + ", not from " +
           format_cell(start) + " to " + format_cell(goal);
  // Costs are sums of the same move costs, possibly in another order: allow rounding only.
  if (std::abs(check.cost - result.cost) > 1e-9 * std::max(1.0, check.cost))
    return "reported cost " + format_fixed(result.cost, 9) + " but its moves add up to " + format_fixed(check.cost, 9);
  return std::nullopt;
}

}  // namespace wayfinder::cli
