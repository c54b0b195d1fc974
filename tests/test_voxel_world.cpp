// VoxelWorld storage (chunks, sparse memory, the outside rule, packed node ids, block counts),
// the paged search context, the readers: MagicaVoxel .vox (hand-made files, scene graph
// placement, palettes, malformed files) and the MovingAI voxel benchmark .3dmap / .3dscen, and
// the SVG picture (legend, height range).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <limits>
#include <tuple>
#include <random>
#include <set>
#include <string>

#include "voxel_test_support.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/paged_search_context.hpp"
#include "wayfinder/voxel/vox_io.hpp"
#include "wayfinder/voxel/voxel_query.hpp"
#include "wayfinder/debug/voxel_svg.hpp"
#include "wayfinder/voxel/voxel_benchmark_io.hpp"

namespace wayfinder {
namespace {

using namespace wayfinder::voxel_testing;

TEST(VoxelWorld, StoresBlocksAndReadsAirOutside) {
  VoxelWorld world(40, 20, 33);
  EXPECT_EQ(world.block(5, 5, 5), BlockKind::air);
  world.set_block(5, 5, 5, BlockKind::solid);
  world.set_block(39, 19, 32, BlockKind::water);
  world.set_block(16, 0, 16, BlockKind::ladder);
  EXPECT_EQ(world.block(5, 5, 5), BlockKind::solid);
  EXPECT_EQ(world.block(39, 19, 32), BlockKind::water);
  EXPECT_EQ(world.block(16, 0, 16), BlockKind::ladder);
  EXPECT_EQ(world.block(-1, 5, 5), BlockKind::air);
  EXPECT_EQ(world.block(5, 20, 5), BlockKind::air);
  EXPECT_EQ(world.filled_block_count(), 3u);
  EXPECT_EQ(world.top_block(5, 5), 5);
  EXPECT_THROW(world.set_block(40, 0, 0, BlockKind::solid), std::out_of_range);
  world.set_block(5, 5, 5, BlockKind::air);
  EXPECT_EQ(world.filled_block_count(), 2u);
}

TEST(VoxelWorld, CountsBlocksOfEachKind) {
  VoxelWorld world(40, 20, 33);  // chunks at the far faces reach past the world
  world.set_block(5, 5, 5, BlockKind::solid);
  world.set_block(6, 5, 5, BlockKind::solid);
  world.set_block(39, 19, 32, BlockKind::water);
  world.set_block(16, 0, 16, BlockKind::ladder);
  world.set_block(6, 5, 5, BlockKind::air);  // set and cleared again
  const std::array<std::uint64_t, 4> counts = world.block_counts();
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::solid)], 1u);
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::water)], 1u);
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::ladder)], 1u);
  EXPECT_EQ(counts[static_cast<std::size_t>(BlockKind::air)], 40u * 20u * 33u - 3u);
  EXPECT_EQ(VoxelWorld().block_counts()[0], 0u);
}

TEST(VoxelWorld, MemoryFollowsStoredChunksNotTheBoundingBox) {
  VoxelWorld world(2048, 256, 2048);  // a billion blocks of bounding box
  EXPECT_EQ(world.stored_chunk_count(), 0u);
  world.set_block(0, 0, 0, BlockKind::solid);
  world.set_block(2047, 255, 2047, BlockKind::solid);
  world.set_block(1, 1, 1, BlockKind::solid);  // same chunk as the first
  EXPECT_EQ(world.stored_chunk_count(), 2u);
  EXPECT_LT(world.memory_bytes(), std::size_t{8} << 20);  // the chunk table (4 MiB) and two chunks
  EXPECT_TRUE(VoxelWorld::size_problem(4096, 256, 4096).has_value());
  EXPECT_TRUE(VoxelWorld::size_problem(0, 1, 1).has_value());
  EXPECT_THROW(VoxelWorld(100000, 100000, 100000), std::invalid_argument);
}

