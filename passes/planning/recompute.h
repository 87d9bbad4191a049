// Selective recompute: re-run a cheap producer right before its late readers
// so that its result need not stay in the arena across the peak
// (docs/memory-model.md, "Recompute"). Candidates are judged with the same
// memory model, schedulers and arena planner as everything else; one is kept
// only when the replanned arena drops.
#ifndef ONNX_TO_C_PASSES_PLANNING_RECOMPUTE_H_
#define ONNX_TO_C_PASSES_PLANNING_RECOMPUTE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/schedulers.h"
#include "passes/transforms/recompute_clone.h"

namespace oc {

struct RecomputeOptions {
  int cap = 1;                      // extra runs allowed per statement
  double mac_budget_percent = 1.0;  // all extra runs together, in % of the model's cost
  int max_chain = 3;                // producers cloned for one late read (a short chain)
  int64_t alignment = 16;
  AliasOptions aliases;
  // Work units per candidate (compiler/support/work_budget.h): its arena
  // plan, and its local search (and exact order search).
  int64_t candidate_plan_budget = 1500000;
  int64_t candidate_order_budget = 400000;
  int exact_order_statements = 40;  // up to this size, candidates also get the exact order search
};

// The total extra cost the options allow for `program`.
int64_t RecomputeBudget(const Program& program, const RecomputeOptions& options);

struct RecomputeResult {
  std::vector<RecomputeClone> clones;  // in the order they were applied
  int64_t peak_before = 0, arena_before = 0;  // the program as given
  int64_t peak_after = 0, arena_after = 0;    // as the pass judged its result
  int64_t extra_cost = 0, budget = 0, model_cost = 0;  // RecomputeCost units
  int64_t candidates_tried = 0;
};

// Starting from the program's order (the scheduler's best), repeatedly finds
// the buffers live at the peak steps, tries cloning the producer of each
// value's reads after the peak (and up to max_chain - 1 producers above it),
// then of each single reader of a value read several times, and
// keeps the candidate that lowers the planned arena most, while any does and
// the caps and the MAC budget allow. Leaves the program unchanged when
// nothing pays. Each candidate is charged to `budget`.
absl::StatusOr<RecomputeResult> RunRecompute(Program& program, const RecomputeOptions& options,
                                             WorkBudget& budget);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_RECOMPUTE_H_
