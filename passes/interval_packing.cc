#include "passes/interval_packing.h"

#include <algorithm>
#include <numeric>

namespace oc {
namespace {

bool LiveTogether(const IntervalItem& a, const IntervalItem& b) {
  return a.first <= b.last && b.first <= a.last;
}

int64_t AlignTo(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

// Places items in `order`; `best_fit` picks the tightest gap, else the lowest.
Packing PlaceInOrder(const std::vector<IntervalItem>& items, const std::vector<int>& order,
                     int64_t alignment, bool best_fit) {
  Packing p;
  p.offsets.assign(items.size(), -1);
  std::vector<int> placed;
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (int i : order) {
    busy.clear();
    for (int j : placed) {
      if (LiveTogether(items[i], items[j])) busy.emplace_back(p.offsets[j], p.offsets[j] + items[j].bytes);
    }
    std::sort(busy.begin(), busy.end());
    int64_t best_offset = -1, best_gap = -1;
    int64_t cursor = 0;
    auto consider = [&](int64_t start, int64_t end) {  // a free range [start, end)
      start = AlignTo(start, alignment);
      if (end - start < items[i].bytes) return;
      int64_t gap = end - start;
      if (best_offset < 0 || (best_fit && gap < best_gap)) {
        best_offset = start;
        best_gap = gap;
      }
    };
    for (const auto& [lo, hi] : busy) {
      if (lo > cursor) consider(cursor, lo);
      if (best_offset >= 0 && !best_fit) break;
      cursor = std::max(cursor, hi);
    }
    // The open space above everything: a last resort for best fit.
    if (best_offset < 0) best_offset = AlignTo(cursor, alignment);
    p.offsets[i] = best_offset;
    p.size = std::max(p.size, best_offset + items[i].bytes);
    placed.push_back(i);
  }
  return p;
}

}  // namespace

int64_t MaxLive(const std::vector<IntervalItem>& items) {
  int last = -1;
  for (const auto& it : items) last = std::max(last, it.last);
  std::vector<int64_t> delta(static_cast<size_t>(last + 2), 0);
  for (const auto& it : items) {
    delta[it.first] += it.bytes;
    delta[it.last + 1] -= it.bytes;
  }
  int64_t live = 0, peak = 0;
  for (int64_t d : delta) {
    live += d;
    peak = std::max(peak, live);
  }
  return peak;
}

Packing PackLinear(const std::vector<IntervalItem>& items) {
  Packing p;
  for (const auto& it : items) {
    p.offsets.push_back(p.size);
    p.size += it.bytes;
  }
  p.optimal = p.size == MaxLive(items);
  return p;
}

Packing PackGreedyBySize(const std::vector<IntervalItem>& items, int64_t alignment) {
  std::vector<int> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (items[a].bytes != items[b].bytes) return items[a].bytes > items[b].bytes;
    return items[a].first < items[b].first;
  });
  Packing p = PlaceInOrder(items, order, alignment, false);
  p.optimal = p.size == MaxLive(items);
  return p;
}

Packing PackBestFit(const std::vector<IntervalItem>& items, int64_t alignment) {
  using Key = int64_t (*)(const IntervalItem&);
  static const Key kKeys[] = {
      [](const IntervalItem& it) { return it.bytes; },
      [](const IntervalItem& it) { return it.bytes * (it.last - it.first + 1); },
      [](const IntervalItem& it) { return static_cast<int64_t>(it.last - it.first); },
      [](const IntervalItem& it) { return static_cast<int64_t>(-it.first); },
  };
  Packing best;
  for (Key key : kKeys) {
    std::vector<int> order(items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      int64_t ka = key(items[a]), kb = key(items[b]);
      if (ka != kb) return ka > kb;
      return items[a].bytes > items[b].bytes;
    });
    for (bool fit : {true, false}) {
      Packing p = PlaceInOrder(items, order, alignment, fit);
      if (best.offsets.empty() || p.size < best.size) best = std::move(p);
    }
  }
  best.optimal = best.size == MaxLive(items);
  return best;
}

