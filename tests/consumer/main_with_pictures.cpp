// Finds a path and draws it with the debug target (wayfinder::debug); exits non-zero unless the
// picture was written with the path in it.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <wayfinder/debug/grid_svg.hpp>
#include <wayfinder/wayfinder.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: consumer_with_pictures OUT.svg\n");
    return 2;
  }
  wayfinder::GridMap map(6, 4);
  wayfinder::GridQuery pathfinder(map);
  const wayfinder::PathResult result = pathfinder.find_path({0, 0}, {5, 3});
  if (!result.found()) return 1;

  wayfinder::GridSvgOptions options;
  options.paths.push_back({"A*", "", result.nodes, {}});
  options.start = wayfinder::Cell{0, 0};
  options.goal = wayfinder::Cell{5, 3};
  wayfinder::write_grid_svg(argv[1], map, options);

  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const bool drawn = text.str().find("<svg") != std::string::npos && text.str().find("A*") != std::string::npos;
  std::printf("picture %s: %s\n", argv[1], drawn ? "written" : "missing the path");
  return drawn ? 0 : 1;
}
