#include "path_corridor.hpp"

#include <cstddef>

namespace wayfinder::crowd_detail {

bool merge_moved_start(std::vector<PolygonId>& corridor, std::span<const PolygonId> moved,
                       std::vector<PolygonId>& scratch) {
  if (moved.empty()) return false;
  // The latest polygon of the move that lies on the corridor, at its furthest place there.
  for (std::size_t i = moved.size(); i-- > 0;) {
    for (std::size_t j = corridor.size(); j-- > 0;) {
      if (corridor[j] != moved[i]) continue;
      scratch.clear();
      for (std::size_t k = moved.size() - 1; k > i; --k) scratch.push_back(moved[k]);
      scratch.insert(scratch.end(), corridor.begin() + static_cast<std::ptrdiff_t>(j), corridor.end());
      corridor.swap(scratch);
      return true;
    }
  }
  return false;
}

}  // namespace wayfinder::crowd_detail
