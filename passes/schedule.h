// Choosing the operator order: baselines, heuristics, exact search and the
// lower-bound certificate, on the one memory model.
#ifndef ONNX_TO_C_PASSES_SCHEDULE_H_
#define ONNX_TO_C_PASSES_SCHEDULE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"
#include "passes/memory_model.h"
#include "passes/lower_bounds.h"

namespace oc {

struct ScheduleOptions {
  std::string mode = "best";   // file | rpo | heuristic | best
  int64_t budget_ms = 700;     // for the heuristics' local search, the exact search and the bounds
  int64_t alignment = 16;
  AliasOptions aliases;        // the memory model's aliases
  bool certify = true;         // compute the lower bound
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

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_SCHEDULE_H_
