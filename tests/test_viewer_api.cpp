// The viewer's JSON API: answers equal the library's for the same query on every kind of world,
// bad requests get a 4xx with a message and change nothing, and the server (started in-process
// on an ephemeral loopback port) survives them, times out bodies that never end, and answers
// concurrent clients correctly.

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <httplib.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string_view>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/mesh_query_file.hpp"
#include "test_environment.hpp"
#include "viewer/accept_encoding.hpp"
#include "viewer/viewer_api.hpp"
#include "viewer/viewer_server.hpp"
#include "viewer/world_catalog.hpp"
#include "wayfinder/crowd/crowd.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/navmesh/nav_mesh_query.hpp"
#include "wayfinder/navmesh/navmesh_file_writer.hpp"
#include "wayfinder/navmesh/obj_reader.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"

namespace wayfinder::viewer {
namespace {

using nlohmann::json;
using testing::data_directory;
using testing::data_required;

std::filesystem::path den520d() { return data_directory() / "movingai" / "dao" / "den520d.map"; }
std::filesystem::path nav_test() { return data_directory() / "meshes" / "derived" / "nav_test_navmesh.obj"; }
std::filesystem::path warframe_simple() { return data_directory() / "voxel" / "warframe" / "Simple.3dmap"; }

#define SKIP_WITHOUT(path)                                                                     \
  do {                                                                                         \
    if (!std::filesystem::exists(path)) {                                                      \
      if (data_required()) FAIL() << (path) << " not found; WAYFINDER_REQUIRE_DATA=1 requires it"; \
      GTEST_SKIP() << (path) << " not found";                                                  \
    }                                                                                          \
  } while (false)

json body_of(const ApiResponse& response) { return json::parse(response.body); }

// A small grid with a wall, as MovingAI text.
constexpr const char* small_map =
    "type octile\nheight 5\nwidth 7\nmap\n"
    ".......\n"
    "...@...\n"
    "...@...\n"
    "...@...\n"
    ".......\n";

struct ApiFixture : ::testing::Test {
  WorldCatalog catalog;
  ViewerApi api{catalog};
  int small_grid = 0;
  void SetUp() override {
    const ApiResponse loaded = api.handle("POST", "/api/worlds", json{{"kind", "grid"}, {"name", "small"}, {"movingai", small_map}}.dump());
    ASSERT_EQ(loaded.status, 201) << loaded.body;
    small_grid = body_of(loaded)["id"];
  }
  ApiResponse query(const json& request) { return api.handle("POST", "/api/query", request.dump()); }
  ApiResponse query_text(const std::string& body) { return api.handle("POST", "/api/query", body); }
};

TEST_F(ApiFixture, ListsWorldsWithTheDocumentedShape) {
  const ApiResponse response = api.handle("GET", "/api/worlds", "");
  ASSERT_EQ(response.status, 200);
  const json worlds = body_of(response);
  ASSERT_TRUE(worlds.is_array());
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0]["id"], small_grid);
  EXPECT_EQ(worlds[0]["kind"], "grid");
  EXPECT_EQ(worlds[0]["name"], "small");
}

TEST_F(ApiFixture, GridQueryAnswersWhatTheLibraryAnswers) {
  const ApiResponse response = query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}, {"algorithm", "astar"}, {"trace", true}});
  ASSERT_EQ(response.status, 200) << response.body;
  const json result = body_of(response);
  const GridMap map = parse_movingai_map(small_map, "small");
  GridQuery finder(map);
  const PathResult expected = finder.find_path({1, 2}, {5, 2});
  EXPECT_EQ(result["status"], "found");
  EXPECT_DOUBLE_EQ(result["cost"].get<double>(), expected.cost);
  ASSERT_EQ(result["path"].size(), expected.nodes.size());
  for (std::size_t i = 0; i < expected.nodes.size(); ++i) {
    const Cell cell = map.cell_of(expected.nodes[i]);
    EXPECT_EQ(result["path"][i], json({cell.x, cell.y}));
  }
  EXPECT_EQ(result["stats"]["expanded"], expected.stats.expanded);
  ASSERT_TRUE(result["trace"].is_array());
  EXPECT_GT(result["trace"].size(), 0u);
  EXPECT_EQ(result["trace_events"], result["trace"].size());
  EXPECT_EQ(result["trace"][0][0], 0) << "the first event opens the start";
  EXPECT_EQ(result["trace"][0][1], 1);
  EXPECT_EQ(result["trace"][0][2], 2);

  const json unreachable = body_of(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {3, 2}}}));
  EXPECT_EQ(unreachable.dump(), body_of(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {3, 2}}})).dump());
}

TEST_F(ApiFixture, BadRequestsGetAMessageAndChangeNothing) {
  const auto expect_refused = [&](const ApiResponse& response, int status, const std::string& words) {
    EXPECT_EQ(response.status, status) << response.body;
    const json body = json::parse(response.body, nullptr, false);
    ASSERT_TRUE(body.is_object() && body.contains("error")) << response.body;
    EXPECT_NE(body["error"].get<std::string>().find(words), std::string::npos) << body["error"];
  };
  expect_refused(query({{"world", 99}, {"start", {1, 2}}, {"goal", {5, 2}}}), 404, "no world with id 99");
  expect_refused(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {7, 2}}}), 400, "outside");
  expect_refused(query({{"world", small_grid}, {"start", {-1, 2}}, {"goal", {5, 2}}}), 400, "outside");
  expect_refused(api.handle("POST", "/api/query", "{\"world\": 1, \"start\": [1, 2"), 400, "not valid JSON");
  expect_refused(api.handle("POST", "/api/query", "[1, 2]"), 400, "JSON object");
  expect_refused(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}, {"algorithm", "teleport"}}), 400,
                 "unknown grid algorithm");
  expect_refused(api.handle("POST", "/api/query", R"({"world": 1, "start": [NaN, 2], "goal": [5, 2]})"), 400, "JSON");
  expect_refused(api.handle("POST", "/api/query", R"({"world": 1, "start": [1, 2], "goal": [5, 2], "weight": 1e999})"), 400,
                 "JSON");
  expect_refused(query({{"world", small_grid}, {"start", {1.5, 2}}, {"goal", {5, 2}}}), 400, "whole number");
  expect_refused(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {3, 2}}, {"diagonal", "sideways"}}), 400,
                 "diagonal");
  expect_refused(query({{"world", small_grid}, {"start", {3, 2}}, {"goal", {5, 2}}}), 400, "blocked");
  expect_refused(query({{"start", {1, 2}}, {"goal", {5, 2}}}), 400, "\"world\" is missing");
  expect_refused(api.handle("GET", "/api/nothing", ""), 404, "no such path");
  expect_refused(api.handle("DELETE", "/api/worlds", ""), 405, "not allowed");
  expect_refused(api.handle("GET", "/api/worlds/abc", ""), 404, "no such path");
  expect_refused(api.handle("POST", "/api/worlds", json{{"kind", "grid"}, {"movingai", "type octile\nheight x"}}.dump()), 400,
                 "height");
  expect_refused(api.handle("POST", "/api/worlds", json{{"kind", "teapot"}}.dump()), 400, "\"kind\"");
  expect_refused(api.handle("POST", "/api/worlds", json{{"kind", "grid"}, {"generate", {{"width", 1 << 20}}}}.dump()), 400,
                 "width");

  // Edits that fail change nothing: the cell list is checked before any cell is painted.
  const std::string before = api.handle("GET", "/api/worlds/" + std::to_string(small_grid), "").body;
  expect_refused(api.handle("POST", "/api/worlds/" + std::to_string(small_grid) + "/edit",
                            json{{"cells", {{0, 0}, {1, 1}, {9, 9}}}, {"set", "wall"}}.dump()),
                 400, "outside");
  expect_refused(api.handle("POST", "/api/worlds/" + std::to_string(small_grid) + "/edit",
                            json{{"cells", {{0, 0}}}, {"set", -2}}.dump()),
                 400, "terrain cost");
  EXPECT_EQ(api.handle("GET", "/api/worlds/" + std::to_string(small_grid), "").body, before);

  ViewerApi small_limits(catalog, ApiLimits{.max_body_bytes = 64});
  expect_refused(small_limits.handle("POST", "/api/worlds", std::string(65, ' ')), 413, "limit");

  // The API still answers correct queries.
  EXPECT_EQ(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}}).status, 200);
}

