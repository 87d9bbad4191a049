// Offsets for buffers with known lifetimes (dynamic storage allocation with
// fixed intervals): the planners' core, independent of the IR so that it can
// be tested and benchmarked on random instances.
#ifndef ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_H_
#define ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_H_

#include <cstdint>
#include <vector>

#include "compiler/support/work_budget.h"

namespace oc {

struct IntervalItem {
  int64_t bytes;  // already aligned
  int first, last;  // live steps, inclusive
  // Items of one group (an overlap contract chain) move together: item i lies
  // at the group's base + group_offset (aligned, the smallest is 0), and the
  // group's items may share bytes with each other. -1: a group of its own.
  int group = -1;
  int64_t group_offset = 0;
};

struct Packing {
  std::vector<int64_t> offsets;  // per item
  int64_t size = 0;              // max offset + bytes
  bool optimal = false;          // size == max live bytes (the lower bound)
  // No packing is smaller: `optimal`, or an exhaustive search of the
  // packings of items without groups found none (PackExact).
  bool proven = false;
};

// The largest total of bytes live at one step, counting a group's items that
// are live together by the extent they cover: no packing is smaller.
int64_t MaxLive(const std::vector<IntervalItem>& items);

// Items laid end to end.
Packing PackLinear(const std::vector<IntervalItem>& items);
// Largest first, lowest offset that fits (TFLite Micro's greedy-by-size).
Packing PackGreedyBySize(const std::vector<IntervalItem>& items, int64_t alignment);
// Several item orders (size, area, lifetime, start) with best-fit placement
// (the smallest gap that fits); keeps the smallest result.
Packing PackBestFit(const std::vector<IntervalItem>& items, int64_t alignment);
// Branch and bound over canonical packings (MiniMalloc's idea, ASPLOS 2023:
// blocks rest on the skyline; the lowest point is filled or left empty for
// good), in limited-discrepancy passes, starting from `start` and stopping
// at the max-live lower bound (or `known_bound`, a lower bound on every
// packing of the items, if larger) or when `budget` is spent (a unit per node).
Packing PackExact(const std::vector<IntervalItem>& items, const Packing& start,
                  WorkBudget& budget, int64_t* nodes_explored = nullptr, int64_t known_bound = 0);

// The same canonical packings searched depth first by increasing offset,
// every resting block a choice (the first search's complement: it wins on
// some instances with groups).
Packing PackExactByOffset(const std::vector<IntervalItem>& items, const Packing& start,
                          WorkBudget& budget, int64_t* nodes_explored = nullptr,
                          int64_t known_bound = 0);

// True when no two items of different groups live at the same step share a
// byte, and every group keeps its items' relative offsets.
bool PackingIsValid(const std::vector<IntervalItem>& items, const Packing& packing);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_H_
