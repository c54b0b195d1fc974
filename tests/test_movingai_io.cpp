// The MovingAI readers: every accepted variant of the formats, and every malformed input the
// issue lists, each with an error naming the file, line, column and cause.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "grid_test_support.hpp"
#include "temporary_folder.hpp"
#include "wayfinder/core/load_error.hpp"
#include "core/text_file.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "wayfinder/grid/world/terrain_table.hpp"

namespace wayfinder {
namespace {

/// A 5 x 4 map using every MovingAI character.
constexpr std::string_view small_map =
    "type octile\n"
    "height 4\n"
    "width 5\n"
    "map\n"
    ".G@OT\n"
    "..S..\n"
    ".W...\n"
    "....G\n";

/// Replaces every "\n" by "\r\n".
std::string with_crlf(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

void expect_small_map(const GridMap& map) {
  ASSERT_EQ(map.width(), 5);
  ASSERT_EQ(map.height(), 4);
  EXPECT_TRUE(map.passable(0, 0));
  EXPECT_TRUE(map.passable(1, 0));  // G
  EXPECT_FALSE(map.passable(2, 0));  // @
  EXPECT_FALSE(map.passable(3, 0));  // O
  EXPECT_FALSE(map.passable(4, 0));  // T
  EXPECT_TRUE(map.passable(2, 1));   // S, swamp
  EXPECT_EQ(map.cost(2, 1), 3.0f);
  EXPECT_FALSE(map.passable(1, 2));  // W, water: not for walking agents
  EXPECT_EQ(map.cost(0, 0), 1.0f);
  EXPECT_EQ(map.cost(4, 3), 1.0f);
  EXPECT_FALSE(map.uniform_cost());
  EXPECT_EQ(map.passable_count(), 16u);
}

/// Expects parsing to fail with exactly this "file:line:column: cause" message.
template <class Parse>
void expect_error(Parse&& parse, const std::string& expected_message) {
  try {
    parse();
    ADD_FAILURE() << "expected the error: " << expected_message;
  } catch (const LoadError& error) {
    EXPECT_EQ(std::string(error.what()), expected_message);
  } catch (const std::exception& error) {
    ADD_FAILURE() << "expected a LoadError (" << expected_message << "), got another exception: " << error.what();
  }
}

void expect_map_error(std::string_view text, const std::string& expected_message) {
  expect_error([&] { (void)parse_movingai_map(text, "arena.map"); }, expected_message);
}

void expect_scenario_error(std::string_view text, const std::string& expected_message) {
  expect_error([&] { (void)parse_movingai_scenario(text, "arena.map.scen"); }, expected_message);
}

using testing::TemporaryFolder;

// ---------------------------------------------------------------------------------------------
// Maps that parse

TEST(MovingAiMap, ParsesEveryTerrainCharacter) { expect_small_map(parse_movingai_map(small_map, "small.map")); }

TEST(MovingAiMap, AcceptsCrlfTabsHeaderOrderAndByteOrderMark) {
  expect_small_map(parse_movingai_map(with_crlf(small_map), "crlf.map"));
  expect_small_map(parse_movingai_map(
      "type\toctile\nheight\t4\r\n  width \t 5  \nmap\t\n.G@OT\n..S..\n.W...\n....G\n", "tabs.map"));
  expect_small_map(parse_movingai_map("width 5\ntype octile\nheight 4\nmap\n.G@OT\n..S..\n.W...\n....G\n", "order.map"));
  expect_small_map(parse_movingai_map("\xEF\xBB\xBFtype octile\nheight 4\nwidth 5\nmap\n.G@OT\n..S..\n.W...\n....G\n",
                                      "bom.map"));
  // No line break after the last row, and blank lines after it, are both fine.
  expect_small_map(parse_movingai_map("type octile\nheight 4\nwidth 5\nmap\n.G@OT\n..S..\n.W...\n....G", "end.map"));
  expect_small_map(parse_movingai_map(std::string(small_map) + "\n\n \t\n\r\n", "trailing.map"));
}

TEST(MovingAiMap, UsesTheTerrainTable) {
  TerrainTable terrain;
  terrain.set_passable('.', 1.0f);
  terrain.set_passable('~', 2.5f);
  terrain.set_blocked('#');
  const GridMap map = parse_movingai_map("type octile\nheight 2\nwidth 3\nmap\n.~#\n~..\n", "custom.map", terrain);
  EXPECT_TRUE(map.passable(0, 0));
  EXPECT_EQ(map.cost(1, 0), 2.5f);
  EXPECT_FALSE(map.passable(2, 0));
  EXPECT_EQ(map.cost(0, 1), 2.5f);
  EXPECT_EQ(map.min_cost() <= 1.0f, true);
  // The default table does not know '~'.
  expect_error([] { (void)parse_movingai_map("type octile\nheight 1\nwidth 2\nmap\n.~\n", "custom.map"); },
               "custom.map:5:2: unexpected character '~'");
}

TEST(TerrainTable, MovingAiCharactersAndValidation) {
  const TerrainTable table = TerrainTable::movingai();
  EXPECT_EQ(table.lookup('.').kind, Terrain::Kind::passable);
  EXPECT_EQ(table.lookup('G').kind, Terrain::Kind::passable);
  EXPECT_EQ(table.lookup('S').kind, Terrain::Kind::passable);
  EXPECT_EQ(table.lookup('S').cost, 3.0f);
  EXPECT_EQ(table.lookup('F').cost, 2.0f);
  for (const char blocked : {'@', 'O', 'T', 'W'}) EXPECT_EQ(table.lookup(blocked).kind, Terrain::Kind::blocked) << blocked;
  for (const char unknown : {'x', ' ', '\0', '\xff'}) EXPECT_EQ(table.lookup(unknown).kind, Terrain::Kind::unknown);

  TerrainTable custom;
  EXPECT_THROW(custom.set_passable('a', 0.0f), std::invalid_argument);
  EXPECT_THROW(custom.set_passable('a', -1.0f), std::invalid_argument);
  EXPECT_THROW(custom.set_passable('a', std::numeric_limits<float>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(custom.set_passable('a', std::numeric_limits<float>::infinity()), std::invalid_argument);
  EXPECT_EQ(custom.lookup('a').kind, Terrain::Kind::unknown) << "a rejected cost must not change the table";
  custom.set_passable('a', 0.25f);
  EXPECT_EQ(custom.lookup('a').cost, 0.25f);
  custom.set_blocked('a');
  EXPECT_EQ(custom.lookup('a').kind, Terrain::Kind::blocked);
}

TEST(MovingAiMap, ParsesA512MapQuickly) {
  std::string text = "type octile\nheight 512\nwidth 512\nmap\n";
  wayfinder::testing::TestRandom random(1);
  for (int y = 0; y < 512; ++y) {
    for (int x = 0; x < 512; ++x) text += random.chance(0.3) ? '@' : (random.chance(0.05) ? 'S' : '.');
    text += '\n';
  }
  const auto began = std::chrono::steady_clock::now();
  const GridMap map = parse_movingai_map(text, "big.map");
  const double milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  // Reported, not asserted: speed is a benchmark's job, never a timed test's.
  std::cout << "[ timing   ] parsing a 512 x 512 map took " << milliseconds << " ms\n";
  ASSERT_EQ(map.width(), 512);
  std::size_t passable = 0;
  for (std::size_t i = 0; i < 512 * 512; ++i) {
    const char c = text[text.size() - 512 * 513 + i / 512 * 513 + i % 512];
    EXPECT_EQ(map.passable(static_cast<int>(i % 512), static_cast<int>(i / 512)), c != '@');
    passable += c != '@';
  }
  EXPECT_EQ(map.passable_count(), passable);
}

// ---------------------------------------------------------------------------------------------
// Maps that do not parse

TEST(MovingAiMapErrors, Header) {
  expect_map_error("", "arena.map: empty file: expected a MovingAI map header (type octile, height, width, map)");
  expect_map_error("type octile\ncolour blue\nheight 1\nwidth 1\nmap\n.\n",
                   "arena.map:2:1: unknown header keyword 'colour' (expected type, height, width or map)");
  expect_map_error("type octile\nheight 1\nwidth 1\nheight 2\nmap\n.\n",
                   "arena.map:4:1: duplicate 'height' line (first given on line 2)");
  expect_map_error("type octile\nheight 1\nmap\n.\n", "arena.map:3:1: missing 'width' line before 'map'");
  expect_map_error("height 1\nwidth 1\nmap\n.\n", "arena.map:3:1: missing 'type' line before 'map'");
  expect_map_error("type hexagonal\nheight 1\nwidth 1\nmap\n.\n",
                   "arena.map:1:6: unsupported map type 'hexagonal' (expected 'octile')");
  expect_map_error("type octile\nheight\nwidth 1\nmap\n.\n", "arena.map:2:7: missing value after 'height'");
  expect_map_error("type octile\nheight 1 2\nwidth 1\nmap\n.\n", "arena.map:2:10: unexpected '2' after the height value");
  expect_map_error("type octile\nheight 1\nwidth 1\nmap now\n.\n", "arena.map:4:5: unexpected 'now' after 'map'");
  expect_map_error("type octile\nheight 1\nwidth 1\n", "arena.map:4: the file ends before the 'map' line that starts the map rows");
  // A map row where the header should be.
  expect_map_error("type octile\nheight 1\nwidth 1\n.\n",
                   "arena.map:4:1: unknown header keyword '.' (expected type, height, width or map)");
}

TEST(MovingAiMapErrors, BadNumbers) {
  expect_map_error("type octile\nheight abc\nwidth 1\nmap\n.\n", "arena.map:2:8: non-numeric height 'abc'");
  expect_map_error("type octile\nheight 1\nwidth 12x\nmap\n.\n", "arena.map:3:7: non-numeric width '12x'");
  expect_map_error("type octile\nheight 1\nwidth 1.5\nmap\n.\n", "arena.map:3:7: non-numeric width '1.5'");
  expect_map_error("type octile\nheight -3\nwidth 1\nmap\n.\n", "arena.map:2:8: negative height '-3'");
  expect_map_error("type octile\nheight 1\nwidth 0\nmap\n", "arena.map:3:7: width must be at least 1");
  expect_map_error("type octile\nheight +1\nwidth 1\nmap\n.\n", "arena.map:2:8: non-numeric height '+1'");
}

TEST(MovingAiMapErrors, SizeTooLargeToAllocateFailsBeforeAllocating) {
  // 10^16 cells would need petabytes; the reader must refuse from the header alone.
  expect_map_error("type octile\nheight 100000000\nwidth 100000000\nmap\n.\n",
                   "arena.map:3:7: map too large: 100000000 x 100000000 cells exceeds the limit of 32768 cells per side");
  expect_map_error("type octile\nheight 20000\nwidth 20000\nmap\n.\n",
                   "arena.map:4:1: map too large: 20000 x 20000 cells exceeds the limit of 268435456 cells");
  expect_map_error("type octile\nheight 99999999999999999999999\nwidth 1\nmap\n.\n",
                   "arena.map:2:8: map too large: height '99999999999999999999999' exceeds the limit of 32768 cells per side");
  // Within the limits but far more cells than the text holds: the truncation is found before
  // the (1 GiB) grid would be allocated.
  expect_map_error("type octile\nheight 16384\nwidth 16384\nmap\n",
                   "arena.map:5: truncated file: expected 16384 map rows, found 0");
}

TEST(MovingAiMapErrors, Rows) {
  const std::string header = "type octile\nheight 3\nwidth 4\nmap\n";
  expect_map_error(header + "....\n...\n....\n", "arena.map:6:4: wrong map row length: expected 4 characters, found 3");
  expect_map_error(header + "....\n.....\n....\n", "arena.map:6:5: wrong map row length: expected 4 characters, found 5");
  expect_map_error(header + "....\n....\n.x..\n", "arena.map:7:2: unexpected character 'x'");
  expect_map_error(header + "....\n\xff...\n....\n", "arena.map:6:1: unexpected character '\\xff'");
  expect_map_error(header + "....\n.. .\n....\n", "arena.map:6:3: unexpected character ' '");
  expect_map_error(header + "....\n.\r..\n....\n", "arena.map:6:2: unexpected character '\\x0d'");
  expect_map_error(header + "....\n....\n", "arena.map:7: truncated file: expected 3 map rows, found 2");
  expect_map_error(header + "....\n....\n\n\n", "arena.map:7: truncated file: expected 3 map rows, found 2");
  expect_map_error(header + "....\n\n....\n....\n", "arena.map:6:1: wrong map row length: expected 4 characters, found 0");
  expect_map_error(header + "....\n....\n....\n@@@@\n",
                   "arena.map:8:1: unexpected text after the 3 map rows: '@@@@'");
  expect_map_error(header + "....\n....\n....\n\nversion 1\n",
                   "arena.map:9:1: unexpected text after the 3 map rows: 'version 1'");
}

TEST(MovingAiMapErrors, TheExampleFromTheDesign) {
  std::string text = "type octile\nheight 4\nwidth 20\nmap\n";
  text += std::string(20, '.') + "\n" + std::string(20, '.') + "\n";
  text += std::string(11, '.') + "x" + std::string(8, '.') + "\n" + std::string(20, '.') + "\n";
  expect_map_error(text, "arena.map:7:12: unexpected character 'x'");
  try {
    (void)parse_movingai_map(text, "arena.map");
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), "arena.map");
    EXPECT_EQ(error.line(), 7);
    EXPECT_EQ(error.column(), 12);
    EXPECT_EQ(error.cause(), "unexpected character 'x'");
  }
}

// ---------------------------------------------------------------------------------------------
// Scenarios

TEST(MovingAiScenario, ParsesBothVersionsTabsSpacesAndCrlf) {
  const std::string tabs =
      "version 1\n"
      "0\tmaps/dao/arena2.map\t281\t209\t100\t41\t98\t44\t3.82843\n"
      "3\tmaps/dao/arena2.map\t281\t209\t1\t2\t3\t4\t0\n";
  for (const std::string& text : std::vector<std::string>{tabs, with_crlf(tabs), "version 1.0\n0 maps/dao/arena2.map 281 209 100 41 98 44 3.82843\n"
                               "3 maps/dao/arena2.map   281 209 1\t2 3 4 0\n\n\n",
        "\xEF\xBB\xBF" "version\t1\n\n0 maps/dao/arena2.map 281 209 100 41 98 44 3.82843\n\n"
        "3 maps/dao/arena2.map 281 209 1 2 3 4 0.0"}) {
    const Scenario scenario = parse_movingai_scenario(text, "arena2.map.scen");
    EXPECT_EQ(scenario.source_name, "arena2.map.scen");
    ASSERT_EQ(scenario.queries.size(), 2u) << text;
    const ScenarioQuery& first = scenario.queries[0];
    EXPECT_EQ(first.bucket, 0);
    EXPECT_EQ(first.map_name, "maps/dao/arena2.map");
    EXPECT_EQ(first.map_width, 281);
    EXPECT_EQ(first.map_height, 209);
    EXPECT_EQ(first.start, (Cell{100, 41}));
    EXPECT_EQ(first.goal, (Cell{98, 44}));
    EXPECT_DOUBLE_EQ(first.optimal_length, 3.82843);
    EXPECT_GE(first.line, 2);
    EXPECT_EQ(scenario.queries[1].bucket, 3);
    EXPECT_EQ(scenario.queries[1].optimal_length, 0.0);
    EXPECT_GE(scenario.queries[1].line, 3);
  }
  EXPECT_TRUE(parse_movingai_scenario("version 1\n", "empty.scen").queries.empty());
}

TEST(MovingAiScenarioErrors, VersionLine) {
  expect_scenario_error("", "arena.map.scen: empty file: expected a MovingAI scenario starting with 'version 1'");
  expect_scenario_error("0\tmaps/a.map\t4\t4\t0\t0\t1\t1\t1.41421\n",
                        "arena.map.scen:1:1: expected the line 'version 1' or 'version 1.0' first, found '0'");
  expect_scenario_error("version 2\n", "arena.map.scen:1:9: unsupported scenario version '2' (expected 1 or 1.0)");
  expect_scenario_error("version\n", "arena.map.scen:1:8: missing version number after 'version'");
  expect_scenario_error("version 1 beta\n", "arena.map.scen:1:11: unexpected 'beta' after the version");
}

TEST(MovingAiScenarioErrors, Fields) {
  const std::string version = "version 1\n";
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1\n", "arena.map.scen:2:23: expected 9 fields, found 7");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 1.4 extra\n",
                        "arena.map.scen:2:30: expected 9 fields, found 10");
  expect_scenario_error(version + "0 maps/a.map 4 4 abc 0 1 1 1.4\n", "arena.map.scen:2:18: non-numeric start x 'abc'");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 -1 1.4\n", "arena.map.scen:2:24: negative goal y '-1'");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 99999999999 1 1 1.4\n",
                        "arena.map.scen:2:20: start y '99999999999' is out of range");
  expect_scenario_error(version + "x maps/a.map 4 4 0 0 1 1 1.4\n", "arena.map.scen:2:1: non-numeric bucket 'x'");
  expect_scenario_error(version + "0 maps/a.map 4 four 0 0 1 1 1.4\n", "arena.map.scen:2:16: non-numeric map height 'four'");
  expect_scenario_error(version + "0 maps/a.map 0 4 0 0 1 1 1.4\n", "arena.map.scen:2:14: map width must be at least 1");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 abc\n", "arena.map.scen:2:26: non-numeric optimal length 'abc'");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 1.4x\n", "arena.map.scen:2:26: non-numeric optimal length '1.4x'");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 -2\n", "arena.map.scen:2:26: negative optimal length '-2'");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 nan\n",
                        "arena.map.scen:2:26: optimal length 'nan' is not a finite number");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 inf\n",
                        "arena.map.scen:2:26: optimal length 'inf' is not a finite number");
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 1e999\n",
                        "arena.map.scen:2:26: optimal length '1e999' is out of range");
  // Coordinates must lie inside the map size the line declares.
  expect_scenario_error(version + "0 maps/a.map 4 4 4 0 1 1 1.4\n",
                        "arena.map.scen:2:18: start x 4 is outside the map (width 4)");
  expect_scenario_error(version + "0 maps/a.map 4 3 0 0 1 3 1.4\n",
                        "arena.map.scen:2:24: goal y 3 is outside the map (height 3)");
  // Errors name the line they are on, after blank lines and good queries.
  expect_scenario_error(version + "0 maps/a.map 4 4 0 0 1 1 1.4\n\n0 maps/a.map 4 4 0 0 1 1 1.4 \t\n0 maps/a.map 4 4 0 0 1\n",
                        "arena.map.scen:5:23: expected 9 fields, found 7");
}

