// read_obj_mesh for a library built without tinyobjloader (WAYFINDER_WITH_OBJ=OFF): the
// functions exist, so programs link either way, and say plainly why they cannot read the file.

#include "wayfinder/core/load_error.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"

namespace wayfinder {
namespace {

constexpr const char* obj_support_missing =
    "this Wayfinder library was built without OBJ support (tinyobjloader was not found); install "
    "libtinyobjloader-dev and rebuild, or read a Polyanya .mesh file or NavMesh::from_arrays instead";

}  // namespace

MeshGeometry read_obj_mesh(const std::filesystem::path& file, const ObjReadOptions&) {
  throw LoadError(file.string(), 0, 0, obj_support_missing);
}

MeshGeometry parse_obj_mesh(std::string_view, const std::string& source_name, const ObjReadOptions&) {
  throw LoadError(source_name, 0, 0, obj_support_missing);
}

}  // namespace wayfinder
