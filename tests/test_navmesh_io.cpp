// The navigation-mesh readers (Wavefront OBJ, Polyanya "mesh 2", query files) and the SVG
// renderer: every accepted variant of the formats, every malformed input with the line, column
// and cause of its error, and every real mesh and query file of the shared data with the
// counts its provenance notes give.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "grid_test_support.hpp"
#include "wayfinder/core/load_error.hpp"
#include "common/mesh_query_file.hpp"
#include "wayfinder/debug/grid_svg.hpp"
#include "wayfinder/navmesh/nav_mesh.hpp"
#include "wayfinder/debug/navmesh_svg.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/navmesh/obj_writer.hpp"
#include "wayfinder/navmesh/polyanya_mesh_reader.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::testing;

/// Runs `parse` and checks that it throws LoadError at `line` (and `column` unless negative)
/// with a cause containing `cause_part`.
void expect_load_error(const std::function<void()>& parse, int line, int column, std::string_view cause_part) {
  try {
    parse();
    ADD_FAILURE() << "expected a LoadError containing '" << cause_part << "'";
  } catch (const LoadError& error) {
    EXPECT_EQ(error.line(), line) << error.what();
    if (column >= 0) {
      EXPECT_EQ(error.column(), column) << error.what();
    }
    EXPECT_NE(error.cause().find(cause_part), std::string::npos) << error.what();
  }
}

void expect_obj_error(std::string_view text, int line, int column, std::string_view cause_part) {
  expect_load_error([&] { parse_obj_mesh(text, "test.obj"); }, line, column, cause_part);
}

void expect_mesh_error(std::string_view text, int line, int column, std::string_view cause_part) {
  expect_load_error([&] { parse_polyanya_mesh(text, "test.mesh"); }, line, column, cause_part);
}

std::vector<std::uint32_t> indices(std::initializer_list<std::uint32_t> list) { return list; }

// ---------------------------------------------------------------------------------------------
// OBJ

TEST(ObjReader, ReadsTrianglesQuadsAndNGonsWithTheirLines) {
  const MeshGeometry geometry = parse_obj_mesh(
      "# a comment\n"
      "v 0 0 0\n"
      "v 1 0 0\n"
      "v 1 0 1\n"
      "v 0 0 1\n"
      "v 2 0 0.5\n"
      "f 1 2 3\n"
      "\n"
      "f 1 2 3 4\n"
      "f 1 2 5 3 4\n",
      "shapes.obj");
  EXPECT_EQ(geometry.source, "shapes.obj");
  ASSERT_EQ(geometry.vertices.size(), 5u);
  EXPECT_EQ(geometry.vertices[4], (Point{2, 0, 0.5}));
  EXPECT_EQ(geometry.vertex_lines, (std::vector<int>{2, 3, 4, 5, 6}));
  ASSERT_EQ(geometry.polygons.size(), 3u);
  EXPECT_EQ(geometry.polygons[0], indices({0, 1, 2}));
  EXPECT_EQ(geometry.polygons[1], indices({0, 1, 2, 3}));
  EXPECT_EQ(geometry.polygons[2], indices({0, 1, 4, 2, 3}));
  EXPECT_EQ(geometry.polygon_lines, (std::vector<int>{7, 9, 10}));
}

TEST(ObjReader, NegativeIndicesCountBackFromTheVerticesAbove) {
  const MeshGeometry geometry = parse_obj_mesh(
      "v 0 0 0\nv 1 0 0\nv 1 0 1\n"
      "f -3 -2 -1\n"
      "v 0 0 1\n"
      "f -4 -2 -1\n",
      "relative.obj");
  ASSERT_EQ(geometry.polygons.size(), 2u);
  EXPECT_EQ(geometry.polygons[0], indices({0, 1, 2}));
  EXPECT_EQ(geometry.polygons[1], indices({0, 2, 3}));
}

TEST(ObjReader, TextureAndNormalIndicesAreAcceptedAndIgnored) {
  const MeshGeometry geometry = parse_obj_mesh(
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n"
      "vt 0 0\nvt 1 0\nvt 1 1\n"
      "vn 0 1 0\n"
      "f 1/1 2/2 3/3\n"
      "f 1//1 3//1 4//1\n"
      "f 1/1/1 2/2/1 3/3/1 4/3/1\n"
      "f -4/-3/-1 -3/-2/-1 -2/-1/-1\n",
      "attributes.obj");
  ASSERT_EQ(geometry.polygons.size(), 4u);
  EXPECT_EQ(geometry.polygons[0], indices({0, 1, 2}));
  EXPECT_EQ(geometry.polygons[1], indices({0, 2, 3}));
  EXPECT_EQ(geometry.polygons[2], indices({0, 1, 2, 3}));
  EXPECT_EQ(geometry.polygons[3], indices({0, 1, 2}));
}

TEST(ObjReader, ObjectsGroupsSmoothingAndMaterialsAreIgnored) {
  // mtllib names a file that does not exist: it must not be opened (or be an error).
  const MeshGeometry geometry = parse_obj_mesh(
      "mtllib does_not_exist.mtl\n"
      "o first\n"
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n"
      "g walls floor\n"
      "usemtl stone\n"
      "s 1\n"
      "f 1 2 3\n"
      "usemtl grass\n"
      "s off\n"
      "f 1 3 4\n"
      "o second\n"
      "g\n"
      "f 2 3 4\n"
      "l 1 2\n"
      "p 3\n"
      "t crease 2/0/0 1 2\n"
      "vw 1 0 0.5\n"
      "cstype bspline\n",
      "groups.obj");
  ASSERT_EQ(geometry.polygons.size(), 3u);
  EXPECT_EQ(geometry.polygons[0], indices({0, 1, 2}));
  EXPECT_EQ(geometry.polygons[1], indices({0, 2, 3}));
  EXPECT_EQ(geometry.polygons[2], indices({1, 2, 3}));
  EXPECT_EQ(geometry.polygon_lines, (std::vector<int>{10, 13, 16}));
}