TEST(MovingAiScenario, MapPathIsTheScenarioPathWithoutScen) {
  EXPECT_EQ(scenario_map_path("data/movingai/dao/arena2.map.scen"), std::filesystem::path("data/movingai/dao/arena2.map"));
  EXPECT_EQ(scenario_map_path("arena2.map.scen"), std::filesystem::path("arena2.map"));
  EXPECT_THROW((void)scenario_map_path("arena2.map"), LoadError);
}

TEST(MovingAiScenario, CheckFitsMap) {
  const GridMap map = parse_movingai_map("type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n...T\n", "fit.map");
  const auto check = [&](const std::string& line) {
    check_scenario_fits_map(parse_movingai_scenario("version 1\n" + line + "\n", "fit.map.scen"), map);
  };
  EXPECT_NO_THROW(check("0 fit.map 4 3 0 0 2 2 2.82843"));
  expect_error([&] { check("0 fit.map 5 3 0 0 2 2 2.82843"); },
               "fit.map.scen:2: the query is for a 5 x 3 map, but the map is 4 x 3");
  expect_error([&] { check("0 fit.map 4 3 1 1 2 2 1.41421"); }, "fit.map.scen:2: start (1, 1) is on a blocked cell");
  expect_error([&] { check("0 fit.map 4 3 0 0 3 2 3.41421"); }, "fit.map.scen:2: goal (3, 2) is on a blocked cell");

  // Coordinates outside the map cannot come from the parser (it checks them against the declared
  // size), but a scenario built in code can have them.
  Scenario built;
  built.source_name = "built.scen";
  ScenarioQuery query;
  query.map_width = 4;
  query.map_height = 3;
  query.start = {0, 0};
  query.goal = {4, 1};
  query.line = 17;
  built.queries.push_back(query);
  expect_error([&] { check_scenario_fits_map(built, map); }, "built.scen:17: goal (4, 1) is outside the 4 x 3 map");
  built.queries[0].goal = {1, -1};
  expect_error([&] { check_scenario_fits_map(built, map); }, "built.scen:17: goal (1, -1) is outside the 4 x 3 map");
}

