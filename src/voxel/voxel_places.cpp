// Where an agent can be in a voxel world: the place checks with their reasons, snapping to the
// nearest place, and counting and sampling places (see voxel_places.hpp).

#include "wayfinder/voxel/voxel_places.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "wayfinder/voxel/voxel_domain.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"

namespace wayfinder {

namespace {

/// Whether a wide agent (voxel_footprint.hpp) can be at `at`: the one-column rules on the
/// footprint blocks of its corner.
bool wide_place_allowed(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at) {
  if (!footprint_inside(world, profile, at)) return false;
  auto block = [&](int y) { return footprint_block(world, profile, at.x, y, at.z); };
  const BlockKind feet = block(at.y);
  if (profile.fly) return feet != BlockKind::solid;
  for (int k = 0; k < profile.agent_height; ++k) {
    const BlockKind kind = k == 0 ? feet : block(at.y + k);
    if (kind == BlockKind::solid || (kind == BlockKind::water && !profile.swim)) return false;
  }
  if (feet == BlockKind::water || (feet == BlockKind::ladder && profile.climb)) return true;
  const BlockKind below = block(at.y - 1);
  return below == BlockKind::solid || below == BlockKind::ladder;
}

/// The place rules of voxel_places.hpp, set up once for many checks.
class PlaceTest {
 public:
  PlaceTest(const VoxelWorld& world, const MovementProfile& profile)
      : world_(world), profile_(profile), walking_(world, profile) {}
  [[nodiscard]] bool operator()(VoxelCoord at) const {
    if (wide_agent(profile_)) return wide_place_allowed(world_, profile_, at);
    if (profile_.fly) return world_.contains(at) && !world_.solid(at.x, at.y, at.z);
    return walking_.can_be_at(at);
  }

