// Off-mesh links through C: adding links to a mesh one by one or from a links file, as the
// `wayfinder mesh path --links` command reads them.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "handles.hpp"
#include "options.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/navmesh/off_mesh_link_reader.hpp"

using namespace wayfinder;
using namespace wayfinder::c_api;

namespace {

OffMeshLink link_of(const wf_off_mesh_link& given) {
  OffMeshLink link;
  link.start = {given.start[0], given.start[1], given.start[2]};
  link.end = {given.end[0], given.end[1], given.end[2]};
  link.radius = given.radius;
  link.bidirectional = given.bidirectional != 0;
  // NaN is not below 0: it reaches NavMesh, which refuses it by name.
  if (!(given.cost < 0.0)) link.cost = given.cost;
  link.area = given.area;
  link.flags = given.flags;
  link.user_id = given.user_id;
  return link;
}

}  // namespace

extern "C" {

void wf_off_mesh_link_init(wf_off_mesh_link* link) {
  if (link == nullptr) return;
  const OffMeshLink defaults;
  *link = wf_off_mesh_link{};
  link->radius = defaults.radius;
  link->cost = -1.0;
  link->bidirectional = defaults.bidirectional ? 1 : 0;
  link->area = defaults.area;
  link->flags = defaults.flags;
  link->user_id = defaults.user_id;
}

wf_status wf_navmesh_add_off_mesh_link(wf_navmesh* mesh, const wf_off_mesh_link* link, uint32_t* link_id) {
  if (!is_live(mesh)) return WF_INVALID_ARGUMENT;
  if (link == nullptr) return fail(mesh->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_add_off_mesh_link: link is NULL");
  return guarded(mesh->header.error, [&] {
    const OffMeshLinkId id = mesh->mesh->add_off_mesh_link(link_of(*link));
    if (link_id != nullptr) *link_id = id;
    return WF_OK;
  });
}

wf_status wf_navmesh_add_off_mesh_links_file(wf_navmesh* mesh, const char* path, size_t* added) {
  if (!is_live(mesh)) return WF_INVALID_ARGUMENT;
  if (path == nullptr)
    return fail(mesh->header.error, WF_INVALID_ARGUMENT, "wf_navmesh_add_off_mesh_links_file: path is NULL");
  return guarded(mesh->header.error, [&] {
    const std::vector<OffMeshLink> links = read_off_mesh_links(path);
    // All or nothing: the links go onto a copy, which replaces the mesh once every one is placed.
    NavMesh edited = *mesh->mesh;
    for (const OffMeshLink& link : links) {
      try {
        edited.add_off_mesh_link(link);
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(std::string(path) + ":" + std::to_string(link.line) + ": " + error.what());
      }
    }
    *mesh->mesh = std::move(edited);
    if (added != nullptr) *added = links.size();
    return WF_OK;
  });
}

wf_status wf_navmesh_off_mesh_link_count(const wf_navmesh* mesh, size_t* count) {
  if (!is_live(mesh) || count == nullptr) return WF_INVALID_ARGUMENT;
  *count = mesh->mesh->off_mesh_link_count();
  return WF_OK;
}

}  // extern "C"
