#pragma once
// Reading off-mesh links (off_mesh_link.hpp) from a text file, one link a line:
//
//   # a jump down from the balcony, and a ladder
//   12.5 3 4   12.5 0 7   oneway  cost=2 area=3
//   0 0 0      0 6 1      both    flags=4 radius=0.5 id=17
//
// The six numbers are the start and end points (x y z, world units, y up). Then, optionally and
// in any order: the direction (`both`, also `bidirectional`, the default; or `oneway`, start to
// end only), and `key=value` settings: `cost` (what taking the link costs before its area's
// multiplier; default its length), `area` (0 to 63), `flags` (0 to 65535), `radius` (how far
// an end may be put onto the mesh; default 1) and `id` (the caller's number, 0 to 2^32 - 1).
// Fields are separated by spaces or tabs; `#` starts a comment to the end of the line; blank
// lines are skipped. Lines may end in LF or CRLF.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "wayfinder/navmesh/off_mesh_link.hpp"

namespace wayfinder {

/// Reads a links file. Throws LoadError (file, line, column, cause) for a line with fewer than
/// six numbers, a malformed, non-finite or out-of-range number, a negative cost or radius, an
/// unknown word or key, or a key given twice. Each link's `line` is its line in the file.
std::vector<OffMeshLink> read_off_mesh_links(const std::filesystem::path& file);

/// The same from text in memory; `source_name` names it in errors.
std::vector<OffMeshLink> parse_off_mesh_links(std::string_view text, const std::string& source_name);

}  // namespace wayfinder