TEST_F(ApiFixture, EditsChangeLaterAnswers) {
  const std::string edit_path = "/api/worlds/" + std::to_string(small_grid) + "/edit";
  const double open = body_of(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}}))["cost"];
  // Close the gaps above and below the wall: no path.
  const ApiResponse closed = api.handle("POST", edit_path, json{{"cells", {{3, 0}, {3, 4}}}, {"set", "wall"}}.dump());
  ASSERT_EQ(closed.status, 200) << closed.body;
  EXPECT_EQ(body_of(closed)["revision"], 2);
  EXPECT_EQ(body_of(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}}))["status"], "no_path");
  // Open the middle of the wall as swamp (cost 3): a path again, through the swamp.
  ASSERT_EQ(api.handle("POST", edit_path, json{{"rect", {3, 2, 1, 1}}, {"set", 3}}.dump()).status, 200);
  const json through = body_of(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}}));
  EXPECT_EQ(through["status"], "found");
  EXPECT_DOUBLE_EQ(through["cost"].get<double>(), 2.0 + 2.0 * 2.0);  // 1 + (1+3)/2 + (3+1)/2 + 1
  const json described = body_of(api.handle("GET", "/api/worlds/" + std::to_string(small_grid), ""));
  EXPECT_EQ(described["revision"], 3);
  EXPECT_GT(open, through["cost"].get<double>()) << "round the wall was dearer than the swamp door";
}

TEST_F(ApiFixture, GeneratedGridsAndUploadedMeshes) {
  const ApiResponse generated = api.handle("POST", "/api/worlds",
                                           json{{"kind", "grid"}, {"name", "rooms"}, {"generate", {{"width", 64}, {"height", 48}, {"seed", 3}}}}.dump());
  ASSERT_EQ(generated.status, 201) << generated.body;
  const json described = body_of(api.handle("GET", "/api/worlds/" + std::to_string(body_of(generated)["id"].get<int>()), ""));
  EXPECT_EQ(described["width"], 64);
  EXPECT_EQ(described["cells"].get<std::string>().size(), 64u * 48u);

  const std::string square = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 4 3 2\n";
  const ApiResponse mesh = api.handle("POST", "/api/worlds", json{{"kind", "navmesh"}, {"name", "square"}, {"obj", square}}.dump());
  ASSERT_EQ(mesh.status, 201) << mesh.body;
  const int id = body_of(mesh)["id"];
  const json path = body_of(query({{"world", id}, {"start", {1, 0, 1}}, {"goal", {9, 0, 9}}}));
  EXPECT_EQ(path["status"], "found");
  EXPECT_NEAR(path["cost"].get<double>(), std::sqrt(128.0), 1e-9);
  EXPECT_EQ(path["path"].size(), 2u);
}

TEST_F(ApiFixture, EditRectanglesAreCheckedIn64Bits) {
  const std::string edit_path = "/api/worlds/" + std::to_string(small_grid) + "/edit";
  const std::string before = api.handle("GET", "/api/worlds/" + std::to_string(small_grid), "").body;
  const auto refused = [&](const json& rect, const std::string& words) {
    const ApiResponse response = api.handle("POST", edit_path, json{{"rect", rect}, {"set", "wall"}}.dump());
    EXPECT_EQ(response.status, 400) << response.body;
    EXPECT_NE(response.body.find(words), std::string::npos) << response.body;
  };
  // x + width - 1 does not fit an int: the rectangle is outside the grid, and the answer says so.
  refused({5, 5, 2147483647, 1}, "[5, 5, 2147483647, 1] must have a positive size and lie inside the 7x5 grid");
  refused({0, 0, 1, 2147483647}, "inside the 7x5 grid");
  refused({2147483647, 2147483647, 2147483647, 2147483647}, "inside the 7x5 grid");
  refused({-2147483648, 0, 2147483647, 1}, "inside the 7x5 grid");
  refused({0, 0, 8, 1}, "inside the 7x5 grid");
  refused({6, 4, 0, 1}, "positive size");
  EXPECT_EQ(api.handle("GET", "/api/worlds/" + std::to_string(small_grid), "").body, before);
  // The whole grid, and its last cell, are inside.
  EXPECT_EQ(api.handle("POST", edit_path, json{{"rect", {0, 0, 7, 5}}, {"set", "floor"}}.dump()).status, 200);
  EXPECT_EQ(api.handle("POST", edit_path, json{{"rect", {6, 4, 1, 1}}, {"set", "wall"}}.dump()).status, 200);
}

