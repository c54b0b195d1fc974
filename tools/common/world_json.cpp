#include "common/world_json.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace wayfinder {

Json point_json(const Point& point, bool with_z) {
  return with_z ? Json::array({point.x, point.y, point.z}) : Json::array({point.x, point.y});
}

Json points_json(const std::vector<Point>& points, bool with_z) {
  Json array = Json::array();
  for (const Point& point : points) array.push_back(point_json(point, with_z));
  return array;
}

Json cells_json(const GridMap& map, const std::vector<NodeId>& nodes) {
  Json cells = Json::array();
  for (const NodeId id : nodes) {
    const Cell cell = map.cell_of(id);
    cells.push_back({cell.x, cell.y});
  }
  return cells;
}

Json voxel_blocks_json(const VoxelWorld& world, const std::vector<NodeId>& nodes) {
  Json blocks = Json::array();
  for (const NodeId node : nodes) {
    const VoxelCoord at = world.coord_of(node);
    blocks.push_back({at.x, at.y, at.z});
  }
  return blocks;
}

Json stats_json(const SearchStats& stats) {
  Json json;
  json["expanded"] = stats.expanded;
  json["generated"] = stats.generated;
  json["peak_open"] = stats.peak_open;
  json["microseconds"] = stats.microseconds;
  return json;
}

Json trace_json(const SearchTrace& trace, const std::function<Point(NodeId)>& position, bool with_z,
                bool whole_numbers, std::size_t max_events) {
  Json events = Json::array();
  const std::size_t count = std::min(trace.size(), max_events);
  for (std::size_t i = 0; i < count; ++i) {
    const TraceRecord& record = trace.events()[i];
    const Point at = position(record.node);
    Json event = Json::array({static_cast<int>(record.event)});
    const auto add = [&](double value) {
      if (whole_numbers) {
        event.push_back(static_cast<long long>(value));
      } else {
        event.push_back(value);
      }
    };
    add(at.x);
    add(at.y);
    if (with_z) add(at.z);
    events.push_back(std::move(event));
  }
  return events;
}

Json grid_description_json(const GridMap& map) {
  // One character per cell, row by row: '#' blocked, otherwise the index of the cell's cost in
  // `costs` as a digit or letter (0-9, a-z, A-Z). Maps with more than 62 distinct costs share
  // the last symbol among the rest (drawing only; queries use the exact costs).
  static constexpr std::string_view symbols = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::vector<float> costs;
  std::string cells(map.cell_count(), '#');
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y)) continue;
      const float cost = map.cost(x, y);
      auto found = std::find(costs.begin(), costs.end(), cost);
      std::size_t index = static_cast<std::size_t>(found - costs.begin());
      if (found == costs.end()) {
        if (costs.size() < symbols.size()) {
          costs.push_back(cost);
        } else {
          index = symbols.size() - 1;
        }
      }
      cells[map.id_of(x, y)] = symbols[index];
    }
  Json json;
  json["width"] = map.width();
  json["height"] = map.height();
  json["revision"] = map.revision();
  json["costs"] = costs;
  json["cells"] = std::move(cells);
  return json;
}

Json mesh_description_json(const NavMesh& mesh) {
  Json json;
  json["vertices"] = points_json(std::vector<Point>(mesh.vertices().begin(), mesh.vertices().end()), true);
  Json polygons = Json::array();
  Json regions = Json::array();
  for (PolygonId polygon = 0; polygon < mesh.polygon_count(); ++polygon) {
    const auto indices = mesh.polygon_vertices(polygon);
    polygons.push_back(std::vector<std::uint32_t>(indices.begin(), indices.end()));
    regions.push_back(mesh.region(polygon));
  }
  json["polygons"] = std::move(polygons);
  json["regions"] = std::move(regions);
  json["region_count"] = mesh.region_count();
  json["bounds"] = {{"min", point_json(mesh.bounds().min, true)}, {"max", point_json(mesh.bounds().max, true)}};
  return json;
}

Json voxel_description_json(const VoxelWorld& world) {
  // Top-down: per column (x, z), row by row in z, the height of its highest non-air block (-1
  // for an empty column) and that block's kind ('s' solid, 'w' water, 'l' ladder, ' ' none).
  Json heights = Json::array();
  std::string kinds;
  kinds.reserve(static_cast<std::size_t>(world.size_x()) * static_cast<std::size_t>(world.size_z()));
  for (int z = 0; z < world.size_z(); ++z)
    for (int x = 0; x < world.size_x(); ++x) {
      int top = -1;
      BlockKind kind = BlockKind::air;
      for (int y = world.size_y() - 1; y >= 0; --y) {
        kind = world.block(x, y, z);
        if (kind != BlockKind::air) {
          top = y;
          break;
        }
      }
      heights.push_back(top);
      kinds.push_back(top < 0 ? ' ' : kind == BlockKind::water ? 'w' : kind == BlockKind::ladder ? 'l' : 's');
    }
  Json json;
  json["size"] = {world.size_x(), world.size_y(), world.size_z()};
  json["revision"] = world.revision();
  json["heights"] = std::move(heights);
  json["kinds"] = std::move(kinds);
  return json;
}

}  // namespace wayfinder
