// A lower bound on every packing of interval items whose groups sit at fixed
// relative offsets (concat parts, overlap-contract chains): at each step, a
// group's live members span their whole extent, holes included, and the
// other live items that cannot go into those holes lie outside it.
#ifndef ONNX_TO_C_PASSES_PLANNING_PACKING_BOUND_H_
#define ONNX_TO_C_PASSES_PLANNING_PACKING_BOUND_H_

#include <cstdint>
#include <vector>

#include "passes/planning/interval_packing.h"

namespace oc {

struct PackingBound {
  int64_t bytes = 0;  // no packing of the items is smaller
  int step = -1;      // a step where it is reached
  bool holes = false;  // reached by a group's extent and its holes (above max-live)
};

// At step t every packing holds the live items' bytes (a group's members by
// the union they cover: max-live). For a group G with live members spanning
// [lo, hi) in its own offsets, every other live run of bytes (an item, or a
// contiguous run of another group's live members) lies either inside one of
// G's holes (the gaps between its live members) or outside [lo, hi): a run
// that crossed lo or hi would overlap the member that starts at lo or ends
// at hi. So a packing is at least (hi - lo) + (the other runs' bytes) minus
// what fits into the holes, and what fits into a hole is at most the largest
// sum of runs no larger than the hole (a subset sum; a run counted in every
// hole it fits is a relaxation, so the bound stays valid). And a group is
// rigid: no packing is lower than its height, from its lowest member's offset
// to its highest member's end, whichever steps they live at.
PackingBound GroupExtentBound(const std::vector<IntervalItem>& items);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_PACKING_BOUND_H_
