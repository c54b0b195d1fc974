#include "mesh/obstacle_events.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <numbers>
#include <set>
#include <sstream>

#include "command_error.hpp"

namespace wayfinder::cli {
namespace {

std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream stream{std::string(line)};
  std::string word;
  while (stream >> word) words.push_back(word);
  return words;
}

class LineParser {
 public:
  LineParser(const std::string& source, int line) : source_(source), line_(line) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw CommandError(source_ + ":" + std::to_string(line_) + ": " + why, source_, line_);
  }

  double number(const std::string& word, const char* field) const {
    double value = 0.0;
    const char* end = word.data() + word.size();
    const auto [stop, error] = std::from_chars(word.data(), end, value);
    if (error != std::errc() || stop != end || !std::isfinite(value))
      fail(std::string(field) + " must be a finite number, got '" + word + "'");
    return value;
  }

  double size(const std::string& word, const char* field) const {
    const double value = number(word, field);
    if (value < 0.0) fail(std::string(field) + " must be at least 0, got '" + word + "'");
    return value;
  }

  void expect_count(const std::vector<std::string>& words, std::size_t count, const std::string& form) const {
    if (words.size() != count)
      fail("expected '" + form + "' (" + std::to_string(count) + " fields), got " + std::to_string(words.size()));
  }

 private:
  const std::string& source_;
  int line_;
};

constexpr const char* cylinder_form = "T add cylinder NAME X Y Z RADIUS HEIGHT";
constexpr const char* box_form = "T add box NAME MINX MINY MINZ MAXX MAXY MAXZ";
constexpr const char* turned_box_form = "T add turned-box NAME CX CY CZ HX HY HZ YAW";

Obstacle parse_shape(const LineParser& parser, const std::vector<std::string>& words, const std::string& shape) {
  if (shape == "cylinder") {
    parser.expect_count(words, 9, cylinder_form);
    return CylinderObstacle{{parser.number(words[4], "X"), parser.number(words[5], "Y"), parser.number(words[6], "Z")},
                            parser.size(words[7], "RADIUS"),
                            parser.size(words[8], "HEIGHT")};
  }
  if (shape == "box") {
    parser.expect_count(words, 10, box_form);
    const char* names[] = {"MINX", "MINY", "MINZ", "MAXX", "MAXY", "MAXZ"};
    double v[6];
    for (int i = 0; i < 6; ++i) v[i] = parser.number(words[4 + static_cast<std::size_t>(i)], names[i]);
    for (int i = 0; i < 3; ++i)
      if (v[i] > v[i + 3]) parser.fail(std::string(names[i]) + " exceeds " + names[i + 3]);
    return BoxObstacle{{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
  }
  if (shape == "turned-box") {
    parser.expect_count(words, 11, turned_box_form);
    return OrientedBoxObstacle{
        {parser.number(words[4], "CX"), parser.number(words[5], "CY"), parser.number(words[6], "CZ")},
        {parser.size(words[7], "HX"), parser.size(words[8], "HY"), parser.size(words[9], "HZ")},
        parser.number(words[10], "YAW") * std::numbers::pi / 180.0};
  }
  parser.fail("unknown shape '" + shape + "' (cylinder, box or turned-box)");
}

}  // namespace

std::vector<ObstacleEvent> parse_obstacle_events(std::string_view text, const std::string& source_name) {
  std::vector<ObstacleEvent> events;
  std::set<std::string> present;
  double previous_seconds = 0.0;
  int line_number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) continue;
    const LineParser parser(source_name, line_number);
    if (words.size() < 3) parser.fail("expected 'T add SHAPE NAME ...' or 'T remove NAME'");
    ObstacleEvent event;
    event.line = line_number;
    event.seconds = parser.size(words[0], "the time T");
    if (event.seconds < previous_seconds)
      parser.fail("the time " + words[0] + " is before the previous event's; events go in time order");
    previous_seconds = event.seconds;
    if (words[1] == "add") {
      if (words.size() < 4) parser.fail("expected 'T add SHAPE NAME ...'");
      event.shape = words[2];
      event.name = words[3];
      event.obstacle = parse_shape(parser, words, event.shape);
      if (!present.insert(event.name).second) parser.fail("an obstacle named '" + event.name + "' is already present");
    } else if (words[1] == "remove") {
      parser.expect_count(words, 3, "T remove NAME");
      event.add = false;
      event.name = words[2];
      if (present.erase(event.name) == 0) parser.fail("no obstacle named '" + event.name + "' is present");
    } else {
      parser.fail("unknown action '" + words[1] + "' (add or remove)");
    }
    events.push_back(std::move(event));
  }
  return events;
}

std::vector<ObstacleEvent> read_obstacle_events(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw CommandError(path + ": cannot open the events file", path);
  std::ostringstream text;
  text << file.rdbuf();
  return parse_obstacle_events(text.str(), path);
}

std::string describe_obstacle_event(const ObstacleEvent& event) {
  return event.add ? "add " + event.shape + " " + event.name : "remove " + event.name;
}

}  // namespace wayfinder::cli