TEST(ObjReader, ZUpFilesAreTurnedToYUp) {
  const std::string text = "v 1 2 3\nv 4 5 6\nv 7 8 9\nf 1 2 3\n";
  const MeshGeometry y_up = parse_obj_mesh(text, "y.obj");
  EXPECT_EQ(y_up.vertices[0], (Point{1, 2, 3}));
  const MeshGeometry z_up = parse_obj_mesh(text, "z.obj", {UpAxis::z});
  EXPECT_EQ(z_up.vertices[0], (Point{1, 3, -2}));
  EXPECT_EQ(z_up.vertices[2], (Point{7, 9, -8}));
}

TEST(ObjReader, LineEndingsByteOrderMarkTabsAndNumberSpellings) {
  for (const std::string_view text : {std::string_view("v 0 0 0\r\nv 1 0 0\r\nv 1 0 1\r\nf 1 2 3\r\n"),
                                      std::string_view("v 0 0 0\rv 1 0 0\rv 1 0 1\rf 1 2 3"),
                                      std::string_view("\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n"),
                                      std::string_view("  v\t0 0 0\nv +1 .0 0.\n\tv 1e0 0 1E+0   \nf\t1   2 3 \n")}) {
    const MeshGeometry geometry = parse_obj_mesh(text, "endings.obj");
    ASSERT_EQ(geometry.vertices.size(), 3u) << text;
    EXPECT_EQ(geometry.vertices[2], (Point{1, 0, 1})) << text;
    ASSERT_EQ(geometry.polygons.size(), 1u) << text;
    EXPECT_EQ(geometry.polygons[0], indices({0, 1, 2})) << text;
    EXPECT_EQ(geometry.polygon_lines[0], 4) << text;
  }
}

TEST(ObjReader, FacesMayComeBeforeTheirVerticesAndHaveHundredsOfCorners) {
  // A regular 300-gon: more corners than tinyobjloader's one-byte face sizes can count.
  constexpr int corners = 300;
  std::string text = "f";
  for (int i = 1; i <= corners; ++i) text += " " + std::to_string(i);
  text += "\n";
  for (int i = 0; i < corners; ++i) {
    const double angle = 2.0 * 3.14159265358979323846 * i / corners;
    text += "v " + std::to_string(std::cos(angle)) + " 0 " + std::to_string(std::sin(angle)) + "\n";
  }
  text += "f 1 2 3\n";
  const MeshGeometry geometry = parse_obj_mesh(text, "ngon.obj");
  ASSERT_EQ(geometry.polygons.size(), 2u);
  ASSERT_EQ(geometry.polygons[0].size(), static_cast<std::size_t>(corners));
  EXPECT_EQ(geometry.polygons[0][299], 299u);
  EXPECT_EQ(geometry.polygons[1], indices({0, 1, 2}));
  EXPECT_EQ(geometry.polygon_lines, (std::vector<int>{1, corners + 2}));
}

TEST(ObjReader, MalformedVerticesNameLineColumnAndCause) {
  expect_obj_error("v 0 0 0\nv 1 x 0\n", 2, 5, "non-numeric y coordinate 'x'");
  expect_obj_error("v 0 0 0\nv 1 0 1.5abc\n", 2, 7, "non-numeric z coordinate '1.5abc'");
  expect_obj_error("v 1 2\n", 1, 6, "a vertex needs 3 coordinates (x y z), found 2");
  expect_obj_error("v 0 0 0\nv\n", 2, -1, "a vertex needs 3 coordinates");
  expect_obj_error("v nan 0 0\n", 1, 3, "x coordinate 'nan' is not a finite number");
  expect_obj_error("v 0 inf 0\n", 1, 5, "y coordinate 'inf' is not a finite number");
  expect_obj_error("v 0 0 -infinity\n", 1, 7, "is not a finite number");
  expect_obj_error("v 0 0 1e999\n", 1, 7, "z coordinate '1e999' is out of range");
  expect_obj_error("v 0 0 0 1 1 1 1 1\n", 1, 17, "unexpected '1' after the vertex");
}

TEST(ObjReader, MalformedFacesNameLineColumnAndCause) {
  const std::string three = "v 0 0 0\nv 1 0 0\nv 1 0 1\n";
  expect_obj_error(three + "f 1 2\n", 4, 3, "a face needs at least 3 vertices, found 2");
  expect_obj_error(three + "f\n", 4, 2, "a face needs at least 3 vertices, found 0");
  expect_obj_error(three + "f 1 0 3\n", 4, 5, "index 0 in face vertex '0'");
  expect_obj_error(three + "f 1 2 4\n", 4, 7, "vertex index 4 is out of range: the file has 3 vertices");
  expect_obj_error(three + "f 1 2 -4\n", 4, 7, "vertex index -4 is out of range: only 3 vertices are defined above");
  // Relative indices count only the vertices above the face, even if more follow.
  expect_obj_error("v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 1 0 1\n", 3, 9, "vertex index -3 is out of range");
  expect_obj_error(three + "f 1 2 x\n", 4, 7, "malformed face vertex 'x'");
  expect_obj_error(three + "f 1 2 3.5\n", 4, 7, "malformed face vertex '3.5'");
  expect_obj_error(three + "f 1 2 3/\n", 4, 7, "nothing after '/'");
  expect_obj_error(three + "f 1 2 3/1/1/1\n", 4, 7, "malformed face vertex '3/1/1/1'");
  expect_obj_error(three + "f 1 2 3/0\n", 4, 7, "index 0 in face vertex '3/0'");
  expect_obj_error(three + "f 1 2 99999999999999999999\n", 4, 7, "malformed face vertex");
  expect_obj_error(three + "f 1 2 3 # corner\n", 4, 9, "malformed face vertex '#'");
  // The first out-of-range corner in file order is the one reported.
  expect_obj_error(three + "f 1 2 3\nf 1 9 3\nf 8 2 3\n", 5, 5, "vertex index 9");
}