TEST(VoxelWorld, PackedNodeIdsRoundTrip) {
  VoxelWorld world(246, 154, 205);
  std::mt19937_64 random(3);
  std::set<NodeId> seen;
  for (int i = 0; i < 2000; ++i) {
    const VoxelCoord at{static_cast<int>(random() % 246), static_cast<int>(random() % 154),
                        static_cast<int>(random() % 205)};
    const NodeId node = world.node_of(at);
    EXPECT_LT(node, world.node_count());
    EXPECT_EQ(world.coord_of(node), at);
  }
}

TEST(VoxelWorld, FillsFromArraysAndFunctions) {
  std::vector<BlockKind> blocks(3 * 2 * 4, BlockKind::air);
  blocks[(1 * 4 + 2) * 3 + 1] = BlockKind::water;  // (x 1, y 1, z 2)
  const VoxelWorld from_array = VoxelWorld::from_array(3, 2, 4, blocks);
  EXPECT_EQ(from_array.block(1, 1, 2), BlockKind::water);
  EXPECT_EQ(from_array.filled_block_count(), 1u);
  EXPECT_THROW(VoxelWorld::from_array(3, 2, 5, blocks), std::invalid_argument);
  const VoxelWorld from_function =
      VoxelWorld::from_function(5, 5, 5, [](int x, int y, int z) { return x == y && y == z ? BlockKind::solid : BlockKind::air; });
  EXPECT_EQ(from_function.filled_block_count(), 5u);
  EXPECT_TRUE(from_function.solid(3, 3, 3));
}

TEST(VoxelWorld, NeighbourhoodBitsMatchBlockReads) {
  std::mt19937_64 random(9);
  VoxelWorld world =
      VoxelWorld::from_function(37, 35, 19, [&](int, int, int) { return random() % 4 == 0 ? BlockKind::solid : BlockKind::air; });
  for (int y = 0; y < 35; ++y)
    for (int z = 0; z < 19; ++z)
      for (int x = 0; x < 37; ++x) {
        std::uint32_t expected = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx)
              if (!world.contains(x + dx, y + dy, z + dz) || world.solid(x + dx, y + dy, z + dz))
                expected |= 1u << ((dy + 1) * 9 + (dz + 1) * 3 + (dx + 1));
        ASSERT_EQ(world.blocked_neighbourhood(x, y, z), expected) << x << "," << y << "," << z;
      }
}

TEST(VoxelWorld, NeighbourhoodBitsFollowEditsAcrossChunkFaces) {
  // Blocks set and cleared on and beside chunk faces (a chunk keeps a copy of the block layer
  // around it), in chunks that exist and in chunks created by the edit, in a world whose size
  // is not a multiple of the chunk size.
  std::mt19937_64 random(5);
  VoxelWorld world(35, 20, 33);
  auto near_face = [&](int size) {
    const int face = static_cast<int>(random() % 3) * VoxelWorld::chunk_size;
    return std::clamp(face + static_cast<int>(random() % 3) - 1, 0, size - 1);
  };
  for (int edit = 0; edit < 4000; ++edit) {
    const int x = random() % 2 == 0 ? near_face(35) : static_cast<int>(random() % 35);
    const int y = random() % 2 == 0 ? near_face(20) : static_cast<int>(random() % 20);
    const int z = random() % 2 == 0 ? near_face(33) : static_cast<int>(random() % 33);
    world.set_block(x, y, z, static_cast<BlockKind>(random() % 4));
    if (edit % 3 == 0) world.set_block(x, y, z, BlockKind::air);
  }
  for (int y = -1; y <= 20; ++y)
    for (int z = -1; z <= 33; ++z)
      for (int x = -1; x <= 35; ++x) {
        std::uint32_t expected = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx)
              if (!world.contains(x + dx, y + dy, z + dz) || world.solid(x + dx, y + dy, z + dz))
                expected |= 1u << ((dy + 1) * 9 + (dz + 1) * 3 + (dx + 1));
        ASSERT_EQ(world.blocked_neighbourhood(x, y, z), expected) << x << "," << y << "," << z;
        ASSERT_EQ(world.blocked_triplet(x, y, z), (expected >> 12) & 7u) << x << "," << y << "," << z;
      }
}

