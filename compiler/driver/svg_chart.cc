#include "compiler/driver/svg_chart.h"

#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"

namespace oc {

std::string HtmlEscape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    }
  }
  return out;
}

std::string GroupDigits(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string ShortBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (u < 3 && std::fabs(v) >= 1024) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  }
  return buf;
}

int64_t ByteTickStep(int64_t max) {
  int64_t step = 1;
  while (max / step > 8) step *= 2;
  return step;
}

int64_t StepTickStep(int64_t count) {
  for (int64_t scale = 1;; scale *= 10) {
    for (int64_t m : {1, 2, 5}) {
      if (count / (m * scale) <= 12) return m * scale;
    }
  }
}

std::string Px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string PlotFrame::Axes(const std::string& x_title, const std::string& y_title) const {
  std::string out = "<g class=\"axes\">";
  const int64_t y_step = ByteTickStep(static_cast<int64_t>(y_max));
  for (int64_t y = 0; y <= static_cast<int64_t>(y_max); y += y_step) {
    absl::StrAppend(&out, "<line class=\"grid\" x1=\"", Px(left), "\" x2=\"", Px(left + width),
                    "\" y1=\"", Px(Y(y)), "\" y2=\"", Px(Y(y)), "\"/>", "<text class=\"tick\" x=\"",
                    Px(left - 6), "\" y=\"", Px(Y(y) + 4), "\" text-anchor=\"end\">", ShortBytes(y),
                    "</text>");
  }
  const int64_t steps = static_cast<int64_t>(x_max);
  const int64_t x_step = StepTickStep(steps);
  for (int64_t s = 0; s < steps; s += x_step) {
    absl::StrAppend(&out, "<line class=\"tickmark\" x1=\"", Px(X(s + 0.5)), "\" x2=\"",
                    Px(X(s + 0.5)), "\" y1=\"", Px(top + height), "\" y2=\"", Px(top + height + 4),
                    "\"/><text class=\"tick\" x=\"", Px(X(s + 0.5)), "\" y=\"", Px(top + height + 17),
                    "\" text-anchor=\"middle\">", s, "</text>");
  }
  absl::StrAppend(&out, "<line class=\"axis\" x1=\"", Px(left), "\" x2=\"", Px(left + width),
                  "\" y1=\"", Px(top + height), "\" y2=\"", Px(top + height), "\"/>",
                  "<line class=\"axis\" x1=\"", Px(left), "\" x2=\"", Px(left), "\" y1=\"", Px(top),
                  "\" y2=\"", Px(top + height), "\"/>");
  absl::StrAppend(&out, "<text class=\"axis-title\" x=\"", Px(left + width / 2), "\" y=\"",
                  Px(top + height + 36), "\" text-anchor=\"middle\">", HtmlEscape(x_title), "</text>");
  absl::StrAppend(&out, "<text class=\"axis-title\" transform=\"translate(", Px(left - 62), " ",
                  Px(top + height / 2), ") rotate(-90)\" text-anchor=\"middle\">",
                  HtmlEscape(y_title), "</text></g>");
  return out;
}

}  // namespace oc