TEST(ObjReader, AFileWithoutFacesIsAnError) {
  expect_obj_error("", 0, 0, "no faces");
  expect_obj_error("# nothing here\n\n", 0, 0, "no faces");
  expect_obj_error("v 0 0 0\nv 1 0 0\nv 1 0 1\n", 0, 0, "no faces: the file has 3 vertices but no 'f' lines");
}

TEST(ObjReader, ReadingAMissingFileIsALoadError) {
  EXPECT_THROW(read_obj_mesh("/nonexistent/wayfinder/mesh.obj"), LoadError);
}

// ---------------------------------------------------------------------------------------------
// Polyanya "mesh 2"

// Two triangles forming the unit square (0,0)-(1,1), split along the diagonal 0-2, written
// with irregular whitespace as the format allows.
constexpr std::string_view two_triangles =
    "mesh\n"
    "2\n"
    "4 2\n"
    "0 0   2 0 -1\n"
    "1 0 1 0\n"
    "1 1\t2 0 1\n"
    "0 1 1 1\n"
    "3 0 1 2  -1 -1 1\n"
    "3\n0 2 3\n0 -1 -1\n";

TEST(PolyanyaMeshReader, ReadsASmallMesh) {
  const MeshGeometry geometry = parse_polyanya_mesh(two_triangles, "square.mesh");
  EXPECT_EQ(geometry.source, "square.mesh");
  ASSERT_EQ(geometry.vertices.size(), 4u);
  EXPECT_EQ(geometry.vertices[2], (Point{1, 0, 1}));  // (x, y) lies in the x-z plane
  EXPECT_EQ(geometry.vertex_lines, (std::vector<int>{4, 5, 6, 7}));
  ASSERT_EQ(geometry.polygons.size(), 2u);
  EXPECT_EQ(geometry.polygons[0], indices({0, 1, 2}));
  EXPECT_EQ(geometry.polygons[1], indices({0, 2, 3}));
  EXPECT_EQ(geometry.polygon_lines, (std::vector<int>{8, 9}));

  std::string crlf;
  for (const char c : two_triangles) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const MeshGeometry again = parse_polyanya_mesh(crlf, "square.mesh");
  EXPECT_EQ(again.polygons, geometry.polygons);
  EXPECT_EQ(again.polygon_lines, geometry.polygon_lines);
}

TEST(PolyanyaMeshReader, MalformedInputNamesLineColumnAndCause) {
  expect_mesh_error("", 0, 0, "empty file");
  expect_mesh_error("  \n", 0, 0, "empty file");
  expect_mesh_error("mesh2\n", 1, 1, "expected 'mesh'");
  expect_mesh_error("mesh\n3\n", 2, 1, "unsupported mesh format version '3'");
  expect_mesh_error("mesh\n2\n", 2, 2, "the file ends where the vertex count should be");
  expect_mesh_error("mesh\n2\n-1 0\n", 3, 1, "negative vertex count '-1'");
  expect_mesh_error("mesh\n2\n0 0\n", 3, 3, "no polygons: the polygon count is 0");
  expect_mesh_error("mesh\n2\nfour 2\n", 3, 1, "non-numeric vertex count 'four'");
  expect_mesh_error("mesh\n2\n1000000 1\n0 0 0\n", 3, 1, "vertex count 1000000 is too large for the file");
  expect_mesh_error("mesh\n2\n1 99999999999\n0 0 0\n", 3, 3, "polygon count 99999999999 exceeds the limit");
  expect_mesh_error("mesh\n2\n3 1000\n0 0 0\n1 0 0\n0 1 0\n", 3, 3, "polygon count 1000 is too large for the file");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 zero 0\n0 1 0\n3 0 1 2 -1 -1 -1\n", 5, 3,
                    "non-numeric vertex 1 y coordinate 'zero'");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\nnan 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n", 5, 1, "is not a finite number");
  expect_mesh_error("mesh\n2\n3 1\n0 0 1 1\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n", 4, 7,
                    "neighbour polygon 1 is out of range (expected -1 or 0 to 0)");
  expect_mesh_error("mesh\n2\n3 1\n0 0 1 -2\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n", 4, 7,
                    "neighbour polygon -2 is out of range");
  expect_mesh_error("mesh\n2\n3 1\n0 0 -1\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n", 4, 5, "negative neighbour count");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n2 0 1 -1 -1 -1 -1\n", 7, 1,
                    "a polygon needs at least 3 vertices, found 2");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3 -1 -1 -1\n", 7, 7,
                    "vertex index 3 is out of range (the mesh has 3 vertices)");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 -1 2 -1 -1 -1\n", 7, 5, "vertex index -1 is out of range");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 1\n", 7, 15,
                    "neighbour polygon 1 is out of range");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1\n", 7, 14,
                    "the file ends where the polygon 0 neighbour should be");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n5\n", 8, 1,
                    "unexpected '5' after the last of the 1 polygons");
  expect_mesh_error("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n1000000 0 1 2 -1 -1 -1\n", 7, 1,
                    "polygon vertex count 1000000 is too large for the file");
}

// ---------------------------------------------------------------------------------------------
// Query files

