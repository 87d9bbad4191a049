// Selective recompute: the clone edit, the heuristic pass and the exact
// search, on hand-computed programs and on random small ones (where the
// exact optimum must never be beaten by, nor beat the original's peak).
#include <chrono>
#include <string>
#include <vector>

#include "bench/program_generators.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "gtest/gtest.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/recompute.h"
#include "passes/planning/recompute_exact.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddOp;

constexpr int64_t kHeavy = 1000000;

// No in-place writes, so the hand-computed peaks below stay simple.
RecomputeOptions Options() {
  RecomputeOptions o;
  o.aliases.in_place = false;
  return o;
}

// A fresh budget of `units` work units for one search.
WorkBudget& Soon(int64_t units = int64_t{1} << 40) {
  static WorkBudget budget(0);
  budget = WorkBudget(units);
  return budget;
}

// a = relu(x) is read by the first of three heavy ops and by the last add:
// 64 floats (256 bytes) per value; a sits idle across the chain.
Program WideStem() {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 64});
  ValueId a = AddOp(p, OpKind::kRelu, {x}, "a", {1, 64});
  ValueId h = a;
  for (int i = 0; i < 3; ++i) {
    h = AddOp(p, OpKind::kSigmoid, {h}, "h" + std::to_string(i), {1, 64});
    p.statements().back().macs = kHeavy;
  }
  ValueId y = AddOp(p, OpKind::kAdd, {h, a}, "y", {1, 64});
  p.outputs().push_back(y);
  return p;
}

int64_t Peak(const Program& p, const RecomputeOptions& o) {
  return ComputeMemoryModel(p, o.alignment, o.aliases).peak_bytes;
}

TEST(RecomputeClone, PlacesTheCloneBeforeItsFirstReaderAndRewiresIt) {
  Program p = WideStem();
  const int32_t relu = p.statements()[0].id, add = p.statements()[4].id;
  auto c = CloneForReaders(p, relu, {add});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->clone_of, relu);
  EXPECT_EQ(c->original, relu);
  ASSERT_EQ(p.statements().size(), 6u);
  const Statement& clone = p.statements()[4];
  EXPECT_EQ(clone.id, c->statement);
  EXPECT_EQ(clone.recompute_of, relu);
  EXPECT_EQ(clone.op, OpKind::kRelu);
  EXPECT_EQ(clone.operands, p.statements()[0].operands);
  EXPECT_EQ(clone.results, std::vector<ValueId>{c->value});
  EXPECT_EQ(p.statements()[5].operands[1], c->value);
  EXPECT_TRUE(VerifyProgram(p).ok());
  // Not a reader of the statement: refused, program untouched.
  Program q = WideStem();
  EXPECT_FALSE(CloneForReaders(q, q.statements()[2].id, {add}).ok());
  EXPECT_EQ(q.statements().size(), 5u);
}

TEST(RecomputeCost, MacsOrOnePerElementAndViewsAreFree) {
  Program p = WideStem();
  EXPECT_EQ(RecomputeCost(p, p.statements()[0]), 64);      // relu: no MACs, 64 elements
  EXPECT_EQ(RecomputeCost(p, p.statements()[1]), kHeavy);
  EXPECT_EQ(ProgramCost(p), 3 * kHeavy + 64 + 64);
}

TEST(Recompute, WideStemDropsThePeakByAThird) {
  const RecomputeOptions o = Options();
  Program p = WideStem();
  ASSERT_EQ(Peak(p, o), 3 * 256);  // a, h0, h1 live while h1 runs
  auto r = RunRecompute(p, o, Soon());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->clones.size(), 1u);
  EXPECT_EQ(r->peak_before, 768);
  EXPECT_EQ(r->peak_after, 512);
  EXPECT_EQ(r->arena_after, 512);
  EXPECT_EQ(r->extra_cost, 64);
  EXPECT_EQ(Peak(p, o), 512);
  EXPECT_TRUE(VerifyProgram(p).ok());
  ExactRecomputeResult e = ExactMinPeakWithRecompute(WideStem(), o, Soon());
  EXPECT_TRUE(e.ran);
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(e.peak, 512);
}

