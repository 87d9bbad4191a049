// Planning across memory regions (passes/planning/region_plan.h,
// region_bound.h): the access cost bound is never above the cheapest
// assignment that fits, found by brute force on small instances; and on a
// small program the plan puts every buffer inside one region, each region
// within its size, at a cost between the bound and the plain baseline.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "passes/analysis/arena_occupants.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "passes/planning/region_bound.h"
#include "passes/planning/region_plan.h"
#include "tests/unit/brute_force_packing.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddOp;

// The least cost over every assignment of loose items to regions whose
// items pack into it (by brute force); -1 when none fits.
double CheapestFittingAssignment(const std::vector<IntervalItem>& items, const std::vector<int64_t>& traffic,
                                 const std::vector<RegionCapacity>& regions) {
  const size_t n = items.size(), k = regions.size();
  double best = -1;
  std::vector<size_t> region_of(n, 0);
  for (;;) {
    bool fits = true;
    double cost = 0;
    for (size_t r = 0; r < k && fits; ++r) {
      std::vector<IntervalItem> in_r;
      for (size_t i = 0; i < n; ++i) {
        if (region_of[i] == r) in_r.push_back(items[i]);
      }
      fits = in_r.empty() || BruteForceOptimum(in_r) <= regions[r].size;
    }
    for (size_t i = 0; i < n; ++i) cost += static_cast<double>(traffic[i]) * regions[region_of[i]].cost;
    if (fits && (best < 0 || cost < best)) best = cost;
    size_t d = 0;
    while (d < n && ++region_of[d] == k) region_of[d++] = 0;
    if (d == n) break;
  }
  return best;
}

TEST(RegionBoundTest, NeverAboveTheCheapestAssignmentThatFits) {
  std::mt19937 rng(44);
  int feasible = 0, infeasible = 0, tight = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<IntervalItem> items;
    std::vector<int64_t> traffic;
    const int n = 2 + static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) {
      const int first = static_cast<int>(rng() % 6);
      items.push_back({16 * (1 + static_cast<int64_t>(rng() % 6)), first, first + static_cast<int>(rng() % 4)});
      traffic.push_back(static_cast<int64_t>(rng() % 400));
    }
    std::vector<RegionCapacity> regions = {{16 * (1 + static_cast<int64_t>(rng() % 8)), 1},
                                           {16 * (1 + static_cast<int64_t>(rng() % 12)), 2 + double(rng() % 6)}};
    if (trial % 3 == 0) regions.push_back({16 * (1 + static_cast<int64_t>(rng() % 6)), 0.5});
    const std::vector<std::vector<int>> units = RegionUnits(items);
    ASSERT_EQ(units.size(), items.size());
    const AccessCostBound bound = AccessCostLowerBound(items, units, traffic, regions);
    const double cheapest = CheapestFittingAssignment(items, traffic, regions);
    if (!bound.feasible) {
      EXPECT_LT(cheapest, 0) << "trial " << trial << ": the bound says nothing fits";
      ++infeasible;
      continue;
    }
    if (cheapest < 0) continue;
    ++feasible;
    EXPECT_LE(bound.cost, cheapest + 1e-9) << "trial " << trial;
    if (bound.cost >= cheapest - 1e-9) ++tight;
  }
  EXPECT_GT(feasible, 100);
  EXPECT_GT(infeasible, 5);
  EXPECT_GT(tight, 20);  // the bound is not vacuous
}

TEST(RegionBoundTest, GroupsShareARegion) {
  // Two items of one group and a loose one: two units; the group's height
  // spans its offsets.
  const std::vector<IntervalItem> items = {{32, 0, 1, 7, 0}, {16, 2, 3}, {32, 1, 2, 7, 48}};
  const std::vector<std::vector<int>> units = RegionUnits(items);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0], (std::vector<int>{0, 2}));
  EXPECT_EQ(UnitHeight(items, units[0]), 80);
  EXPECT_EQ(UnitBytesAt(items, units[0], 1), 64);
  EXPECT_EQ(UnitBytesAt(items, units[0], 3), 0);
  // No region holds the group's 80 contiguous bytes.
  EXPECT_FALSE(AccessCostLowerBound(items, units, {10, 10}, {{64, 1}, {64, 1}}).feasible);
}

