#include "compiler/driver/html_report.h"

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/driver/arena_items.h"
#include "compiler/driver/svg_chart.h"

namespace oc {
namespace {

// Tableau 10: distinct, colour-blind-friendly hues for arena buffers.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

constexpr char kStyle[] = R"(<style>
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;color:#1d2330;background:#fff;margin:0}
main{max-width:980px;margin:0 auto;padding:20px 24px 40px}
h1{font-size:24px;margin:8px 0 2px}h2{font-size:18px;margin:28px 0 6px}
h1,h2,td{overflow-wrap:anywhere}
.sub,.note{color:#5b6475;font-size:13px;margin:2px 0 10px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin-top:14px}
.card{flex:1 1 160px;border:1px solid #d8dce5;border-radius:8px;padding:10px 14px;background:#f7f8fb}
.card .k{font-size:12px;color:#5b6475;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:22px;font-weight:bold;margin-top:2px}.card .d{font-size:12px;color:#5b6475}
.good{color:#2a7a3b}.warn{color:#b3541e}
svg{width:100%;height:auto;display:block}
svg text{font-family:inherit}
.tick{font-size:11px;fill:#5b6475}.axis-title{font-size:12px;fill:#1d2330}
.grid{stroke:#e6e8ee;stroke-width:1}.axis,.tickmark{stroke:#8a92a3;stroke-width:1}
.series{fill:none;stroke-width:2;stroke-linejoin:round}
.chosen{stroke:#2f6db5}.file{stroke:#9aa3b2;stroke-dasharray:5 3}.area{fill:#2f6db5;fill-opacity:.12}
.bound{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:8 4}.bound-label{fill:#c0392b;font-size:12px}
.peak-line{stroke:#1d2330;stroke-width:1;stroke-dasharray:2 3}.peak-dot{fill:#1d2330}
.peak-label{font-size:12px;font-weight:bold;fill:#1d2330}
.peak-label,.bound-label,.arena-label{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.legend{font-size:12px;fill:#1d2330}
.hover rect{fill:transparent}.hover rect:hover{fill:#2f6db5;fill-opacity:.08}
.item{stroke:#fff;stroke-width:.5}.item.at-peak{stroke:#1d2330;stroke-width:1.2}
.item-label{font-size:10px;fill:#fff;pointer-events:none}
.peak-column{fill:none;stroke:#1d2330;stroke-width:1.5;stroke-dasharray:4 3}
.arena-top{stroke:#1d2330;stroke-width:1}.arena-label{font-size:12px;fill:#1d2330}
table{border-collapse:collapse;font-size:13px;width:100%}
th,td{padding:4px 8px;border-bottom:1px solid #e6e8ee;text-align:left}
th{background:#f2f4f8;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr.total td{font-weight:bold;border-top:2px solid #c9ced8}
.swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px}
footer{margin-top:30px;font-size:12px;color:#5b6475}
</style>)";

std::string Bytes(int64_t n) { return GroupDigits(n) + " B"; }

// A name cut to `max` characters for a chart label, escaped.
std::string ShortName(const std::string& name, size_t max) {
  if (name.size() <= max) return HtmlEscape(name);
  return HtmlEscape(name.substr(0, max - 1)) + "&#8230;";
}

std::string Percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
  return buf;
}

// A step curve: step i is a flat segment over [i, i+1).
std::string StepPath(const PlotFrame& f, const std::vector<int64_t>& live) {
  std::string d;
  for (size_t i = 0; i < live.size(); ++i) {
    const double y = f.Y(static_cast<double>(live[i]));
    absl::StrAppend(&d, i ? " L" : "M", Px(f.X(static_cast<double>(i))), " ", Px(y), " L",
                    Px(f.X(static_cast<double>(i + 1))), " ", Px(y));
  }
  return d;
}

std::string Card(const std::string& key, const std::string& value, const std::string& detail,
                 const std::string& value_class = "") {
  return absl::StrCat("<div class=\"card\"><div class=\"k\">", key, "</div><div class=\"v",
                      value_class.empty() ? "" : " " + value_class, "\">", value,
                      "</div><div class=\"d\">", detail, "</div></div>");
}

// Patch-based execution: the grid, the region and what it cost and saved
// (the timeline's steps named "[patch r,c]" are its per-patch statements).
std::string PatchesCard(const CompileResult& r) {
  const PatchSummary& ps = r.patches;
  if (!ps.applied) return "";
  const char* reuse = ps.grid.reuse_all ? " (bands reusing every value)" : ps.grid.reuse ? " (bands with reuse)" : "";
  return Card("Patches", absl::StrCat(ps.grid.rows, " x ", ps.grid.cols, " grid", reuse),
              absl::StrCat(HtmlEscape(ps.input_name), " to ", HtmlEscape(ps.output_name), " (",
                           ps.region.statements.size(), " statements) patch by patch; arena ",
                           Bytes(ps.arena_before), " before; +", ps.extra_macs(), " MACs of halo"),
              "good");
}

std::string Summary(const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  const int64_t saved = s.file_order_peak - s.peak;
  const RecomputeResult& rc = r.recompute.result;
  std::string verdict =
      !rc.clones.empty()
          ? Card("Recompute", absl::StrCat(rc.clones.size(), " second runs"),
                 absl::StrCat("peak ", Bytes(rc.peak_before), " before; +", rc.extra_cost,
                              " MACs; the lower bound covers this program's orders only"),
                 "warn")
      : s.certified_optimal
          ? Card("Order", "certified", "optimal order: its peak equals the lower bound", "good")
          : Card("Order", "gap " + Bytes(s.peak - s.bound.bytes),
                 s.exact_search_finished ? "exact search found no better order"
                                         : "a better order may exist",
                 "warn");
  const ArenaClaims& a = r.arena_claims;
  const std::string arena_claim =
      a.certified ? absl::StrCat("certified optimal for this order: it equals the arena bound, ",
                                 a.bound.groups ? "a group's extent" : "the peak")
      : a.proven_optimal ? absl::StrCat("proven optimal for this order by an exhaustive packing search; the arena bound is ",
                                        Bytes(a.bound.bytes))
                         : absl::StrCat(Bytes(r.plan.arena_bytes - a.bound.bytes), " above the arena bound ",
                                        Bytes(a.bound.bytes));
  return absl::StrCat(
      "<section id=\"summary\" class=\"cards\">",
      Card("Arena", Bytes(r.plan.arena_bytes),
           absl::StrCat(ShortBytes(r.plan.arena_bytes), " of static RAM (", HtmlEscape(r.program.name),
                        "_ARENA_SIZE); ", arena_claim),
           a.proven_optimal ? "good" : "warn"),
      Card("Total RAM", Bytes(TotalRamBytes(r.plan, r.model)),
           r.memory.aliases.io_in_arena
               ? std::string("the arena holds the inputs and outputs too (--io=arena)")
               : absl::StrCat("the arena plus ", Bytes(CallerIoBytes(r.model)),
                              " of caller input and output buffers (--io=caller)")),
      Card("Peak", Bytes(s.peak),
           absl::StrCat("chosen order; file order ", Bytes(s.file_order_peak),
                        saved > 0 ? absl::StrCat(" (saves ", Percent(double(saved) / s.file_order_peak), ")")
                                  : "")),
      Card("Lower bound", Bytes(s.bound.bytes), "no operator order needs less"), verdict,
      PatchesCard(r), "</section>");
}

std::string LiveBytesChart(const CompileResult& r) {
  const std::vector<int64_t>& chosen = r.model.live_bytes;
  const std::vector<int64_t>& file = r.file_order_live_bytes;
  const int steps = static_cast<int>(chosen.size());
  int64_t top = std::max(r.schedule.bound.bytes, r.plan.arena_bytes);
  for (int64_t v : chosen) top = std::max(top, v);
  for (int64_t v : file) top = std::max(top, v);
  const int64_t tick = ByteTickStep(std::max<int64_t>(top, 1));
  PlotFrame f{86, 44, 850, 250, static_cast<double>(std::max(steps, 1)),
              static_cast<double>(std::max<int64_t>((top * 21 / 20 + tick - 1) / tick * tick, 1))};
  std::string out = absl::StrCat(
      "<svg id=\"live-bytes\" viewBox=\"0 0 960 346\" role=\"img\"><title>Live arena bytes per step</title>",
      f.Axes("step (position in the operator order)", "live arena bytes"));
  // Legend.
  absl::StrAppend(&out, "<g class=\"legend\">",
                  "<line class=\"series chosen\" x1=\"86\" x2=\"116\" y1=\"16\" y2=\"16\"/>",
                  "<text x=\"122\" y=\"20\">chosen order (peak ", Bytes(r.schedule.peak), ")</text>",
                  "<line class=\"series file\" x1=\"330\" x2=\"360\" y1=\"16\" y2=\"16\"/>",
                  "<text x=\"366\" y=\"20\">file order (peak ", Bytes(r.schedule.file_order_peak),
                  ")</text>", "<line class=\"bound\" x1=\"570\" x2=\"600\" y1=\"16\" y2=\"16\"/>",
                  "<text x=\"606\" y=\"20\">lower bound (", Bytes(r.schedule.bound.bytes),
                  ")</text></g>");
  if (steps > 0) {
    const std::string chosen_path = StepPath(f, chosen);
    absl::StrAppend(&out, "<path id=\"series-chosen-area\" class=\"area\" d=\"", chosen_path, " L",
                    Px(f.X(steps)), " ", Px(f.Y(0)), " L", Px(f.X(0)), " ", Px(f.Y(0)), " Z\"/>");
    if (static_cast<int>(file.size()) == steps) {
      absl::StrAppend(&out, "<path id=\"series-file-order\" class=\"series file\" d=\"",
                      StepPath(f, file), "\"/>");
    }
    absl::StrAppend(&out, "<path id=\"series-chosen\" class=\"series chosen\" d=\"", chosen_path,
                    "\"/>");
  }
  const double yb = f.Y(static_cast<double>(r.schedule.bound.bytes));
  const double yp = f.Y(static_cast<double>(r.model.peak_bytes));
  // Keep the bound's label clear of the peak's when they are close.
  const double bound_label_y = std::abs(yb - yp) < 22 ? yb + 15 : yb - 6;
  absl::StrAppend(&out, "<line id=\"lower-bound\" class=\"bound\" x1=\"", Px(f.left), "\" x2=\"",
                  Px(f.left + f.width), "\" y1=\"", Px(yb), "\" y2=\"", Px(yb), "\"/>",
                  "<text class=\"bound-label\" x=\"", Px(f.left + f.width - 4), "\" y=\"",
                  Px(bound_label_y), "\" text-anchor=\"end\">lower bound ",
                  Bytes(r.schedule.bound.bytes), "</text>");
  if (r.model.peak_step >= 0) {
    const int ps = r.model.peak_step;
    const double xp = f.X(ps + 0.5);
    const bool left_half = ps < steps / 2;
    const Statement& st = r.program.statements()[ps];
    absl::StrAppend(&out, "<g id=\"peak-marker\"><title>live at the peak: ",
                    HtmlEscape(DescribeItems(LiveItemsAt(r, ps), 5)), "</title>",
                    "<line class=\"peak-line\" x1=\"", Px(xp), "\" x2=\"",
                    Px(xp), "\" y1=\"", Px(yp), "\" y2=\"", Px(f.Y(0)), "\"/><circle class=\"peak-dot\" cx=\"",
                    Px(xp), "\" cy=\"", Px(yp), "\" r=\"4.5\"/><text class=\"peak-label\" x=\"",
                    Px(xp + (left_half ? 8 : -8)), "\" y=\"", Px(yp - 8), "\" text-anchor=\"",
                    left_half ? "start" : "end", "\">peak ", Bytes(r.model.peak_bytes), " at step ", ps,
                    " (", ShortName(st.node_name, 40), ")</text></g>");
  }
  // Hover boxes: one per step, with its node and both orders' live bytes.
  absl::StrAppend(&out, "<g class=\"hover\">");
  for (int s = 0; s < steps; ++s) {
    const Statement& st = r.program.statements()[s];
    absl::StrAppend(&out, "<rect x=\"", Px(f.X(s)), "\" y=\"", Px(f.top), "\" width=\"",
                    Px(f.X(s + 1) - f.X(s)), "\" height=\"", Px(f.height), "\"><title>step ", s, ": ",
                    HtmlEscape(st.node_name), " (", HtmlEscape(st.onnx_op), "), live ", Bytes(chosen[s]),
                    s < static_cast<int>(file.size()) ? "; file order step: " + Bytes(file[s]) : "",
                    "</title></rect>");
  }
  absl::StrAppend(&out, "</g></svg>");
  return out;
}

std::string PeakTable(const CompileResult& r, const std::vector<ArenaItem>& items) {
  const int ps = r.model.peak_step;
  if (ps < 0) return "<p class=\"note\">No arena buffers.</p>";
  std::vector<size_t> live;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].first_step <= ps && ps <= items[i].last_step) live.push_back(i);
  }
  std::stable_sort(live.begin(), live.end(), [&](size_t a, size_t b) {
    return items[a].bytes != items[b].bytes ? items[a].bytes > items[b].bytes
                                            : items[a].offset < items[b].offset;
  });
  const Statement& st = r.program.statements()[ps];
  std::string out = absl::StrCat(
      "<h2>At the peak: step ", ps, ", node '", HtmlEscape(st.node_name), "' (", HtmlEscape(st.onnx_op),
      ")</h2><p class=\"note\">Every arena buffer live while this step runs, biggest first. "
      "Shrinking one of these is what lowers the peak.</p>",
      "<table id=\"peak-buffers\"><tr><th>buffer</th><th>kind</th><th class=\"n\">bytes</th>"
      "<th class=\"n\">share of peak</th><th class=\"n\">offset</th><th class=\"n\">live steps</th></tr>");
  int64_t total = 0;
  for (size_t i : live) {
    const ArenaItem& it = items[i];
    total += it.bytes;
    absl::StrAppend(&out, "<tr><td><span class=\"swatch\" style=\"background:",
                    kPalette[i % 10], "\"></span>", HtmlEscape(it.name), "</td><td>",
                    it.scratch ? "scratch" : "tensor", "</td><td class=\"n\">", GroupDigits(it.bytes),
                    "</td><td class=\"n\">",
                    Percent(r.model.peak_bytes ? double(it.bytes) / r.model.peak_bytes : 0),
                    "</td><td class=\"n\">", GroupDigits(it.offset), "</td><td class=\"n\">",
                    it.first_step, "&#8211;", it.last_step, "</td></tr>");
  }
  absl::StrAppend(&out, "<tr class=\"total\"><td>total live at step ", ps,
                  "</td><td></td><td class=\"n\">", GroupDigits(total),
                  "</td><td></td><td></td><td></td></tr></table>");
  return out;
}

std::string ArenaLayoutChart(const CompileResult& r, const std::vector<ArenaItem>& items) {
  if (r.plan.arena_bytes == 0) {
    return "<p class=\"note\">No arena: every tensor lives in the caller's input and output "
           "buffers.</p>";
  }
  const int steps = static_cast<int>(r.model.live_bytes.size());
  const int64_t arena = std::max<int64_t>(r.plan.arena_bytes, 1);
  PlotFrame f{86, 30, 850, 300, static_cast<double>(std::max(steps, 1)),
              static_cast<double>(arena + arena / 12 + 1)};
  std::string out = absl::StrCat(
      "<svg id=\"arena-layout\" viewBox=\"0 0 960 380\" role=\"img\"><title>Arena layout: offsets against steps</title>"
      "<defs><pattern id=\"scratch-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#8a92a3\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#fff\" stroke-width=\"2\"/></pattern></defs>",
      f.Axes("step (position in the operator order)", "arena offset"));
  const int ps = r.model.peak_step;
  for (size_t i = 0; i < items.size(); ++i) {
    const ArenaItem& it = items[i];
    const double x0 = f.X(it.first_step), x1 = f.X(it.last_step + 1);
    const double y0 = f.Y(static_cast<double>(it.offset + it.bytes)), y1 = f.Y(static_cast<double>(it.offset));
    const bool at_peak = it.first_step <= ps && ps <= it.last_step;
    absl::StrAppend(&out, "<rect class=\"item", at_peak ? " at-peak" : "", "\" x=\"", Px(x0),
                    "\" y=\"", Px(y0), "\" width=\"", Px(x1 - x0), "\" height=\"",
                    Px(std::max(y1 - y0, 0.5)), "\" fill=\"",
                    it.scratch ? "url(#scratch-hatch)" : kPalette[i % 10], "\"><title>",
                    it.scratch ? "scratch of " : "", HtmlEscape(it.name), ": ", Bytes(it.bytes),
                    " at offset ", GroupDigits(it.offset), ", steps ", it.first_step, "&#8211;",
                    it.last_step, "</title></rect>");
    // A name inside the box when it fits (about 6 px per character).
    const size_t fits = static_cast<size_t>((x1 - x0 - 8) / 6.2);
    if (y1 - y0 >= 14 && fits >= 4) {
      absl::StrAppend(&out, "<text class=\"item-label\" x=\"", Px(x0 + 4), "\" y=\"",
                      Px((y0 + y1) / 2 + 3.5), "\">", ShortName(it.name, fits), "</text>");
    }
  }
  const double ya = f.Y(static_cast<double>(r.plan.arena_bytes));
  if (ps >= 0) {
    absl::StrAppend(&out, "<rect id=\"peak-column\" class=\"peak-column\" x=\"", Px(f.X(ps)),
                    "\" y=\"", Px(ya), "\" width=\"", Px(f.X(ps + 1) - f.X(ps)), "\" height=\"",
                    Px(f.Y(0) - ya), "\"><title>the peak step, ", ps, "</title></rect>");
  }
  absl::StrAppend(&out, "<line id=\"arena-top\" class=\"arena-top\" x1=\"", Px(f.left), "\" x2=\"",
                  Px(f.left + f.width), "\" y1=\"", Px(ya), "\" y2=\"", Px(ya), "\"/>",
                  "<text class=\"arena-label\" x=\"", Px(f.left + f.width - 4), "\" y=\"", Px(ya - 6),
                  "\" text-anchor=\"end\">arena ", Bytes(r.plan.arena_bytes), "</text></svg>");
  return out;
}

std::string BaselineTable(const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  std::string out =
      "<h2>Baselines</h2><table id=\"baselines\"><tr><th>what</th><th class=\"n\">bytes</th></tr>";
  const std::pair<const char*, int64_t> rows[] = {
      {"peak, file order (as stored in the ONNX file)", s.file_order_peak},
      {"peak, reverse post-order", s.rpo_peak},
      {"peak, heuristic order", s.heuristic_peak},
      {"peak, chosen order", s.peak},
      {"lower bound for any order", s.bound.bytes},
      {"arena, TFLite Micro style (file order, no aliasing but fused activations)",
       r.tflite_style_arena_bytes},
      {"arena, TFLite Micro style with the inputs and outputs in it (compare with total RAM)",
       r.tflite_style_io_arena_bytes},
      {"arena, views as the only alias", r.views_only_arena_bytes},
      {"arena, no reuse at all", r.linear_arena_bytes},
      {"arena, this build", r.plan.arena_bytes},
      {"total RAM, this build (arena plus caller input and output buffers)",
       TotalRamBytes(r.plan, r.model)},
  };
  for (const auto& [what, bytes] : rows) {
    absl::StrAppend(&out, "<tr><td>", what, "</td><td class=\"n\">", GroupDigits(bytes), "</td></tr>");
  }
  return out + "</table>";
}

// The overlap contracts: which steps write their output over their dying
// input (rows: a channels-last convolution streaming row by row), how far
// below it, and the bytes that saves at the step.
std::string OverlapTable(const CompileResult& r) {
  if (r.model.overlaps.empty()) return "";
  std::string out = absl::StrCat(
      "<h2>Outputs over dying inputs</h2><p class=\"note\">Layout: ",
      r.channels_last ? "channels-last (NHWC) for the convolution stacks"
                      : "ONNX's NCHW",
      ". Each step below writes its output over input bytes it has read for the last time "
      "(an overlap contract), saving the bytes shown at that step.</p>"
      "<table id=\"overlaps\"><tr><th>step</th><th>node</th><th>kind</th>"
      "<th class=\"n\">displacement</th><th class=\"n\">bytes saved</th></tr>");
  for (const OverlapContract& c : r.model.overlaps) {
    const Statement& st = r.program.statements()[c.statement];
    // Statements are in the chosen order: the index is the step.
    absl::StrAppend(&out, "<tr><td>", c.statement, "</td><td>",
                    ShortName(st.node_name, 60), "</td><td>", OverlapKindName(c.kind),
                    "</td><td class=\"n\">", GroupDigits(c.displacement), "</td><td class=\"n\">",
                    GroupDigits(c.credit), "</td></tr>");
  }
  return out + "</table>";
}

}  // namespace

std::string MakeHtmlReport(const CompileOptions& o, const CompileResult& r) {
  const std::vector<ArenaItem> items = ArenaItems(r);
  int64_t weights = 0, macs = 0;
  for (const Value& v : r.program.values()) {
    if (v.IsConstant()) weights += v.ByteSize();
  }
  for (const Statement& s : r.program.statements()) macs += s.macs;
  const std::string model = std::filesystem::path(o.model_path).filename().string();
  return absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>",
      HtmlEscape(r.program.name), ": onnx-to-c memory report</title>", kStyle,
      "</head><body><main><h1>", HtmlEscape(r.program.name), ": memory report</h1><p class=\"sub\">",
      HtmlEscape(model), " &#183; ", r.program.statements().size(), " steps &#183; weights ",
      Bytes(weights), " (flash) &#183; ", GroupDigits(macs), " MACs &#183; planner ",
      HtmlEscape(r.plan.planner), ", schedule ", HtmlEscape(r.schedule.chosen_by), "</p>",
      Summary(r),
      "<h2>Live bytes per step</h2><p class=\"note\">Arena bytes live while each step runs, in the "
      "chosen order and in the order the ONNX file stores. No order can go below the lower bound.</p>",
      LiveBytesChart(r), PeakTable(r, items),
      "<h2>Arena layout</h2><p class=\"note\">Where each buffer sits in the arena (up) and when it is "
      "live (across). Outlined boxes are live at the peak step; hatched boxes are kernel scratch.</p>",
      ArenaLayoutChart(r, items), OverlapTable(r), BaselineTable(r),
      "<footer>onnx-to-c ", ONNX_TO_C_VERSION,
      " &#183; the JSON report (--report) has every number on this page</footer></main></body></html>\n");
}

}  // namespace oc
