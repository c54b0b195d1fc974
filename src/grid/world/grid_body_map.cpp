#include "wayfinder/grid/world/grid_body_map.hpp"

namespace wayfinder {

void GridBodyMap::update(const GridMap& map, const GridClearance& clearance, int size) {
  const bool rebuild = !built_ || map.width() != map_.width() || map.height() != map_.height();
  if (rebuild) map_ = GridMap(map.width(), map.height());
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const bool fits = clearance.value(x, y) >= size;
      if (!fits) {
        if (map_.passable_unchecked(x, y)) map_.set_passable(x, y, false);
      } else if (!map_.passable_unchecked(x, y) || map_.cost(x, y) != map.cost(x, y)) {
        map_.set_cost(x, y, map.cost(x, y));
      }
    }
  }
  // A fresh body map starts its history here, as a loaded map does.
  if (rebuild) map_.forget_changes();
  size_ = size;
  source_revision_ = map.revision();
  built_ = true;
}

}  // namespace wayfinder