TEST(Recompute, NothingPaysOnAChainOrOverBudget) {
  RecomputeOptions o = Options();
  Program chain;
  ValueId x = chain.AddInput("x", DType::kF32, {1, 64});
  ValueId y = AddOp(chain, OpKind::kSigmoid, {AddOp(chain, OpKind::kRelu, {x}, "a", {1, 64})}, "y", {1, 64});
  chain.outputs().push_back(y);
  const std::string before = PrintProgram(chain);
  auto r = RunRecompute(chain, o, Soon());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->clones.empty());
  EXPECT_EQ(PrintProgram(chain), before);
  // The wide stem with a budget below one relu: no change either.
  o.mac_budget_percent = 0.001;
  Program p = WideStem();
  const std::string stem = PrintProgram(p);
  r = RunRecompute(p, o, Soon());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->clones.empty());
  EXPECT_EQ(r->arena_after, r->arena_before);
  EXPECT_EQ(PrintProgram(p), stem);
  EXPECT_EQ(ExactMinPeakWithRecompute(p, o, Soon()).peak, 768);
  // Cap 0 allows no extra run at all.
  o = Options();
  o.cap = 0;
  EXPECT_EQ(ExactMinPeakWithRecompute(p, o, Soon()).peak, 768);
}

TEST(Recompute, ExactNeedsAChainWhereOneCloneDoesNotPay) {
  // b = relu(relu(x)), the second in place over the first; the heavy ops
  // (h + h reads its operand twice, so never in place) run while b waits
  // for the last add. Cloning only the outer relu keeps a's bytes alive
  // instead; cloning both frees them: 768 -> 512 bytes.
  RecomputeOptions o;
  o.mac_budget_percent = 5;
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 64});
  ValueId a = AddOp(p, OpKind::kRelu, {x}, "a", {1, 64});
  ValueId b = AddOp(p, OpKind::kRelu, {a}, "b", {1, 64});
  ValueId h = b;
  for (int i = 0; i < 3; ++i) {
    h = AddOp(p, OpKind::kAdd, {h, h}, "h" + std::to_string(i), {1, 64});
    p.statements().back().macs = kHeavy;
  }
  p.outputs().push_back(AddOp(p, OpKind::kAdd, {h, b}, "y", {1, 64}));
  ASSERT_EQ(Peak(p, o), 768);
  ExactRecomputeResult e = ExactMinPeakWithRecompute(p, o, Soon());
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(e.peak, 512);
  EXPECT_EQ(e.clones.size(), 2u);
  Program q = p;
  auto r = RunRecompute(q, o, Soon());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->peak_after, 512);
  EXPECT_EQ(r->clones.size(), 2u);
  EXPECT_EQ(Peak(q, o), 512);
  // With the cap at 0 nothing may run twice.
  o.cap = 0;
  EXPECT_EQ(ExactMinPeakWithRecompute(p, o, Soon()).peak, 768);
}

TEST(Recompute, RandomSmallProgramsHeuristicBetweenExactAndOriginal) {
  RecomputeOptions o;
  o.mac_budget_percent = 30;
  int improved = 0;
  for (int t = 0; t < 60; ++t) {
    Program p = RandomRecomputeProgram(t, 4 + t % 9);
    const int64_t before = Peak(p, o);
    Program h = p;
    auto r = RunRecompute(h, o, Soon(50000000));
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(VerifyProgram(h).ok());
    EXPECT_LE(r->peak_after, before) << PrintProgram(p);
    EXPECT_LE(r->extra_cost, r->budget);
    ExactRecomputeResult e = ExactMinPeakWithRecompute(p, o, Soon());
    ASSERT_TRUE(e.ran);
    if (!e.finished) continue;
    EXPECT_LE(e.peak, before);
    EXPECT_LE(e.extra_cost, RecomputeBudget(p, o));
    EXPECT_LE(e.peak, Peak(h, o)) << PrintProgram(p);
    if (e.peak < before) ++improved;
  }
  EXPECT_GT(improved, 0);  // the generator does produce programs where recompute pays
}

}  // namespace
}  // namespace oc
