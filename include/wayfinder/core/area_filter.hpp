#pragma once
// Per-query filters over areas and flags, the idea of Detour's dtQueryFilter: grid cells and
// navmesh polygons carry an *area* (0..63, what the ground is: road, swamp, ...) and *flags*
// (16 bits of what it allows: door, water, ...). A query's filter prices each area with a cost
// multiplier and includes or excludes places by their flags, so two agents on one shared world
// can see a door differently (a key holder passes, a monster does not) with no edit and no copy.

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace wayfinder {

/// An area id: a small integer below max_areas. Area 0 is the default of every place.
using AreaId = std::uint8_t;
/// A place's flags, a bitmask whose meaning the game chooses (e.g. 1 = door, 2 = water).
using AreaFlags = std::uint16_t;
inline constexpr int max_areas = 64;

struct AreaFilter {
  /// Cost multiplier per area, applied on top of the world's own costs: finite and > 0, or
  /// +infinity for an area this query never enters. Default 1 everywhere.
  std::array<float, max_areas> area_costs = [] {
    std::array<float, max_areas> costs{};
    costs.fill(1.0f);
    return costs;
  }();
  /// A place that has flags is usable only if it shares at least one of them with
  /// include_flags. Places with no flags (plain ground, the default) are always included: unlike
  /// Detour, where a polygon without flags is never usable, a world nobody flagged stays walkable.
  AreaFlags include_flags = 0xffff;
  /// A place carrying any of these flags is never usable.
  AreaFlags exclude_flags = 0;

  /// Throws std::invalid_argument for an area >= max_areas or a cost that is not > 0 (NaN too).
  AreaFilter& set_area_cost(int area, float cost) {
    if (area < 0 || area >= max_areas)
      throw std::invalid_argument("area " + std::to_string(area) + " is not in [0, " + std::to_string(max_areas) + ")");
    if (!(cost > 0.0f))
      throw std::invalid_argument("the cost of area " + std::to_string(area) + " must be > 0 (or +infinity to exclude it)");
    area_costs[static_cast<std::size_t>(area)] = cost;
    return *this;
  }
  /// The area becomes one this query never enters.
  AreaFilter& exclude_area(int area) { return set_area_cost(area, std::numeric_limits<float>::infinity()); }
  AreaFilter& include(AreaFlags flags) {
    include_flags = flags;
    return *this;
  }
  AreaFilter& exclude(AreaFlags flags) {
    exclude_flags = flags;
    return *this;
  }

  [[nodiscard]] bool flags_pass(AreaFlags flags) const {
    return (flags & exclude_flags) == 0 && (flags == 0 || (flags & include_flags) != 0);
  }
  [[nodiscard]] bool area_passes(AreaId area) const { return area_costs[area & (max_areas - 1)] != std::numeric_limits<float>::infinity(); }
  /// Whether a place with this area and these flags may be entered.
  [[nodiscard]] bool passes(AreaId area, AreaFlags flags) const { return area_passes(area) && flags_pass(flags); }
  [[nodiscard]] float cost(AreaId area) const { return area_costs[area & (max_areas - 1)]; }

  /// Why the filter cannot be used, or nullopt when it can: options may come from untrusted
  /// numbers (bindings, files), so queries check this instead of trusting set_area_cost.
  [[nodiscard]] std::optional<std::string> problem() const {
    for (int area = 0; area < max_areas; ++area) {
      const float cost = area_costs[static_cast<std::size_t>(area)];
      if (!(cost > 0.0f))
        return "filter: the cost of area " + std::to_string(area) + " is " + (std::isnan(cost) ? std::string("NaN") : std::to_string(cost)) +
               "; costs must be > 0 (or +infinity to exclude the area)";
    }
    return std::nullopt;
  }

  /// True when the filter changes nothing in a world whose places use only the areas in
  /// `areas_in_use` (bit a for area a) and the flags in `flags_in_use`: every such area costs 1
  /// and no such flag is excluded. Queries then run the unfiltered search, at its full speed.
  [[nodiscard]] bool neutral_for(std::uint64_t areas_in_use, AreaFlags flags_in_use) const {
    for (int area = 0; area < max_areas; ++area)
      if (((areas_in_use >> area) & 1u) != 0 && area_costs[static_cast<std::size_t>(area)] != 1.0f) return false;
    for (int bit = 0; bit < 16; ++bit) {
      const AreaFlags flag = static_cast<AreaFlags>(1u << bit);
      if ((flags_in_use & flag) != 0 && !flags_pass(flag)) return false;
    }
    return true;
  }

  /// The smallest finite multiplier among the areas in use (1 if none is finite): heuristics
  /// are scaled by it so they stay admissible.
  [[nodiscard]] float smallest_cost(std::uint64_t areas_in_use) const {
    float smallest = std::numeric_limits<float>::infinity();
    for (int area = 0; area < max_areas; ++area) {
      const float cost = area_costs[static_cast<std::size_t>(area)];
      if (((areas_in_use >> area) & 1u) != 0 && cost < smallest) smallest = cost;
    }
    return smallest == std::numeric_limits<float>::infinity() ? 1.0f : smallest;
  }
};

}  // namespace wayfinder
