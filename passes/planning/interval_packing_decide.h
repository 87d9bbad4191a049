// Whether blocks fit under a capacity: the exact planner's decision step,
// a search over canonical packings that splits the problem apart in time
// whenever it can and remembers the sub-problems it proved unsolvable.
#ifndef ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_DECIDE_H_
#define ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_DECIDE_H_

#include <cstdint>

#include "compiler/support/work_budget.h"
#include "passes/planning/interval_packing_blocks.h"

namespace oc {
namespace packing {

enum class Fit { kYes, kNo, kUnknown };

// Places every unplaced block of `state` so that no top exceeds `capacity`:
// kYes leaves them placed (state.base); kNo: no packing fits (proved when no
// block is a group; with groups, none of the packings searched fits);
// kUnknown: out of budget (a unit per node). On kNo and kUnknown the state is
// as it was.
Fit DecideFit(SkylineState& state, int64_t capacity, WorkBudget& budget, int64_t* nodes_explored);

}  // namespace packing
}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_DECIDE_H_
