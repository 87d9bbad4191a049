// The planners' shared vocabulary: items grouped into blocks (a block is an
// item, or an overlap-contract group placed as one), and the skyline state
// both exact searches work on.
#ifndef ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_BLOCKS_H_
#define ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_BLOCKS_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "passes/planning/interval_packing.h"

namespace oc {
namespace packing {

// Over steps [first, last] a block occupies [base + lo, base + hi), of which
// `used` bytes are its items' (less than hi - lo only if they leave a hole).
struct Segment {
  int first, last;
  int64_t lo, hi, used;
};

// What the planners place: an item, or a group of items with fixed relative
// offsets, as a profile of segments in step order.
struct Block {
  std::vector<int> items;
  std::vector<Segment> segments;
  int first = 0, last = 0;
  int64_t height = 0;  // max hi
  int64_t area = 0;    // sum of used bytes times steps
};

std::vector<Block> MakeBlocks(const std::vector<IntervalItem>& items);

// The items' offsets once every block has a base.
Packing Expand(const std::vector<IntervalItem>& items, const std::vector<Block>& blocks,
               const std::vector<int64_t>& base);

// What both exact searches work on: the blocks, the skyline (the top of
// what is placed, per step) and the bytes still unplaced per step.
struct SkylineState {
  explicit SkylineState(const std::vector<IntervalItem>& items) : blocks(MakeBlocks(items)) {
    n = static_cast<int>(blocks.size());
    for (const Block& b : blocks) steps = std::max(steps, b.last + 1);
    skyline.assign(steps, 0);
    remaining.assign(steps, 0);
    base.assign(n, -1);
    for (const Block& b : blocks) {
      for (const Segment& s : b.segments) {
        for (int t = s.first; t <= s.last; ++t) remaining[t] += s.used;
      }
    }
  }
  // The lowest base at which block k rests on the skyline.
  int64_t RestOn(int k) const {
    int64_t h = 0;
    for (const Segment& s : blocks[k].segments) {
      for (int t = s.first; t <= s.last; ++t) h = std::max(h, skyline[t] - s.lo);
    }
    return h;
  }
  // Whatever is still unplaced and live at t ends up stacked above skyline[t].
  int64_t Bound() const {
    int64_t b = 0;
    for (int t = 0; t < steps; ++t) b = std::max(b, skyline[t] + remaining[t]);
    return b;
  }
  // Places block k at `off`; `saved` gets the skyline over its lifetime.
  void Place(int k, int64_t off, std::vector<int64_t>& saved) {
    const Block& b = blocks[k];
    saved.assign(skyline.begin() + b.first, skyline.begin() + b.last + 1);
    for (const Segment& s : b.segments) {
      for (int t = s.first; t <= s.last; ++t) {
        skyline[t] = off + s.hi;
        remaining[t] -= s.used;
      }
    }
    base[k] = off;
  }
  void Unplace(int k, const std::vector<int64_t>& saved) {
    const Block& b = blocks[k];
    std::copy(saved.begin(), saved.end(), skyline.begin() + b.first);
    for (const Segment& s : b.segments) {
      for (int t = s.first; t <= s.last; ++t) remaining[t] += s.used;
    }
    base[k] = -1;
  }

  std::vector<Block> blocks;
  int n = 0, steps = 0;
  std::vector<int64_t> skyline, remaining, base;
};

}  // namespace packing
}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_INTERVAL_PACKING_BLOCKS_H_
