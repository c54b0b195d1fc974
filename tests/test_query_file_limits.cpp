// Readers of query lists (MovingAI .scen, mesh query files, MovingAI .3dscen) asked for the first
// N queries stop reading there, and read files a piece at a time exactly as they parse text.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "temporary_folder.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"
#include "common/mesh_query_file.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"

namespace wayfinder {
namespace {

using testing::TemporaryFolder;

/// The line a LoadError names, or -1 when `read` does not throw one.
template <class Read>
int error_line(Read&& read) {
  try {
    read();
  } catch (const LoadError& error) {
    return error.line();
  }
  return -1;
}

// Each file: a header, three good queries, then a malformed fourth line.
constexpr std::string_view grid_scenario =
    "version 1\n"
    "0\ta.map\t4\t4\t0\t0\t1\t1\t1.41421\n"
    "0\ta.map\t4\t4\t0\t0\t2\t2\t2.82843\n"
    "\n"
    "0\ta.map\t4\t4\t0\t0\t3\t3\t4.24264\n"
    "0\ta.map\t4\t4\t0\t0\tthree\t3\t4.24264\n";
constexpr std::string_view mesh_queries =
    "sx,sy,sz,ex,ey,ez\n"
    "0,0,0,1,0,1\n"
    "0,0,0,2,0,2\n"
    "\n"
    "0,0,0,3,0,3\n"
    "0,0,0,three,0,3\n";
constexpr std::string_view voxel_scenario =
    "version 1\n"
    "a.3dmap\n"
    "0 0 0 1 1 1 1.73 1\n"
    "0 0 0 2 2 2 3.46 1\n"
    "\n"
    "0 0 0 3 3 3 5.19 1\n"
    "0 0 0 three 3 3 5.19 1\n";

TEST(QueryFileLimits, ReadingStopsAfterTheQueriesAskedFor) {
  const TemporaryFolder folder;
  const auto grid_file = folder.write("a.map.scen", grid_scenario);
  const auto mesh_file = folder.write("a.csv", mesh_queries);
  const auto voxel_file = folder.write("a.3dmap.3dscen", voxel_scenario);

  // Unlimited, every reader finds the malformed line 6 (7 for the voxel file, after its name).
  EXPECT_EQ(error_line([&] { (void)read_movingai_scenario(grid_file); }), 6);
  EXPECT_EQ(error_line([&] { (void)read_mesh_queries(mesh_file); }), 6);
  EXPECT_EQ(error_line([&] { (void)read_voxel_scenario(voxel_file); }), 7);
  EXPECT_EQ(error_line([&] { (void)parse_movingai_scenario(grid_scenario, "a.map.scen"); }), 6);
  EXPECT_EQ(error_line([&] { (void)parse_mesh_queries(mesh_queries, "a.csv"); }), 6);
  EXPECT_EQ(error_line([&] { (void)parse_voxel_scenario(voxel_scenario, "a.3dscen"); }), 7);

  // Asked for at most three queries, none of them gets that far.
  for (const std::size_t limit : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    const Scenario grid = read_movingai_scenario(grid_file, limit);
    ASSERT_EQ(grid.queries.size(), limit);
    EXPECT_EQ(grid.queries.back().goal, (Cell{static_cast<int>(limit), static_cast<int>(limit)}));
    EXPECT_EQ(parse_movingai_scenario(grid_scenario, "a.map.scen", limit).queries.size(), limit);

    const std::vector<MeshQueryCase> mesh = read_mesh_queries(mesh_file, limit);
    ASSERT_EQ(mesh.size(), limit);
    EXPECT_EQ(mesh.back().goal.x, static_cast<double>(limit));
    EXPECT_EQ(parse_mesh_queries(mesh_queries, "a.csv", limit).size(), limit);

    const VoxelScenario voxel = read_voxel_scenario(voxel_file, limit);
    ASSERT_EQ(voxel.queries.size(), limit);
    EXPECT_EQ(voxel.queries.back().goal.x, static_cast<int>(limit));
    EXPECT_EQ(parse_voxel_scenario(voxel_scenario, "a.3dscen", limit).queries.size(), limit);
  }
  // The header is still checked, whatever the limit.
  EXPECT_EQ(error_line([&] { (void)parse_movingai_scenario("version 2\n", "b.scen", 1); }), 1);
}

/// A scenario of `count` queries whose lines straddle the 64 KiB pieces the file reader reads
/// in every way: after a byte order mark, with LF and CRLF endings, tabs and blank lines, and
/// one CRLF split between two pieces.
std::string long_grid_scenario(int count) {
  std::string text = "\xEF\xBB\xBF" "version 1\r\n";
  for (int i = 0; i < count; ++i) {
    if (text.size() < 65536 && text.size() + 80 > 65536) {
      // A blank line whose CR is the last byte of the first piece and LF the first of the next.
      text.append(65535 - text.size(), ' ');
      text += "\r\n";
    }
    text += std::to_string(i % 7) + (i % 3 == 0 ? "\t" : " ") + "maps/a.map 512 512 " + std::to_string(i % 512) +
            " " + std::to_string((i * 7) % 512) + " 3 4 " + std::to_string(i) + ".5" + (i % 2 == 0 ? "\r\n" : "\n");
    if (i % 97 == 0) text += "\n";
  }
  return text;
}

TEST(QueryFileLimits, FilesReadInPiecesGiveWhatTheirTextGives) {
  const TemporaryFolder folder;
  const std::string text = long_grid_scenario(6000);
  ASSERT_GT(text.size(), 3u * 65536u);
  ASSERT_EQ(text.substr(65535, 2), "\r\n");
  const auto file = folder.write("long.map.scen", text);
  const Scenario from_text = parse_movingai_scenario(text, "long.map.scen");
  const Scenario from_file = read_movingai_scenario(file);
  ASSERT_EQ(from_file.queries.size(), from_text.queries.size());
  ASSERT_EQ(from_file.queries.size(), 6000u);
  for (std::size_t i = 0; i < from_text.queries.size(); ++i) {
    const ScenarioQuery& expected = from_text.queries[i];
    const ScenarioQuery& got = from_file.queries[i];
    EXPECT_EQ(got.line, expected.line) << "query " << i;
    EXPECT_EQ(got.bucket, expected.bucket) << "query " << i;
    EXPECT_EQ(got.map_name, expected.map_name) << "query " << i;
    EXPECT_EQ(got.start, expected.start) << "query " << i;
    EXPECT_EQ(got.goal, expected.goal) << "query " << i;
    EXPECT_EQ(got.optimal_length, expected.optimal_length) << "query " << i;
  }

  // Mesh query files also end lines with a lone CR; a CRLF split between two pieces is still
  // one line break (the line numbers would drift otherwise).
  std::string csv = "sx,sy,sz,ex,ey,ez\r";
  for (int i = 0; csv.size() < 3 * 65536; ++i) {
    if (csv.size() < 65536 && csv.size() + 40 > 65536) {
      csv.append(65535 - csv.size(), ' ');
      csv += "\r\n";
    }
    csv += "0,0,0," + std::to_string(i) + ",0,1" + (i % 3 == 0 ? "\r" : i % 3 == 1 ? "\n" : "\r\n");
  }
  ASSERT_EQ(csv.substr(65535, 2), "\r\n");
  const std::vector<MeshQueryCase> csv_from_text = parse_mesh_queries(csv, "long.csv");
  const std::vector<MeshQueryCase> csv_from_file = read_mesh_queries(folder.write("long.csv", csv));
  ASSERT_EQ(csv_from_file.size(), csv_from_text.size());
  for (std::size_t i = 0; i < csv_from_text.size(); ++i) {
    EXPECT_EQ(csv_from_file[i].line, csv_from_text[i].line) << "query " << i;
    EXPECT_EQ(csv_from_file[i].goal.x, static_cast<double>(i)) << "query " << i;
  }
}

TEST(QueryFileLimits, FilesThatCannotBeReadAreLoadErrors) {
  const TemporaryFolder folder;
  const auto missing = folder.write("present.scen", "version 1\n").parent_path() / "missing.scen";
  for (const auto& read : std::vector<std::function<void()>>{
           [&] { (void)read_movingai_scenario(missing); }, [&] { (void)read_mesh_queries(missing); },
           [&] { (void)read_voxel_scenario(missing); }, [&] { (void)read_movingai_scenario(missing.parent_path()); }}) {
    try {
      read();
      ADD_FAILURE() << "no error";
    } catch (const LoadError& error) {
      EXPECT_EQ(error.line(), 0);
      EXPECT_NE(error.cause().find("cannot open file"), std::string::npos) << error.what();
    }
  }
  // An empty file is read to its end without trouble, and named as empty.
  const auto empty = folder.write("empty.scen", "");
  EXPECT_EQ(error_line([&] { (void)read_movingai_scenario(empty); }), 0);
}

// Whether an error of `read` names `file` and `line` and says `words`.
void expect_load_error(const std::function<void()>& read, const std::string& file, int line, const std::string& words) {
  try {
    read();
    ADD_FAILURE() << "no error reading " << file;
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), file);
    EXPECT_EQ(error.line(), line) << error.what();
    EXPECT_NE(error.cause().find(words), std::string::npos) << error.what();
  }
}