// ---------------------------------------------------------------------------------------------
// Files

TEST(MovingAiFiles, ReadsFilesAndNamesThemInErrors) {
  const TemporaryFolder folder;
  const auto map_path = folder.write("room.map", small_map);
  const auto scenario_path = folder.write("room.map.scen", "version 1\n0\troom.map\t5\t4\t0\t0\t4\t3\t4.82843\n");
  expect_small_map(read_movingai_map(map_path));
  const Scenario scenario = read_movingai_scenario(scenario_path);
  ASSERT_EQ(scenario.queries.size(), 1u);
  EXPECT_EQ(scenario.source_name, scenario_path.string());
  EXPECT_EQ(scenario_map_path(scenario_path), map_path);
  EXPECT_NO_THROW(check_scenario_fits_map(scenario, read_movingai_map(scenario_map_path(scenario_path))));

  const auto broken = folder.write("broken.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.?\n");
  expect_error([&] { (void)read_movingai_map(broken); }, broken.string() + ":6:2: unexpected character '?'");
}

TEST(MovingAiFiles, MissingFileAndFolderAreLoadErrors) {
  const TemporaryFolder folder;
  const auto missing = folder.path() / "missing.map";
  try {
    (void)read_movingai_map(missing);
    ADD_FAILURE() << "no error for a missing file";
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), missing.string());
    EXPECT_EQ(error.line(), 0);
    EXPECT_NE(std::string(error.what()).find("missing.map: cannot open file"), std::string::npos) << error.what();
  }
  EXPECT_THROW((void)read_movingai_scenario(folder.path() / "missing.map.scen"), LoadError);
  EXPECT_THROW((void)read_text_file(folder.path()), LoadError);
}