TEST(MeshQueryFile, ReferenceCsvColumnsAreFoundByName) {
  const std::vector<MeshQueryCase> queries = parse_mesh_queries(
      "ex,ey,ez,id,sx,sy,sz,reachable,optimal_len2d,start_poly,end_poly\n"
      "4,5,6,0,1,2,3,1,7.5,10,11\n"
      "\n"
      "4,5,6,1,1,2,3,0,-1,12,13\n",
      "queries.csv");
  ASSERT_EQ(queries.size(), 2u);
  EXPECT_EQ(queries[0].start, (Point{1, 2, 3}));
  EXPECT_EQ(queries[0].goal, (Point{4, 5, 6}));
  EXPECT_EQ(queries[0].start_polygon, 10);
  EXPECT_EQ(queries[0].goal_polygon, 11);
  EXPECT_EQ(queries[0].reachable, true);
  EXPECT_EQ(queries[0].optimal_length, 7.5);
  EXPECT_EQ(queries[0].line, 2);
  EXPECT_EQ(queries[1].reachable, false);
  EXPECT_TRUE(std::isnan(queries[1].optimal_length));
  EXPECT_EQ(queries[1].line, 4);
}

TEST(MeshQueryFile, PolyanyaCsvPointsLieInTheGroundPlane) {
  const std::vector<MeshQueryCase> queries =
      parse_mesh_queries("id,sx,sy,gx,gy,gridcost,optimal_len\n0,1,11,1.5,12,1,1\n1,2,3,4,5,2,-1\n", "opt.csv");
  ASSERT_EQ(queries.size(), 2u);
  EXPECT_EQ(queries[0].start, (Point{1, 0, 11}));
  EXPECT_EQ(queries[0].goal, (Point{1.5, 0, 12}));
  EXPECT_EQ(queries[0].optimal_length, 1.0);
  EXPECT_EQ(queries[0].reachable, true);
  EXPECT_EQ(queries[0].start_polygon, -1);
  EXPECT_EQ(queries[1].reachable, false);
  EXPECT_TRUE(std::isnan(queries[1].optimal_length));
}

TEST(MeshQueryFile, ScenariosGiveGroundPointsWithFractions) {
  const std::vector<MeshQueryCase> queries = parse_mesh_queries(
      "version 1\n0\tmaps/a.map\t3\t3\t0.99\t1.01\t-1.5 2\t4\n\n1 maps/a.map 3 3 1 2 0 0 2.5\n", "a.scen");
  ASSERT_EQ(queries.size(), 2u);
  EXPECT_EQ(queries[0].start, (Point{0.99, 0, 1.01}));
  EXPECT_EQ(queries[0].goal, (Point{-1.5, 0, 2}));
  EXPECT_FALSE(queries[0].reachable.has_value());  // the last column is a grid cost
  EXPECT_TRUE(std::isnan(queries[0].optimal_length));
  EXPECT_EQ(queries[1].line, 4);
}

TEST(MeshQueryFile, MalformedInputNamesLineColumnAndCause) {
  auto expect_error = [](std::string_view text, std::string_view name, int line, int column, std::string_view cause) {
    expect_load_error([&] { parse_mesh_queries(text, std::string(name)); }, line, column, cause);
  };
  expect_error("", "q.csv", 0, 0, "empty file");
  expect_error("hello world\n", "q.csv", 1, 1, "unrecognised query file");
  expect_error("hello\n", "q.scen", 1, 1, "expected 'version 1'");
  expect_error("sx,sy,sz,ex,ey\n", "q.csv", 1, 1, "the header has no column 'ez'");
  expect_error("sx,sy,gx\n", "q.csv", 1, 1, "the header has no column 'gy'");
  expect_error("sx,sy,sx,gx,gy\n", "q.csv", 1, 7, "duplicate column 'sx'");
  expect_error("sx,sy,gx,gy\n1,2,3\n", "q.csv", 2, 6, "expected 4 fields as in the header, found 3");
  expect_error("sx,sy,gx,gy\n1,2,3,4,5\n", "q.csv", 2, 9, "expected 4 fields as in the header, found 5");
  expect_error("sx,sy,gx,gy\n1, abc ,3,4\n", "q.csv", 2, 4, "non-numeric start y 'abc'");
  expect_error("sx,sy,gx,gy\n1,2,nan,4\n", "q.csv", 2, 5, "goal x 'nan' is not a finite number");
  expect_error("sx,sy,sz,ex,ey,ez,reachable\n1,2,3,4,5,6,yes\n", "q.csv", 2, 13, "reachable must be 0 or 1");
  expect_error("sx,sy,sz,ex,ey,ez,start_poly\n1,2,3,4,5,6,-7\n", "q.csv", 2, 13, "start polygon '-7' is below -1");
  expect_error("sx,sy,sz,ex,ey,ez,reachable,optimal_len2d\n1,2,3,4,5,6,0,3.5\n", "q.csv", 2, 15,
               "optimal length '3.5' for an unreachable query");
  expect_error("version 2\n", "q.scen", 1, 9, "unsupported scenario version '2'");
  expect_error("version 1\n0 m 3 3 1 1 2\n", "q.scen", 2, 14, "expected 9 fields, found 7");
  expect_error("version 1\n0 m 3 3 1 x 2 2 1\n", "q.scen", 2, 11, "non-numeric start y 'x'");
}

// ---------------------------------------------------------------------------------------------
// SVG

/// A minimal well-formedness check: every tag is closed in order, attributes are quoted, and
/// there is one root element. Returns an empty string or the first problem.
std::string xml_problem(std::string_view xml) {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  while ((i = xml.find('<', i)) != std::string_view::npos) {
    const std::size_t end = xml.find('>', i);
    if (end == std::string_view::npos) return "unterminated tag";
    std::string_view tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.starts_with('?')) continue;
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return "odd quotes in <" + std::string(tag) + ">";
    if (tag.starts_with('/')) {
      const std::string name(tag.substr(1));
      if (open.empty() || open.back() != name) return "unexpected </" + name + ">";
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.ends_with('/');
    const std::string name(tag.substr(0, tag.find_first_of(" \n/")));
    if (open.empty()) ++roots;
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) return "unclosed <" + open.back() + ">";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return {};
}

