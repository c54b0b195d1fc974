// Labels the connected parts of a voxel world (see voxel_connected_parts.hpp): a breadth-first
// flood for flyers, whose moves go both ways, and Tarjan's strongly connected components for
// walkers, whose moves need not. Both read the moves from the search's own domains.

#include "wayfinder/voxel/voxel_connected_parts.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "wayfinder/voxel/voxel_domain.hpp"
#include "wayfinder/voxel/voxel_footprint.hpp"
#include "wayfinder/voxel/voxel_places.hpp"

namespace wayfinder {

namespace {

using PlaceIndex = std::uint32_t;

/// The places of a world, numbered in the order of all_voxel_places, and the way from a move's
/// node id to its number: a table over the world's node ids, so that the moves of millions of
/// places need no conversion to coordinates.
class PlaceNumbers {
 public:
  PlaceNumbers(const VoxelWorld& world, const MovementProfile& profile)
      : world_(world), places_(all_voxel_places(world, profile)), numbers_(world.node_count(), VoxelConnectedParts::no_part) {
    if (places_.size() >= VoxelConnectedParts::no_part)
      throw std::length_error("voxel connected parts: the world has more places than 32-bit labels can number");
    for (std::size_t i = 0; i < places_.size(); ++i) numbers_[world.node_of(places_[i])] = static_cast<PlaceIndex>(i);
  }
  [[nodiscard]] std::size_t size() const { return places_.size(); }
  [[nodiscard]] VoxelCoord place(PlaceIndex i) const { return places_[i]; }
  [[nodiscard]] NodeId node(PlaceIndex i) const { return world_.node_of(places_[i]); }
  /// The number of the place a move leads to; no_part if it is none (a domain only makes moves
  /// to places, so this is a guard, not a case).
  [[nodiscard]] PlaceIndex number_of(NodeId node) const { return numbers_[node]; }

