#include "textbook_astar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <queue>
#include <tuple>

#include "wayfinder/core/indexed_heap.hpp"

namespace wayfinder::bench {

TextbookResult textbook_astar(const GridMap& map, Cell start, Cell goal) {
  const int width = map.width();
  const std::size_t cells = map.cell_count();
  std::vector<double> g(cells, INFINITY);
  std::vector<char> closed(cells, 0);
  auto h = [&](int x, int y) {
    const double dx = std::abs(x - goal.x);
    const double dy = std::abs(y - goal.y);
    return std::max(dx, dy) + (std::sqrt(2.0) - 1.0) * std::min(dx, dy);
  };
  using Entry = std::tuple<double, double, int>;  // f, -g (larger g first on ties), cell
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  const int start_id = start.y * width + start.x;
  const int goal_id = goal.y * width + goal.x;
  g[start_id] = 0.0;
  open.emplace(rounded_priority(h(start.x, start.y)), 0.0, start_id);
  TextbookResult result;
  while (!open.empty()) {
    const auto [f, negative_g, id] = open.top();
    open.pop();
    if (closed[id]) continue;
    if (id == goal_id) {
      result.cost = g[id];
      return result;
    }
    closed[id] = 1;
    ++result.expanded;
    const int x = id % width;
    const int y = id / width;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0) continue;
        if (!map.passable(x + dx, y + dy)) continue;
        if (dx != 0 && dy != 0 && (!map.passable(x + dx, y) || !map.passable(x, y + dy))) continue;
        const int next = (y + dy) * width + x + dx;
        const double next_g = g[id] + ((dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0);
        if (next_g < g[next]) {
          g[next] = next_g;
          // Same priority rounding as the engine, so ties are broken the same way.
          open.emplace(rounded_priority(next_g + h(x + dx, y + dy)), -static_cast<double>(static_cast<float>(next_g)), next);
        }
      }
    }
  }
  return result;
}

}  // namespace wayfinder::bench