std::size_t count_of(std::string_view text, std::string_view part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

/// The text of the element <g id="name"> (up to its first "</g>").
std::string element_group(const std::string& svg, const std::string& name) {
  const std::size_t begin = svg.find("<g id=\"" + name + "\"");
  if (begin == std::string::npos) return {};
  const std::size_t end = svg.find("</g>", begin);
  return svg.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// Every tag ("<circle ... />") that contains `part`.
std::vector<std::string> tags_with(const std::string& svg, const std::string& part) {
  std::vector<std::string> tags;
  for (std::size_t at = svg.find(part); at != std::string::npos; at = svg.find(part, at + 1)) {
    const std::size_t begin = svg.rfind('<', at), end = svg.find('>', at);
    tags.push_back(svg.substr(begin, end - begin + 1));
  }
  return tags;
}

TEST(NavMeshSvg, DrawsEveryPolygonAndTheOptionalLayers) {
  // Two separate squares (two regions), each split into two triangles.
  const MeshGeometry geometry = parse_obj_mesh(
      "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n"
      "v 3 0 0\nv 4 0 0\nv 4 0 1\nv 3 0 1\n"
      "f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n",
      "islands.obj");
  const NavMesh mesh = NavMesh::build(geometry);
  ASSERT_EQ(mesh.polygon_count(), 4u);

  const std::string plain = render_navmesh_svg(mesh);
  EXPECT_EQ(xml_problem(plain), "");
  EXPECT_EQ(count_of(plain, "<polygon "), mesh.polygon_count());
  const std::string polygons = element_group(plain, "polygons");
  EXPECT_EQ(count_of(polygons, navmesh_svg_region_colour(0)), 2u);  // a flat mesh: plain region colours
  EXPECT_EQ(count_of(polygons, navmesh_svg_region_colour(1)), 2u);
  EXPECT_NE(navmesh_svg_region_colour(0), navmesh_svg_region_colour(1));
  EXPECT_EQ(count_of(plain, "id=\"path\""), 0u);

  NavMeshSvgOptions options;
  options.title = "islands <&> \"test\"";
  options.corridor = {0, 1};
  options.path = {{0.2, 0, 0.1}, {0.9, 0, 0.8}};
  options.explored = {{0.5, 0, 0.5}, {0.4, 0, 0.6}};
  options.start = options.path.front();
  options.goal = options.path.back();
  options.width_pixels = 300;
  const std::string full = render_navmesh_svg(mesh, options);
  EXPECT_EQ(xml_problem(full), "");
  EXPECT_EQ(count_of(full, "<polygon "), mesh.polygon_count());
  EXPECT_EQ(count_of(full, "id=\"corridor\""), 1u);
  EXPECT_EQ(count_of(full, "id=\"path\""), 1u);
  EXPECT_EQ(count_of(full, "id=\"explored\""), 1u);
  EXPECT_EQ(count_of(full, "id=\"start\""), 1u);
  EXPECT_EQ(count_of(full, "id=\"goal\""), 1u);
  EXPECT_NE(full.find("islands &lt;&amp;&gt; &quot;test&quot;"), std::string::npos);
  EXPECT_NE(full.find("points=\"0.2,0.1 0.9,0.8\""), std::string::npos);  // x right, z down
}

// A floor at y = 0 over [0, 4] x [0, 4] and a smaller one at y = 5 over [1, 3] x [1, 3], each
// split into two triangles.
NavMesh two_floors() {
  return NavMesh::build(parse_obj_mesh(
      "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\n"
      "v 1 5 1\nv 3 5 1\nv 3 5 3\nv 1 5 3\n"
      "f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n",
      "two_floors.obj"));
}

TEST(NavMeshSvg, TheLegendSaysWhatEveryMarkMeans) {
  const NavMesh mesh = two_floors();
  NavMeshSvgOptions options;
  options.corridor = {0, 1};
  options.path = {{0.5, 0, 0.5}, {3.5, 0, 3.5}};
  options.explored = {{1, 0, 1}, {2, 0, 2}, {2, 5, 2}};
  options.start = options.path.front();
  options.goal = options.path.back();
  const std::string svg = render_navmesh_svg(mesh, options);
  EXPECT_EQ(xml_problem(svg), "");
  const std::string legend = element_group(svg, "legend");
  ASSERT_FALSE(legend.empty());
  for (const char* text : {"walkable polygon, colour by connected region (2 regions)", "lowest, y 0", "highest, y 5",
                           "corridor (2 polygons)", "explored by the search (3)", "path, length 4.24 (2 waypoints)",
                           "start 0.5,0,0.5", "goal 3.5,0,3.5"})
    EXPECT_NE(legend.find(text), std::string::npos) << "the legend lacks '" << text << "'";
  // The page is taller than the drawing by the legend's rows.
  options.show_legend = false;
  const std::string bare = render_navmesh_svg(mesh, options);
  EXPECT_EQ(bare.find("id=\"legend\""), std::string::npos);
  EXPECT_LT(bare.size(), svg.size());
}

// Start and goal look as in the grid picture: a dark disc and a dark diamond (a square turned by
// 45 degrees), each with a white ring, on the map and in the legend.
TEST(NavMeshSvg, StartAndGoalMarkersAreTheGridPicturesOnes) {
  GridMap map(6, 4);
  GridSvgOptions grid_options;
  grid_options.start = Cell{1, 1};
  grid_options.goal = Cell{4, 2};
  const std::string grid = render_grid_svg(map, grid_options);
  NavMeshSvgOptions mesh_options;
  mesh_options.start = Point{0.5, 0, 0.5};
  mesh_options.goal = Point{3.5, 0, 3.5};
  const std::string mesh = render_navmesh_svg(two_floors(), mesh_options);
  // What a marker is, without its place and size: the element, its colours and its turn.
  auto shapes = [](const std::string& svg) {
    std::vector<std::string> found;
    for (const std::string& tag : tags_with(svg, "fill=\"#111111\"")) {
      std::string shape = tag.substr(0, tag.find(' '));
      if (tag.find("stroke=\"#ffffff\"") != std::string::npos) shape += " ringed in white";
      if (tag.find("rotate(45 ") != std::string::npos) shape += " turned 45";
      found.push_back(shape);
    }
    std::sort(found.begin(), found.end());
    return found;
  };
  const std::vector<std::string> expected = {"<circle ringed in white", "<circle ringed in white",
                                             "<rect ringed in white turned 45", "<rect ringed in white turned 45"};
  EXPECT_EQ(shapes(grid), expected);  // on the map and in the legend
  EXPECT_EQ(shapes(mesh), expected);
  EXPECT_EQ(count_of(mesh, "<circle id=\"start\""), 1u);
  EXPECT_EQ(count_of(mesh, "<rect id=\"goal\""), 1u);
}

TEST(NavMeshSvg, PolygonsAreShadedByHeightAndCanBeLimitedToAHeightRange) {
  const NavMesh mesh = two_floors();
  const std::string lower_floor = "points=\"0,0 4,0 4,4\"", upper_floor = "points=\"1,1 3,1 3,3\"";
  const std::string all = render_navmesh_svg(mesh);
  EXPECT_EQ(count_of(all, "<polygon "), 4u);
  // Lower polygons are darker, and drawn first, so that the upper floor covers them.
  const std::string polygons = element_group(all, "polygons");
  EXPECT_EQ(count_of(polygons, ",55%,58%)"), 2u);
  EXPECT_EQ(count_of(polygons, ",55%,90%)"), 2u);
  EXPECT_LT(polygons.find(lower_floor), polygons.find(upper_floor));

  NavMeshSvgOptions options;
  options.explored = {{1, 0, 1}, {2, 5, 2}};
  options.y_range = HeightRange{-1.0, 1.0};
  const std::string lower = render_navmesh_svg(mesh, options);
  EXPECT_EQ(xml_problem(lower), "");
  EXPECT_EQ(count_of(lower, "<polygon "), 2u);
  EXPECT_NE(lower.find(lower_floor), std::string::npos);
  EXPECT_EQ(lower.find(upper_floor), std::string::npos);
  EXPECT_NE(lower.find("showing y -1 to 1: 2 of 4 polygons"), std::string::npos);
  EXPECT_NE(lower.find("explored by the search (1)"), std::string::npos);  // the dot upstairs is left out
  // One floor alone is flat: plain region colours.
  EXPECT_EQ(count_of(element_group(lower, "polygons"), navmesh_svg_region_colour(mesh.region(0))), 2u);

  options.y_range = HeightRange{4.5, 10.0};
  const std::string upper = render_navmesh_svg(mesh, options);
  EXPECT_EQ(count_of(upper, "<polygon "), 2u);
  EXPECT_EQ(upper.find(lower_floor), std::string::npos);
  EXPECT_NE(upper.find(upper_floor), std::string::npos);
  // A range between the floors draws no polygon, but still a whole picture.
  options.y_range = HeightRange{2.0, 3.0};
  const std::string between = render_navmesh_svg(mesh, options);
  EXPECT_EQ(xml_problem(between), "");
  EXPECT_EQ(count_of(between, "<polygon "), 0u);
}

TEST(NavMeshSvg, HeightBandsSeparateFloors) {
  const NavMesh mesh = two_floors();
  const std::vector<HeightRange> bands = navmesh_height_bands(mesh);
  ASSERT_EQ(bands.size(), 2u);
  EXPECT_EQ(bands[0].min, 0.0);
  EXPECT_EQ(bands[0].max, 0.0);
  EXPECT_EQ(bands[1].min, 5.0);
  EXPECT_EQ(bands[1].max, 5.0);
  EXPECT_EQ(navmesh_height_bands(mesh, 5.0).size(), 1u);  // floors at most 5 apart are one band
  EXPECT_EQ(navmesh_height_bands(mesh, 4.9).size(), 2u);
  EXPECT_THROW((void)navmesh_height_bands(mesh, -1.0), std::invalid_argument);
  EXPECT_THROW((void)navmesh_height_bands(mesh, std::nan("")), std::invalid_argument);
  // A ramp between the floors joins them into one band.
  const NavMesh ramp = NavMesh::build(parse_obj_mesh(
      "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 4 5 8\nv 0 5 8\nf 1 2 3 4\nf 4 3 5 6\n", "ramp.obj"));
  const std::vector<HeightRange> one = navmesh_height_bands(ramp);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].min, 0.0);
  EXPECT_EQ(one[0].max, 5.0);
}

