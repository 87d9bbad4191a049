// Arena planner benchmark on random interval sets (not a ctest: run
// build/bench/oc-bench-packing by hand). For each family it prints how far
// greedy-by-size (TFLite Micro's planner), best fit and the exact branch and
// bound land above max-live, the lower bound every planner is measured
// against, and how often the exact search reaches it within its budget.
//
// Families:
//   uniform      random sizes and lifetimes;
//   tiled        a guillotine partition of a (steps x bytes) rectangle into
//                buffers, so that max-live is reachable by construction;
//   tiled-hard   tiled instances kept only when greedy-by-size is at least
//                30% above max-live.
//
//   oc-bench-packing [--instances N] [--buffers N] [--budget-ms MS] [--seed S]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "passes/interval_packing.h"

namespace oc {
namespace {

constexpr int64_t kAlign = 16;

std::vector<IntervalItem> Uniform(std::mt19937_64& rng, int buffers) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int steps = buffers;
  std::vector<IntervalItem> items;
  for (int i = 0; i < buffers; ++i) {
    int first = uniform(0, steps - 1);
    int last = std::min(steps - 1, first + uniform(0, steps / 8));
    items.push_back({kAlign * uniform(1, 256), first, last});
  }
  return items;
}

// Splits the rectangle [t0, t1) x [o0, o1) until `leaves` buffers exist.
std::vector<IntervalItem> Tiled(std::mt19937_64& rng, int buffers) {
  struct Rect {
    int t0, t1;
    int64_t o0, o1;
  };
  std::vector<Rect> rects = {{0, buffers / 2, 0, kAlign * 1024}};
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  while (static_cast<int>(rects.size()) < buffers) {
    // Split the largest splittable rectangle, by time or by offset.
    size_t pick = rects.size();
    int64_t best_area = 0;
    for (size_t i = 0; i < rects.size(); ++i) {
      const Rect& r = rects[i];
      const int64_t area = (r.t1 - r.t0) * (r.o1 - r.o0);
      if ((r.t1 - r.t0 > 1 || r.o1 - r.o0 > kAlign) && area > best_area) {
        best_area = area;
        pick = i;
      }
    }
    if (pick == rects.size()) break;
    Rect r = rects[pick];
    const bool by_time = r.o1 - r.o0 <= kAlign || (r.t1 - r.t0 > 1 && uniform(0, 1) == 0);
    Rect a = r, b = r;
    if (by_time) {
      a.t1 = b.t0 = static_cast<int>(uniform(r.t0 + 1, r.t1 - 1));
    } else {
      a.o1 = b.o0 = r.o0 + kAlign * uniform(1, (r.o1 - r.o0) / kAlign - 1);
    }
    rects[pick] = a;
    rects.push_back(b);
  }
  std::vector<IntervalItem> items;
  for (const Rect& r : rects) items.push_back({r.o1 - r.o0, r.t0, r.t1 - 1});
  std::shuffle(items.begin(), items.end(), rng);
  return items;
}

struct Row {
  double greedy, best_fit, exact, ms;
  bool reached;
};

void Report(const std::string& family, std::vector<Row> rows, int64_t budget_ms) {
  if (rows.empty()) {
    std::printf("%-11s no instances\n", family.c_str());
    return;
  }
  auto pct = [&](std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(q * (v.size() - 1))];
  };
  std::vector<double> g, b, e, ms;
  int reached = 0;
  for (const Row& r : rows) {
    g.push_back(r.greedy);
    b.push_back(r.best_fit);
    e.push_back(r.exact);
    ms.push_back(r.ms);
    reached += r.reached;
  }
  std::printf("%-11s %4zu  greedy %.3f/%.3f  best-fit %.3f/%.3f  exact %.3f/%.3f/%.3f  "
              "reached %d/%zu in %lld ms (median %.0f ms)\n",
              family.c_str(), rows.size(), pct(g, 0.5), pct(g, 1.0), pct(b, 0.5), pct(b, 1.0),
              pct(e, 0.5), pct(e, 0.9), pct(e, 1.0), reached, rows.size(),
              static_cast<long long>(budget_ms), pct(ms, 0.5));
}

}  // namespace
}  // namespace oc

int main(int argc, char** argv) {
  int instances = 40, buffers = 300;
  int64_t budget_ms = 1000;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--instances")) instances = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--buffers")) buffers = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--budget-ms")) budget_ms = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::printf("arena planners on random intervals: %d instances of %d buffers per family\n",
              instances, buffers);
  std::printf("ratios to max-live (median/max; exact: median/p90/max)\n");
  for (const std::string family : {"uniform", "tiled", "tiled-hard"}) {
    std::mt19937_64 rng(seed);
    std::vector<oc::Row> rows;
    for (int attempt = 0; static_cast<int>(rows.size()) < instances && attempt < instances * 200;
         ++attempt) {
      std::vector<oc::IntervalItem> items =
          family == "uniform" ? oc::Uniform(rng, buffers) : oc::Tiled(rng, buffers);
      const double live = static_cast<double>(oc::MaxLive(items));
      oc::Packing greedy = oc::PackGreedyBySize(items, oc::kAlign);
      if (family == "tiled-hard" && greedy.size < 1.3 * live) continue;
      auto t0 = std::chrono::steady_clock::now();
      oc::Packing best = oc::PackBestFit(items, oc::kAlign);
      if (greedy.size < best.size) best = greedy;
      // As the `best` planner does: the two exact searches share the budget.
      oc::Packing exact = oc::PackExact(items, best, t0 + std::chrono::milliseconds(budget_ms * 4 / 5));
      exact = oc::PackExactByOffset(items, exact, t0 + std::chrono::milliseconds(budget_ms));
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!oc::PackingIsValid(items, exact)) {
        std::printf("INVALID packing in family %s\n", family.c_str());
        return 1;
      }
      rows.push_back({greedy.size / live, best.size / live, exact.size / live, ms, exact.optimal});
    }
    oc::Report(family, rows, budget_ms);
  }
  return 0;
}
