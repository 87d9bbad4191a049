#include "passes/planning/schedule.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/schedulers.h"

namespace oc {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A copy into a concat's slice (passes/transforms/concat_copy.h) is best run
// as late as it can be: until then its source holds the same bytes
// elsewhere, and once written its slice holds the concat buffer's span open
// (the slices sit at fixed offsets). Moves each one right before its concat
// where that leaves the peak as it is (only the copy's own step changes).
void SinkConcatCopies(const Program& program, const ScheduleGraph& g, std::vector<int>& order,
                      int64_t peak) {
  const auto& st = program.statements();
  for (size_t i = 0; i < st.size(); ++i) {
    if (st[i].op != OpKind::kCopy || g.succs[i].size() != 1) continue;
    const int concat = g.succs[i][0];
    if (st[concat].op != OpKind::kConcat) continue;
    std::vector<int> moved = order;
    moved.erase(std::find(moved.begin(), moved.end(), static_cast<int>(i)));
    moved.insert(std::find(moved.begin(), moved.end(), concat), static_cast<int>(i));
    if (moved != order && PeakBytes(g, moved) <= peak) order = std::move(moved);
  }
}

}  // namespace

absl::string_view ScheduleModeName(ScheduleMode mode) {
  switch (mode) {
    case ScheduleMode::kFile: return "file";
    case ScheduleMode::kRpo: return "rpo";
    case ScheduleMode::kHeuristic: return "heuristic";
    case ScheduleMode::kBest: return "best";
  }
  return "best";
}

std::optional<ScheduleMode> ParseScheduleMode(absl::string_view word) {
  for (ScheduleMode m : {ScheduleMode::kFile, ScheduleMode::kRpo, ScheduleMode::kHeuristic,
                         ScheduleMode::kBest}) {
    if (ScheduleModeName(m) == word) return m;
  }
  return std::nullopt;
}

