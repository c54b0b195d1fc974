#pragma once
// What the grid, mesh and voxel pictures draw alike: the page's layout in pixels, the title,
// the start and goal markers, and the legend of swatches and labels under the drawing. One
// definition, so that the three pictures read alike. Internal to wayfinder::debug.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wayfinder::svg_common {

// Page layout, in pixels.
inline constexpr double margin_px = 8.0;
inline constexpr double title_font_px = 16.0;
inline constexpr double title_band_px = 28.0;
inline constexpr double legend_font_px = 12.0;
inline constexpr double legend_row_px = 20.0;
inline constexpr double legend_swatch_px = 22.0;
/// The legend needs some room even beside a narrow drawing.
inline constexpr double min_content_px = 480.0;

/// The start and goal markers' fill: near-black, with a white ring, neutral shapes that clash
/// with no path colour.
inline constexpr std::string_view marker_colour = "#111111";

/// Locale-independent, at most `decimals` decimals, no trailing zeros, "0" for -0, and
/// `not_finite` for infinities and NaN.
std::string format_fixed(double value, int decimals, std::string_view not_finite);
/// format_fixed(value, 3, "0"): the pictures' coordinates and sizes.
std::string format_number(double value);

/// How a picture writes its numbers: the mesh picture writes the mesh's own coordinates in full.
using NumberFormat = std::string (*)(double);

enum class SwatchKind : std::uint8_t {
  fill,         ///< a filled rectangle
  line,         ///< a short thick line
  dashed_line,  ///< the same, dashed
  dots,         ///< three small dots
  start_marker,
  goal_marker,
  none,  ///< text only, no swatch
};

struct LegendEntry {
  SwatchKind kind;
  std::string colour;
  std::string label;
  double opacity = 1.0;  ///< of a fill swatch
};

/// What differs between the pictures' legends.
struct LegendStyle {
  NumberFormat format = format_number;
  std::string_view swatch_outline = "#888888";
  double swatch_outline_width = 0.5;
  double line_width = 3.0;
  /// Write fill-opacity on every fill swatch, not only on translucent ones.
  bool always_write_opacity = false;
  /// Wrap the legend in <g id="legend"> with its font size, for readers that look for it.
  bool grouped = false;
};

/// A disc (start) or a diamond, a square turned by 45 degrees (goal), of `radius` around
/// (x, y), with a white ring `ring` wide. `id` is an optional id attribute.
std::string marker_shape(NumberFormat format, bool is_start, double x, double y, double radius, double ring,
                         std::string_view id = {});

/// The page's <title> and bold title text (when `title` is not empty) and its white background.
std::string title_and_background(std::string_view title);

/// Lays the entries out left to right below `top`, wrapping at `width`, and appends them to
/// `svg`; returns the height used.
double draw_legend(const std::vector<LegendEntry>& legend, const LegendStyle& style, double top, double width,
                   std::string& svg);

}  // namespace wayfinder::svg_common