TEST_F(ApiFixture, BodiesAreParsedWithinBoundsOfValuesAndDepth) {
  // Two million numbers (4 MB of text, well under the body limit) would take over 100 MB once
  // parsed: the parse stops at the limit of values.
  std::string padded = R"({"world": 1, "start": [1, 2], "goal": [5, 2], "pad": [0)";
  for (int i = 0; i < 2'000'000; ++i) padded += ",0";
  padded += "]}";
  const ApiResponse many = query_text(padded);
  EXPECT_EQ(many.status, 413) << many.body.substr(0, 200);
  EXPECT_NE(many.body.find("JSON values"), std::string::npos) << many.body.substr(0, 200);
  // An edit listing more cells than an edit may paint is refused before it is expanded.
  std::string cells = R"({"set": "wall", "cells": [[0, 0])";
  for (int i = 0; i < 400'000; ++i) cells += ",[0,0]";
  cells += "]}";
  const ApiResponse edit = api.handle("POST", "/api/worlds/" + std::to_string(small_grid) + "/edit", cells);
  EXPECT_EQ(edit.status, 413) << edit.body.substr(0, 200);
  // Deep nesting.
  const std::string deep = R"({"world": 1, "pad": )" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  const ApiResponse nested = query_text(deep);
  EXPECT_EQ(nested.status, 400) << nested.body.substr(0, 200);
  EXPECT_NE(nested.body.find("nests deeper"), std::string::npos) << nested.body.substr(0, 200);
  // Ordinary requests are far inside the bounds.
  EXPECT_EQ(query({{"world", small_grid}, {"start", {1, 2}}, {"goal", {5, 2}}, {"trace", true}}).status, 200);
}

TEST_F(ApiFixture, TracesAreCutWhileTheSearchRecordsThem) {
  ViewerApi cut(catalog, ApiLimits{.max_trace_events = 5});
  const ApiResponse response =
      cut.handle("POST", "/api/query", json{{"world", small_grid}, {"start", {0, 0}}, {"goal", {6, 4}}, {"trace", true}}.dump());
  ASSERT_EQ(response.status, 200) << response.body;
  const json result = body_of(response);
  EXPECT_EQ(result["trace"].size(), 5u);
  EXPECT_GT(result["trace_events"].get<std::size_t>(), 5u);
  EXPECT_TRUE(result["trace_truncated"].get<bool>());
}

// A flat 20 x 20 floor as a level OBJ (two triangles, y up), built in tiles of 16 cells (4.8 units).
constexpr const char* floor_level = "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n";
const json floor_settings = {{"cell_size", 0.3}, {"cell_height", 0.2}, {"agent_radius", 0.3}, {"tile_size", 16}};

void expect_refused(const ApiResponse& response, int status, const std::string& words) {
  EXPECT_EQ(response.status, status) << response.body;
  const json body = json::parse(response.body, nullptr, false);
  ASSERT_TRUE(body.is_object() && body.contains("error")) << response.body;
  EXPECT_NE(body["error"].get<std::string>().find(words), std::string::npos) << body["error"];
}

#if WAYFINDER_VIEWER_LEVELS
TEST_F(ApiFixture, ObstaclesOnALevelRebuildTilesAndChangeThePath) {
  const ApiResponse loaded = api.handle("POST", "/api/worlds",
      json{{"kind", "navmesh"}, {"name", "floor"}, {"obj", floor_level}, {"level", floor_settings}}.dump());
  ASSERT_EQ(loaded.status, 201) << loaded.body;
  const int id = body_of(loaded)["id"];
  const std::string obstacles = "/api/worlds/" + std::to_string(id) + "/obstacles";
  const json straight_request = {{"world", id}, {"start", {2, 0, 10}}, {"goal", {18, 0, 10}}};
  const json straight = body_of(query(straight_request));
  ASSERT_EQ(straight["status"], "found") << straight;
  EXPECT_NEAR(straight["cost"].get<double>(), 16.0, 0.2);
  const json described = body_of(api.handle("GET", "/api/worlds/" + std::to_string(id), ""));
  EXPECT_EQ(described["level"], true);
  EXPECT_EQ(described["obstacles"], json::array());
  // The level's own polygons, for drawing under the mesh: the OBJ's four corners and two triangles.
  EXPECT_EQ(described["level_geometry"]["vertices"], json({{0.0, 0.0, 0.0}, {20.0, 0.0, 0.0}, {20.0, 0.0, 20.0}, {0.0, 0.0, 20.0}}));
  EXPECT_EQ(described["level_geometry"]["polygons"], json({{0, 2, 1}, {0, 3, 2}}));

  const ApiResponse added = api.handle("POST", obstacles,
      json{{"shape", "cylinder"}, {"base", {10, -0.5, 10}}, {"radius", 2}, {"height", 2}}.dump());
  ASSERT_EQ(added.status, 200) << added.body;
  const json rebuilt = body_of(added);
  EXPECT_GT(rebuilt["tiles"].size(), 0u);
  EXPECT_LE(rebuilt["tiles"].size(), 9u) << "only the tiles around the cylinder are rebuilt";
  for (const json& tile : rebuilt["tiles"]) {
    EXPECT_EQ(tile["tile"].size(), 2u);
    EXPECT_EQ(tile["bounds"].size(), 4u);
    for (const json& polygon : tile["polygons"]) EXPECT_GE(polygon.size(), 3u);
  }
  ASSERT_EQ(rebuilt["obstacles"].size(), 1u);
  EXPECT_EQ(rebuilt["obstacles"][0]["shape"], "cylinder");
  const json around = body_of(query(straight_request));
  ASSERT_EQ(around["status"], "found") << around;
  EXPECT_GT(around["cost"].get<double>(), straight["cost"].get<double>() + 0.5) << "the path goes round the cylinder";

  const ApiResponse boxed = api.handle("POST", obstacles, json{{"shape", "box"}, {"min", {3, -0.5, 3}}, {"max", {4, 2, 4}}}.dump());
  ASSERT_EQ(boxed.status, 200) << boxed.body;
  EXPECT_EQ(body_of(boxed)["obstacles"].size(), 2u);

  const ApiResponse removed = api.handle("POST", obstacles + "/remove", json{{"obstacle", rebuilt["obstacle"]}}.dump());
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_GT(body_of(removed)["tiles"].size(), 0u);
  EXPECT_EQ(body_of(removed)["obstacles"].size(), 1u);
  EXPECT_NEAR(body_of(query(straight_request))["cost"].get<double>(), straight["cost"].get<double>(), 1e-6);

  // Bad requests name their field and change nothing.
  const auto add = [&](const json& request) { return api.handle("POST", obstacles, request.dump()); };
  expect_refused(add({{"shape", "cylinder"}, {"base", {10, 0, 10}}, {"radius", -1}, {"height", 2}}), 400, "\"radius\"");
  expect_refused(add({{"shape", "cylinder"}, {"base", {10, 0}}, {"radius", 1}, {"height", 2}}), 400, "\"base\"");
  expect_refused(add({{"shape", "cylinder"}, {"base", {10, 0, 10}}, {"radius", 1}}), 400, "\"height\"");
  expect_refused(api.handle("POST", obstacles, R"({"shape": "cylinder", "base": [NaN, 0, 10], "radius": 1, "height": 2})"),
                 400, "not valid JSON");
  expect_refused(add({{"shape", "cylinder"}, {"base", {1e300, 0, 10}}, {"radius", 1}, {"height", 2}}), 400, "outside the level");
  expect_refused(add({{"shape", "box"}, {"min", {5, 0, 5}}, {"max", {4, 2, 6}}}), 400, "\"min\"");
  expect_refused(add({{"shape", "cylinder"}, {"base", {10, 0, 10}}, {"radius", 400}, {"height", 2}}), 400, "tiles");
  expect_refused(add({{"shape", "sphere"}}), 400, "\"shape\"");
  expect_refused(api.handle("POST", obstacles + "/remove", json{{"obstacle", 77}}.dump()), 404, "no obstacle with id 77");
  expect_refused(api.handle("POST", obstacles + "/remove", json{{"obstacle", -1}}.dump()), 400, "\"obstacle\"");
  expect_refused(api.handle("POST", "/api/worlds/" + std::to_string(small_grid) + "/obstacles",
                            json{{"shape", "box"}, {"min", {0, 0, 0}}, {"max", {1, 1, 1}}}.dump()), 400, "not a mesh built from a level");
  expect_refused(api.handle("GET", obstacles, ""), 405, "POST");
  EXPECT_EQ(body_of(api.handle("GET", "/api/worlds/" + std::to_string(id), ""))["obstacles"].size(), 1u);

  const auto level = [&](const json& settings, const std::string& obj) {
    return api.handle("POST", "/api/worlds", json{{"kind", "navmesh"}, {"obj", obj}, {"level", settings}}.dump());
  };
  expect_refused(level({{"cell_size", 0}}, floor_level), 400, "\"cell_size\"");
  expect_refused(level({{"tile_size", 1e9}}, floor_level), 400, "tile_size");
  expect_refused(level(json::array(), floor_level), 400, "\"level\"");
  expect_refused(level({{"cell_size", 0.01}}, "v 0 0 0\nv 1000 0 0\nv 0 0 1000\nf 1 3 2\n"), 400, "cells");
  expect_refused(level({{"cell_size", 0.01}, {"agent_radius", 1}}, floor_level), 400, "agent_radius");
  expect_refused(level({{"cell_size", 0.1}, {"tile_size", 8}}, "v 0 0 0\nv 400 0 0\nv 0 0 400\nf 1 3 2\n"), 400, "tiles");
}

TEST_F(ApiFixture, ACrowdOnALevelKeepsWalkingAsObstaclesComeAndGo) {
  const ApiResponse loaded = api.handle("POST", "/api/worlds",
      json{{"kind", "navmesh"}, {"name", "floor"}, {"obj", floor_level}, {"level", floor_settings}}.dump());
  ASSERT_EQ(loaded.status, 201) << loaded.body;
  const std::string world = "/api/worlds/" + std::to_string(body_of(loaded)["id"].get<int>());
  const auto post = [&](const std::string& path, const json& request) {
    const ApiResponse response = api.handle("POST", world + path, request.dump());
    EXPECT_LT(response.status, 300) << path << ": " << response.body;
    return body_of(response);
  };
  post("/crowd", json::object());
  const json ids = post("/crowd/agents", {{"agents", {{{"position", {10, 0, 10}}}, {{"position", {4, 0, 10}}}}}})["added"];
  ASSERT_EQ(ids.size(), 2u);
  // Targets apart, so that neither stands on the other's.
  post("/crowd/target", {{"target", {16, 0, 10}}, {"agents", {ids[0]}}});
  post("/crowd/target", {{"target", {16, 0, 14}}, {"agents", {ids[1]}}});
  post("/crowd/step", {{"ticks", 2}});
  // A cylinder dropped on the first agent: it is shut in; the second walks round it.
  const json obstacle = post("/obstacles", {{"shape", "cylinder"}, {"base", {10, -0.5, 10}}, {"radius", 2}, {"height", 3}});
  const json shut = post("/crowd/step", {{"ticks", 100}});
  EXPECT_NE(shut["agents"][0]["status"], "arrived") << shut;
  EXPECT_EQ(shut["agents"][1]["status"], "arrived") << shut;
  // Taken away, the first one arrives too.
  post("/obstacles/remove", {{"obstacle", obstacle["obstacle"]}});
  const json freed = post("/crowd/step", {{"ticks", 150}});
  EXPECT_EQ(freed["agents"][0]["status"], "arrived") << freed;
}
#endif

TEST_F(ApiFixture, CrowdsOnAMeshWalkToTheirTargets) {
  const std::string square = "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 4 3 2\n";
  const int id = body_of(api.handle("POST", "/api/worlds", json{{"kind", "navmesh"}, {"name", "square"}, {"obj", square}}.dump()))["id"];
  const std::string crowd = "/api/worlds/" + std::to_string(id) + "/crowd";
  expect_refused(api.handle("POST", crowd + "/step", json{{"ticks", 1}}.dump()), 409, "no crowd yet");
  const ApiResponse made = api.handle("POST", crowd, "{}");
  ASSERT_EQ(made.status, 201) << made.body;
  EXPECT_EQ(body_of(made)["agents"], json::array());

  const ApiResponse added = api.handle("POST", crowd + "/agents",
      json{{"agents", {{{"position", {2, 0, 2}}, {"radius", 0.5}}, {{"position", {2, 0, 18}}, {"max_speed", 2}}}}}.dump());
  ASSERT_EQ(added.status, 200) << added.body;
  const json ids = body_of(added)["added"];
  ASSERT_EQ(ids.size(), 2u);
  const ApiResponse targeted = api.handle("POST", crowd + "/target", json{{"target", {18, 0, 10}}}.dump());
  ASSERT_EQ(targeted.status, 200) << targeted.body;
  const ApiResponse stepped = api.handle("POST", crowd + "/step", json{{"ticks", 20}, {"dt", 0.1}}.dump());
  ASSERT_EQ(stepped.status, 200) << stepped.body;
  const json state = body_of(stepped);
  EXPECT_NEAR(state["time"].get<double>(), 2.0, 1e-9);
  ASSERT_EQ(state["agents"].size(), 2u);
  for (const json& agent : state["agents"]) {
    EXPECT_GT(agent["position"][0].get<double>(), 4.0) << agent;
    EXPECT_EQ(agent["velocity"].size(), 2u);
    EXPECT_EQ(agent["target"].size(), 3u);
    EXPECT_TRUE(agent["status"] == "moving" || agent["status"] == "arrived") << agent;
  }
  EXPECT_DOUBLE_EQ(state["agents"][0]["radius"].get<double>(), 0.5);
  EXPECT_EQ(body_of(api.handle("GET", crowd, "")).dump(), state.dump());

  // The same requests on a crowd of the library give the same positions.
  const NavMesh mesh = NavMesh::build(parse_obj_mesh(square, "square"));
  Crowd expected(mesh);
  CrowdAgentSettings first;
  first.radius = 0.5;
  CrowdAgentSettings second;
  second.max_speed = 2;
  const CrowdAgentId a = expected.add_agent({2, 0, 2}, first);
  const CrowdAgentId b = expected.add_agent({2, 0, 18}, second);
  expected.set_target(a, {18, 0, 10});
  expected.set_target(b, {18, 0, 10});
  for (int tick = 0; tick < 20; ++tick) expected.update(0.1);
  EXPECT_DOUBLE_EQ(state["agents"][0]["position"][0].get<double>(), expected.agent(a)->position.x);
  EXPECT_DOUBLE_EQ(state["agents"][1]["position"][2].get<double>(), expected.agent(b)->position.z);

  // Bad requests name their field.
  const auto post = [&](const std::string& path, const json& request) { return api.handle("POST", crowd + path, request.dump()); };
  expect_refused(post("/step", {{"ticks", 1e9}}), 400, "\"ticks\"");
  expect_refused(post("/step", {{"ticks", 0}}), 400, "\"ticks\"");
  expect_refused(post("/step", {{"dt", 0}}), 400, "\"dt\"");
  expect_refused(api.handle("POST", crowd + "/step", R"({"dt": NaN})"), 400, "not valid JSON");
  expect_refused(api.handle("POST", crowd + "/step", R"({"dt": 1e999})"), 400, "JSON");
  expect_refused(post("/step", {{"dt", 1e300}}), 400, "\"dt\"");
  expect_refused(post("/agents", {{"agents", {{{"position", {2, 0}}}}}}), 400, "\"agents\"[0].\"position\"");
  expect_refused(post("/agents", {{"agents", {{{"position", {2, 0, 2}}, {"radius", -1}}}}}), 400, "\"radius\"");
  expect_refused(post("/agents", {{"agents", {{{"position", {200, 0, 2}}}}}}), 400, "\"agents\"[0].position");
  expect_refused(post("/agents", {{"agents", json::array()}}), 400, "\"agents\"");
  json many = json::array();
  for (int i = 0; i < 499; ++i) many.push_back({{"position", {1 + (i % 18), 0, 1 + (i / 18) * 0.6}}});
  expect_refused(post("/agents", {{"agents", many}}), 400, "limit of 500");
  many.push_back(many[0]);
  many.push_back(many[0]);
  expect_refused(post("/agents", {{"agents", many}}), 400, "at most 500");
  expect_refused(post("/target", {{"target", {18, 0, 10}}, {"agents", {42}}}), 404, "no agent with id 42");
  expect_refused(post("/target", {{"target", {18, 0}}}), 400, "\"target\"");
  expect_refused(post("/target", {{"target", {500, 0, 500}}}), 400, "\"target\"");
  expect_refused(post("/dance", json::object()), 404, "no such path");
  expect_refused(api.handle("PUT", crowd + "/step", "{}"), 405, "POST");
  EXPECT_EQ(body_of(api.handle("GET", crowd, ""))["agents"].size(), 2u) << "refused requests changed nothing";
}

TEST_F(ApiFixture, CrowdsOnAGridWalkAroundItsWallsToTheirTargets) {
  // A wall across the middle with room above and below it; positions are (column, 0, row).
  const std::vector<std::string> rows = {"............", "............", "......@.....", "......@.....",
                                         "......@.....", "......@.....", "............", "............"};
  std::string movingai = "type octile\nheight 8\nwidth 12\nmap\n";
  for (const std::string& row : rows) movingai += row + "\n";
  const int id = body_of(api.handle("POST", "/api/worlds", json{{"kind", "grid"}, {"name", "walled"}, {"movingai", movingai}}.dump()))["id"];
  const std::string crowd = "/api/worlds/" + std::to_string(id) + "/crowd";
  const auto post = [&](const std::string& path, const json& request) { return api.handle("POST", crowd + path, request.dump()); };
  const auto blocked = [&](const json& position) {
    const auto x = static_cast<int>(std::floor(position[0].get<double>()));
    const auto y = static_cast<int>(std::floor(position[2].get<double>()));
    return x < 0 || y < 0 || x >= 12 || y >= 8 || rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] == '@';
  };
  const std::array<double, 2> target{10.5, 4.0};
  const auto distance = [&](const json& agent) {
    return std::hypot(agent["position"][0].get<double>() - target[0], agent["position"][2].get<double>() - target[1]);
  };

  expect_refused(post("/step", {{"ticks", 1}}), 409, "no crowd yet");
  const ApiResponse made = post("", json::object());
  ASSERT_EQ(made.status, 201) << made.body;
  const ApiResponse added = post("/agents", {{"agents", {{{"position", {1.5, 0, 1.5}}, {"radius", 0.3}},
                                                         {{"position", {1.5, 0, 6.5}}, {"radius", 0.3}}}}});
  ASSERT_EQ(added.status, 200) << added.body;
  const json start = body_of(added)["agents"];
  ASSERT_EQ(start.size(), 2u);
  expect_refused(post("/agents", {{"agents", {{{"position", {40, 0, 3.5}}}}}}), 400, "\"agents\"[0].position");
  expect_refused(post("/target", {{"target", {40, 0, 40}}}), 400, "free cell");
  const ApiResponse targeted = post("/target", {{"target", {target[0], 0, target[1]}}});
  ASSERT_EQ(targeted.status, 200) << targeted.body;

  json state;
  for (int tick = 0; tick < 60; ++tick) {
    const ApiResponse stepped = post("/step", {{"ticks", 1}, {"dt", 0.1}});
    ASSERT_EQ(stepped.status, 200) << stepped.body;
    state = body_of(stepped);
    for (const json& agent : state["agents"]) ASSERT_FALSE(blocked(agent["position"])) << "tick " << tick << ": " << agent;
  }
  EXPECT_NEAR(state["time"].get<double>(), 6.0, 1e-9);
  ASSERT_EQ(state["agents"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_LT(distance(state["agents"][i]), distance(start[i]) - 4.0) << state["agents"][i];
    EXPECT_DOUBLE_EQ(state["agents"][i]["position"][1].get<double>(), 0.0);
  }
  EXPECT_EQ(body_of(api.handle("GET", crowd, "")).dump(), state.dump());

  // Painting cells while the crowd exists: the edit falls between updates, and the crowd walks on.
  const ApiResponse painted = api.handle("POST", "/api/worlds/" + std::to_string(id) + "/edit",
                                         json{{"set", "wall"}, {"cells", {{11, 0}, {11, 7}}}}.dump());
  ASSERT_EQ(painted.status, 200) << painted.body;
  const ApiResponse after_edit = post("/step", {{"ticks", 10}});
  ASSERT_EQ(after_edit.status, 200) << after_edit.body;
  const json after = body_of(after_edit);  // kept: a range-for over a temporary's member would dangle
  for (const json& agent : after["agents"]) {
    EXPECT_FALSE(blocked(agent["position"])) << agent;
    EXPECT_LT(distance(agent), 2.0) << agent;
  }
}

// A voxel world's blocks, box by box of columns: the characters are the world's blocks in the
// documented order, and boxes that are empty, outside the world or over the limit are refused.
TEST(ViewerApi, VoxelBlocksAreSentInBoundedBoxesOfColumns) {
  WorldCatalog catalog;
  const auto kind_at = [](int x, int y, int z) {
    if (y == 0) return BlockKind::solid;
    if (y == 1 && x == 2) return z == 1 ? BlockKind::ladder : BlockKind::water;
    return (x + y + z) % 5 == 0 ? BlockKind::solid : BlockKind::air;
  };
  const VoxelWorld world = VoxelWorld::from_function(5, 4, 3, kind_at);
  const int id = catalog.add("blocks", VoxelWorld::from_function(5, 4, 3, kind_at));
  const int grid = catalog.add("grid", GridMap(4, 4));
  ApiLimits limits;
  limits.max_voxel_blocks = 24;
  ViewerApi api(catalog, limits);
  const std::string path = "/api/worlds/" + std::to_string(id) + "/blocks";
  const auto blocks = [&](const json& request) { return api.handle("POST", path, request.dump()); };

  const ApiResponse answered = blocks({{"from", {1, 1}}, {"size", {3, 2}}});
  ASSERT_EQ(answered.status, 200) << answered.body;
  const json box = body_of(answered);
  EXPECT_EQ(box["world"], id);
  EXPECT_EQ(box["from"], json({1, 1}));
  EXPECT_EQ(box["size"], json({3, 4, 2}));
  const std::string text = box["blocks"];
  ASSERT_EQ(text.size(), 24u);
  std::size_t i = 0;
  for (int y = 0; y < 4; ++y)
    for (int z = 1; z < 3; ++z)
      for (int x = 1; x < 4; ++x, ++i)
        EXPECT_EQ(text[i], '0' + static_cast<int>(world.block(x, y, z))) << x << "," << y << "," << z;

  expect_refused(blocks({{"from", {0, 0}}, {"size", {5, 3}}}), 400, "at most 24");
  expect_refused(blocks({{"from", {0, 0}}, {"size", {0, 1}}}), 400, "\"size\"");
  expect_refused(blocks({{"from", {4, 0}}, {"size", {2, 1}}}), 400, "not inside the 5x4x3 world");
  expect_refused(blocks({{"from", {-1, 0}}, {"size", {1, 1}}}), 400, "not inside");
  expect_refused(blocks({{"from", {2147483647, 0}}, {"size", {2147483647, 1}}}), 400, "not inside");
  expect_refused(blocks({{"from", {0.5, 0}}, {"size", {1, 1}}}), 400, "\"from\"[0]");
  expect_refused(blocks({{"size", {1, 1}}}), 400, "\"from\" is missing");
  expect_refused(api.handle("GET", path, ""), 405, "POST");
  expect_refused(api.handle("POST", "/api/worlds/99/blocks", json{{"from", {0, 0}}, {"size", {1, 1}}}.dump()), 404,
                 "no world with id 99");
  expect_refused(api.handle("POST", "/api/worlds/" + std::to_string(grid) + "/blocks",
                            json{{"from", {0, 0}}, {"size", {1, 1}}}.dump()),
                 400, "only voxel worlds have blocks");
}

TEST(ViewerCatalog, UploadsPastTheCatalogsLimitsAreRefusedWith507) {
  // By count (the default limit of 64 worlds).
  WorldCatalog catalog;
  ViewerApi api(catalog);
  const std::string upload = json{{"kind", "grid"}, {"name", "tiny"}, {"movingai", small_map}}.dump();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(api.handle("POST", "/api/worlds", upload).status, 201) << i;
  const ApiResponse full = api.handle("POST", "/api/worlds", upload);
  EXPECT_EQ(full.status, 507) << full.body;
  EXPECT_NE(full.body.find("64 worlds"), std::string::npos) << full.body;
  EXPECT_EQ(catalog.size(), 64u);

  // By bytes: a 128 x 128 grid is estimated at 131,072 bytes.
  WorldCatalog small(CatalogLimits{.max_worlds = 64, .max_bytes = 200'000});
  ViewerApi small_api(small);
  const std::string generate = json{{"kind", "grid"}, {"generate", {{"width", 128}, {"height", 128}}}}.dump();
  EXPECT_EQ(small_api.handle("POST", "/api/worlds", generate).status, 201);
  const ApiResponse over = small_api.handle("POST", "/api/worlds", generate);
  EXPECT_EQ(over.status, 507) << over.body;
  EXPECT_NE(over.body.find("bytes"), std::string::npos) << over.body;
  EXPECT_EQ(small.size(), 1u);
  EXPECT_EQ(small.bytes(), 131'072u);
}

TEST(ViewerApi, CatalogLoadsABakedNavmeshFile) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("wayfinder_viewer_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".wfnav");
  const NavMesh mesh = NavMesh::from_arrays(std::vector<Point>{{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}},
                                            std::vector<std::uint32_t>{0, 1, 2, 3}, std::vector<std::uint32_t>{4});
  write_navmesh_file(mesh, file);
  WorldCatalog catalog;
  const int id = load_world_file(catalog, file.string());
  std::filesystem::remove(file);
  ViewerApi api(catalog);
  const ApiResponse response = api.handle(
      "POST", "/api/query", json{{"world", id}, {"start", {1.0, 0.0, 1.0}}, {"goal", {3.0, 0.0, 3.0}}}.dump());
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(json::parse(response.body)["status"], "found");
}

TEST(ViewerApiData, MeshAndVoxelQueriesAnswerWhatTheLibraryAnswers) {
  SKIP_WITHOUT(nav_test());
  SKIP_WITHOUT(warframe_simple());
  WorldCatalog catalog;
  const int mesh_id = load_world_file(catalog, nav_test().string());
  const int voxel_id = load_world_file(catalog, warframe_simple().string());
  ViewerApi api(catalog);
  expect_refused(api.handle("POST", "/api/worlds/" + std::to_string(voxel_id) + "/crowd", "{}"), 400,
                 "navigation meshes and grids");

  const NavMesh mesh = NavMesh::build(read_obj_mesh(nav_test()));
  NavMeshQuery mesh_query(mesh);
  const auto cases = read_mesh_queries(data_directory() / "meshes" / "derived" / "nav_test_reference_queries.csv");
  int compared = 0;
  for (std::size_t i = 0; i < cases.size() && i < 100; ++i) {
    const PathResult expected = mesh_query.find_path(cases[i].start, cases[i].goal);
    const ApiResponse response = api.handle(
        "POST", "/api/query",
        json{{"world", mesh_id}, {"start", {cases[i].start.x, cases[i].start.y, cases[i].start.z}},
             {"goal", {cases[i].goal.x, cases[i].goal.y, cases[i].goal.z}}, {"trace", i % 2 == 0}}
            .dump());
    if (expected.status == SearchStatus::invalid_input) {
      EXPECT_EQ(response.status, 400);
      continue;
    }
    ASSERT_EQ(response.status, 200) << response.body;
    const json result = json::parse(response.body);
    EXPECT_EQ(result["status"], std::string(to_string(expected.status)));
    if (!expected.has_path()) continue;
    ++compared;
    EXPECT_DOUBLE_EQ(result["cost"].get<double>(), expected.cost);
    EXPECT_EQ(result["corridor"].get<std::vector<PolygonId>>(), expected.nodes);
    EXPECT_EQ(result["path"].size(), expected.points.size());
    EXPECT_EQ(result["portals"].size(), expected.nodes.size() - 1);
  }
  EXPECT_GT(compared, 20);

  const VoxelWorld world = read_voxel_benchmark_map(warframe_simple());
  VoxelQuery flyer(world, MovementProfile::flyer());
  const VoxelScenario scenario = read_voxel_scenario(warframe_simple().string() + ".3dscen", 20);
  for (const auto& entry : scenario.queries) {
    const PathResult expected = flyer.find_path(entry.start, entry.goal);
    const ApiResponse response = api.handle(
        "POST", "/api/query",
        json{{"world", voxel_id}, {"start", {entry.start.x, entry.start.y, entry.start.z}},
             {"goal", {entry.goal.x, entry.goal.y, entry.goal.z}}, {"agent", "flyer"}}
            .dump());
    ASSERT_EQ(response.status, 200) << response.body;
    const json result = json::parse(response.body);
    EXPECT_EQ(result["status"], std::string(to_string(expected.status)));
    if (expected.has_path()) {
      EXPECT_DOUBLE_EQ(result["cost"].get<double>(), expected.cost);
    }
    EXPECT_EQ(result["path"].size(), expected.nodes.size());
  }
  const json described = json::parse(api.handle("GET", "/api/worlds/" + std::to_string(voxel_id), "").body);
  EXPECT_EQ(described["heights"].size(), static_cast<std::size_t>(world.size_x()) * static_cast<std::size_t>(world.size_z()));
}

// ---- Over a socket

struct RunningServer {
  explicit RunningServer(WorldCatalog& catalog, ServerOptions options = {}) : server(catalog, with_test_defaults(options)) {
    port = server.bind();
    thread = std::thread([this] { server.run(); });
  }
  ~RunningServer() {
    server.stop();
    thread.join();
  }
  static ServerOptions with_test_defaults(ServerOptions options) {
    options.port = 0;
    options.read_timeout = std::chrono::seconds(1);
    return options;
  }
  ViewerServer server;
  int port = 0;
  std::thread thread;
};

TEST(ViewerServer, ServesThePageAndTheApi) {
  WorldCatalog catalog;
  catalog.add("small", parse_movingai_map(small_map, "small"));
  RunningServer running(catalog);
  httplib::Client client("127.0.0.1", running.port);
  const auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("viewer.js"), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Type").find("text/html"), std::string::npos);
  const auto script = client.Get("/viewer.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_NE(script->body.find("/api/query"), std::string::npos);
  EXPECT_EQ(script->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  // three.js for the 3D view, where the build embedded it: never compressed on a request
  // (brotli took seconds for three.js): as it is to a client that accepts no coding, and the
  // copy gzipped at build time to one that accepts gzip (SendsTheStoredGzippedCopyOrThePlainBytes).
  if (const ViewerAsset* three = find_viewer_asset("/three.core.js")) {
    const auto served = client.Get("/three.core.js");
    ASSERT_TRUE(served);
    EXPECT_EQ(served->status, 200);
    EXPECT_EQ(served->get_header_value("Content-Encoding"), "");
    EXPECT_EQ(served->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(served->body.size(), three->bytes.size());
    for (const char* path : {"/three.module.js", "/OrbitControls.js", "/view3d.js", "/voxel_geometry.js", "/world_files.js"})
      EXPECT_NE(find_viewer_asset(path), nullptr) << path;
  }
  const auto missing = client.Get("/nothing-here.js");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);

  const auto worlds = client.Get("/api/worlds");
  ASSERT_TRUE(worlds);
  EXPECT_EQ(json::parse(worlds->body)[0]["name"], "small");
  const auto result = client.Post("/api/query", R"({"world": 1, "start": [1, 2], "goal": [5, 2]})", "application/json");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(json::parse(result->body)["status"], "found");
}

// Each embedded file is gzipped once, at build time: a client that accepts gzip gets exactly
// that stored copy (the same bytes on every request, so nothing is compressed while it waits),
// which decompresses to the file; any other client gets the file's plain bytes. Under the same
// standard types, which cpp-httplib would compress on each request if the server let it.
TEST(ViewerServer, SendsTheStoredGzippedCopyOrThePlainBytes) {
  WorldCatalog catalog;
  const RunningServer running(catalog);
  httplib::Client raw("127.0.0.1", running.port);
  raw.set_decompress(false);
  httplib::Client decoding("127.0.0.1", running.port);
  std::vector<std::string> paths = {"/", "/viewer.js", "/viewer.css"};
  if (find_viewer_asset("/three.core.js") != nullptr) paths.insert(paths.end(), {"/three.core.js", "/three.module.js"});
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    const ViewerAsset* asset = find_viewer_asset(path);
    ASSERT_NE(asset, nullptr);
    ASSERT_LT(asset->gzip_bytes.size(), asset->bytes.size());
    for (int request = 0; request < 2; ++request) {
      const auto gzipped = raw.Get(path, {{"Accept-Encoding", "gzip, deflate, br, zstd"}});
      ASSERT_TRUE(gzipped);
      EXPECT_EQ(gzipped->status, 200);
      EXPECT_EQ(gzipped->get_header_value("Content-Encoding"), "gzip");
      EXPECT_EQ(gzipped->get_header_value("Content-Type"), asset->content_type);
      EXPECT_EQ(gzipped->get_header_value("Vary"), "Accept-Encoding");
      EXPECT_EQ(gzipped->body, asset->gzip_bytes);
    }
    const auto decoded = decoding.Get(path, {{"Accept-Encoding", "gzip"}});
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->get_header_value("Content-Encoding"), "gzip");
    EXPECT_EQ(decoded->body, asset->bytes);
    for (const httplib::Headers& headers : {httplib::Headers{}, httplib::Headers{{"Accept-Encoding", "br, gzip;q=0"}},
                                            httplib::Headers{{"Accept-Encoding", "identity"}}}) {
      const auto plain = raw.Get(path, headers);
      ASSERT_TRUE(plain);
      EXPECT_EQ(plain->status, 200);
      EXPECT_EQ(plain->get_header_value("Content-Encoding"), "");
      EXPECT_EQ(plain->get_header_value("Content-Type"), asset->content_type);
      EXPECT_EQ(plain->body, asset->bytes);
    }
  }
  EXPECT_EQ(find_viewer_asset("/viewer.js")->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(find_viewer_asset("/viewer.css")->content_type, "text/css; charset=utf-8");
  EXPECT_EQ(find_viewer_asset("/")->content_type, "text/html; charset=utf-8");
}

TEST(ViewerAcceptEncoding, GzipIsAcceptedAsRfc9110Says) {
  for (const char* accepting : {"gzip", "gzip, deflate, br, zstd", " deflate ,gzip ", "GZip;Q=0.5", "x-gzip",
                                "gzip ; q=0.001", "gzip;q=1", "gzip;q=1.000", "*", "br, *;q=0.1", "gzip;q=0, gzip"})
    EXPECT_TRUE(accepts_gzip(accepting)) << accepting;
  for (const char* refusing : {"", "identity", "br", "deflate, br", "gzipper", "gzip;q=0", "gzip;q=0.000", "gzip;q=0, *",
                               "*;q=0", "gzip;q=1.5", "gzip;q=", "gzip;q=0.0001", "gzip;q=abc"})
    EXPECT_FALSE(accepts_gzip(refusing)) << refusing;
}

TEST(ViewerServer, RefusesOversizedAndNeverEndingBodiesAndStaysUp) {
  WorldCatalog catalog;
  catalog.add("small", parse_movingai_map(small_map, "small"));
  ServerOptions options;
  options.limits.max_body_bytes = 1024;
  RunningServer running(catalog, options);
  httplib::Client client("127.0.0.1", running.port);

  const auto big = client.Post("/api/worlds", std::string(4096, 'x'), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_NE(big->body.find("limit"), std::string::npos) << big->body;

  // A body that never ends: the headers promise 1000 bytes, 10 come. The server must drop the
  // connection after its read timeout (1 s here) instead of waiting for ever.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(running.port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const std::string partial =
      "POST /api/query HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(running.port) +
      "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"world\":";
  ASSERT_EQ(::send(fd, partial.data(), partial.size(), 0), static_cast<ssize_t>(partial.size()));
  const auto began = std::chrono::steady_clock::now();
  timeval wait_at_most{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait_at_most, sizeof wait_at_most);
  char buffer[512];
  while (::recv(fd, buffer, sizeof buffer, 0) > 0) {
  }
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  ::close(fd);
  EXPECT_LT(waited, 8.0) << "the server kept a never-ending request open";

  const auto after = client.Post("/api/query", R"({"world": 1, "start": [1, 2], "goal": [5, 2]})", "application/json");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 200);
  EXPECT_EQ(json::parse(after->body)["status"], "found");
}

// A server on a free loopback port over a catalog holding the small grid (world 1).
struct ServedSmallGrid {
  explicit ServedSmallGrid(ServerOptions options = {}) : running(with_small_grid(catalog), std::move(options)) {}
  static WorldCatalog& with_small_grid(WorldCatalog& catalog) {
    catalog.add("small", parse_movingai_map(small_map, "small"));
    return catalog;
  }
  WorldCatalog catalog;
  RunningServer running;
};

// A connected TCP socket to 127.0.0.1:port (closed by the destructor), with receive and send
// timeouts so that no test waits for ever.
class LoopbackSocket {
 public:
  explicit LoopbackSocket(int port, int timeout_seconds = 5) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval wait_at_most{timeout_seconds, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait_at_most, sizeof wait_at_most);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &wait_at_most, sizeof wait_at_most);
    connected_ = fd_ >= 0 && ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  }
  ~LoopbackSocket() {
    if (fd_ >= 0) ::close(fd_);
  }
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;
  [[nodiscard]] bool connected() const { return connected_; }
  bool send(std::string_view bytes) const {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  /// What arrives until the server closes the connection or the timeout passes.
  [[nodiscard]] std::string receive() const {
    std::string got;
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::recv(fd_, buffer, sizeof buffer, 0)) > 0) got.append(buffer, static_cast<std::size_t>(n));
    return got;
  }

 private:
  int fd_;
  bool connected_ = false;
};

TEST(ViewerServer, RefusesAPortAnotherServerListensOn) {
  // Another server on a loopback port, listening with SO_REUSEADDR and SO_REUSEPORT (as
  // cpp-httplib's own default does): a second server must not share the port with it.
  const int other = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(other, 0);
  int yes = 1;
  ::setsockopt(other, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  ::setsockopt(other, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(other, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(other, 4), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(other, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int taken = ntohs(address.sin_port);

  WorldCatalog catalog;
  ServerOptions options;
  options.port = taken;
  ViewerServer server(catalog, options);
  try {
    server.bind();
    ADD_FAILURE() << "the server listened on port " << taken << ", which another server holds";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("127.0.0.1:" + std::to_string(taken)), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("taken"), std::string::npos) << error.what();
  }
  ::close(other);
}

TEST(ViewerServer, ChunkedBodiesAreHeldToTheSizeLimit) {
  ServerOptions options;
  options.limits.max_body_bytes = 1024;
  const ServedSmallGrid served(options);
  const RunningServer& running = served.running;
  // A chunked body announces no length: the server must stop at its limit, not read on until the
  // body ends (this one never does) and only then look at its size.
  LoopbackSocket client(running.port);
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.send("POST /api/worlds HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(running.port) +
                          "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"));
  const std::string chunk = "3e8\r\n" + std::string(1000, ' ') + "\r\n";
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(client.send(chunk));
  const std::string answer = client.receive();
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 413")) << answer.substr(0, 200);
  EXPECT_NE(answer.find("size limit"), std::string::npos) << answer.substr(0, 400);

  // A chunked body within the limit is read and answered.
  LoopbackSocket small(running.port);
  ASSERT_TRUE(small.connected());
  const std::string body = R"({"world": 1, "start": [1, 2], "goal": [5, 2]})";
  std::ostringstream length;
  length << std::hex << body.size();
  ASSERT_TRUE(small.send("POST /api/query HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(running.port) +
                         "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" +
                         length.str() + "\r\n" + body + "\r\n0\r\n\r\n"));
  const std::string found = small.receive();
  EXPECT_TRUE(found.starts_with("HTTP/1.1 200")) << found.substr(0, 200);
  EXPECT_NE(found.find("\"found\""), std::string::npos) << found.substr(0, 400);
}

TEST(ViewerServer, RequestHeadsAreHeldToTheirSizeLimit) {
  ServerOptions options;
  options.max_request_head_bytes = 4096;
  const ServedSmallGrid served(options);
  const RunningServer& running = served.running;
  const std::string host = "Host: 127.0.0.1:" + std::to_string(running.port) + "\r\n";
  // One header line that never ends: the server stops reading at the limit and closes the
  // connection, so the client cannot send it 64 MiB (cpp-httplib alone would keep all of it; the
  // kernel's socket buffers take a few MiB before the send fails).
  LoopbackSocket endless(running.port);
  ASSERT_TRUE(endless.connected());
  ASSERT_TRUE(endless.send("GET /api/worlds HTTP/1.1\r\n" + host + "X-Long: "));
  const std::string mebibyte(std::size_t{1} << 20, 'a');
  int sent = 0;
  while (sent < 64 && endless.send(mebibyte)) ++sent;
  EXPECT_LT(sent, 64) << "the server took 64 MiB of one header line";
  const std::string refused = endless.receive();
  EXPECT_TRUE(refused.empty() || refused.starts_with("HTTP/1.1 400")) << refused.substr(0, 200);

  // A head within the limit is answered, and so is the next request on the same connection.
  LoopbackSocket fits(running.port);
  ASSERT_TRUE(fits.connected());
  const std::string request = "GET /api/worlds HTTP/1.1\r\n" + host + "X-Padding: " + std::string(3000, 'b') + "\r\n\r\n";
  ASSERT_TRUE(fits.send(request + "GET /api/worlds HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n"));
  const std::string answers = fits.receive();
  std::size_t answered = 0;
  for (std::size_t at = answers.find("HTTP/1.1 200"); at != std::string::npos; at = answers.find("HTTP/1.1 200", at + 1))
    ++answered;
  EXPECT_EQ(answered, 2u) << answers.substr(0, 400);
}

TEST(ViewerServer, RefusesForeignHostsOriginsAndContentTypes) {
  const ServedSmallGrid served;
  const RunningServer& running = served.running;
  const WorldCatalog& catalog = served.catalog;
  const std::string own_host = "127.0.0.1:" + std::to_string(running.port);
  httplib::Client client("127.0.0.1", running.port);
  const std::string upload = json{{"kind", "grid"}, {"name", "tiny"}, {"movingai", small_map}}.dump();
  const auto status_of = [](const httplib::Result& result) { return result ? result->status : -1; };

  // DNS rebinding: a page of another name that resolves to 127.0.0.1 sends its own Host.
  EXPECT_EQ(status_of(client.Get("/api/worlds", {{"Host", "evil.example:" + std::to_string(running.port)}})), 403);
  EXPECT_EQ(status_of(client.Get("/", {{"Host", "evil.example"}})), 403);
  EXPECT_EQ(status_of(client.Get("/api/worlds", {{"Host", "127.0.0.1"}})), 403);  // not the server's port
  EXPECT_EQ(status_of(client.Get("/api/worlds", {{"Host", "127.0.0.1:1"}})), 403);
  const auto refused = client.Get("/api/worlds", {{"Host", "evil.example"}});
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->body.find("loopback"), std::string::npos) << refused->body;
  EXPECT_EQ(status_of(client.Get("/api/worlds", {{"Host", "localhost:" + std::to_string(running.port)}})), 200);
  EXPECT_EQ(status_of(client.Get("/api/worlds")), 200);

  // Cross-site requests: another origin, or a body that is not declared JSON (a "simple"
  // text/plain request any page may send), creates and edits nothing.
  EXPECT_EQ(status_of(client.Post("/api/worlds", {{"Origin", "http://evil.example"}}, upload, "application/json")), 403);
  EXPECT_EQ(status_of(client.Post("/api/worlds", {{"Origin", "http://127.0.0.1:1"}}, upload, "application/json")), 403);
  EXPECT_EQ(status_of(client.Post("/api/worlds", upload, "text/plain")), 415);
  EXPECT_EQ(status_of(client.Post("/api/worlds", upload, "application/x-www-form-urlencoded")), 415);
  EXPECT_EQ(status_of(client.Post("/api/worlds/1/edit", {{"Origin", "http://evil.example"}},
                                  R"({"rect": [0, 0, 7, 5], "set": "wall"})", "application/json")),
            403);
  EXPECT_EQ(status_of(client.Post("/api/worlds/1/edit", R"({"rect": [0, 0, 7, 5], "set": "wall"})", "text/plain")), 415);
  EXPECT_EQ(catalog.size(), 1u);
  EXPECT_EQ(catalog.find(1)->grid->revision(), 0u);
  EXPECT_EQ(status_of(client.Delete("/api/worlds")), 405);

  // The viewer's own page: Origin is the server's, the type JSON.
  EXPECT_EQ(status_of(client.Post("/api/worlds", {{"Origin", "http://" + own_host}}, upload, "application/json")), 201);
  EXPECT_EQ(status_of(client.Post("/api/worlds", upload, "application/json; charset=utf-8")), 201);
  EXPECT_EQ(catalog.size(), 3u);
}

TEST(ViewerServer, IdleConnectionsDoNotStopItAnswering) {
  const ServedSmallGrid served;
  const RunningServer& running = served.running;
  // Sixty connections that send nothing, more than the threads the server starts with.
  std::vector<std::unique_ptr<LoopbackSocket>> idle;
  for (int i = 0; i < 60; ++i) {
    idle.push_back(std::make_unique<LoopbackSocket>(running.port));
    ASSERT_TRUE(idle.back()->connected());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  httplib::Client client("127.0.0.1", running.port);
  client.set_connection_timeout(3);
  client.set_read_timeout(3);
  const auto began = std::chrono::steady_clock::now();
  const auto answer = client.Get("/api/worlds");
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  ASSERT_TRUE(answer) << "no answer while 60 idle connections were open";
  EXPECT_EQ(answer->status, 200);
  EXPECT_LT(waited, 3.0);
}

TEST(ViewerServer, SlowClientsDoNotStopItAnswering) {
  const ServedSmallGrid served;
  const RunningServer& running = served.running;
  // Sixteen clients send a request a byte at a time, a byte every 0.3 s (inside the read
  // timeout of 1 s, so none is dropped), for 3 s each.
  std::atomic<bool> done{false};
  std::vector<std::thread> slow;
  for (int c = 0; c < 16; ++c)
    slow.emplace_back([&] {
      LoopbackSocket client(running.port);
      const std::string request = "GET /api/worlds HTTP/1.1\r\nX-Slow: ";
      for (int i = 0; i < 10 && !done; ++i) {
        if (!client.send(std::string_view(request).substr(static_cast<std::size_t>(i), 1))) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  httplib::Client client("127.0.0.1", running.port);
  client.set_connection_timeout(2);
  client.set_read_timeout(2);
  const auto answer = client.Get("/api/worlds");
  done = true;
  for (auto& thread : slow) thread.join();
  ASSERT_TRUE(answer) << "no answer while 16 slow clients were connected";
  EXPECT_EQ(answer->status, 200);
}

TEST(ViewerServer, ConcurrentClientsGetTheSingleThreadedAnswers) {
  SKIP_WITHOUT(den520d());
  WorldCatalog catalog;
  load_world_file(catalog, den520d().string());
  const GridMap map = read_movingai_map(den520d());
  const Scenario scenario = read_movingai_scenario(den520d().string() + ".scen", testing::sanitized_build() ? 40 : 200);
  GridQuery finder(map);
  std::vector<double> expected;
  for (const ScenarioQuery& q : scenario.queries) expected.push_back(finder.find_path(q.start, q.goal).cost);

  ServerOptions options;
  options.threads = 4;
  RunningServer running(catalog, options);
  constexpr int clients = 4;
  std::atomic<int> wrong{0}, answered{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c)
    threads.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", running.port);
      for (std::size_t i = static_cast<std::size_t>(c); i < scenario.queries.size(); i += clients) {
        const ScenarioQuery& q = scenario.queries[i];
        const std::string algorithm = i % 2 == 0 ? "astar" : "jps";
        const json request{{"world", 1}, {"start", {q.start.x, q.start.y}}, {"goal", {q.goal.x, q.goal.y}}, {"algorithm", algorithm}};
        const auto response = client.Post("/api/query", request.dump(), "application/json");
        if (!response || response->status != 200) {
          ++wrong;
          continue;
        }
        const double cost = json::parse(response->body)["cost"];
        if (std::abs(cost - expected[i]) > 1e-9 * std::max(1.0, expected[i])) ++wrong;
        ++answered;
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(answered.load(), static_cast<int>(scenario.queries.size()));
}

}  // namespace
}  // namespace wayfinder::viewer
