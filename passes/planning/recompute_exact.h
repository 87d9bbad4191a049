// Exact selective recompute for small programs, to measure the heuristic
// (passes/planning/recompute.h) against: the least modeled peak over every way of
// re-running statements within the caps and the MAC budget, each with its
// best order.
#ifndef ONNX_TO_C_PASSES_PLANNING_RECOMPUTE_EXACT_H_
#define ONNX_TO_C_PASSES_PLANNING_RECOMPUTE_EXACT_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/planning/recompute.h"

namespace oc {

struct ExactRecomputeResult {
  bool ran = false;       // the program was small enough
  bool finished = false;  // every candidate program was searched to the end: `peak` is optimal
  int64_t peak = 0;       // the least modeled peak found
  int64_t extra_cost = 0;  // of the program reaching it
  std::vector<RecomputeClone> clones;  // the program reaching it
  int64_t programs = 0;   // candidate programs searched
};

// Enumerates, over the statements from last to first, every partition of
// each statement's readers into the original and up to `cap` clones (a
// clone's readers may themselves be clones, which gives chains), within the
// MAC budget, and runs the exact order search (ExactMinPeakOrder) on each
// resulting program, pruned by the best peak so far. Runs only on programs of
// at most `max_statements` statements, each order search charged to `budget`.
ExactRecomputeResult ExactMinPeakWithRecompute(const Program& program, const RecomputeOptions& options,
                                               WorkBudget& budget, int max_statements = 15);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_RECOMPUTE_EXACT_H_
