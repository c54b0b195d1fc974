#pragma once
// The C options structs to each world's C++ options, and C's coordinate arrays to C++ points,
// shared by the query handles and the batches. Each throws std::invalid_argument for a value C++ cannot represent (an enumeration
// value out of range, a NaN or negative time); null means the defaults.

#include "handles.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder::c_api {

GridSearchOptions grid_options(const wf_grid_options* options);
NavMeshSearchOptions navmesh_options(const wf_navmesh_options* options);
VoxelSearchOptions voxel_options(const wf_voxel_options* options);
MovementProfile movement_profile(const wf_movement_profile& profile);
/// The C filter as C++'s, copied unchecked: queries check it (AreaFilter::problem) and answer
/// invalid_input with the reason, as for any other untrusted option.
AreaFilter area_filter(const wf_area_filter& filter);

/// x, y, z from a C array of three (not NULL).
inline Point point_of(const double* xyz) { return {xyz[0], xyz[1], xyz[2]}; }
inline VoxelCoord voxel_of(const std::int32_t* xyz) { return {xyz[0], xyz[1], xyz[2]}; }

}  // namespace wayfinder::c_api
