#include "passes/planning/interval_packing_blocks.h"

#include <map>

namespace oc {
namespace packing {

std::vector<Block> MakeBlocks(const std::vector<IntervalItem>& items) {
  std::vector<Block> blocks;
  std::map<int, int> block_of_group;
  for (size_t i = 0; i < items.size(); ++i) {
    int g = items[i].group;
    if (g < 0 || !block_of_group.count(g)) {
      if (g >= 0) block_of_group[g] = static_cast<int>(blocks.size());
      blocks.emplace_back();
      blocks.back().items.push_back(static_cast<int>(i));
    } else {
      blocks[block_of_group[g]].items.push_back(static_cast<int>(i));
    }
  }
  for (Block& b : blocks) {
    // Elementary step ranges between the items' endpoints.
    std::vector<int> cuts;
    for (int i : b.items) {
      cuts.push_back(items[i].first);
      cuts.push_back(items[i].last + 1);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
      const int first = cuts[k], last = cuts[k + 1] - 1;
      std::vector<std::pair<int64_t, int64_t>> ranges;
      for (int i : b.items) {
        if (items[i].first <= first && last <= items[i].last) {
          const int64_t lo = b.items.size() == 1 ? 0 : items[i].group_offset;
          ranges.emplace_back(lo, lo + items[i].bytes);
        }
      }
      if (ranges.empty()) continue;
      std::sort(ranges.begin(), ranges.end());
      Segment seg{first, last, ranges.front().first, 0, 0};
      int64_t covered_to = ranges.front().first;
      for (const auto& [lo, hi] : ranges) {
        seg.used += std::max<int64_t>(0, hi - std::max(lo, covered_to));
        covered_to = std::max(covered_to, hi);
      }
      seg.hi = covered_to;
      Segment* prev = b.segments.empty() ? nullptr : &b.segments.back();
      if (prev && prev->last + 1 == first && prev->lo == seg.lo && prev->hi == seg.hi &&
          prev->used == seg.used) {
        prev->last = last;
      } else {
        b.segments.push_back(seg);
      }
    }
    b.first = b.segments.front().first;
    b.last = b.segments.back().last;
    for (const Segment& s : b.segments) {
      b.height = std::max(b.height, s.hi);
      b.area += s.used * (s.last - s.first + 1);
    }
  }
  return blocks;
}

Packing Expand(const std::vector<IntervalItem>& items, const std::vector<Block>& blocks,
               const std::vector<int64_t>& base) {
  Packing p;
  p.offsets.assign(items.size(), -1);
  for (size_t k = 0; k < blocks.size(); ++k) {
    for (int i : blocks[k].items) {
      p.offsets[i] = base[k] + (blocks[k].items.size() == 1 ? 0 : items[i].group_offset);
      p.size = std::max(p.size, p.offsets[i] + items[i].bytes);
    }
  }
  return p;
}

}  // namespace packing
}  // namespace oc