// x -> relu a [1,4,6,6] -> max_pool b [1,4,3,3] -> sigmoid c -> copy out,
// with kernel scratch on the pool and the sigmoid.
Program MakeChain() {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 6, 6});
  ValueId a = AddOp(p, OpKind::kRelu, {x}, "a", {1, 4, 6, 6});
  ValueId b = AddOp(p, OpKind::kMaxPool, {a}, "b", {1, 4, 3, 3});
  Statement& pool = p.statements().back();
  pool.attrs["kernel"] = std::vector<int64_t>{2, 2};
  pool.attrs["strides"] = std::vector<int64_t>{2, 2};
  pool.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  pool.attrs["dilations"] = std::vector<int64_t>{1, 1};
  pool.scratch_bytes = 10;
  ValueId c = AddOp(p, OpKind::kSigmoid, {b}, "c", {1, 4, 3, 3});
  p.statements().back().scratch_bytes = 100;
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {c}, "out", {1, 4, 3, 3}));
  return p;
}

TEST(RegionPlanTest, TrafficCountsReadsAndWrites) {
  const Program p = MakeChain();
  const MemoryModel m = ComputeMemoryModel(p, 16);
  const std::vector<int64_t> traffic = BufferTraffic(p, m);
  // a: written by the relu, read by the pool.
  EXPECT_EQ(traffic[m.buffer_of_value[p.statements()[0].results[0]]], 2 * 576);
}

TEST(RegionPlanTest, EveryBufferInOneRegionWithinItsSize) {
  const Program p = MakeChain();
  // Without the overlap contract a and b are separate units (with it they
  // move together, 576 bytes tall).
  AliasOptions no_overlap;
  no_overlap.overlap = false;
  const MemoryModel m = ComputeMemoryModel(p, 16, no_overlap);
  MemoryMap map;
  map.regions = {{"fast", 256, 1, 0, ".bss.arena.fast"}, {"slow", 4096, 8, 0, ".bss.arena.slow"}};
  WorkBudget budget(1 << 20);
  ArenaPlan plan = PlanBest(p, m, budget);
  const RegionPlan rp = PlanRegions(p, m, map, budget, plan);
  ASSERT_TRUE(rp.fits) << rp.failure;
  ASSERT_EQ(rp.regions.size(), 2u);
  EXPECT_TRUE(ValidatePlan(p, m, plan).ok());
  int64_t total = 0;
  for (size_t r = 0; r < rp.regions.size(); ++r) {
    const RegionUse& use = rp.regions[r];
    EXPECT_LE(use.arena_bytes, map.regions[r].size);
    EXPECT_LE(use.lower_bound_bytes, use.arena_bytes);
    EXPECT_EQ(use.base, total);
    total += use.arena_bytes;
    for (int b : use.buffers) {
      EXPECT_GE(plan.buffer_offset[b], use.base);
      EXPECT_LE(plan.buffer_offset[b] + m.buffers[b].aligned_bytes, use.base + use.arena_bytes);
    }
  }
  EXPECT_EQ(plan.arena_bytes, total);
  // The 576-byte relu output cannot be in the fast region; the pool's
  // 144-byte output can.
  EXPECT_EQ(rp.regions[1].buffers, (std::vector<int>{m.buffer_of_value[p.statements()[0].results[0]]}));
  EXPECT_EQ(rp.regions[0].buffers, (std::vector<int>{m.buffer_of_value[p.statements()[1].results[0]]}));
  EXPECT_LE(rp.access_cost_lower_bound, rp.access_cost + 1e-9);
  EXPECT_LE(rp.access_cost, rp.access_cost_baseline + 1e-9);
  EXPECT_LT(rp.access_cost, rp.access_cost_costliest);
}

TEST(RegionPlanTest, NoSplitFitsSaysWhichBufferAndByHowMuch) {
  const Program p = MakeChain();
  const MemoryModel m = ComputeMemoryModel(p, 16);
  MemoryMap map;
  map.regions = {{"a", 512, 1, 0, ".bss.arena.a"}, {"b", 512, 2, 0, ".bss.arena.b"}};
  WorkBudget budget(1 << 20);
  ArenaPlan plan = PlanBest(p, m, budget);
  const ArenaPlan before = plan;
  const RegionPlan rp = PlanRegions(p, m, map, budget, plan);
  ASSERT_FALSE(rp.fits);
  EXPECT_NE(rp.failure.find("buffer 'a' needs 576 contiguous bytes, 64 more than the largest region"),
            std::string::npos)
      << rp.failure;
  EXPECT_EQ(plan.arena_bytes, before.arena_bytes);
}

}  // namespace
}  // namespace oc