 private:
  const VoxelWorld& world_;
  std::vector<VoxelCoord> places_;
  std::vector<std::uint32_t> numbers_;
};

/// Components of a flyer's moves, which are symmetric: a flood from each place not yet reached.
/// Component ids come in the order of the places' numbers.
std::vector<std::uint32_t> flood_components(const PlaceNumbers& places, const VoxelFlyingDomain& domain) {
  std::vector<std::uint32_t> component(places.size(), VoxelConnectedParts::no_part);
  std::vector<PlaceIndex> queue;
  std::uint32_t components = 0;
  for (PlaceIndex root = 0; root < places.size(); ++root) {
    if (component[root] != VoxelConnectedParts::no_part) continue;
    component[root] = components;
    queue.assign(1, root);
    for (std::size_t head = 0; head < queue.size(); ++head)
      domain.for_each_successor(places.node(queue[head]), [&](NodeId next, Cost) {
        const PlaceIndex number = places.number_of(next);
        if (number == VoxelConnectedParts::no_part || component[number] != VoxelConnectedParts::no_part) return;
        component[number] = components;
        queue.push_back(number);
      });
    ++components;
  }
  return component;
}

/// Strongly connected components of a walker's moves (Tarjan 1972), with an explicit stack: a
/// path of places can be far longer than the thread's stack allows recursion. The moves of the
/// places on the depth-first path are kept in one vector, each place's after its parent's.
std::vector<std::uint32_t> strong_components(const PlaceNumbers& places, const VoxelWalkingDomain& domain) {
  constexpr std::uint32_t unvisited = 0;
  const std::size_t count = places.size();
  std::vector<std::uint32_t> component(count, VoxelConnectedParts::no_part);
  std::vector<std::uint32_t> discovered(count, unvisited);  // discovery order from 1
  std::vector<std::uint32_t> lowest(count, unvisited);      // the lowest discovery order reached
  std::vector<PlaceIndex> open;                             // Tarjan's stack of unfinished places
  std::vector<PlaceIndex> moves;
  struct Frame {
    PlaceIndex place;
    std::size_t moves_begin;
    std::size_t next_move;
  };
  std::vector<Frame> path;
  std::uint32_t order = 0;
  std::uint32_t components = 0;

  auto enter = [&](PlaceIndex place) {
    discovered[place] = lowest[place] = ++order;
    open.push_back(place);
    const std::size_t begin = moves.size();
    domain.for_each_successor(places.node(place), [&](NodeId next, Cost) {
      const PlaceIndex number = places.number_of(next);
      if (number != VoxelConnectedParts::no_part) moves.push_back(number);
    });
    path.push_back({place, begin, begin});
  };

  for (PlaceIndex root = 0; root < count; ++root) {
    if (discovered[root] != unvisited) continue;
    enter(root);
    while (!path.empty()) {
      Frame& top = path.back();
      const PlaceIndex place = top.place;
      if (top.next_move < moves.size()) {
        const PlaceIndex next = moves[top.next_move++];
        if (discovered[next] == unvisited)
          enter(next);  // may reallocate `path`: `top` is not used after this
        else if (component[next] == VoxelConnectedParts::no_part)  // still on Tarjan's stack
          lowest[place] = std::min(lowest[place], discovered[next]);
        continue;
      }
      moves.resize(top.moves_begin);
      path.pop_back();
      if (lowest[place] == discovered[place]) {
        PlaceIndex member = 0;
        do {
          member = open.back();
          open.pop_back();
          component[member] = components;
        } while (member != place);
        ++components;
      }
      if (!path.empty()) lowest[path.back().place] = std::min(lowest[path.back().place], lowest[place]);
    }
  }
  return component;
}

}  // namespace

VoxelConnectedParts::VoxelConnectedParts(const VoxelWorld& world, const MovementProfile& profile)
    : size_x_(world.size_x()), size_y_(world.size_y()), size_z_(world.size_z()), world_revision_(world.revision()) {
  if (const std::optional<std::string> problem = profile_problem(profile))
    throw std::invalid_argument("voxel connected parts: " + *problem);
  // A wide agent is a one-column agent of its footprint world, whose positions are the
  // corners of its body in this world (voxel_footprint.hpp).
  if (wide_agent(profile))
    if (const std::optional<std::string> problem = footprint_world_problem(world, profile))
      throw std::invalid_argument("voxel connected parts: " + *problem);
  const std::optional<VoxelWorld> footprint =
      wide_agent(profile) ? std::optional<VoxelWorld>(footprint_world(world, profile)) : std::nullopt;
  const VoxelWorld& searched = footprint ? *footprint : world;
  MovementProfile column = profile;
  column.agent_width = 1;
  const PlaceNumbers places(searched, column);
  place_count_ = places.size();
  const std::vector<std::uint32_t> component =
      profile.fly ? flood_components(places, VoxelFlyingDomain(searched, profile.fly_cost))
                  : strong_components(places, VoxelWalkingDomain(searched, profile));

  // Number the parts by decreasing size, ties by their first place.
  std::vector<std::uint64_t> sizes;
  std::vector<PlaceIndex> first_place;
  for (PlaceIndex i = 0; i < places.size(); ++i) {
    const std::uint32_t c = component[i];
    if (c >= sizes.size()) {
      sizes.resize(c + std::size_t{1}, 0);
      first_place.resize(c + std::size_t{1}, VoxelConnectedParts::no_part);
    }
    if (sizes[c]++ == 0) first_place[c] = i;
  }
  std::vector<std::uint32_t> by_size(sizes.size());
  std::iota(by_size.begin(), by_size.end(), 0u);
  std::sort(by_size.begin(), by_size.end(), [&](std::uint32_t a, std::uint32_t b) {
    return sizes[a] != sizes[b] ? sizes[a] > sizes[b] : first_place[a] < first_place[b];
  });
  std::vector<std::uint32_t> part_of_component(sizes.size());
  part_sizes_.resize(sizes.size());
  for (std::uint32_t part = 0; part < by_size.size(); ++part) {
    part_of_component[by_size[part]] = part;
    part_sizes_[part] = sizes[by_size[part]];
  }
  labels_.assign(static_cast<std::size_t>(world.block_count()), no_part);
  for (PlaceIndex i = 0; i < places.size(); ++i) labels_[block_index(places.place(i))] = part_of_component[component[i]];
}

std::uint32_t VoxelConnectedParts::part_of(VoxelCoord at) const {
  if (static_cast<unsigned>(at.x) >= static_cast<unsigned>(size_x_) || static_cast<unsigned>(at.y) >= static_cast<unsigned>(size_y_) ||
      static_cast<unsigned>(at.z) >= static_cast<unsigned>(size_z_))
    return no_part;
  return labels_[block_index(at)];
}

std::vector<VoxelCoord> VoxelConnectedParts::places_in(std::uint32_t part) const {
  std::vector<VoxelCoord> places;
  if (part >= part_sizes_.size()) return places;
  places.reserve(static_cast<std::size_t>(part_sizes_[part]));
  std::size_t index = 0;
  for (int y = 0; y < size_y_; ++y)
    for (int z = 0; z < size_z_; ++z)
      for (int x = 0; x < size_x_; ++x)
        if (labels_[index++] == part) places.push_back({x, y, z});
  return places;
}

}  // namespace wayfinder