Packing PackExact(const std::vector<IntervalItem>& items, const Packing& start,
                  std::chrono::steady_clock::time_point deadline, int64_t* nodes_explored) {
  const int64_t target = MaxLive(items);
  Packing best = start;
  best.optimal = best.size == target;
  if (best.optimal || items.empty()) return best;
  // Canonical packings (MiniMalloc): every item rests at 0 or on an item
  // below it, so placing items in increasing order of offset, each at the top
  // of the skyline over its lifetime, reaches every packing worth having.
  const int n = static_cast<int>(items.size());
  int steps = 0;
  for (const auto& it : items) steps = std::max(steps, it.last + 1);
  std::vector<int64_t> skyline(steps, 0), remaining(steps, 0);
  for (const auto& it : items) {
    for (int t = it.first; t <= it.last; ++t) remaining[t] += it.bytes;
  }
  std::vector<int64_t> offset(n, -1);
  std::vector<bool> placed(n, false);
  int64_t explored = 0;
  auto rest_on = [&](int i) {
    int64_t h = 0;
    for (int t = items[i].first; t <= items[i].last; ++t) h = std::max(h, skyline[t]);
    return h;
  };
  // Whatever is still unplaced and live at t ends up stacked above skyline[t].
  auto bound = [&]() {
    int64_t b = 0;
    for (int t = 0; t < steps; ++t) b = std::max(b, skyline[t] + remaining[t]);
    return b;
  };
  struct Frame {
    std::vector<std::pair<int64_t, int>> choices;  // (offset, item), best first
    size_t next = 0;
    int item = -1;
    std::vector<int64_t> saved;  // skyline over the item's lifetime before placing it
  };
  std::vector<Frame> stack;
  auto open_frame = [&](int64_t floor) {
    Frame f;
    for (int i = 0; i < n; ++i) {
      if (placed[i]) continue;
      int64_t off = rest_on(i);
      if (off < floor || off + items[i].bytes >= best.size) continue;
      f.choices.push_back({off, i});
    }
    std::sort(f.choices.begin(), f.choices.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      return items[a.second].bytes > items[b.second].bytes;
    });
    stack.push_back(std::move(f));
  };
  auto undo = [&](Frame& f) {
    const IntervalItem& it = items[f.item];
    for (int t = it.first; t <= it.last; ++t) {
      skyline[t] = f.saved[t - it.first];
      remaining[t] += it.bytes;
    }
    placed[f.item] = false;
    offset[f.item] = -1;
    f.item = -1;
  };
  int placed_count = 0;
  open_frame(0);
  while (!stack.empty()) {
    if ((++explored & 255) == 0 && std::chrono::steady_clock::now() >= deadline) break;
    Frame& f = stack.back();
    if (f.item >= 0) {
      undo(f);
      --placed_count;
    }
    if (f.next >= f.choices.size()) {
      stack.pop_back();
      continue;
    }
    auto [off, i] = f.choices[f.next++];
    if (off != rest_on(i) || off + items[i].bytes >= best.size) continue;
    const IntervalItem& it = items[i];
    f.item = i;
    f.saved.assign(skyline.begin() + it.first, skyline.begin() + it.last + 1);
    for (int t = it.first; t <= it.last; ++t) {
      skyline[t] = off + it.bytes;
      remaining[t] -= it.bytes;
    }
    placed[i] = true;
    offset[i] = off;
    ++placed_count;
    if (placed_count == n) {
      int64_t size = 0;
      for (int64_t h : skyline) size = std::max(size, h);
      if (size < best.size) {
        best.offsets = offset;
        best.size = size;
        if (size == target) break;
      }
      continue;
    }
    if (bound() >= best.size) continue;
    open_frame(off);
  }
  if (nodes_explored) *nodes_explored = explored;
  best.optimal = best.size == target;
  return best;
}

bool PackingIsValid(const std::vector<IntervalItem>& items, const Packing& packing) {
  if (packing.offsets.size() != items.size()) return false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (packing.offsets[i] < 0 || packing.offsets[i] + items[i].bytes > packing.size) return false;
    for (size_t j = 0; j < i; ++j) {
      if (!LiveTogether(items[i], items[j])) continue;
      if (packing.offsets[i] < packing.offsets[j] + items[j].bytes &&
          packing.offsets[j] < packing.offsets[i] + items[i].bytes) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace oc
