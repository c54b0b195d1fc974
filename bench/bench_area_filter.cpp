// What a per-query AreaFilter costs on grids, in one process: den520d's scenario with A*
// (a) without a filter, (b) with a filter that changes nothing on the map (it must take the
// unfiltered loop, so it should time as (a)), and (c) with a filter that prices the areas
// painted over the map and excludes one of them (the filtered loop), against (d) the same
// filter baked into the map's terrain and walls and searched without a filter: the price of
// keeping one shared map instead of a copy per kind of agent.

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "wayfinder/grid/grid_query.hpp"
#include "wayfinder/grid/world/movingai_io.hpp"

namespace {

using namespace wayfinder;

enum class FilterCase { none, neutral, filtered, baked };

constexpr AreaFlags door = 1;

// 60 rectangles of areas 1..3 and 30 one-cell "doors", at fixed pseudo-random places.
void paint_areas(GridMap& map) {
  std::mt19937_64 random(520);
  for (int i = 0; i < 60; ++i) {
    const int x = static_cast<int>(random() % static_cast<unsigned>(map.width() - 24));
    const int y = static_cast<int>(random() % static_cast<unsigned>(map.height() - 24));
    map.set_area(GridRect{x, y, 4 + static_cast<int>(random() % 20), 4 + static_cast<int>(random() % 20)},
                 static_cast<AreaId>(1 + random() % 3));
  }
  for (int i = 0; i < 30; ++i)
    map.set_flags(Cell{static_cast<int>(random() % static_cast<unsigned>(map.width())),
                       static_cast<int>(random() % static_cast<unsigned>(map.height()))},
                  door);
}

AreaFilter pricing_filter() {
  AreaFilter filter;
  filter.set_area_cost(1, 3.0f).set_area_cost(2, 1.5f).exclude_area(3).exclude(door);
  return filter;
}

GridMap bake(const GridMap& map, const AreaFilter& filter) {
  GridMap out(map.width(), map.height());
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y) || !filter.passes(map.area(x, y), map.flags(x, y)))
        out.set_passable(x, y, false);
      else if (filter.cost(map.area(x, y)) != 1.0f)
        out.set_cost(x, y, map.cost(x, y) * filter.cost(map.area(x, y)));
    }
  return out;
}

void BM_AStarWithFilter(benchmark::State& state, FilterCase which) {
  const auto path = bench::data_dir() / "movingai" / "dao" / "den520d.map";
  GridMap painted = read_movingai_map(path);
  paint_areas(painted);
  const AreaFilter filter = pricing_filter();
  const GridMap plain = read_movingai_map(path);
  const GridMap baked = bake(painted, filter);
  const GridMap& map = which == FilterCase::none ? plain : which == FilterCase::baked ? baked : painted;
  const Scenario scenario = read_movingai_scenario(path.string() + ".scen");

  GridSearchOptions options;
  if (which == FilterCase::neutral) options.filter = AreaFilter{}.set_area_cost(9, 2.0f);  // area 9 is not painted
  if (which == FilterCase::filtered) options.filter = filter;
  GridQuery finder(map);
  PathResult out;
  std::size_t found = 0;
  for (auto _ : state) {
    found = 0;
    for (const ScenarioQuery& query : scenario.queries) {
      // Starts and goals the filter excludes are skipped in every case alike.
      if (!filter.passes(painted.area(query.start), painted.flags(query.start)) ||
          !filter.passes(painted.area(query.goal), painted.flags(query.goal)))
        continue;
      found += finder.find_path(query.start, query.goal, options, out) == SearchStatus::found ? 1 : 0;
    }
    benchmark::DoNotOptimize(found);
  }
  state.counters["found"] = static_cast<double>(found);
}

BENCHMARK_CAPTURE(BM_AStarWithFilter, den520d_no_filter, FilterCase::none)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AStarWithFilter, den520d_neutral_filter, FilterCase::neutral)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AStarWithFilter, den520d_pricing_filter, FilterCase::filtered)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AStarWithFilter, den520d_filter_baked_into_map, FilterCase::baked)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
