// --time-limit: the search budgets scaled down to fit it.
#include <gtest/gtest.h>

#include "compiler/driver/compile.h"

namespace oc {
namespace {

TEST(SearchBudget, DefaultsFitTheDefaultLimitUnchanged) {
  CompileOptions o;
  SearchBudgets b = SearchBudgetsWithinLimit(o);
  EXPECT_EQ(b.schedule_ms, 700);
  EXPECT_EQ(b.plan_ms, 300);
  EXPECT_EQ(b.baseline_plan_ms, 75);
  EXPECT_EQ(b.joint_plan_ms, 150);
}

TEST(SearchBudget, ScaledDownTogetherToFitASmallLimit) {
  CompileOptions o;
  o.time_limit_ms = 500;
  SearchBudgets b = SearchBudgetsWithinLimit(o);
  EXPECT_LE(b.schedule_ms + b.plan_ms + b.baseline_plan_ms + b.joint_plan_ms, 500);
  EXPECT_EQ(b.schedule_ms, 285);  // 700 * 500 / 1225, rounded down
  EXPECT_EQ(b.plan_ms, 122);
  EXPECT_EQ(b.baseline_plan_ms, 30);
  EXPECT_EQ(b.joint_plan_ms, 61);
}

TEST(SearchBudget, LimitCapsALargeScheduleBudget) {
  CompileOptions o;
  o.schedule_budget_ms = 3600000;
  o.time_limit_ms = 2000;
  SearchBudgets b = SearchBudgetsWithinLimit(o);
  EXPECT_LE(b.schedule_ms + b.plan_ms + b.baseline_plan_ms + b.joint_plan_ms, 2000);
  EXPECT_GT(b.schedule_ms, 1990);
}

TEST(SearchBudget, RecomputeGetsTwiceTheScheduleBudgetWithinTheLimit) {
  CompileOptions o;
  EXPECT_EQ(SearchBudgetsWithinLimit(o).recompute_ms, 0);  // off by default
  o.recompute = true;
  SearchBudgets b = SearchBudgetsWithinLimit(o);
  EXPECT_EQ(b.recompute_ms, 1400);
  EXPECT_EQ(b.schedule_ms, 700);  // the others fit the default limit as they are
  o.time_limit_ms = 1000;
  b = SearchBudgetsWithinLimit(o);
  EXPECT_LE(b.schedule_ms + b.plan_ms + b.baseline_plan_ms + b.joint_plan_ms + b.recompute_ms, 1000);
  EXPECT_GT(b.recompute_ms, 0);
}

TEST(SearchBudget, ZeroLimitMeansNoSearch) {
  CompileOptions o;
  o.time_limit_ms = 0;
  SearchBudgets b = SearchBudgetsWithinLimit(o);
  EXPECT_EQ(b.schedule_ms + b.plan_ms + b.baseline_plan_ms + b.joint_plan_ms, 0);
}

}  // namespace
}  // namespace oc
