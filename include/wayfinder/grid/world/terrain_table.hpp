#pragma once
// Maps the characters of a tile map to terrain: blocked, or passable with a cost multiplier.

#include <array>
#include <cstdint>
#include <optional>

namespace wayfinder {

struct Terrain {
  enum class Kind : std::uint8_t { unknown, blocked, passable };
  Kind kind = Kind::unknown;
  float cost = 1.0f;  ///< multiplier for passable terrain (finite, > 0)
};

class TerrainTable {
 public:
  /// No characters known.
  TerrainTable() = default;

  /// The MovingAI characters: '.' and 'G' ground (cost 1); '@', 'O' and 'T' (trees) blocked;
  /// 'S' swamp (cost 3); 'W' water, blocked for walking agents (MovingAI: "not passable from
  /// terrain"). Also 'F' forest (cost 2), which MovingAI maps do not use.
  static TerrainTable movingai();

  /// Throws std::invalid_argument unless cost is finite and > 0.
  void set_passable(char symbol, float cost);
  void set_blocked(char symbol);
  [[nodiscard]] Terrain lookup(char symbol) const { return entries_[static_cast<unsigned char>(symbol)]; }

 private:
  std::array<Terrain, 256> entries_{};
};

}  // namespace wayfinder