TEST(QueryFileLimits, EndlessLinesAreRefusedAtTheLineLengthLimit) {
  // /dev/zero is one line that never ends: every query reader stops after a mebibyte of it.
  if (std::filesystem::exists("/dev/zero")) {
    const auto began = std::chrono::steady_clock::now();
    const std::string limit = "line too long: more than 1048576 bytes";
    expect_load_error([] { (void)read_movingai_scenario("/dev/zero"); }, "/dev/zero", 1, limit);
    expect_load_error([] { (void)read_mesh_queries("/dev/zero"); }, "/dev/zero", 1, limit);
    expect_load_error([] { (void)read_voxel_scenario("/dev/zero"); }, "/dev/zero", 1, limit);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(), 10.0);
  }
  // In a file: the error names the line, and the lines before it are read as usual.
  const TemporaryFolder folder;
  const auto long_line = folder.write("long_line.scen", "version 1\n" + std::string(3 << 20, '7') + "\n");
  expect_load_error([&] { (void)read_movingai_scenario(long_line); }, long_line.string(), 2, "line too long");
}

TEST(QueryFileLimits, WholeFileReadersStopAtTheirSizeLimit) {
  // A device of endless bytes is read up to the limit (256 MiB), not to a gibibyte.
  if (!std::filesystem::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  expect_load_error([] { (void)read_movingai_map("/dev/zero"); }, "/dev/zero", 1,
                    "file too large: more than 268435456 bytes");
}

}  // namespace
}  // namespace wayfinder
