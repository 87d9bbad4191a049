#include "bench/interval_generators.h"

#include <algorithm>
#include <utility>

namespace oc {

std::vector<IntervalItem> UniformIntervals(GenRng& rng, int buffers, int64_t align) {
  const int steps = buffers;
  std::vector<IntervalItem> items;
  for (int i = 0; i < buffers; ++i) {
    const int first = static_cast<int>(rng.Uniform(0, steps - 1));
    const int last = std::min(steps - 1, first + static_cast<int>(rng.Uniform(0, steps / 8)));
    items.push_back({align * rng.Uniform(1, 256), first, last});
  }
  return items;
}

std::vector<IntervalItem> TiledIntervals(GenRng& rng, int buffers, int64_t align) {
  struct Rect {
    int t0, t1;
    int64_t o0, o1;
  };
  std::vector<Rect> rects = {{0, std::max(1, buffers / 2), 0, align * 1024}};
  while (static_cast<int>(rects.size()) < buffers) {
    size_t pick = rects.size();
    int64_t best_area = 0;
    for (size_t i = 0; i < rects.size(); ++i) {
      const Rect& r = rects[i];
      const int64_t area = (r.t1 - r.t0) * (r.o1 - r.o0);
      if ((r.t1 - r.t0 > 1 || r.o1 - r.o0 > align) && area > best_area) {
        best_area = area;
        pick = i;
      }
    }
    if (pick == rects.size()) break;
    Rect r = rects[pick];
    const bool by_time = r.o1 - r.o0 <= align || (r.t1 - r.t0 > 1 && rng.Chance(0.5));
    Rect a = r, b = r;
    if (by_time) {
      a.t1 = b.t0 = static_cast<int>(rng.Uniform(r.t0 + 1, r.t1 - 1));
    } else {
      a.o1 = b.o0 = r.o0 + align * rng.Uniform(1, (r.o1 - r.o0) / align - 1);
    }
    rects[pick] = a;
    rects.push_back(b);
  }
  std::vector<IntervalItem> items;
  for (const Rect& r : rects) items.push_back({r.o1 - r.o0, r.t0, r.t1 - 1});
  for (size_t i = items.size(); i > 1; --i) {  // Fisher-Yates
    std::swap(items[i - 1], items[static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(i) - 1))]);
  }
  return items;
}

}  // namespace oc
