// Choosing the operator order: baselines, heuristics, exact search and the
// lower-bound certificate, on the one memory model.
#ifndef ONNX_TO_C_PASSES_PLANNING_SCHEDULE_H_
#define ONNX_TO_C_PASSES_PLANNING_SCHEDULE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/program.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/lower_bounds.h"

namespace oc {

// file: the stored ONNX order; rpo: reverse post-order; heuristic: the best
// of the heuristics and local search; best: also the exact search.
enum class ScheduleMode { kFile, kRpo, kHeuristic, kBest };
absl::string_view ScheduleModeName(ScheduleMode mode);
std::optional<ScheduleMode> ParseScheduleMode(absl::string_view word);

// Work units of the schedule search by default (about 0.7 s on a 2020s x86-64
// core, measured on the public models; compiler/support/work_budget.h).
constexpr int64_t kDefaultScheduleBudget = 60000000;

struct ScheduleOptions {
  ScheduleMode mode = ScheduleMode::kBest;
  // Work units (compiler/support/work_budget.h) for the heuristics' local
  // search, the exact search and the bounds; `stop` (may be null): the
  // compile's hard stop.
  int64_t budget = kDefaultScheduleBudget;
  HardStop* stop = nullptr;
  int64_t alignment = 16;
  AliasOptions aliases;        // the memory model's aliases
  bool certify = true;         // compute the lower bound
  bool pair_bounds = false;    // also try pairs of statements (always in kBest)
};

struct ScheduleReport {
  std::string mode;
  std::string chosen_by;  // which scheduler produced the chosen order
  int64_t file_order_peak = 0;
  int64_t rpo_peak = 0;
  int64_t heuristic_peak = 0;
  int64_t peak = 0;  // of the chosen order
  LowerBound bound;  // nodes and ideals as statement ids
  bool certified_optimal = false;
  bool exact_search_finished = false;  // the exhaustive search proved `peak` optimal
  int64_t exact_search_states = 0;
  double schedule_ms = 0, bound_ms = 0;
  std::vector<int32_t> order;  // statement ids in the chosen order
  // Other orders the schedulers found with the same peak (statement ids): the
  // arena planner may reach the peak on one of them when it does not on the
  // chosen one.
  std::vector<std::vector<int32_t>> equal_peak_orders;
};

// Reorders `program` and says how good the order is.
absl::StatusOr<ScheduleReport> ScheduleProgram(Program& program, const ScheduleOptions& options);

// Another order of the same peak (one of `report.equal_peak_orders`) was
// taken, for `why`: the certificate holds as it is (the bound covers every
// order of the program), the order and `chosen_by` change.
void TakeEqualPeakOrder(ScheduleReport& report, const std::vector<int32_t>& order,
                        absl::string_view why);

// After a stage changed what the program's order costs without changing the
// order, only by adding bytes (kernel scratch): the peak, lower bound and
// certification of the order as it now is replace those in `report`, the
// bound tried as hard as `options.mode` would (pairs too for kBest); how
// the order was chosen is kept. The exhaustive search's proof stays when the
// peak did not change: every order of the new program needs at least what it
// needed before, which the search proved is at least this peak. Fails if the
// program's order is not `report.order`.
absl::Status RecertifyOrder(const Program& program, const ScheduleOptions& options,
                            ScheduleReport& report);

// After a stage rewrote the program and scheduled it again (`after`, from
// ScheduleProgram on the new program): `after` becomes the report, keeping the
// baselines of the program before (its file-order peak) and saying in
// `chosen_by` that `stage` produced the program. Its order bound covers the
// new program's orders only: with `certifies` false (recompute, whose bound
// says nothing about other choices of clones) it certifies nothing; with it
// true (patches) the certificate covers the program the stage chose.
void AdoptRescheduled(ScheduleReport& report, ScheduleReport after, absl::string_view stage,
                      bool certifies = false);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_SCHEDULE_H_
