#include "wayfinder/navmesh/obj_writer.hpp"

#include "wayfinder/navmesh/obj_reader.hpp"

#include <charconv>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/float_chars.hpp"

namespace wayfinder {

namespace {
// The shortest text that reads back as the same double.
void put_number(std::ostream& out, double value) {
  char buffer[32];
  const auto [end, error] = double_to_chars(buffer, buffer + sizeof buffer, value);
  out.write(buffer, error == std::errc{} ? end - buffer : 0);
}
}  // namespace

void write_obj_mesh(const MeshGeometry& geometry, std::ostream& out) {
  // The marker tells the tools that this is a navigation mesh, not a level's geometry.
  out << (geometry.declared_navmesh ? std::string(obj_navmesh_marker) + ": " : std::string("# ")) << geometry.vertices.size() << " vertices, " << geometry.polygons.size() << " polygons";
  if (!geometry.source.empty()) out << " (" << geometry.source << ")";
  out << '\n';
  for (const Point& v : geometry.vertices) {
    out << "v ";
    put_number(out, v.x);
    out << ' ';
    put_number(out, v.y);
    out << ' ';
    put_number(out, v.z);
    out << '\n';
  }
  for (const auto& polygon : geometry.polygons) {
    out << 'f';
    for (const std::uint32_t index : polygon) out << ' ' << index + 1;
    out << '\n';
  }
}

void write_obj_mesh(const MeshGeometry& geometry, const std::filesystem::path& file) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  write_obj_mesh(geometry, out);
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + file.string() + " (disk full?)");
}

}  // namespace wayfinder
