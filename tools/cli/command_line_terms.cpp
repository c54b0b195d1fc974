#include "command_line_terms.hpp"

#include <string_view>
#include <utility>

namespace wayfinder::cli {
namespace {

/// The library's words and the command line's, in the order they are replaced: a phrase before
/// the name inside it. No replacement holds a library name as a whole word, so the order of the
/// others does not matter.
constexpr std::pair<std::string_view, std::string_view> library_to_command_line[] = {
    // Grid queries (GridSearchOptions and DiagonalMode).
    {"weight", "--weight"},
    {"only_if_no_obstacles", "only-if-no-obstacles"},
    {"at_least_one_walkable", "at-least-one-walkable"},
    {"jump point search", "jps"},
    {"agent_size", "--agent-size"},
    {"cluster_size", "--cluster-size"},
    {"agent_width", "--agent-width"},
    // Mesh queries (NavMeshSearchOptions).
    {"set snap_distance to clamp it", "--snap D moves it onto the mesh from up to D away"},
    {"snap_distance", "--snap"},
    // Navigation mesh builds (AgentSettings).
    {"agent_radius", "--agent-radius"},
    {"agent_height", "--agent-height"},
    {"max_climb", "--max-climb"},
    {"max_slope_degrees", "--max-slope"},
    {"cell_size", "--cell-size"},
    {"cell_height", "--cell-height"},
    {"vertices_per_polygon", "--max-vertices"},
    {"tile_size", "--tile-size"},
};

bool is_word_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

std::string in_command_line_terms(std::string message) {
  for (const auto& [library_words, command_line_words] : library_to_command_line) {
    std::size_t at = 0;
    while ((at = message.find(library_words, at)) != std::string::npos) {
      const std::size_t end = at + library_words.size();
      const bool whole = (at == 0 || !is_word_character(message[at - 1])) &&
                         (end == message.size() || !is_word_character(message[end]));
      if (!whole) {
        at = end;
        continue;
      }
      message.replace(at, library_words.size(), command_line_words);
      at += command_line_words.size();
    }
  }
  return message;
}

}  // namespace wayfinder::cli
