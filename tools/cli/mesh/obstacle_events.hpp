#pragma once
// The events file of `wayfinder mesh obstacles`: temporary obstacles added and removed at given
// times, one event per line (docs/cli.md, "wayfinder mesh obstacles"):
//
//   # seconds  action
//   0.5 add cylinder pillar X Y Z RADIUS HEIGHT       (Y: the bottom; a vertical cylinder)
//   1   add box crate MINX MINY MINZ MAXX MAXY MAXZ   (axis-aligned)
//   1.5 add turned-box cart CX CY CZ HX HY HZ YAW     (half sizes; YAW in degrees about y)
//   2   remove pillar
//
// Blank lines and text after '#' are ignored. Every line is checked before anything runs.

#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/navmesh_build/navmesh_tile_cache.hpp"

namespace wayfinder::cli {

/// One line of an events file.
struct ObstacleEvent {
  double seconds = 0.0;  ///< when it happens, >= 0 and never before the previous event's
  bool add = true;       ///< false: remove the obstacle named `name`
  std::string name;      ///< the file's name for the obstacle
  std::string shape;     ///< "cylinder", "box" or "turned-box" for an add; empty for a remove
  Obstacle obstacle;     ///< for an add
  int line = 0;          ///< 1-based line of the file
};

/// Parses the text of an events file named `source_name` in errors. Throws CommandError
/// ("FILE:LINE: why", with the file and line) for an unknown action or shape, a missing or extra
/// field, a value that is not a finite number, a negative size, a box whose min exceeds its max,
/// a time before the previous event's, adding a name already present or removing one that is not.
std::vector<ObstacleEvent> parse_obstacle_events(std::string_view text, const std::string& source_name);

/// Reads and parses the file (CommandError when it cannot be read).
std::vector<ObstacleEvent> read_obstacle_events(const std::string& path);

/// "add cylinder pillar" / "remove pillar": the event in a few words, for reports.
std::string describe_obstacle_event(const ObstacleEvent& event);

}  // namespace wayfinder::cli
