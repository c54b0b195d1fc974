// Areas and flags of a NavMesh's polygons: the counts behind areas_in_use() and flags_in_use(),
// and the edits, each one revision of the change log.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "wayfinder/navmesh/nav_mesh.hpp"

namespace wayfinder {

void NavMesh::count_tags() {
  polygons_per_area_.fill(0);
  polygons_per_flag_.fill(0);
  for (PolygonId polygon = 0; polygon < polygon_count(); ++polygon) {
    // A tiled mesh's unused ids are no ground: their tags count for nothing.
    if (is_empty_polygon(polygon)) continue;
    const PolygonTags& tags = tags_[polygon];
    ++polygons_per_area_[tags.area];
    for (unsigned bit = 0; bit < polygons_per_flag_.size(); ++bit) polygons_per_flag_[bit] += (tags.flags >> bit) & 1u;
  }
  areas_in_use_ = 0;
  flags_in_use_ = 0;
  for (unsigned area = 0; area < polygons_per_area_.size(); ++area)
    if (polygons_per_area_[area] != 0) areas_in_use_ |= std::uint64_t{1} << area;
  for (unsigned bit = 0; bit < polygons_per_flag_.size(); ++bit)
    if (polygons_per_flag_[bit] != 0) flags_in_use_ = static_cast<AreaFlags>(flags_in_use_ | (1u << bit));
}

PolygonId NavMesh::checked_polygon(PolygonId polygon) const {
  if (polygon >= polygon_count())
    throw std::out_of_range("polygon " + std::to_string(polygon) + " is not in the mesh (it has " +
                            std::to_string(polygon_count()) + " polygons)");
  if (is_empty_polygon(polygon))
    throw std::out_of_range("polygon " + std::to_string(polygon) + " is an unused id of its tile");
  return polygon;
}

AreaId NavMesh::checked_area(AreaId area) {
  if (area >= max_areas)
    throw std::invalid_argument("area " + std::to_string(area) + " is not in [0, " + std::to_string(max_areas) + ")");
  return area;
}

bool NavMesh::retag(PolygonId polygon, AreaId area, AreaFlags flags) {
  PolygonTags& tags = tags_[polygon];
  if (tags.area == area && tags.flags == flags) return false;
  changes_.record({polygon, tags.area, tags.flags});
  // The per-area and per-flag counts keep areas_in_use() and flags_in_use() exact in O(1) per
  // edit, so queries can ask them on every begin().
  if (--polygons_per_area_[tags.area] == 0) areas_in_use_ &= ~(std::uint64_t{1} << tags.area);
  if (polygons_per_area_[area]++ == 0) areas_in_use_ |= std::uint64_t{1} << area;
  for (unsigned bit = 0; bit < polygons_per_flag_.size(); ++bit) {
    const bool had = ((tags.flags >> bit) & 1u) != 0, has = ((flags >> bit) & 1u) != 0;
    if (had == has) continue;
    const auto mask = static_cast<AreaFlags>(1u << bit);
    if (had && --polygons_per_flag_[bit] == 0) flags_in_use_ = static_cast<AreaFlags>(flags_in_use_ & ~mask);
    if (has && polygons_per_flag_[bit]++ == 0) flags_in_use_ = static_cast<AreaFlags>(flags_in_use_ | mask);
  }
  tags = {area, flags};
  return true;
}

void NavMesh::set_area(PolygonId polygon, AreaId area) {
  checked_polygon(polygon);
  set_area_and_flags(polygon, area, tags_[polygon].flags);
}

void NavMesh::set_flags(PolygonId polygon, AreaFlags flags) {
  checked_polygon(polygon);
  set_area_and_flags(polygon, tags_[polygon].area, flags);
}

void NavMesh::set_area_and_flags(PolygonId polygon, AreaId area, AreaFlags flags) {
  checked_polygon(polygon);
  checked_area(area);
  if (retag(polygon, area, flags)) changes_.commit();
}

void NavMesh::set_area(std::span<const PolygonId> polygons, AreaId area) {
  checked_area(area);
  for (const PolygonId polygon : polygons) checked_polygon(polygon);
  bool changed = false;
  for (const PolygonId polygon : polygons) changed |= retag(polygon, area, tags_[polygon].flags);
  if (changed) changes_.commit();
}

void NavMesh::set_flags(std::span<const PolygonId> polygons, AreaFlags flags) {
  for (const PolygonId polygon : polygons) checked_polygon(polygon);
  bool changed = false;
  for (const PolygonId polygon : polygons) changed |= retag(polygon, tags_[polygon].area, flags);
  if (changed) changes_.commit();
}

}  // namespace wayfinder
