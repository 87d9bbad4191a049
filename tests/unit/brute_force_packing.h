// The smallest arena of a small packing instance without groups, by brute
// force: over all placement orders, each item at the lowest offset that fits.
// Every packing is matched or beaten by one of these (place the items of an
// optimal packing by increasing offset), and every packing built is valid.
#ifndef ONNX_TO_C_TESTS_UNIT_BRUTE_FORCE_PACKING_H_
#define ONNX_TO_C_TESTS_UNIT_BRUTE_FORCE_PACKING_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "passes/planning/interval_packing.h"

namespace oc {

inline int64_t BruteForceOptimum(const std::vector<IntervalItem>& items) {
  std::vector<int> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  int64_t best = -1;
  do {
    std::vector<int64_t> offset(items.size(), -1);
    int64_t top = 0;
    for (int i : order) {
      int64_t at = 0;
      for (bool moved = true; moved;) {
        moved = false;
        for (int j : order) {
          if (offset[j] < 0 || items[j].last < items[i].first || items[i].last < items[j].first) continue;
          if (at < offset[j] + items[j].bytes && offset[j] < at + items[i].bytes) {
            at = offset[j] + items[j].bytes;
            moved = true;
          }
        }
      }
      offset[i] = at;
      top = std::max(top, at + items[i].bytes);
    }
    if (best < 0 || top < best) best = top;
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

}  // namespace oc

#endif  // ONNX_TO_C_TESTS_UNIT_BRUTE_FORCE_PACKING_H_
