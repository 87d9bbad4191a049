// Search budgets in work units: what --search-effort gives each search, how
// parts of a budget charge their parent, and the hard stop.
#include <gtest/gtest.h>

#include <chrono>

#include "compiler/driver/compile.h"
#include "compiler/support/work_budget.h"

namespace oc {
namespace {

TEST(SearchBudget, DefaultsAndEffortScaleEveryBudget) {
  CompileOptions o;
  SearchBudgets b = SearchBudgetsFor(o);
  EXPECT_EQ(b.schedule, kDefaultScheduleBudget);
  EXPECT_EQ(b.plan, kDefaultPlanBudget);
  EXPECT_EQ(b.baseline_plan, kDefaultPlanBudget / 4);
  EXPECT_EQ(b.joint_plan, kDefaultPlanBudget / 2);
  EXPECT_EQ(b.recompute, 0);  // off by default
  o.search_effort = 0.5;
  o.recompute = true;
  b = SearchBudgetsFor(o);
  EXPECT_EQ(b.schedule, kDefaultScheduleBudget / 2);
  EXPECT_EQ(b.plan, kDefaultPlanBudget / 2);
  EXPECT_EQ(b.recompute, kDefaultScheduleBudget);  // twice the schedule search's
  o.search_effort = 0;
  b = SearchBudgetsFor(o);
  EXPECT_EQ(b.schedule + b.plan + b.baseline_plan + b.joint_plan + b.recompute, 0);
}

TEST(SearchBudget, SpendingStopsAtTheLimit) {
  WorkBudget b(10);
  EXPECT_TRUE(b.Spend(4));
  EXPECT_EQ(b.Left(), 6);
  EXPECT_TRUE(b.Spend(5));
  EXPECT_FALSE(b.Spend(1));
  EXPECT_TRUE(b.Exhausted());
  EXPECT_FALSE(b.Spend(1));  // stays spent
  WorkBudget none(0);
  EXPECT_FALSE(none.Spend());
}

TEST(SearchBudget, APartChargesItsParentAndNeverExceedsIt) {
  WorkBudget parent(100);
  {
    WorkBudget part(parent, parent.ShareOfLeft(1, 4));
    EXPECT_EQ(part.limit(), 25);
    while (part.Spend(3)) {
    }
    EXPECT_EQ(part.spent(), 27);
  }
  EXPECT_EQ(parent.spent(), 27);
  WorkBudget big(parent, 1000);  // no more than the parent has left
  EXPECT_EQ(big.limit(), 73);
  EXPECT_EQ(parent.ShareOfLeft(2, 3), 48);  // 2/3 of 73, rounded down
}

TEST(SearchBudget, TheHardStopEndsABudgetOnlyWhenItFires) {
  HardStop never;
  WorkBudget plenty(1 << 30, &never);
  for (int i = 0; i < 100000; ++i) ASSERT_TRUE(plenty.Spend(1));
  HardStop past(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  WorkBudget cut(int64_t{1} << 40, &past);
  bool stopped = false;
  for (int i = 0; i < (1 << 20) && !stopped; ++i) stopped = !cut.Spend(1);
  EXPECT_TRUE(stopped);
  EXPECT_TRUE(past.fired());
  EXPECT_FALSE(never.fired());
}

}  // namespace
}  // namespace oc
