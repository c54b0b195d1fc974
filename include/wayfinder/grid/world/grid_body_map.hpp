#pragma once
// The map as a k x k agent sees it: a cell is passable when the agent fits with its top-left
// cell there (clearance >= k; grid_clearance.hpp, after Harabor & Botea 2008), at the terrain
// cost of that top-left cell.
//
// Guarantee: under DiagonalMode::only_if_no_obstacles a k x k agent's moves on a map are exactly
// a one-cell agent's moves on its body map, with the same cell ids and costs, so the one-cell
// searches (JPS, JPS+, the hierarchy) run unchanged on it (why: docs/grid.md, "Agents larger
// than one cell").
//
// update() after the map (or the size) changed edits only the cells whose fit or cost changed,
// so the body map's revision and change log say what changed for the agent, and structures built
// over it (a HierarchicalGrid, a GridJumpTable) see those edits like edits of any map.

#include <cstdint>

#include "wayfinder/grid/world/grid_clearance.hpp"
#include "wayfinder/grid/world/grid_map.hpp"

namespace wayfinder {

class GridBodyMap {
 public:
  GridBodyMap() = default;
  GridBodyMap(const GridBodyMap&) = delete;  // structures built over map() hold references to it
  GridBodyMap& operator=(const GridBodyMap&) = delete;

  /// Brings the body map up to date for a size x size agent on `map`, whose `clearance` must be
  /// current. The first call (or a map of another size) builds it; later calls edit only the
  /// cells that differ, so nothing changes (and the revision stays) when nothing did.
  void update(const GridMap& map, const GridClearance& clearance, int size);
  /// True when update() was last called for this size with `map` at its present revision.
  [[nodiscard]] bool current_for(const GridMap& map, int size) const {
    return built_ && size == size_ && map.width() == map_.width() && map.height() == map_.height() &&
           map.revision() == source_revision_;
  }

  [[nodiscard]] const GridMap& map() const { return map_; }
  [[nodiscard]] int agent_size() const { return size_; }

 private:
  GridMap map_;
  int size_ = 0;
  std::uint64_t source_revision_ = 0;
  bool built_ = false;
};

}  // namespace wayfinder
