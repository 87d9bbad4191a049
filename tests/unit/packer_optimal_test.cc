// The packers' `optimal` flag (passes/planning/interval_packing.h) on many small
// random instances, with and without overlap groups, at several alignments:
// every entry point that sets it must set it exactly when the packing's size
// equals max-live (recomputed here byte by byte), and its packing must be
// valid (checked here, not with PackingIsValid). PlanBest (arena_plan.cc)
// runs the exact searches only when best-fit's packing is not flagged
// optimal, so a packer that called a packing one alignment unit above
// max-live optimal would skip the exact search unnoticed.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "passes/planning/interval_packing.h"
#include "passes/planning/interval_packing_blocks.h"
#include "passes/planning/interval_packing_decide.h"
#include "tests/unit/brute_force_packing.h"

namespace oc {
namespace {

struct Instance {
  std::vector<IntervalItem> items;
  int64_t alignment = 16;
  int steps = 1;
  bool groups = false;
};

// Small sizes in alignment units, so that ties and near misses (one unit
// above max-live) are frequent. With `groups`, some items form chains as
// overlap contracts make them: each output starts at the step its input
// dies, at the same offset or displaced below it (upsampling).
Instance RandomInstance(std::mt19937& rng, bool groups) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int64_t kAlignments[] = {1, 4, 16, 64};
  Instance in;
  in.alignment = kAlignments[uniform(0, 3)];
  in.steps = uniform(2, 8);
  in.groups = groups;
  const int n = uniform(1, groups ? 9 : 7);
  int group = 0;
  while (static_cast<int>(in.items.size()) < n) {
    const int first = uniform(0, in.steps - 1);
    if (groups && first < in.steps - 1 && uniform(0, 2) == 0) {
      std::vector<IntervalItem> chain;
      int64_t rel = 0;
      for (int at = first, k = uniform(2, 3); k > 0 && at < in.steps - 1; --k) {
        const int last = std::min(in.steps - 1, at + uniform(1, 3));
        chain.push_back({in.alignment * uniform(1, 6), at, last, group, rel});
        if (uniform(0, 2) == 0) rel -= in.alignment * uniform(1, 4);
        at = last;
      }
      int64_t lowest = 0;
      for (const IntervalItem& it : chain) lowest = std::min(lowest, it.group_offset);
      for (IntervalItem& it : chain) {
        it.group_offset -= lowest;
        in.items.push_back(it);
      }
      ++group;
    } else {
      in.items.push_back({in.alignment * uniform(1, 6), first, std::min(in.steps - 1, first + uniform(0, 3))});
    }
  }
  return in;
}

// The largest number of bytes live at one step: plain items by their size, a
// group by the union of its live items' ranges (they may share bytes).
int64_t IndependentMaxLive(const Instance& in) {
  int64_t best = 0;
  for (int t = 0; t < in.steps; ++t) {
    int64_t total = 0;
    std::map<int, std::vector<std::pair<int64_t, int64_t>>> ranges;
    for (const IntervalItem& it : in.items) {
      if (it.first > t || it.last < t) continue;
      if (it.group < 0) {
        total += it.bytes;
      } else {
        ranges[it.group].push_back({it.group_offset, it.group_offset + it.bytes});
      }
    }
    for (auto& [g, r] : ranges) {
      std::sort(r.begin(), r.end());
      int64_t covered_to = r.front().first;
      for (const auto& [lo, hi] : r) {
        total += std::max<int64_t>(0, hi - std::max(lo, covered_to));
        covered_to = std::max(covered_to, hi);
      }
    }
    best = std::max(best, total);
  }
  return best;
}

// Empty when the packing is valid; otherwise what is wrong with it.
std::string WhatIsWrong(const Instance& in, const Packing& p) {
  const auto& items = in.items;
  if (p.offsets.size() != items.size()) return "not one offset per item";
  int64_t top = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const int64_t a = p.offsets[i];
    if (a < 0 || a % in.alignment != 0) return "item " + std::to_string(i) + " is misaligned or below 0";
    top = std::max(top, a + items[i].bytes);
    for (size_t j = 0; j < i; ++j) {
      const int64_t b = p.offsets[j];
      if (items[i].group >= 0 && items[i].group == items[j].group) {
        if (a - b != items[i].group_offset - items[j].group_offset) {
          return "items " + std::to_string(j) + " and " + std::to_string(i) + " left their group's shape";
        }
        continue;
      }
      const bool together = items[i].first <= items[j].last && items[j].first <= items[i].last;
      if (together && a < b + items[j].bytes && b < a + items[i].bytes) {
        return "items " + std::to_string(j) + " and " + std::to_string(i) + " share bytes while live";
      }
    }
  }
  if (p.size != top) return "size " + std::to_string(p.size) + " but the items reach " + std::to_string(top);
  return "";
}