absl::StatusOr<ScheduleReport> ScheduleProgram(Program& program, const ScheduleOptions& o) {
  ScheduleReport r;
  r.mode = std::string(ScheduleModeName(o.mode));
  const auto t0 = std::chrono::steady_clock::now();
  WorkBudget budget(o.budget, o.stop);
  MemoryModel model = ComputeMemoryModel(program, o.alignment, o.aliases);
  const ScheduleGraph g = BuildScheduleGraph(program, model).graph;

  std::vector<int> file = FileOrder(g), rpo = ReversePostOrder(g);
  r.file_order_peak = PeakBytes(g, file);
  r.rpo_peak = PeakBytes(g, rpo);
  std::vector<int> chosen = file;
  int64_t peak = r.file_order_peak;
  r.chosen_by = "file";
  std::vector<std::pair<std::vector<int>, int64_t>> candidates = {{file, r.file_order_peak}};
  auto consider = [&](const std::vector<int>& order, const char* by) {
    if (!IsTopologicalOrder(g, order)) return;
    int64_t p = PeakBytes(g, order);
    candidates.push_back({order, p});
    if (p < peak) {  // ties keep the earlier candidate (the file order first)
      peak = p;
      chosen = order;
      r.chosen_by = by;
    }
  };
  if (o.mode == ScheduleMode::kRpo) {
    chosen = rpo;
    peak = r.rpo_peak;
    r.chosen_by = "rpo";
  } else if (o.mode == ScheduleMode::kHeuristic || o.mode == ScheduleMode::kBest) {
    consider(rpo, "rpo");
    consider(GreedyLeastPeak(g), "greedy");
    consider(MemoryAwareDfs(g), "dfs");
    // Local search gets a share of the budget; the rest goes to bounds and
    // the exact search.
    WorkBudget local(budget, budget.ShareOfLeft(1, 4));
    consider(ImproveLocally(g, chosen, local), "local-search");
  }
  r.heuristic_peak = peak;
  r.schedule_ms = MsSince(t0);

  if (o.certify) {
    const auto b0 = std::chrono::steady_clock::now();
    const bool try_pairs = o.mode == ScheduleMode::kBest || o.pair_bounds;
    r.bound = ComputeLowerBound(g, chosen, peak, budget, try_pairs);
    r.bound_ms = MsSince(b0);
  }
  if (o.mode == ScheduleMode::kBest && r.bound.bytes < peak) {
    const auto e0 = std::chrono::steady_clock::now();
    ExactSearchResult exact = ExactMinPeakOrder(g, peak, budget);
    r.exact_search_states = exact.states;
    r.exact_search_finished = exact.finished;
    if (exact.improved) {
      chosen = exact.order;
      peak = exact.peak;
      r.chosen_by = "exact";
    }
    r.schedule_ms += MsSince(e0);
    if (o.certify && r.bound.bytes < peak) {
      // The bound prunes by the order's live bytes: redo it for the new order.
      const auto b0 = std::chrono::steady_clock::now();
      LowerBound again = ComputeLowerBound(g, chosen, peak, budget, true);
      if (again.bytes > r.bound.bytes) r.bound = again;
      r.bound_ms += MsSince(b0);
    }
  }
  if (o.mode == ScheduleMode::kHeuristic || o.mode == ScheduleMode::kBest) {
    SinkConcatCopies(program, g, chosen, peak);
  }
  r.peak = peak;
  r.certified_optimal = o.certify && r.bound.bytes == peak;

  // Graph nodes are statement indices in the order the program had here;
  // the report speaks of stable statement ids.
  std::vector<int32_t> id_of(program.statements().size());
  for (size_t i = 0; i < id_of.size(); ++i) id_of[i] = program.statements()[i].id;
  for (int& v : r.bound.nodes) v = id_of[v];
  for (NodeCut& c : r.bound.cuts) {
    for (int& v : c.ideal) v = id_of[v];
  }
  for (int v : chosen) r.order.push_back(id_of[v]);
  for (const auto& [order, p] : candidates) {
    if (p != peak || order == chosen) continue;
    std::vector<int32_t> ids;
    for (int v : order) ids.push_back(id_of[v]);
    if (std::find(r.equal_peak_orders.begin(), r.equal_peak_orders.end(), ids) ==
        r.equal_peak_orders.end()) {
      r.equal_peak_orders.push_back(std::move(ids));
    }
  }
  ApplyOrder(program, chosen);
  return r;
}

void TakeEqualPeakOrder(ScheduleReport& report, const std::vector<int32_t>& order,
                        absl::string_view why) {
  report.order = order;
  absl::StrAppend(&report.chosen_by, " (", why, ")");
}

absl::Status RecertifyOrder(const Program& program, const ScheduleOptions& options,
                            ScheduleReport& report) {
  Program same = program;
  ScheduleOptions file = options;
  file.mode = ScheduleMode::kFile;
  file.pair_bounds = options.mode == ScheduleMode::kBest;
  OC_ASSIGN_OR_RETURN(ScheduleReport fresh, ScheduleProgram(same, file));
  if (fresh.order != report.order) {
    return absl::InternalError("recertifying an order: the program's order is not the reported one");
  }
  if (fresh.peak != report.peak) report.exact_search_finished = false;
  report.peak = fresh.peak;
  report.bound = std::move(fresh.bound);
  report.certified_optimal = fresh.certified_optimal;
  report.schedule_ms += fresh.schedule_ms;
  report.bound_ms += fresh.bound_ms;
  report.equal_peak_orders.clear();  // their peaks were of the program before
  return absl::OkStatus();
}

void AdoptRescheduled(ScheduleReport& report, ScheduleReport after, absl::string_view stage,
                      bool certifies) {
  after.file_order_peak = report.file_order_peak;  // the ONNX file's order, before the stage
  // The scheduler started from the stage's order, which it calls "file".
  after.chosen_by = after.chosen_by == "file" ? std::string(stage)
                                              : absl::StrCat(after.chosen_by, " (after ", stage, ")");
  after.schedule_ms += report.schedule_ms;
  after.bound_ms += report.bound_ms;
  if (!certifies) after.certified_optimal = false;
  report = std::move(after);
}

}  // namespace oc