 private:
  const VoxelWorld& world_;
  const MovementProfile& profile_;
  VoxelWalkingDomain walking_;
};

/// The first block of the footprint at corner `at`, layer y, whose kind is `kind`.
VoxelCoord first_in_layer(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at, int y, BlockKind kind) {
  const int layers = profile.fly ? profile.agent_width : 1;
  for (int k = 0; k < layers; ++k)
    for (int dz = 0; dz < profile.agent_width; ++dz)
      for (int dx = 0; dx < profile.agent_width; ++dx)
        if (world.block(at.x + dx, y + k, at.z + dz) == kind) return {at.x + dx, y + k, at.z + dz};
  return {at.x, y, at.z};
}

/// voxel_place_problem for a wide agent: the checks of the one-column agent on its footprint,
/// naming a block of the world that fails them.
std::optional<std::string> wide_place_problem(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at) {
  const int width = profile.agent_width;
  const std::string here = voxel_coord_text(at);
  const std::string body = profile.fly ? std::to_string(width) + "x" + std::to_string(width) + "x" + std::to_string(width)
                                       : std::to_string(width) + "x" + std::to_string(width) + " columns";
  if (!footprint_inside(world, profile, at))
    return here + ": the agent's body (" + body + " from this corner towards +x and +z" + (profile.fly ? " and +y" : "") +
           ") reaches outside the world (size " + std::to_string(world.size_x()) + "x" + std::to_string(world.size_y()) +
           "x" + std::to_string(world.size_z()) + ")";
  auto block = [&](int y) { return footprint_block(world, profile, at.x, y, at.z); };
  if (profile.fly) return here + ": a solid block in the agent's body (" + body + ") at " +
                          voxel_coord_text(first_in_layer(world, profile, at, at.y, BlockKind::solid));
  const int height = profile.agent_height;
  const std::string size = "the agent is " + std::to_string(width) + " blocks wide and " + std::to_string(height) +
                           (height == 1 ? " block" : " blocks") + " tall";
  for (int k = 0; k < height; ++k) {
    const BlockKind kind = block(at.y + k);
    const char* where = k == 0 ? "at the feet" : k + 1 == height ? "at head height" : "at body height";
    if (kind == BlockKind::solid)
      return here + ": a solid block " + where + " " +
             voxel_coord_text(first_in_layer(world, profile, at, at.y + k, BlockKind::solid)) + "; " + size;
    if (kind == BlockKind::water && !profile.swim)
      return here + ": water " + where + " " +
             voxel_coord_text(first_in_layer(world, profile, at, at.y + k, BlockKind::water)) +
             ", and the agent does not swim";
  }
  if (at.y == 0) return here + ": there is no block below it (y 0 is the bottom of the world), so nothing holds the agent";
  const BlockKind below = block(at.y - 1);
  const std::string layer = voxel_coord_text({at.x, at.y - 1, at.z}) + " to " +
                            voxel_coord_text({at.x + width - 1, at.y - 1, at.z + width - 1});
  if (below == BlockKind::water)
    return here + ": the blocks below " + layer + " hold water and no solid block, so nothing holds the agent";
  return here + ": no solid block or ladder below the footprint " + layer + ", so nothing holds the agent";
}

/// Calls visit(at) for every place where the agent can be, in order y, z, x.
template <class Visit>
void for_each_place(const VoxelWorld& world, const MovementProfile& profile, Visit&& visit) {
  const PlaceTest allowed(world, profile);
  for (int y = 0; y < world.size_y(); ++y)
    for (int z = 0; z < world.size_z(); ++z)
      for (int x = 0; x < world.size_x(); ++x)
        if (allowed({x, y, z})) visit(VoxelCoord{x, y, z});
}

std::int64_t squared_distance(VoxelCoord a, VoxelCoord b) {
  const std::int64_t dx = std::int64_t{a.x} - b.x;
  const std::int64_t dy = std::int64_t{a.y} - b.y;
  const std::int64_t dz = std::int64_t{a.z} - b.z;
  return dx * dx + dy * dy + dz * dz;
}

}  // namespace

std::string voxel_coord_text(VoxelCoord at) {
  return "(" + std::to_string(at.x) + "," + std::to_string(at.y) + "," + std::to_string(at.z) + ")";
}

bool voxel_place_allowed(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at) {
  return PlaceTest(world, profile)(at);
}

std::optional<std::string> voxel_place_problem(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at) {
  // Callers scan whole worlds with this; most places pass, and they need no text.
  if (PlaceTest(world, profile)(at)) return {};
  if (wide_agent(profile)) return wide_place_problem(world, profile, at);
  const std::string here = voxel_coord_text(at);
  if (!world.contains(at))
    return here + " is outside the world (size " + std::to_string(world.size_x()) + "x" + std::to_string(world.size_y()) +
           "x" + std::to_string(world.size_z()) + ")";
  const BlockKind feet = world.block(at);
  if (feet == BlockKind::solid) return here + " is inside a solid block";
  if (profile.fly) return {};

  const int height = profile.agent_height;
  const std::string tall = "the agent is " + std::to_string(height) + (height == 1 ? " block" : " blocks") + " tall";
  for (int k = 0; k < height; ++k) {
    const VoxelCoord block{at.x, at.y + k, at.z};
    const BlockKind kind = world.block(block);
    const char* where = k == 0 ? "at the feet" : k + 1 == height ? "at head height" : "at body height";
    if (kind == BlockKind::solid) return here + ": a solid block " + where + " " + voxel_coord_text(block) + "; " + tall;
    if (kind == BlockKind::water && !profile.swim)
      return here + ": water " + where + " " + voxel_coord_text(block) + ", and the agent does not swim";
  }

  if (feet == BlockKind::water) return {};  // swimming (water in the body was refused above otherwise)
  if (feet == BlockKind::ladder && profile.climb) return {};
  const VoxelCoord below_at{at.x, at.y - 1, at.z};
  const BlockKind below = world.block(below_at);
  if (below == BlockKind::solid || below == BlockKind::ladder) return {};
  const std::string ladder = feet == BlockKind::ladder ? " (the agent does not climb the ladder at its feet)" : "";
  if (at.y == 0)
    return here + ": there is no block below it (y 0 is the bottom of the world), so nothing holds the agent" + ladder;
  if (below == BlockKind::water)
    return here + ": the block below " + voxel_coord_text(below_at) +
           " is water, which holds an agent only with its feet in it" + ladder;
  return here + ": the block below " + voxel_coord_text(below_at) + " is air, so nothing holds the agent" + ladder;
}

std::optional<VoxelCoord> nearest_voxel_place(const VoxelWorld& world, const MovementProfile& profile, VoxelCoord at,
                                              int max_distance) {
  if (max_distance < 0 || max_distance > max_snap_distance)
    throw std::invalid_argument("a snap distance must be 0 to " + std::to_string(max_snap_distance) + " blocks, got " +
                                std::to_string(max_distance));
  const PlaceTest allowed(world, profile);
  if (allowed(at)) return at;
  // The box around `at`, clipped to the world; 64-bit so that a position near the int limits
  // cannot overflow.
  auto clip = [](std::int64_t centre, std::int64_t size, std::int64_t radius, std::int64_t& low, std::int64_t& high) {
    low = std::max<std::int64_t>(centre - radius, 0);
    high = std::min<std::int64_t>(centre + radius, size - 1);
  };
  std::int64_t x_low = 0, x_high = 0, y_low = 0, y_high = 0, z_low = 0, z_high = 0;
  clip(at.x, world.size_x(), max_distance, x_low, x_high);
  clip(at.y, world.size_y(), max_distance, y_low, y_high);
  clip(at.z, world.size_z(), max_distance, z_low, z_high);
  const std::int64_t reach = std::int64_t{max_distance} * max_distance;
  std::optional<VoxelCoord> best;
  std::int64_t best_distance = 0;
  // Higher y first, then lower z, then lower x: the first place found at a distance wins ties.
  for (std::int64_t y = y_high; y >= y_low; --y)
    for (std::int64_t z = z_low; z <= z_high; ++z)
      for (std::int64_t x = x_low; x <= x_high; ++x) {
        const std::int64_t dx = x - at.x;
        const std::int64_t dy = y - at.y;
        const std::int64_t dz = z - at.z;
        const std::int64_t distance = dx * dx + dy * dy + dz * dz;
        if (distance > reach || (best && distance >= best_distance)) continue;
        const VoxelCoord place{static_cast<int>(x), static_cast<int>(y), static_cast<int>(z)};
        if (!allowed(place)) continue;
        best = place;
        best_distance = distance;
      }
  return best;
}

std::vector<VoxelCoord> all_voxel_places(const VoxelWorld& world, const MovementProfile& profile) {
  std::vector<VoxelCoord> places;
  for_each_place(world, profile, [&](VoxelCoord at) { places.push_back(at); });
  return places;
}

VoxelPlaceSample sample_voxel_places(const VoxelWorld& world, const MovementProfile& profile, std::size_t count) {
  constexpr std::uint64_t max_candidates = 4096;
  VoxelPlaceSample sample;
  for_each_place(world, profile, [&](VoxelCoord) { ++sample.place_count; });
  if (count == 0 || sample.place_count == 0) return sample;

  // Every stride-th place, so that the candidates cover the world as the places do.
  const std::uint64_t stride = (sample.place_count + max_candidates - 1) / max_candidates;
  std::vector<VoxelCoord> candidates;
  std::uint64_t index = 0;
  for_each_place(world, profile, [&](VoxelCoord at) {
    if (index++ % stride == 0) candidates.push_back(at);
  });

  // Doubled coordinates keep the world's centre on whole numbers.
  const VoxelCoord centre{world.size_x() - 1, world.size_y() - 1, world.size_z() - 1};
  auto doubled = [](VoxelCoord at) { return VoxelCoord{2 * at.x, 2 * at.y, 2 * at.z}; };
  std::size_t first = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (squared_distance(doubled(candidates[i]), centre) < squared_distance(doubled(candidates[first]), centre)) first = i;

  std::vector<std::int64_t> nearest_picked(candidates.size(), std::numeric_limits<std::int64_t>::max());
  std::size_t next = first;
  while (sample.places.size() < count) {
    const VoxelCoord picked = candidates[next];
    sample.places.push_back(picked);
    std::int64_t farthest = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      nearest_picked[i] = std::min(nearest_picked[i], squared_distance(candidates[i], picked));
      if (nearest_picked[i] > farthest) {
        farthest = nearest_picked[i];
        next = i;
      }
    }
    if (farthest == 0) break;  // every candidate has been picked
  }
  return sample;
}

}  // namespace wayfinder
