// The exact planner's decision step (passes/planning/interval_packing_decide.h),
// checked against brute force on small instances and on tilings whose
// optimum is known by construction.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "bench/interval_generators.h"
#include "passes/planning/interval_packing.h"
#include "passes/planning/interval_packing_decide.h"
#include "tests/unit/brute_force_packing.h"

namespace oc {
namespace {

using packing::DecideFit;
using packing::Fit;
using packing::SkylineState;

// A budget no test exhausts.
WorkBudget& FarAway() {
  static WorkBudget budget(int64_t{1} << 60);
  return budget;
}

Packing Decided(const std::vector<IntervalItem>& items, int64_t capacity, Fit* fit) {
  SkylineState st(items);
  *fit = DecideFit(st, capacity, FarAway(), nullptr);
  return packing::Expand(items, st.blocks, st.base);
}

TEST(IntervalDecideTest, AgreesWithBruteForceOnSmallInstances) {
  std::mt19937 rng(11);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<IntervalItem> items;
    const int n = uniform(3, 7);
    for (int i = 0; i < n; ++i) {
      const int first = uniform(0, 3);
      items.push_back({16 * uniform(1, 9), first, first + uniform(0, 2)});
    }
    const int64_t optimum = BruteForceOptimum(items);
    Fit fit;
    Packing p = Decided(items, optimum, &fit);
    ASSERT_EQ(fit, Fit::kYes) << "trial " << trial << ": the optimum " << optimum << " was not found";
    EXPECT_TRUE(PackingIsValid(items, p));
    EXPECT_LE(p.size, optimum);
    Decided(items, optimum - 1, &fit);
    EXPECT_EQ(fit, Fit::kNo) << "trial " << trial << ": below the optimum " << optimum;
  }
}

TEST(IntervalDecideTest, SolvesTilingsAtMaxLive) {
  // Guillotine tilings: max-live is reachable and no byte may be wasted.
  GenRng rng(5);
  int solved = 0;
  const int kInstances = 10;
  for (int trial = 0; trial < kInstances; ++trial) {
    std::vector<IntervalItem> items = TiledIntervals(rng, 100, 16);
    ASSERT_EQ(MaxLive(items), 16 * 1024);
    SkylineState st(items);
    int64_t nodes = 0;
    // A node budget, not a time budget: the test gives the same answer on
    // any machine.
    WorkBudget budget(200000);
    const Fit fit = DecideFit(st, MaxLive(items), budget, &nodes);
    ASSERT_NE(fit, Fit::kNo) << "trial " << trial << ": a tiling was declared impossible";
    if (fit == Fit::kYes) {
      Packing p = packing::Expand(items, st.blocks, st.base);
      ASSERT_TRUE(PackingIsValid(items, p));
      EXPECT_EQ(p.size, MaxLive(items));
      ++solved;
    }
  }
  EXPECT_EQ(solved, kInstances);
}

TEST(IntervalDecideTest, BackjumpingNeverRejectsATiling) {
  // Every tiling fits at max-live, so a kNo here would be a backjump past a
  // choice that mattered: a conflict set that left out a step its proof read.
  GenRng rng(9);
  int solved = 0;
  const int kInstances = 400;
  for (int trial = 0; trial < kInstances; ++trial) {
    std::vector<IntervalItem> items = TiledIntervals(rng, 10 + trial % 60, 16);
    SkylineState st(items);
    WorkBudget budget(20000);
    const Fit fit = DecideFit(st, MaxLive(items), budget, nullptr);
    ASSERT_NE(fit, Fit::kNo) << "trial " << trial << ": a tiling was declared impossible";
    if (fit == Fit::kYes) {
      ASSERT_TRUE(PackingIsValid(items, packing::Expand(items, st.blocks, st.base)));
      ++solved;
    }
  }
  EXPECT_GE(solved, kInstances * 9 / 10);
}

TEST(IntervalDecideTest, LeavesTheStateAsItWasWhenItFails) {
  // Two items live together cannot share 16 bytes.
  std::vector<IntervalItem> items = {{16, 0, 1}, {16, 1, 2}};
  SkylineState st(items);
  EXPECT_EQ(DecideFit(st, 16, FarAway(), nullptr), Fit::kNo);
  EXPECT_EQ(st.base, std::vector<int64_t>(2, -1));
  EXPECT_EQ(st.skyline, std::vector<int64_t>(3, 0));
  EXPECT_EQ(DecideFit(st, 32, FarAway(), nullptr), Fit::kYes);
}

}  // namespace
}  // namespace oc
