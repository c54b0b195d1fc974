#pragma once
// The worlds' state as pickle sees it (py::pickle's __getstate__ and __setstate__), so that a
// world can be sent to another process: a tuple of a format version and plain values and bytes
// holding everything that defines the world. A world made from its state answers every query
// as the original does and compares equal to it; its revision and change log start afresh.

#include "bindings.hpp"
#include "wayfinder/grid/world/grid_map.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/voxel/voxel_world.hpp"

namespace wayfinder::python {

/// (1, width, height, costs, blocked, areas, flags): per cell in row-major order, costs as
/// float32 (a blocked cell's cost kept for when it is unblocked), blocked as one byte, areas as
/// one byte and flags as uint16, both empty while no cell has one set. Native byte order: a
/// state is for processes on the same kind of machine.
[[nodiscard]] py::tuple grid_state(const GridMap& map);
/// Throws ValueError for a state that is not one grid_state made.
[[nodiscard]] GridMap grid_from_state(const py::tuple& state);

/// (1, bytes of the baked navmesh file, navmesh_file_bytes), the format made to keep a mesh whole.
[[nodiscard]] py::tuple navmesh_state(const NavMesh& mesh);
/// Throws LoadError for bytes that are not a navmesh file, ValueError for another tuple.
[[nodiscard]] NavMesh navmesh_from_state(const py::tuple& state);

/// (1, size_x, size_y, size_z, kinds): one BlockKind byte per block, index (y * size_z + z) *
/// size_x + x, as VoxelWorld::from_array reads it.
[[nodiscard]] py::tuple voxel_state(const VoxelWorld& world);
/// Throws ValueError for a state that is not one voxel_state made.
[[nodiscard]] VoxelWorld voxel_from_state(const py::tuple& state);

}  // namespace wayfinder::python
