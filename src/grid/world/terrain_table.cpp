#include "wayfinder/grid/world/terrain_table.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace wayfinder {

TerrainTable TerrainTable::movingai() {
  // https://movingai.com/benchmarks/formats.html
  TerrainTable table;
  table.set_passable('.', 1.0f);
  table.set_passable('G', 1.0f);
  table.set_blocked('@');
  table.set_blocked('O');
  table.set_blocked('T');
  table.set_passable('S', 3.0f);
  // Water is "traversable, but not passable from terrain": only swimming agents enter it, and a
  // walking agent is the one the benchmarks and this library model.
  table.set_blocked('W');
  table.set_passable('F', 2.0f);
  return table;
}

void TerrainTable::set_passable(char symbol, float cost) {
  if (!std::isfinite(cost) || !(cost > 0.0f))
    throw std::invalid_argument("terrain cost of '" + std::string(1, symbol) +
                                "' must be finite and greater than 0, got " + std::to_string(cost));
  entries_[static_cast<unsigned char>(symbol)] = Terrain{Terrain::Kind::passable, cost};
}

void TerrainTable::set_blocked(char symbol) {
  entries_[static_cast<unsigned char>(symbol)] = Terrain{Terrain::Kind::blocked, 1.0f};
}

}  // namespace wayfinder