// ---------------------------------------------------------------------------------------------
// The shared data

std::filesystem::path mesh_data_directory() { return data_directory() / "meshes"; }

/// Skips (or fails under WAYFINDER_REQUIRE_DATA) when a data file is missing.
#define REQUIRE_DATA_FILE(path)                                                           \
  do {                                                                                    \
    if (!std::filesystem::exists(path)) {                                                 \
      const std::string message = "no test data at " + (path).string();                   \
      if (data_required()) FAIL() << message << "; WAYFINDER_REQUIRE_DATA=1 requires it"; \
      GTEST_SKIP() << message;                                                            \
    }                                                                                     \
  } while (false)

struct MeshFileCase {
  const char* relative_path;
  std::size_t vertices;
  std::size_t polygons;
  std::size_t max_polygon_size;
};

// Counts from the files' headers (and SOURCES.md); max sizes from the files.
constexpr MeshFileCase mesh_files[] = {
    {"recastnavigation/nav_test.obj", 884, 792, 12},
    {"recastnavigation/dungeon.obj", 5101, 10133, 3},
    {"derived/nav_test_navmesh.obj", 349, 155, 6},
    {"derived/dungeon_navmesh.obj", 223, 118, 6},
    {"derived/nav_test_navmesh.mesh", 349, 155, 6},
    {"derived/dungeon_navmesh.mesh", 223, 118, 6},
    {"derived/arena-merged6.mesh", 112, 54, 6},
    {"derived/aurora-merged6.mesh", 34707, 20335, 6},
    {"polyanya/meshes/arena.mesh", 112, 120, 3},
    {"polyanya/meshes/arena-merged.mesh", 112, 55, 10},
    {"polyanya/meshes/aurora.mesh", 34707, 34816, 3},
    {"polyanya/meshes/aurora-merged.mesh", 34707, 19244, 33},
    {"polyanya/meshes/tests/bad-ambig.mesh", 9, 4, 4},
    {"polyanya/meshes/tests/bad-collinear.mesh", 16, 6, 0},
    {"polyanya/meshes/tests/bad-collinear2-rot0.mesh", 22, 7, 0},
    {"polyanya/meshes/tests/bad-collinear2-rot45.mesh", 22, 7, 0},
    {"polyanya/meshes/tests/bad-collinear2-rot90.mesh", 22, 7, 0},
    {"polyanya/meshes/tests/hard.mesh", 36, 38, 0},
    {"polyanya/meshes/tests/square.mesh", 5, 4, 3},
};