TEST(PagedSearchContext, KeepsClosedFlagsPerQuery) {
  PagedSearchContext context;
  context.prepare(std::size_t{1} << 20);
  EXPECT_EQ(context.closed_words(4096 + 37), nullptr);  // page not allocated
  context.touch(4096 + 37).g = 1.0;
  EXPECT_EQ(context.closed_words(4096 + 37), nullptr);  // nothing closed yet
  context.close(4096 + 37);
  EXPECT_EQ(context.record(4096 + 37).state(), NodeRecord::State::closed);
  const std::uint16_t* words = context.closed_words(4096);
  ASSERT_NE(words, nullptr);
  EXPECT_EQ(words[2], 1u << 5);  // id 37 of the page: word 2, bit 5
  EXPECT_EQ(words[0], 0u);
  context.prepare(std::size_t{1} << 20);
  EXPECT_EQ(context.closed_words(4096), nullptr);  // a new query forgets them
}

TEST(PagedSearchContext, AllocatesPagesOnlyWhereTouchedAndForgetsOldQueries) {
  PagedSearchContext context;
  context.prepare(std::size_t{1} << 30);
  context.touch(5).g = 1.0;
  context.touch((NodeId{1} << 29) + 7).g = 2.0;
  EXPECT_EQ(context.allocated_pages(), 2u);
  EXPECT_TRUE(context.reached(5));
  EXPECT_FALSE(context.reached(6));
  EXPECT_FALSE(context.reached(NodeId{1} << 20));  // a page never allocated
  context.prepare(std::size_t{1} << 30);
  EXPECT_FALSE(context.reached(5));
  EXPECT_EQ(context.g(5), infinite_cost);
  context.release_pages();
  EXPECT_EQ(context.allocated_pages(), 0u);
}

// ---------------------------------------------------------------------------------------------
// .vox

TEST(VoxReader, ReadsOneModelWithZUpBecomingYUp) {
  const std::string file = vox_file(vox_model(3, 4, 5, {{0, 0, 0, 1}, {2, 3, 4, 7}, {1, 2, 3, 9}}));
  VoxReadOptions options;
  options.set_kind(9, BlockKind::water);
  const VoxelWorld world = parse_vox(file, "one.vox", options);
  EXPECT_EQ(world.size_x(), 3);
  EXPECT_EQ(world.size_y(), 5);  // the file's z
  EXPECT_EQ(world.size_z(), 4);  // the file's y
  EXPECT_EQ(world.block(0, 0, 0), BlockKind::solid);
  EXPECT_EQ(world.block(2, 4, 3), BlockKind::solid);
  EXPECT_EQ(world.block(1, 3, 2), BlockKind::water);
  EXPECT_EQ(world.filled_block_count(), 3u);
}

TEST(VoxReader, SkipsUnknownChunksAndAcceptsPack) {
  std::string pack;
  append_int(pack, 1);
  const std::string file = vox_file(vox_chunk("PACK", pack) + vox_model(2, 2, 2, {{1, 1, 1, 3}}) +
                                    vox_chunk("RGBA", std::string(1024, '\x7f')) + vox_chunk("MATL", "xyz"));
  EXPECT_EQ(parse_vox(file, "skip.vox").filled_block_count(), 1u);
}

