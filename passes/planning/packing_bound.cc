#include "passes/planning/packing_bound.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace oc {
namespace {

// Subset sums larger than this many units of the runs' common divisor take
// the hole's size as the fill (still an upper bound).
constexpr int64_t kMaxSubsetSumUnits = int64_t{1} << 20;

using Interval = std::pair<int64_t, int64_t>;  // [lo, hi)

// The union of intervals as sorted disjoint runs.
std::vector<Interval> Union(std::vector<Interval> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Interval> runs;
  for (const Interval& s : spans) {
    if (!runs.empty() && s.first <= runs.back().second) {
      runs.back().second = std::max(runs.back().second, s.second);
    } else {
      runs.push_back(s);
    }
  }
  return runs;
}

// reach |= reach << shift (bits past the end dropped): every reachable sum
// also reachable with one more run of `shift` units, each run taken once.
void ShiftOr(std::vector<uint64_t>& reach, int64_t shift) {
  const int64_t words = shift / 64, bits = shift % 64;
  for (int64_t i = static_cast<int64_t>(reach.size()) - 1; i >= words; --i) {
    uint64_t moved = reach[i - words] << bits;
    if (bits && i - words - 1 >= 0) moved |= reach[i - words - 1] >> (64 - bits);
    reach[i] |= moved;
  }
}

// The largest sum of a subset of `runs` that is at most `capacity`.
int64_t LargestFill(const std::vector<int64_t>& runs, int64_t capacity) {
  int64_t unit = 0, total = 0;
  for (int64_t r : runs) {
    if (r <= capacity) {
      unit = std::gcd(unit, r);
      total += r;
    }
  }
  if (total <= capacity) return total;
  const int64_t cap = capacity / unit;
  if (cap > kMaxSubsetSumUnits) return capacity;
  std::vector<uint64_t> reach(static_cast<size_t>(cap / 64 + 1), 0);  // bit s: sum s * unit reachable
  reach[0] = 1;
  for (int64_t r : runs) {
    if (r <= capacity) ShiftOr(reach, r / unit);
  }
  for (int64_t s = cap; s >= 0; --s) {
    if ((reach[s / 64] >> (s % 64)) & 1u) return s * unit;
  }
  return 0;
}

struct Live {
  std::vector<int64_t> loose;                   // items without a group
  std::map<int, std::vector<Interval>> groups;  // group -> its live members' spans
};

}  // namespace

PackingBound GroupExtentBound(const std::vector<IntervalItem>& items) {
  int steps = 0;
  for (const IntervalItem& it : items) steps = std::max(steps, it.last + 1);
  std::vector<Live> live(static_cast<size_t>(steps));
  for (const IntervalItem& it : items) {
    for (int t = it.first; t <= it.last; ++t) {
      if (it.group < 0) {
        live[t].loose.push_back(it.bytes);
      } else {
        live[t].groups[it.group].push_back({it.group_offset, it.group_offset + it.bytes});
      }
    }
  }
  PackingBound best;
  // A group is rigid: its members' offsets span its height at every step of
  // some member's life, whatever else is live.
  std::map<int, Interval> span;
  for (const IntervalItem& it : items) {
    if (it.group < 0) continue;
    auto [at, fresh] = span.insert({it.group, {it.group_offset, it.group_offset + it.bytes}});
    if (!fresh) at->second = {std::min(at->second.first, it.group_offset),
                              std::max(at->second.second, it.group_offset + it.bytes)};
  }
  for (const IntervalItem& it : items) {
    if (it.group < 0) continue;
    const int64_t height = span[it.group].second - span[it.group].first;
    if (height > best.bytes) best = {height, it.first, true};
  }
  for (int t = 0; t < steps; ++t) {
    std::map<int, std::vector<Interval>> runs;
    int64_t total = 0;
    for (int64_t b : live[t].loose) total += b;
    for (auto& [g, spans] : live[t].groups) {
      runs[g] = Union(std::move(spans));
      for (const Interval& r : runs[g]) total += r.second - r.first;
    }
    if (total > best.bytes) best = {total, t, false};
    for (const auto& [g, mine] : runs) {
      if (mine.size() < 2) continue;  // no hole
      const int64_t extent = mine.back().second - mine.front().first;
      int64_t covered = 0, holes = 0;
      for (const Interval& r : mine) covered += r.second - r.first;
      holes = extent - covered;
      const int64_t others = total - covered;
      // With nothing in the holes the bound would be extent + others.
      if (extent + others <= best.bytes) continue;
      if (extent + others - std::min(holes, others) > best.bytes) {
        best = {extent + others - std::min(holes, others), t, true};  // the holes full
      }
      std::vector<int64_t> other_runs = live[t].loose;
      for (const auto& [h, theirs] : runs) {
        if (h == g) continue;
        for (const Interval& r : theirs) other_runs.push_back(r.second - r.first);
      }
      int64_t fill = 0;
      for (size_t k = 0; k + 1 < mine.size() && fill < others; ++k) {
        fill += LargestFill(other_runs, mine[k + 1].first - mine[k].second);
      }
      const int64_t bound = extent + others - std::min(fill, others);
      if (bound > best.bytes) best = {bound, t, true};
    }
  }
  return best;
}

}  // namespace oc
