#include "svg_legend.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include "../core/xml_text.hpp"

namespace wayfinder::svg_common {
namespace {

using xml::escaped;

std::string attribute(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escaped(value) + "\"";
}

/// Width a legend entry takes up. Text width is estimated, generously, at 0.62 em per
/// character: a library that only writes text has no font metrics.
double legend_entry_width(const LegendEntry& entry) {
  const double swatch = entry.kind == SwatchKind::none ? 0.0 : legend_swatch_px + 6.0;
  return swatch + static_cast<double>(entry.label.size()) * legend_font_px * 0.62 + 16.0;
}

std::string legend_swatch(const LegendEntry& entry, const LegendStyle& style, double x, double y) {
  const NumberFormat format = style.format;
  const double middle = y + legend_row_px / 2.0;
  switch (entry.kind) {
    case SwatchKind::fill: {
      std::string rect = "<rect" + attribute("x", format(x)) + attribute("y", format(middle - 6.0)) +
                         attribute("width", format(legend_swatch_px)) + attribute("height", format(12.0)) +
                         attribute("fill", entry.colour);
      if (style.always_write_opacity || entry.opacity < 1.0) rect += attribute("fill-opacity", format(entry.opacity));
      return rect + attribute("stroke", style.swatch_outline) +
             attribute("stroke-width", format(style.swatch_outline_width)) + "/>\n";
    }
    case SwatchKind::line:
    case SwatchKind::dashed_line:
      return "<line" + attribute("x1", format(x)) + attribute("y1", format(middle)) +
             attribute("x2", format(x + legend_swatch_px)) + attribute("y2", format(middle)) +
             attribute("stroke", entry.colour) + attribute("stroke-width", format(style.line_width)) +
             attribute("stroke-linecap", "round") +
             (entry.kind == SwatchKind::dashed_line ? attribute("stroke-dasharray", "5 3") : std::string()) + "/>\n";
    case SwatchKind::dots: {
      std::string dots;
      for (const double dx : {5.0, 11.0, 17.0})
        dots += "<circle" + attribute("cx", format(x + dx)) + attribute("cy", format(middle)) +
                attribute("r", format(1.5)) + attribute("fill", entry.colour) + attribute("fill-opacity", format(0.6)) +
                "/>\n";
      return dots;
    }
    case SwatchKind::start_marker:
    case SwatchKind::goal_marker:
      return marker_shape(format, entry.kind == SwatchKind::start_marker, x + legend_swatch_px / 2.0, middle, 6.0, 2.0);
    case SwatchKind::none: return {};
  }
  return {};
}

}  // namespace

std::string format_fixed(double value, int decimals, std::string_view not_finite) {
  if (!std::isfinite(value)) return std::string(not_finite);
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals);
  if (error != std::errc{}) return std::string(not_finite);
  std::string result(text, end);
  if (result.find('.') != std::string::npos) {
    while (result.back() == '0') result.pop_back();
    if (result.back() == '.') result.pop_back();
  }
  if (result == "-0") result = "0";
  return result;
}

std::string format_number(double value) { return format_fixed(value, 3, "0"); }

std::string marker_shape(NumberFormat format, bool is_start, double x, double y, double radius, double ring,
                         std::string_view id) {
  std::string svg = is_start ? "<circle" : "<rect";
  if (!id.empty()) svg += attribute("id", id);
  if (is_start) {
    svg += attribute("cx", format(x)) + attribute("cy", format(y)) + attribute("r", format(radius));
  } else {
    const double half = radius * 0.8;
    svg += attribute("x", format(x - half)) + attribute("y", format(y - half)) + attribute("width", format(2 * half)) +
           attribute("height", format(2 * half)) +
           attribute("transform", "rotate(45 " + format(x) + ' ' + format(y) + ")");
  }
  return svg + attribute("fill", marker_colour) + attribute("stroke", "#ffffff") +
         attribute("stroke-width", format(ring)) + "/>\n";
}

std::string title_and_background(std::string_view title) {
  std::string svg;
  if (!title.empty()) svg += "<title>" + escaped(title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!title.empty())
    svg += "<text" + attribute("x", format_number(margin_px)) + attribute("y", format_number(margin_px + title_font_px)) +
           attribute("font-size", format_number(title_font_px)) + attribute("font-weight", "bold") + ">" +
           escaped(title) + "</text>\n";
  return svg;
}

double draw_legend(const std::vector<LegendEntry>& legend, const LegendStyle& style, double top, double width,
                   std::string& svg) {
  const NumberFormat format = style.format;
  if (style.grouped) svg += "<g id=\"legend\"" + attribute("font-size", format(legend_font_px)) + ">\n";
  double x = 0.0;
  double y = top;
  for (const LegendEntry& entry : legend) {
    const double entry_width = legend_entry_width(entry);
    if (x > 0.0 && x + entry_width > width) {
      x = 0.0;
      y += legend_row_px;
    }
    svg += legend_swatch(entry, style, margin_px + x, y);
    const double text_x = margin_px + x + (entry.kind == SwatchKind::none ? 0.0 : legend_swatch_px + 6.0);
    svg += "<text" + attribute("x", format(text_x)) +
           attribute("y", format(y + legend_row_px / 2.0 + legend_font_px * 0.35)) + ">" + escaped(entry.label) +
           "</text>\n";
    x += entry_width;
  }
  if (style.grouped) svg += "</g>\n";
  return y + legend_row_px - top;
}

}  // namespace wayfinder::svg_common