class MeshFileTest : public ::testing::TestWithParam<MeshFileCase> {};

TEST_P(MeshFileTest, LoadsWithTheDocumentedCountsAndBuilds) {
  const MeshFileCase& file = GetParam();
  const std::filesystem::path path = mesh_data_directory() / file.relative_path;
  REQUIRE_DATA_FILE(path);
  const MeshGeometry geometry = path.extension() == ".obj" ? read_obj_mesh(path) : read_polyanya_mesh(path);
  EXPECT_EQ(geometry.source, path.string());
  EXPECT_EQ(geometry.vertices.size(), file.vertices);
  EXPECT_EQ(geometry.polygons.size(), file.polygons);
  EXPECT_EQ(geometry.vertex_lines.size(), geometry.vertices.size());
  EXPECT_EQ(geometry.polygon_lines.size(), geometry.polygons.size());
  std::size_t max_size = 0;
  for (const auto& polygon : geometry.polygons) {
    max_size = std::max(max_size, polygon.size());
    for (const std::uint32_t index : polygon) ASSERT_LT(index, geometry.vertices.size());
  }
  if (file.max_polygon_size > 0) {
    EXPECT_EQ(max_size, file.max_polygon_size);
  }
  for (const Point& vertex : geometry.vertices)
    ASSERT_TRUE(std::isfinite(vertex.x) && std::isfinite(vertex.y) && std::isfinite(vertex.z));
  if (path.extension() == ".mesh") {
    for (const Point& vertex : geometry.vertices) ASSERT_EQ(vertex.y, 0.0);
  }
  // Lines increase through the file.
  for (std::size_t i = 1; i < geometry.polygon_lines.size(); ++i)
    ASSERT_LT(geometry.polygon_lines[i - 1], geometry.polygon_lines[i]);

  const NavMesh mesh = NavMesh::build(geometry);
  EXPECT_GE(mesh.polygon_count(), 1u);
  EXPECT_GE(mesh.region_count(), 1u);
}