TEST(VoxReader, KnowsMagicaVoxelsDefaultPalette) {
  const std::array<VoxColour, 256> palette = default_vox_palette();
  EXPECT_EQ(palette[0], (VoxColour{0, 0, 0, 0}));
  EXPECT_EQ(palette[1], (VoxColour{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(palette[2], (VoxColour{0xff, 0xff, 0xcc, 0xff}));     // blue changes fastest
  EXPECT_EQ(palette[7], (VoxColour{0xff, 0xcc, 0xff, 0xff}));     // then green
  EXPECT_EQ(palette[215], (VoxColour{0x00, 0x00, 0x33, 0xff}));   // the cube ends before black
  EXPECT_EQ(palette[216], (VoxColour{0xee, 0x00, 0x00, 0xff}));   // the red ramp
  EXPECT_EQ(palette[226], (VoxColour{0x00, 0xee, 0x00, 0xff}));   // green
  EXPECT_EQ(palette[236], (VoxColour{0x00, 0x00, 0xee, 0xff}));   // blue
  EXPECT_EQ(palette[255], (VoxColour{0x11, 0x11, 0x11, 0xff}));   // the end of the grey ramp
  std::set<std::tuple<int, int, int, int>> distinct;
  for (const VoxColour& colour : palette) distinct.insert({colour.r, colour.g, colour.b, colour.a});
  EXPECT_EQ(distinct.size(), 256u);
}

TEST(VoxReader, ReportsThePaletteAndTheVoxelsOfEachColour) {
  const std::string model = vox_model(2, 2, 2, {{0, 0, 0, 3}, {1, 0, 0, 3}, {1, 1, 1, 200}});
  VoxFileInfo info;
  parse_vox(vox_file(model), "plain.vox", {}, &info);
  EXPECT_FALSE(info.palette_from_file);
  EXPECT_EQ(info.palette, default_vox_palette());
  EXPECT_EQ(info.voxel_counts[3], 2u);
  EXPECT_EQ(info.voxel_counts[200], 1u);
  EXPECT_EQ(info.voxel_counts[1], 0u);
  EXPECT_EQ(info.model_count, 1u);
  EXPECT_EQ(info.placed_models, 1u);

  // The RGBA chunk's entry i is colour index i + 1.
  std::string rgba(1024, '\0');
  rgba[0] = '\x10';  // index 1: red 0x10
  rgba[2 * 4 + 1] = '\x20';  // index 3: green 0x20
  rgba[2 * 4 + 3] = '\x7f';  // index 3: alpha 0x7f
  VoxFileInfo coloured;
  parse_vox(vox_file(model + vox_chunk("RGBA", rgba)), "coloured.vox", {}, &coloured);
  EXPECT_TRUE(coloured.palette_from_file);
  EXPECT_EQ(coloured.palette[1], (VoxColour{0x10, 0, 0, 0}));
  EXPECT_EQ(coloured.palette[3], (VoxColour{0, 0x20, 0, 0x7f}));
  EXPECT_EQ(coloured.palette[0], (VoxColour{0, 0, 0, 0}));
  // A model placed twice by the scene counts twice.
  const std::string scene = vox_transform(0, 1, "") + vox_group(1, {2, 4}) + vox_transform(2, 3, "0 0 0") +
                            vox_shape(3, 0) + vox_transform(4, 5, "4 0 0") + vox_shape(5, 0);
  VoxFileInfo twice;
  parse_vox(vox_file(model + scene), "twice.vox", {}, &twice);
  EXPECT_EQ(twice.voxel_counts[3], 4u);
  EXPECT_EQ(twice.placed_models, 2u);
}

TEST(VoxReader, ScenesThatPlaceTooManyVoxelsAreRefusedBeforeTheyAreBuilt) {
  // One model of 16 x 16 x 16 voxels, placed 2^16 times by sixteen levels of groups that each
  // list the next level twice: a file of a few KiB asking for 268 million voxels.
  std::vector<VoxVoxel> full;
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 16; ++y)
      for (int z = 0; z < 16; ++z) full.push_back({x, y, z, 1});
  std::string scene;
  constexpr int levels = 16;
  for (int level = 0; level < levels; ++level)
    scene += vox_transform(2 * level, 2 * level + 1, "") + vox_group(2 * level + 1, {2 * level + 2, 2 * level + 2});
  scene += vox_transform(2 * levels, 2 * levels + 1, "") + vox_shape(2 * levels + 1, 0);
  const std::string file = vox_file(vox_model(16, 16, 16, full) + scene);
  ASSERT_LT(file.size(), 20'000u);
  const auto began = std::chrono::steady_clock::now();
  try {
    parse_vox(file, "shared_groups.vox");
    ADD_FAILURE() << "a scene of 65,536 placements of 4,096 voxels was built";
  } catch (const LoadError& error) {
    EXPECT_NE(std::string(error.what()).find("shared_groups.vox"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("places more than 33554432 voxels"), std::string::npos) << error.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(), 2.0);

  // Fewer placements of the same model (4 levels: 16 of them) are built.
  std::string small_scene;
  for (int level = 0; level < 4; ++level)
    small_scene += vox_transform(2 * level, 2 * level + 1, "") + vox_group(2 * level + 1, {2 * level + 2, 2 * level + 2});
  small_scene += vox_transform(8, 9, "") + vox_shape(9, 0);
  VoxFileInfo info;
  const VoxelWorld world = parse_vox(vox_file(vox_model(16, 16, 16, full) + small_scene), "few.vox", {}, &info);
  EXPECT_EQ(info.placed_models, 16u);
  EXPECT_EQ(world.size_x(), 16);
}

TEST(VoxReader, PlacesModelsByTheirSceneTranslations) {
  // Root transform -> group -> two transforms -> shapes of models 0 and 1, side by side along x.
  const std::string models = vox_model(4, 4, 2, {{0, 0, 0, 1}, {3, 3, 1, 1}}) + vox_model(2, 2, 2, {{0, 0, 0, 2}});
  const std::string scene = vox_transform(0, 1, "") + vox_group(1, {2, 4}) + vox_transform(2, 3, "2 2 1") +
                            vox_shape(3, 0) + vox_transform(4, 5, "5 1 1") + vox_shape(5, 1);
  const VoxelWorld world = parse_vox(vox_file(models + scene), "scene.vox");
  // Model 0 spans file x 0..3 (2 - 4/2), y 0..3, z 0..1; model 1 spans x 4..5, y 0..1, z 0..1.
  EXPECT_EQ(world.size_x(), 6);
  EXPECT_EQ(world.size_y(), 2);
  EXPECT_EQ(world.size_z(), 4);
  EXPECT_EQ(world.block(0, 0, 0), BlockKind::solid);
  EXPECT_EQ(world.block(3, 1, 3), BlockKind::solid);
  EXPECT_EQ(world.block(4, 0, 0), BlockKind::solid);
  EXPECT_EQ(world.filled_block_count(), 3u);
}

void expect_vox_error(const std::string& bytes, const std::string& fragment) {
  try {
    parse_vox(bytes, "bad.vox");
    ADD_FAILURE() << "expected an error containing '" << fragment << "'";
  } catch (const LoadError& error) {
    EXPECT_EQ(error.file(), "bad.vox");
    EXPECT_NE(error.cause().find("byte "), std::string::npos) << error.what();
    EXPECT_NE(error.cause().find(fragment), std::string::npos) << error.what();
  }
}

TEST(VoxReader, RejectsMalformedFiles) {
  const std::string good = vox_file(vox_model(2, 2, 2, {{0, 0, 0, 1}}));
  expect_vox_error("", "VOX");
  expect_vox_error("RIFF" + good.substr(4), "VOX");
  expect_vox_error(vox_file(vox_model(2, 2, 2, {{0, 0, 0, 1}}), 99), "version");
  expect_vox_error(good.substr(0, good.size() - 3), "MAIN");  // truncated
  expect_vox_error(vox_file(vox_model(2, 2, 2, {{2, 0, 0, 1}})), "outside its model");
  expect_vox_error(vox_file(vox_model(5000, 2, 2, {})), "model size");
  expect_vox_error(vox_file(vox_model(2, 2, 2, {}).substr(24)), "without a SIZE");  // the XYZI chunk alone
  std::string size_two;
  for (int axis = 0; axis < 3; ++axis) append_int(size_two, 2);
  std::string lying_count;
  append_int(lying_count, 1000000);
  expect_vox_error(vox_file(vox_chunk("SIZE", size_two) + vox_chunk("XYZI", lying_count)), "declares");
  std::string huge_chunk = "VOX ";
  append_int(huge_chunk, 150);
  huge_chunk += "MAIN";
  append_int(huge_chunk, 0);
  append_int(huge_chunk, 0x7fffffff);
  expect_vox_error(huge_chunk, "do not fit");
  expect_vox_error(vox_file(vox_chunk("SIZE", size_two)), "no XYZI");
  expect_vox_error(vox_file(""), "no models");
  const std::string model = vox_model(2, 2, 2, {{0, 0, 0, 1}});
  expect_vox_error(vox_file(model + vox_transform(0, 1, "") + vox_shape(1, 3)), "model 3");
  expect_vox_error(vox_file(model + vox_transform(0, 0, "")), "deeper");  // a cycle
  expect_vox_error(vox_file(model + vox_transform(0, 1, "1 x 2") + vox_shape(1, 0)), "translation");
  expect_vox_error(vox_file(model + vox_transform(0, 1, "9999999 0 0") + vox_shape(1, 0)), "translation");
  expect_vox_error(vox_file(model + vox_chunk("RGBA", std::string(100, 'x'))), "RGBA chunk holds 100 bytes");
}

// ---------------------------------------------------------------------------------------------
// .3dmap / .3dscen

TEST(VoxelBenchmarkReader, ReadsMapsAndScenarios) {
  const VoxelWorld world = parse_voxel_benchmark_map("voxel 4 5 6\n0 0 0\n3 4 5\r\n\n1 2 3\n", "m.3dmap");
  EXPECT_EQ(world.size_x(), 4);
  EXPECT_EQ(world.size_y(), 5);
  EXPECT_EQ(world.size_z(), 6);
  EXPECT_TRUE(world.solid(3, 4, 5));
  EXPECT_TRUE(world.solid(1, 2, 3));
  EXPECT_EQ(world.filled_block_count(), 3u);
  const VoxelScenario scenario =
      parse_voxel_scenario("version 1\nm.3dmap\n0 1 0 3 3 3 5.5 1.2\n1 1 1 2 2 2 1.73205081 1.000\n", "m.3dscen");
  EXPECT_EQ(scenario.map_name, "m.3dmap");
  ASSERT_EQ(scenario.queries.size(), 2u);
  EXPECT_EQ(scenario.queries[0].goal, (VoxelCoord{3, 3, 3}));
  EXPECT_DOUBLE_EQ(scenario.queries[1].optimal_length, 1.73205081);
  EXPECT_EQ(scenario.queries[1].line, 4);
  EXPECT_NO_THROW(check_voxel_scenario_fits_world(scenario, world));
  const VoxelScenario blocked = parse_voxel_scenario("version 1\nm\n0 0 0 1 1 1 2 1\n", "b.3dscen");
  EXPECT_THROW(check_voxel_scenario_fits_world(blocked, world), LoadError);
  EXPECT_EQ(voxel_scenario_map_path("a/Simple.3dmap.3dscen"), std::filesystem::path("a/Simple.3dmap"));
}

TEST(VoxelBenchmarkReader, SaysWhichMapAScenarioWasWrittenFor) {
  const VoxelScenario scenario = parse_voxel_scenario("version 1\nSimple.3dmap\n0 0 0 1 1 1 2 1\n", "s.3dscen");
  EXPECT_EQ(voxel_scenario_map_mismatch(scenario, "maps/Simple.3dmap"), std::nullopt);
  EXPECT_EQ(voxel_scenario_map_mismatch(scenario, "maps/Complex.3dmap"),
            "this scenario was written for Simple.3dmap, not Complex.3dmap");
  const VoxelScenario with_folder =
      parse_voxel_scenario("version 1\nmaps\\Simple.3dmap\n0 0 0 1 1 1 2 1\n", "w.3dscen");
  EXPECT_EQ(voxel_scenario_map_mismatch(with_folder, "Simple.3dmap"), std::nullopt);
}

void expect_text_error(bool scenario, const std::string& text, int line, const std::string& fragment) {
  try {
    if (scenario)
      parse_voxel_scenario(text, "bad");
    else
      parse_voxel_benchmark_map(text, "bad");
    ADD_FAILURE() << "expected an error for: " << text;
  } catch (const LoadError& error) {
    EXPECT_EQ(error.line(), line) << error.what();
    EXPECT_NE(error.cause().find(fragment), std::string::npos) << error.what();
  }
}

TEST(VoxelBenchmarkReader, RejectsMalformedFilesWithLineAndColumn) {
  expect_text_error(false, "", 1, "missing header");
  expect_text_error(false, "type octile\n", 1, "expected 'voxel'");
  expect_text_error(false, "voxel 4 4\n", 1, "WIDTH HEIGHT DEPTH");
  expect_text_error(false, "voxel 0 4 4\n", 1, "width");
  expect_text_error(false, "voxel 100000 100000 100000\n", 1, "too large");
  expect_text_error(false, "voxel 4 4 4\n1 2\n", 2, "3 coordinates");
  expect_text_error(false, "voxel 4 4 4\n1 2 4\n", 2, "z");
  expect_text_error(false, "voxel 4 4 4\n1 two 3\n", 2, "non-numeric");
  expect_text_error(false, "voxel 4 4 4\n1 -2 3\n", 2, "y");
  expect_text_error(false, "voxel 4 4 4\n1 99999999999999999999 3\n", 2, "out of range");
  expect_text_error(true, "", 1, "version");
  expect_text_error(true, "version 2\nm\n", 1, "version 1");
  expect_text_error(true, "version 1\n", 2, "map name");
  expect_text_error(true, "version 1\nm\n1 2 3 4 5 6 7\n", 3, "8 fields");
  expect_text_error(true, "version 1\nm\n1 2 3 4 5 6 nan 1\n", 3, "optimal length");
  expect_text_error(true, "version 1\nm\n1 2 3 4 5 6 -1 1\n", 3, "optimal length");
}

}  // namespace
}  // namespace wayfinder

namespace wayfinder {
namespace {

std::size_t occurrences(const std::string& text, const std::string& piece) {
  std::size_t count = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++count;
  return count;
}

TEST(VoxelSvg, DrawsColumnsExploredColumnsThePathMarkersAndALegend) {
  VoxelWorld world(4, 3, 2);
  for (int x = 0; x < 4; ++x)
    for (int z = 0; z < 2; ++z) world.set_block(x, 0, z, BlockKind::solid);
  world.set_block(2, 1, 1, BlockKind::water);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  SearchTrace trace;
  VoxelSearchOptions options;
  options.trace = &trace;
  const PathResult result = pathfinder.find_path({0, 1, 0}, {3, 1, 0}, options);
  ASSERT_TRUE(result.found());
  const std::string svg = render_voxel_svg(world, result, {0, 1, 0}, {3, 1, 0}, {"a <b> & 'c'", &trace});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; &apos;c&apos;"), std::string::npos);  // the title, escaped
  EXPECT_NE(svg.find("#3a6ea5"), std::string::npos);                            // the water column
  EXPECT_NE(svg.find("fill-opacity=\"0.35\""), std::string::npos);              // explored columns
  EXPECT_NE(svg.find("<polyline"), std::string::npos);                          // the path
  // The legend names what is drawn, with the grid picture's markers: a disc for the start and
  // a diamond (a square turned 45 degrees) for the goal, on the map and in the legend.
  for (const char* label : {">no block in the column<", ">highest block at y 0<", ">water on top<", ">explored column<",
                            ">path<", ">start 0,1,0<", ">goal 3,1,0<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(occurrences(svg, "<circle"), 2u);
  EXPECT_EQ(occurrences(svg, "rotate(45"), 2u);
  EXPECT_EQ(occurrences(svg, "fill=\"#111111\""), 4u);
  // Without a path or a trace: the columns and the markers, and no legend entries for the rest.
  const std::string plain = render_voxel_svg(world, PathResult{}, {0, 1, 0}, {3, 1, 0});
  EXPECT_EQ(plain.find("<polyline"), std::string::npos);
  EXPECT_EQ(plain.find("fill-opacity"), std::string::npos);
  EXPECT_EQ(plain.find(">explored column<"), std::string::npos);
  EXPECT_EQ(plain.find(">path<"), std::string::npos);
  VoxelSvgOptions no_legend;
  no_legend.show_legend = false;
  EXPECT_EQ(render_voxel_svg(world, result, {0, 1, 0}, {3, 1, 0}, no_legend).find(">start 0,1,0<"), std::string::npos);
}

TEST(VoxelSvg, AHeightRangeShowsOnlyTheBlocksInIt) {
  // A ground floor at y 0 everywhere, an upper floor at y 4 over x 2..3, a walk on the ground.
  VoxelWorld world(4, 6, 1);
  for (int x = 0; x < 4; ++x) world.set_block(x, 0, 0, BlockKind::solid);
  world.set_block(2, 4, 0, BlockKind::solid);
  world.set_block(3, 4, 0, BlockKind::solid);
  VoxelQuery pathfinder(world, MovementProfile::walker());
  SearchTrace trace;
  VoxelSearchOptions search;
  search.trace = &trace;
  const PathResult result = pathfinder.find_path({0, 1, 0}, {3, 1, 0}, search);
  ASSERT_TRUE(result.found());
  auto draw = [&](int min_y, int max_y) {
    VoxelSvgOptions options;
    options.trace = &trace;
    options.min_y = min_y;
    options.max_y = max_y;
    return render_voxel_svg(world, result, {0, 1, 0}, {3, 1, 0}, options);
  };
  const std::string all = draw(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  EXPECT_NE(all.find(">highest block at y 0<"), std::string::npos);
  EXPECT_NE(all.find(">highest block at y 4<"), std::string::npos);
  EXPECT_EQ(all, draw(-10, 10));  // a range reaching past the world shows it all

  // The ground level: the upper floor is not drawn, so every column shows the ground.
  const std::string ground = draw(0, 2);
  EXPECT_NE(ground.find(">highest block at y 0<"), std::string::npos);
  EXPECT_EQ(ground.find(">highest block at y 4<"), std::string::npos);
  EXPECT_NE(ground.find(">no block at y 0..2<"), std::string::npos);
  EXPECT_NE(ground.find(">path at y 0..2<"), std::string::npos);
  EXPECT_NE(ground.find(">explored at y 0..2<"), std::string::npos);
  EXPECT_EQ(ground.find("stroke-opacity=\"0.45\""), std::string::npos);  // no part of the path is outside

  // The upper level: only the two columns under the upper floor are shaded; the walk below is
  // drawn dashed and faint, and nothing there was explored.
  const std::string upper = draw(3, 5);
  EXPECT_EQ(upper.find(">highest block at y 0<"), std::string::npos);
  EXPECT_NE(upper.find(">highest block at y 4<"), std::string::npos);
  EXPECT_NE(upper.find(">path outside y 3..5<"), std::string::npos);
  EXPECT_EQ(upper.find(">path at y"), std::string::npos);
  EXPECT_NE(upper.find("stroke-opacity=\"0.45\""), std::string::npos);
  EXPECT_EQ(upper.find(">explored"), std::string::npos);
  EXPECT_LT(occurrences(upper, "<rect"), occurrences(ground, "<rect"));
}

}  // namespace
}  // namespace wayfinder

namespace wayfinder {
namespace {

TEST(VoxelWorldCopy, ACopyIsAnIndependentWorldWithTheSameBlocksAndHistory) {
  VoxelWorld world(40, 20, 36);
  for (int x = 0; x < 40; ++x)
    for (int z = 0; z < 36; ++z) world.set_block(x, 0, z, BlockKind::solid);
  world.set_block(17, 1, 18, BlockKind::water);
  world.set_block(33, 5, 2, BlockKind::ladder);
  const VoxelWorld copy = world;
  EXPECT_EQ(copy.revision(), world.revision());
  ASSERT_TRUE(copy.changes_since(0).has_value());
  EXPECT_EQ(copy.changes_since(0)->size(), world.changes_since(0)->size());
  for (int y = 0; y < 20; ++y)
    for (int z = 0; z < 36; ++z)
      for (int x = 0; x < 40; ++x) ASSERT_EQ(copy.block(x, y, z), world.block(x, y, z)) << x << "," << y << "," << z;
  EXPECT_EQ(copy.blocked_neighbourhood(17, 1, 18), world.blocked_neighbourhood(17, 1, 18));

  // Editing the original leaves the copy as it was, and the other way round.
  world.set_block(17, 1, 18, BlockKind::solid);
  EXPECT_EQ(copy.block(17, 1, 18), BlockKind::water);
  VoxelWorld assigned;
  assigned = copy;
  assigned.set_block(0, 0, 0, BlockKind::air);
  EXPECT_EQ(copy.block(0, 0, 0), BlockKind::solid);
  EXPECT_EQ(world.block(0, 0, 0), BlockKind::solid);
  EXPECT_EQ(assigned.revision(), copy.revision() + 1);
}

}  // namespace
}  // namespace wayfinder
