// Pickling the worlds: their state as tuples of plain values and bytes (world_state.hpp).

#include "world_state.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "wayfinder/navmesh/navmesh_file_reader.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"

namespace wayfinder::python {

namespace {

constexpr int state_version = 1;

void check_state(const py::tuple& state, std::size_t size, const char* world) {
  if (state.size() != size || !py::isinstance<py::int_>(state[0]) || state[0].cast<int>() != state_version)
    throw py::value_error(std::string("not the pickled state of a ") + world + " (format version " +
                          std::to_string(state_version) + ")");
}

std::string bytes_at(const py::tuple& state, std::size_t index, std::size_t expected_size, bool may_be_empty,
                     const char* world) {
  if (!py::isinstance<py::bytes>(state[index])) throw py::value_error(std::string("a pickled ") + world + " holds bytes");
  std::string bytes = state[index].cast<std::string>();
  if (bytes.size() != expected_size && !(may_be_empty && bytes.empty()))
    throw py::value_error(std::string("a pickled ") + world + "'s arrays do not match its size");
  return bytes;
}

// Calls edit(rect, value) for every run of equal non-zero values along a row: the few edits that
// give a fresh map the values the pickled one had.
template <class ValueAt, class Edit>
void for_each_run(const GridMap& map, ValueAt&& value_at, Edit&& edit) {
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width();) {
      const auto value = value_at(x, y);
      int end = x + 1;
      while (end < map.width() && value_at(end, y) == value) ++end;
      if (value != 0) edit(GridRect{x, y, end - x, 1}, value);
      x = end;
    }
}

}  // namespace

py::tuple grid_state(const GridMap& map) {
  const std::size_t cells = map.cell_count();
  std::vector<float> costs(cells);
  std::vector<std::uint8_t> blocked(cells);
  std::vector<AreaId> areas(map.area_data() != nullptr ? cells : 0);
  std::vector<AreaFlags> flags(map.flag_data() != nullptr ? cells : 0);
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      const NodeId id = map.id_of(x, y);
      const float cost = map.cost(x, y);
      costs[id] = std::isfinite(cost) && cost > 0.0f ? cost : 1.0f;
      blocked[id] = map.passable(x, y) ? 0 : 1;
    }
  if (!areas.empty()) std::memcpy(areas.data(), map.area_data(), cells * sizeof(AreaId));
  if (!flags.empty()) std::memcpy(flags.data(), map.flag_data(), cells * sizeof(AreaFlags));
  return py::make_tuple(state_version, map.width(), map.height(), as_bytes(costs), as_bytes(blocked), as_bytes(areas),
                        as_bytes(flags));
}

GridMap grid_from_state(const py::tuple& state) {
  check_state(state, 7, "GridMap");
  const int width = state[1].cast<int>();
  const int height = state[2].cast<int>();
  if (width < 1 || height < 1 || width > max_grid_side || height > max_grid_side)
    throw py::value_error("a pickled GridMap's sides are out of range");
  const auto cells = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  const std::string cost_bytes = bytes_at(state, 3, cells * sizeof(float), false, "GridMap");
  const std::string blocked = bytes_at(state, 4, cells, false, "GridMap");
  const std::string area_bytes = bytes_at(state, 5, cells * sizeof(AreaId), true, "GridMap");
  const std::string flag_bytes = bytes_at(state, 6, cells * sizeof(AreaFlags), true, "GridMap");
  std::vector<float> costs(cells);
  std::memcpy(costs.data(), cost_bytes.data(), cost_bytes.size());
  // Every cell first passable with its cost, then the walls: a wall keeps its cost for when it
  // is unblocked, as it did in the pickled map.
  GridMap map = GridMap::from_costs(width, height, costs);
  const auto id = [&](int x, int y) { return static_cast<std::size_t>(map.id_of(x, y)); };
  for_each_run(map, [&](int x, int y) { return blocked[id(x, y)]; },
               [&](const GridRect& run, char) { map.block_rect(run); });
  if (!area_bytes.empty())
    for_each_run(map, [&](int x, int y) { return static_cast<AreaId>(area_bytes[id(x, y)]); },
                 [&](const GridRect& run, AreaId area) { map.set_area(run, area); });
  if (!flag_bytes.empty()) {
    std::vector<AreaFlags> flags(cells);
    std::memcpy(flags.data(), flag_bytes.data(), flag_bytes.size());
    for_each_run(map, [&](int x, int y) { return flags[id(x, y)]; },
                 [&](const GridRect& run, AreaFlags value) { map.set_flags(run, value); });
  }
  return map;
}

py::tuple navmesh_state(const NavMesh& mesh) { return py::make_tuple(state_version, py::bytes(navmesh_file_bytes(mesh))); }

NavMesh navmesh_from_state(const py::tuple& state) {
  check_state(state, 2, "NavMesh");
  if (!py::isinstance<py::bytes>(state[1])) throw py::value_error("a pickled NavMesh holds bytes");
  // A tiled mesh comes back tiled (the file keeps its tiles), so replace_tile works on it.
  return navmesh_from_file_bytes(state[1].cast<std::string>(), "<pickled NavMesh>");
}

py::tuple voxel_state(const VoxelWorld& world) {
  std::vector<std::uint8_t> kinds;
  kinds.reserve(static_cast<std::size_t>(world.block_count()));
  for (int y = 0; y < world.size_y(); ++y)
    for (int z = 0; z < world.size_z(); ++z)
      for (int x = 0; x < world.size_x(); ++x) kinds.push_back(static_cast<std::uint8_t>(world.block(x, y, z)));
  return py::make_tuple(state_version, world.size_x(), world.size_y(), world.size_z(), as_bytes(kinds));
}

VoxelWorld voxel_from_state(const py::tuple& state) {
  check_state(state, 5, "VoxelWorld");
  const int size_x = state[1].cast<int>();
  const int size_y = state[2].cast<int>();
  const int size_z = state[3].cast<int>();
  if (const std::optional<std::string> problem = VoxelWorld::size_problem(size_x, size_y, size_z))
    throw py::value_error("a pickled VoxelWorld's size: " + *problem);
  const std::size_t blocks = static_cast<std::size_t>(size_x) * static_cast<std::size_t>(size_y) * static_cast<std::size_t>(size_z);
  const std::string kinds = bytes_at(state, 4, blocks, false, "VoxelWorld");
  for (const char kind : kinds)
    if (static_cast<std::uint8_t>(kind) > static_cast<std::uint8_t>(BlockKind::ladder))
      throw py::value_error("a pickled VoxelWorld holds a block kind that is not one");
  return VoxelWorld::from_array(size_x, size_y, size_z,
                                std::span(reinterpret_cast<const BlockKind*>(kinds.data()), kinds.size()));
}

}  // namespace wayfinder::python
