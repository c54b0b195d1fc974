#pragma once
// Recast's objects come from its own allocator and go back to it: unique pointers that free
// them whatever happens. Internal to the navmesh_build library and its benchmark.

#include <recastnavigation/Recast.h>

#include <memory>

namespace wayfinder {

struct RecastDeleter {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
  void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
  void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};
template <class T>
using RecastPointer = std::unique_ptr<T, RecastDeleter>;

}  // namespace wayfinder
