#pragma once
// Reading lists of navigation-mesh queries (start, goal and what is known about the answer) for
// tests and benchmarks. Three formats are recognised, by their first line and file name:
//
//  - reference-query CSV: a header naming at least sx,sy,sz,ex,ey,ez; optionally start_poly,
//    end_poly, reachable (0/1) and optimal_len2d (-1 when unreachable). Columns are found by
//    name, so their order does not matter and other columns are ignored.
//  - Polyanya optimal-length CSV: id,sx,sy,gx,gy,gridcost,optimal_len. The 2D points (x, y) are
//    the world points (x, 0, y); a negative optimal_len means unreachable.
//  - MovingAI scenario (.scen, "version 1"): start and goal are 2D points (x, y) -> (x, 0, y),
//    which may have fractions. The last column is a grid cost, not a Euclidean length, so
//    neither the optimal length nor reachability is known.
//
// Every error throws LoadError with the file, line, column and cause.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct MeshQueryCase {
  Point start;
  Point goal;
  /// The polygons the file says the start and goal lie in (-1 when not given).
  std::int64_t start_polygon = -1;
  std::int64_t goal_polygon = -1;
  /// Whether a path exists, when the file says.
  std::optional<bool> reachable;
  /// The shortest path's length in the x-z plane; NaN when not known (unreachable queries have
  /// reachable == false and NaN here).
  double optimal_length = std::numeric_limits<double>::quiet_NaN();
  /// 1-based line of the file.
  int line = 0;
};

/// Reads any of the three formats from a file, a piece at a time. With `max_queries`, stops after
/// that many queries: the rest of the file is neither read nor checked.
std::vector<MeshQueryCase> read_mesh_queries(const std::filesystem::path& file,
                                             std::size_t max_queries = std::numeric_limits<std::size_t>::max());

/// The same from text; `source_name` names it in errors and its extension (".scen") helps to
/// recognise the format.
std::vector<MeshQueryCase> parse_mesh_queries(std::string_view text, const std::string& source_name,
                                              std::size_t max_queries = std::numeric_limits<std::size_t>::max());

}  // namespace wayfinder
