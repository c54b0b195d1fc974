#pragma once
// Escaping text for the SVG pictures the library draws (grids, meshes, voxel worlds).
// Internal to the library.

#include <string>
#include <string_view>

namespace wayfinder::xml {

/// Text safe inside an XML element or attribute value.
inline std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters other than tab and newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

}  // namespace wayfinder::xml
