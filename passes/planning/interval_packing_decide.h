// Whether blocks fit under a capacity: the exact planner's decision step,
// a search over canonical packings that splits the problem apart in time
// whenever it can and remembers the sub-problems it proved unsolvable.
#ifndef ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_DECIDE_H_
#define ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_DECIDE_H_

#include <chrono>
#include <cstdint>

#include "passes/planning/interval_packing_blocks.h"

namespace oc {
namespace packing {

enum class Fit { kYes, kNo, kUnknown };

// Places every unplaced block of `state` so that no top exceeds `capacity`:
// kYes leaves them placed (state.base); kNo: no packing fits (proved when no
// block is a group; with groups, none of the packings searched fits);
// kUnknown: out of time or nodes. On kNo and kUnknown the state is as it was.
// `max_nodes` (> 0) also bounds the search, deterministically.
Fit DecideFit(SkylineState& state, int64_t capacity, std::chrono::steady_clock::time_point deadline,
              int64_t* nodes_explored, int64_t max_nodes = 0);

}  // namespace packing
}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_DECIDE_H_