INSTANTIATE_TEST_SUITE_P(SharedData, MeshFileTest, ::testing::ValuesIn(mesh_files),
                         [](const ::testing::TestParamInfo<MeshFileCase>& parameter) {
                           const std::string_view path = parameter.param.relative_path;
                           std::string name = std::filesystem::path(path).stem().string();
                           if (path.ends_with(".obj")) name += "_obj";
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(MeshDataFiles, TheExportedNavmeshIsTheSameInBothFormats) {
  // derived/*_navmesh.obj and .mesh hold the same polygons, the .mesh projected to (x, z).
  for (const char* stem : {"derived/nav_test_navmesh", "derived/dungeon_navmesh"}) {
    const std::filesystem::path obj = mesh_data_directory() / (std::string(stem) + ".obj");
    const std::filesystem::path flat = mesh_data_directory() / (std::string(stem) + ".mesh");
    REQUIRE_DATA_FILE(obj);
    REQUIRE_DATA_FILE(flat);
    const MeshGeometry from_obj = read_obj_mesh(obj);
    const MeshGeometry from_mesh = read_polyanya_mesh(flat);
    ASSERT_EQ(from_obj.vertices.size(), from_mesh.vertices.size());
    for (std::size_t i = 0; i < from_obj.vertices.size(); ++i) {
      EXPECT_NEAR(from_obj.vertices[i].x, from_mesh.vertices[i].x, 1e-5) << stem << " vertex " << i;
      EXPECT_NEAR(from_obj.vertices[i].z, from_mesh.vertices[i].z, 1e-5) << stem << " vertex " << i;
    }
    ASSERT_EQ(from_obj.polygons.size(), from_mesh.polygons.size());
    for (std::size_t i = 0; i < from_obj.polygons.size(); ++i)
      EXPECT_EQ(from_obj.polygons[i].size(), from_mesh.polygons[i].size()) << stem << " polygon " << i;
  }
}

TEST(MeshDataFiles, ReferenceQueryFilesHaveTenThousandRows) {
  for (const char* name : {"derived/nav_test_reference_queries.csv", "derived/dungeon_reference_queries.csv"}) {
    const std::filesystem::path path = mesh_data_directory() / name;
    REQUIRE_DATA_FILE(path);
    const std::vector<MeshQueryCase> queries = read_mesh_queries(path);
    ASSERT_EQ(queries.size(), 10000u) << name;
    std::size_t reachable = 0;
    for (const MeshQueryCase& query : queries) {
      ASSERT_TRUE(query.reachable.has_value());
      ASSERT_GE(query.start_polygon, 0);
      ASSERT_GE(query.goal_polygon, 0);
      if (*query.reachable) {
        ++reachable;
        ASSERT_GE(query.optimal_length, 0.0) << name << ":" << query.line;
      } else {
        ASSERT_TRUE(std::isnan(query.optimal_length)) << name << ":" << query.line;
      }
    }
    EXPECT_GT(reachable, 0u) << name;
    EXPECT_EQ(queries.front().line, 2);
    EXPECT_EQ(queries.back().line, 10001);
  }
  const std::vector<MeshQueryCase> dungeon =
      read_mesh_queries(mesh_data_directory() / "derived/dungeon_reference_queries.csv");
  EXPECT_EQ(dungeon[0].start, (Point{2.110594, 10.197294, -36.658184}));
  EXPECT_EQ(dungeon[0].goal, (Point{17.509924, 10.197294, -46.858128}));
  EXPECT_EQ(dungeon[0].start_polygon, 58);
  EXPECT_EQ(dungeon[0].goal_polygon, 39);
  EXPECT_EQ(dungeon[0].optimal_length, 18.533489);
}

TEST(MeshDataFiles, PolyanyaOptimalLengthsAndScenariosAgreeRowByRow) {
  for (const char* map : {"arena", "aurora"}) {
    const std::filesystem::path csv = mesh_data_directory() / "derived" / (std::string(map) + "_polyanya_optimal.csv");
    const std::filesystem::path scen = mesh_data_directory() / "polyanya/scenarios" / (std::string(map) + ".scen");
    REQUIRE_DATA_FILE(csv);
    REQUIRE_DATA_FILE(scen);
    const std::vector<MeshQueryCase> optimal = read_mesh_queries(csv);
    const std::vector<MeshQueryCase> scenario = read_mesh_queries(scen);
    EXPECT_EQ(optimal.size(), std::string_view(map) == "arena" ? 160u : 2990u);
    ASSERT_EQ(optimal.size(), scenario.size());
    for (std::size_t i = 0; i < optimal.size(); ++i) {
      ASSERT_EQ(optimal[i].start, scenario[i].start) << map << " query " << i;
      ASSERT_EQ(optimal[i].goal, scenario[i].goal) << map << " query " << i;
      ASSERT_EQ(optimal[i].start.y, 0.0);
      ASSERT_FALSE(scenario[i].reachable.has_value());
      ASSERT_TRUE(std::isnan(scenario[i].optimal_length));
      ASSERT_TRUE(optimal[i].reachable.has_value());
    }
  }
}

TEST(MeshDataFiles, PolyanyaTestScenariosLoad) {
  const std::filesystem::path folder = mesh_data_directory() / "polyanya/scenarios/test";
  REQUIRE_DATA_FILE(folder);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".scen") continue;
    ++files;
    const std::vector<MeshQueryCase> queries = read_mesh_queries(entry.path());
    EXPECT_GE(queries.size(), 1u) << entry.path();
  }
  EXPECT_EQ(files, 6u);
  const std::vector<MeshQueryCase> rot0 = read_mesh_queries(folder / "bad-collinear2-rot0.scen");
  ASSERT_EQ(rot0.size(), 1u);
  EXPECT_EQ(rot0[0].goal, (Point{4, 0, 3}));  // written "4.0 3.0" with a space instead of a tab
}

}  // namespace
}  // namespace wayfinder

namespace wayfinder {
namespace {

TEST(ObjWriter, WritesWhatTheReaderReadsBack) {
  MeshGeometry geometry;
  geometry.vertices = {{0.1, -2.5, 1e-17}, {1e9 + 0.25, 3.0, -7.125}, {1.0 / 3.0, 2.0 / 3.0, 5.0}, {4, 5, 6}};
  geometry.polygons = {{0, 1, 2}, {0, 2, 3, 1}};
  geometry.source = "written";
  std::ostringstream text;
  write_obj_mesh(geometry, text);
  const MeshGeometry read = parse_obj_mesh(text.str(), "written.obj");
  ASSERT_EQ(read.vertices.size(), geometry.vertices.size());
  // tinyobjloader's number parser is not correctly rounded: it may miss by an ulp or so.
  const auto close = [](double a, double b) { return std::abs(a - b) <= 1e-15 * std::max(1.0, std::abs(b)); };
  for (std::size_t i = 0; i < read.vertices.size(); ++i) {
    EXPECT_TRUE(close(read.vertices[i].x, geometry.vertices[i].x)) << i;
    EXPECT_TRUE(close(read.vertices[i].y, geometry.vertices[i].y)) << i;
    EXPECT_TRUE(close(read.vertices[i].z, geometry.vertices[i].z)) << i;
  }
  EXPECT_EQ(read.polygons, geometry.polygons);
  EXPECT_THROW(write_obj_mesh(geometry, std::filesystem::path("/no/such/folder/mesh.obj")), std::runtime_error);
}

}  // namespace
}  // namespace wayfinder
