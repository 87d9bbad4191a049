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
//   oc-bench-packing [--instances N] [--buffers N] [--budget UNITS] [--seed S]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/interval_generators.h"
#include "passes/planning/interval_packing.h"

namespace oc {
namespace {

constexpr int64_t kAlign = 16;

struct Row {
  double greedy, best_fit, exact, ms;
  bool reached;
};

void Report(const std::string& family, std::vector<Row> rows, int64_t budget) {
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
              "reached %d/%zu within %lld work units (median %.0f ms)\n",
              family.c_str(), rows.size(), pct(g, 0.5), pct(g, 1.0), pct(b, 0.5), pct(b, 1.0),
              pct(e, 0.5), pct(e, 0.9), pct(e, 1.0), reached, rows.size(),
              static_cast<long long>(budget), pct(ms, 0.5));
}

}  // namespace
}  // namespace oc

int main(int argc, char** argv) {
  int instances = 40, buffers = 300;
  int64_t budget = 10000000;  // work units per instance
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--instances")) instances = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--buffers")) buffers = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--budget")) budget = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::printf("arena planners on random intervals: %d instances of %d buffers per family\n",
              instances, buffers);
  std::printf("ratios to max-live (median/max; exact: median/p90/max)\n");
  for (const std::string family : {"uniform", "tiled", "tiled-hard"}) {
    oc::GenRng rng(seed);
    std::vector<oc::Row> rows;
    for (int attempt = 0; static_cast<int>(rows.size()) < instances && attempt < instances * 200;
         ++attempt) {
      std::vector<oc::IntervalItem> items =
          family == "uniform" ? oc::UniformIntervals(rng, buffers, oc::kAlign)
                              : oc::TiledIntervals(rng, buffers, oc::kAlign);
      const double live = static_cast<double>(oc::MaxLive(items));
      oc::Packing greedy = oc::PackGreedyBySize(items, oc::kAlign);
      if (family == "tiled-hard" && greedy.size < 1.3 * live) continue;
      auto t0 = std::chrono::steady_clock::now();
      oc::Packing best = oc::PackBestFit(items, oc::kAlign);
      if (greedy.size < best.size) best = greedy;
      // As the `best` planner does: the two exact searches share the budget.
      oc::WorkBudget work(budget);
      oc::Packing exact;
      {
        oc::WorkBudget most(work, work.ShareOfLeft(4, 5));
        exact = oc::PackExact(items, best, most);
      }
      exact = oc::PackExactByOffset(items, exact, work);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!oc::PackingIsValid(items, exact)) {
        std::printf("INVALID packing in family %s\n", family.c_str());
        return 1;
      }
      rows.push_back({greedy.size / live, best.size / live, exact.size / live, ms, exact.optimal});
    }
    oc::Report(family, rows, budget);
  }
  return 0;
}
