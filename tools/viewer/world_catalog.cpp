#include "viewer/world_catalog.hpp"

#include <filesystem>
#include <stdexcept>

#include "common/mesh_file.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"

namespace wayfinder::viewer {

std::string_view to_string(WorldKind kind) {
  switch (kind) {
    case WorldKind::grid: return "grid";
    case WorldKind::navmesh: return "navmesh";
    case WorldKind::voxel: return "voxel";
  }
  return "unknown";
}

namespace {

/// A new entry of `kind` called `name`; the caller sets its world.
std::shared_ptr<CatalogWorld> unfilled_world(WorldKind kind, std::string name) {
  auto world = std::make_shared<CatalogWorld>();
  world->kind = kind;
  world->name = std::move(name);
  return world;
}

}  // namespace

std::size_t world_bytes(const GridMap& map) {
  return static_cast<std::size_t>(map.width()) * static_cast<std::size_t>(map.height()) * 8;
}

std::size_t world_bytes(const NavMesh& mesh) {
  return mesh.vertex_count() * 2 * sizeof(Point) + mesh.polygon_count() * 256 + mesh.shared_edge_count() * 32;
}

std::size_t world_bytes(const VoxelWorld& world) { return world.memory_bytes(); }

int WorldCatalog::insert(std::shared_ptr<CatalogWorld> world, std::size_t bytes) {
  const std::unique_lock lock(mutex_);
  if (worlds_.size() >= limits_.max_worlds)
    throw CatalogFull("the server already holds " + std::to_string(limits_.max_worlds) + " worlds, its limit");
  if (bytes > limits_.max_bytes - bytes_)
    throw CatalogFull("the world needs about " + std::to_string(bytes) + " bytes; the server's worlds already take " +
                      std::to_string(bytes_) + " of at most " + std::to_string(limits_.max_bytes));
  bytes_ += bytes;
  world->id = next_id_++;
  worlds_.push_back(world);
  return world->id;
}

int WorldCatalog::add(std::string name, GridMap map) {
  auto world = unfilled_world(WorldKind::grid, std::move(name));
  const std::size_t bytes = world_bytes(map);
  world->grid = std::make_unique<GridMap>(std::move(map));
  return insert(std::move(world), bytes);
}

int WorldCatalog::add(std::string name, NavMesh mesh) {
  auto world = unfilled_world(WorldKind::navmesh, std::move(name));
  const std::size_t bytes = world_bytes(mesh);
  world->mesh = std::make_unique<NavMesh>(std::move(mesh));
  return insert(std::move(world), bytes);
}

int WorldCatalog::add(std::string name, NavMesh mesh, std::shared_ptr<LevelObstacles> level, std::size_t level_bytes) {
  auto world = unfilled_world(WorldKind::navmesh, std::move(name));
  const std::size_t bytes = world_bytes(mesh) + level_bytes;
  world->mesh = std::make_unique<NavMesh>(std::move(mesh));
  world->level = std::move(level);
  return insert(std::move(world), bytes);
}

int WorldCatalog::add(std::string name, VoxelWorld voxels) {
  auto world = unfilled_world(WorldKind::voxel, std::move(name));
  const std::size_t bytes = world_bytes(voxels);
  world->voxels = std::make_unique<VoxelWorld>(std::move(voxels));
  return insert(std::move(world), bytes);
}

std::shared_ptr<CatalogWorld> WorldCatalog::find(int id) const {
  const std::shared_lock lock(mutex_);
  for (const auto& world : worlds_)
    if (world->id == id) return world;
  return nullptr;
}

std::vector<std::shared_ptr<CatalogWorld>> WorldCatalog::list() const {
  const std::shared_lock lock(mutex_);
  return worlds_;
}

std::size_t WorldCatalog::size() const {
  const std::shared_lock lock(mutex_);
  return worlds_.size();
}

std::size_t WorldCatalog::bytes() const {
  const std::shared_lock lock(mutex_);
  return bytes_;
}

int load_world_file(WorldCatalog& catalog, const std::string& path) {
  const std::filesystem::path file(path);
  const std::string extension = file.extension().string();
  const std::string name = file.stem().string();
  if (extension == ".map") return catalog.add(name, read_movingai_map(file));
  if (mesh_file_format_of(file)) return catalog.add(name, NavMesh::build(read_mesh_file_geometry(file)));
  if (extension == ".vox") return catalog.add(name, read_vox_file(file));
  if (extension == ".3dmap") return catalog.add(name, read_voxel_benchmark_map(file));
  throw std::invalid_argument(path + ": unknown world file type '" + extension +
                              "' (expected .map, .obj, .mesh, .wfnav, .vox or .3dmap)");
}

}  // namespace wayfinder::viewer
