// Helpers for the inline SVG charts of the HTML report: escaping, byte
// labels, tick spacing and a plot frame that maps data to pixels.
#ifndef ONNX_TO_C_DRIVER_SVG_CHART_H_
#define ONNX_TO_C_DRIVER_SVG_CHART_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace oc {

// Text made safe for HTML/SVG text and attribute values (control characters
// become '?').
std::string HtmlEscape(absl::string_view text);

// 196608 -> "196,608".
std::string GroupDigits(int64_t n);

// Axis labels: "512 B", "192 KiB", "1.5 MiB".
std::string ShortBytes(int64_t bytes);

// Tick spacing for a byte axis up to `max`: a power of two giving at most 8
// intervals (so labels are round KiB/MiB).
int64_t ByteTickStep(int64_t max);

// Tick spacing for a step axis of `count` steps: 1, 2 or 5 times a power of
// ten, at most 12 intervals.
int64_t StepTickStep(int64_t count);

// A plot area in pixels and the data range it shows; y grows upwards.
struct PlotFrame {
  double left = 0, top = 0, width = 0, height = 0;
  double x_max = 1;  // x data range [0, x_max]
  double y_max = 1;  // y data range [0, y_max]

  double X(double x) const { return left + width * x / x_max; }
  double Y(double y) const { return top + height - height * y / y_max; }
  // Grid lines, ticks and axis titles: byte ticks up the side, step ticks
  // (centered on each step's column) along the bottom.
  std::string Axes(const std::string& x_title, const std::string& y_title) const;
};

// A number for an SVG attribute, with at most two decimals.
std::string Px(double v);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_SVG_CHART_H_
