#pragma once
// Start and goal pairs for the demo, picked from the generated rooms without randomness: the
// same map always gets the same queries.

#include <vector>

#include "common/room_map_generator.hpp"

namespace wayfinder::cli {

struct DemoQuery {
  Cell start;
  Cell goal;
};

/// Two long queries (the farthest-apart rooms, then the farthest of the rooms left) and one short
/// one (the closest two rooms left), so that the slow algorithms finish at least once. Fewer
/// when the map has fewer than six rooms.
std::vector<DemoQuery> pick_demo_queries(const RoomMap& rooms);

}  // namespace wayfinder::cli
