#pragma once
// The library's messages in the command line's words. The library names a query's options by
// their C++ fields ("agent_size 3 does not fit ..."); the command's users know its flags
// ("--agent-size 3 does not fit ..."). One table holds every library name that the messages of
// the grid, mesh and level-build commands can contain, with the words the command uses for it.

#include <string>

namespace wayfinder::cli {

/// `message` with every library name of the table replaced by the command line's words, whole
/// words only (a name inside a longer word is left alone): "weight 1e+308 is too large" reads
/// "--weight 1e+308 is too large", "only_if_no_obstacles" reads "only-if-no-obstacles" and "set
/// snap_distance to clamp it" reads "--snap D moves it onto the mesh from up to D away".
std::string in_command_line_terms(std::string message);

}  // namespace wayfinder::cli