std::string Describe(const Instance& in) {
  std::string s = "alignment " + std::to_string(in.alignment) + ", items (bytes first..last group@offset):";
  for (const IntervalItem& it : in.items) {
    s += " " + std::to_string(it.bytes) + " " + std::to_string(it.first) + ".." + std::to_string(it.last);
    if (it.group >= 0) s += " g" + std::to_string(it.group) + "@" + std::to_string(it.group_offset);
  }
  return s;
}

struct Counts {
  int optimal = 0;      // flagged optimal (at max-live)
  int one_above = 0;    // exactly one alignment unit above max-live, not flagged
};

void CheckAllPackers(bool groups, uint32_t seed, int instances, Counts* counts) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < instances; ++trial) {
    const Instance in = RandomInstance(rng, groups);
    const std::vector<IntervalItem>& items = in.items;
    const int64_t max_live = IndependentMaxLive(in);
    ASSERT_EQ(MaxLive(items), max_live) << "trial " << trial << ": " << Describe(in);
    WorkBudget deadline(int64_t{1} << 60);  // never spent
    const Packing linear = PackLinear(items);
    const Packing greedy = PackGreedyBySize(items, in.alignment);
    const Packing best_fit = PackBestFit(items, in.alignment);
    struct Named {
      const char* name;
      Packing packing;
    };
    const std::vector<Named> packings = {
        {"PackLinear", linear},
        {"PackGreedyBySize", greedy},
        {"PackBestFit", best_fit},
        {"PackExact from best fit", PackExact(items, best_fit, deadline)},
        {"PackExact from linear", PackExact(items, linear, deadline)},
        {"PackExactByOffset from best fit", PackExactByOffset(items, best_fit, deadline)},
        {"PackExactByOffset from linear", PackExactByOffset(items, linear, deadline)},
    };
    for (const Named& n : packings) {
      const Packing& p = n.packing;
      const std::string what = WhatIsWrong(in, p);
      ASSERT_EQ(what, "") << n.name << ", trial " << trial << ": " << Describe(in);
      ASSERT_GE(p.size, max_live) << n.name << ", trial " << trial << ": below max-live " << Describe(in);
      ASSERT_EQ(p.optimal, p.size == max_live)
          << n.name << ", trial " << trial << ": size " << p.size << ", max-live " << max_live
          << ", flagged " << (p.optimal ? "optimal" : "not optimal") << "; " << Describe(in);
      counts->optimal += p.optimal;
      counts->one_above += p.size == max_live + in.alignment;
    }
    if (!groups) {
      // Without groups both exact searches are complete: within the budget
      // they match every packing brute force finds (PackExact says it proved
      // its packing optimal), and DecideFit answers whether max-live itself
      // is reachable.
      const int64_t brute = BruteForceOptimum(items);
      for (size_t k = 3; k < packings.size(); ++k) {
        ASSERT_LE(packings[k].packing.size, brute)
            << packings[k].name << ", trial " << trial << ": the exact search stopped above a packing of "
            << brute << " bytes; " << Describe(in);
        if (k < 5) {
          ASSERT_TRUE(packings[k].packing.proven) << packings[k].name << ", trial " << trial;
        }
      }
      packing::SkylineState st(items);
      const packing::Fit fit = packing::DecideFit(st, max_live, deadline, nullptr);
      ASSERT_NE(fit, packing::Fit::kUnknown) << "trial " << trial;
      ASSERT_EQ(fit == packing::Fit::kYes, packings[3].packing.size == max_live)
          << "DecideFit, trial " << trial << ": " << Describe(in);
      if (fit == packing::Fit::kYes) {
        const Packing p = packing::Expand(items, st.blocks, st.base);
        ASSERT_EQ(WhatIsWrong(in, p), "") << "DecideFit, trial " << trial << ": " << Describe(in);
        ASSERT_EQ(p.size, max_live) << "DecideFit, trial " << trial << ": " << Describe(in);
      }
    }
  }
}

TEST(PackerOptimalTest, FlagMeansMaxLiveWithoutGroups) {
  Counts counts;
  ASSERT_NO_FATAL_FAILURE(CheckAllPackers(false, 20, 3000, &counts));
  // The instances exercise both sides of the flag, and the near miss.
  EXPECT_GT(counts.optimal, 1000);
  EXPECT_GT(counts.one_above, 100);
}

TEST(PackerOptimalTest, FlagMeansMaxLiveWithGroups) {
  Counts counts;
  ASSERT_NO_FATAL_FAILURE(CheckAllPackers(true, 21, 3000, &counts));
  EXPECT_GT(counts.optimal, 1000);
  EXPECT_GT(counts.one_above, 100);
}

}  // namespace
}  // namespace oc