TEST(TextFile, ReadsBytesExactly) {
  const TemporaryFolder folder;
  std::string content = "line one\r\nline two\n";
  content += '\0';
  content += "\xff after a zero byte";
  const auto path = folder.write("bytes.txt", content);
  EXPECT_EQ(read_text_file(path), content);
  EXPECT_EQ(read_text_file(folder.write("empty.txt", "")), "");
  std::string large(300'000, 'a');
  large[123'456] = 'b';
  EXPECT_EQ(read_text_file(folder.write("large.txt", large)), large);
}

TEST(TextFile, WritesBytesExactlyAndNamesAFileItCannotWrite) {
  const TemporaryFolder folder;
  std::string content = "svg\r\n";
  content += '\0';
  const auto path = folder.path() / "written.txt";
  write_text_file(path, content);
  EXPECT_EQ(read_text_file(path), content);
  write_text_file(path, "shorter");  // replaces, never appends
  EXPECT_EQ(read_text_file(path), "shorter");
  try {
    write_text_file(folder.path(), "a folder is not a file");
    ADD_FAILURE() << "writing over a folder did not fail";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(folder.path().string()), std::string::npos) << error.what();
  }
}

TEST(TextFile, RefusesFilesOverOneGibibyte) {
  const TemporaryFolder folder;
  const auto huge = folder.write("huge.map", "");
  std::error_code error;
  std::filesystem::resize_file(huge, (std::uintmax_t{1} << 30) + 1, error);  // sparse: no disk used
  if (error) GTEST_SKIP() << "cannot make a sparse file here: " << error.message();
  try {
    (void)read_text_file(huge);
    ADD_FAILURE() << "a file over 1 GiB was read";
  } catch (const LoadError& load_error) {
    EXPECT_EQ(load_error.file(), huge.string());
    EXPECT_NE(load_error.cause().find("file too large"), std::string::npos) << load_error.what();
  }
}

}  // namespace
}  // namespace wayfinder
