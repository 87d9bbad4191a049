// The arena's occupants: buffers, kernel scratch and an overlap contract's
// plane scratch and credit, on a small hand-built program; and that the
// planner, the live bytes and the arena guard agree with them.
#include <algorithm>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "passes/analysis/arena_occupants.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "targets/c99/arena_guard.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddOp;

// x -> relu a [1,4,6,6] -> max_pool 2x2/2 b [1,4,3,3] (over its dying input a,
// 10 bytes of kernel scratch) -> sigmoid c (100 bytes of kernel scratch) -> copy out.
struct Chain {
  Program p;
  ValueId a, b, c;
};

Chain MakeChain() {
  Chain t;
  Program& p = t.p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 6, 6});
  t.a = AddOp(p, OpKind::kRelu, {x}, "a", {1, 4, 6, 6});
  t.b = AddOp(p, OpKind::kMaxPool, {t.a}, "b", {1, 4, 3, 3});
  Statement& pool = p.statements().back();
  pool.attrs["kernel"] = std::vector<int64_t>{2, 2};
  pool.attrs["strides"] = std::vector<int64_t>{2, 2};
  pool.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  pool.attrs["dilations"] = std::vector<int64_t>{1, 1};
  pool.scratch_bytes = 10;
  t.c = AddOp(p, OpKind::kSigmoid, {t.b}, "c", {1, 4, 3, 3});
  p.statements().back().scratch_bytes = 100;
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {t.c}, "out", {1, 4, 3, 3}));
  return t;
}

TEST(ArenaOccupantsTest, BuffersScratchAndContract) {
  Chain t = MakeChain();
  const MemoryModel m = ComputeMemoryModel(t.p, 16);
  ASSERT_EQ(m.overlaps.size(), 1u);
  const OverlapContract& contract = m.overlaps[0];
  ASSERT_EQ(contract.statement, 1);
  const int buf_a = m.buffer_of_value[t.a], buf_b = m.buffer_of_value[t.b];
  ASSERT_EQ(m.buffer_of_value[t.c], buf_b);  // sigmoid in place

  const std::vector<ArenaOccupant> occ = ArenaOccupants(t.p, m);
  ASSERT_EQ(occ.size(), 4u);  // a, b, scratch of the pool, scratch of the sigmoid

  // Buffers first, in buffer id order.
  EXPECT_TRUE(occ[0].IsBuffer());
  EXPECT_EQ(occ[0].buffer, buf_a);
  EXPECT_EQ(occ[0].bytes, 576);
  EXPECT_EQ(occ[0].first_step, 0);
  EXPECT_EQ(occ[0].last_step, 1);
  EXPECT_EQ(occ[0].credit, 0);
  EXPECT_TRUE(occ[1].IsBuffer());
  EXPECT_EQ(occ[1].buffer, buf_b);
  EXPECT_EQ(occ[1].bytes, 144);
  EXPECT_EQ(occ[1].first_step, 1);
  EXPECT_EQ(occ[1].last_step, 3);

  // The contract chains a and b (b may start at a: displacement 0) and
  // credits b at the pool's step with the bytes it shares with a.
  EXPECT_EQ(contract.displacement, 0);
  EXPECT_EQ(occ[0].group, 0);
  EXPECT_EQ(occ[1].group, 0);
  EXPECT_EQ(occ[0].group_offset, 0);
  EXPECT_EQ(occ[1].group_offset, 0);
  EXPECT_EQ(occ[1].credit, 144);
  EXPECT_EQ(occ[1].credit_step, 1);
  EXPECT_EQ(occ[1].over_buffer, buf_a);
  EXPECT_EQ(occ[1].BytesAt(1), 0);
  EXPECT_EQ(occ[1].BytesAt(2), 144);
  EXPECT_EQ(occ[1].BytesAt(4), 0);

  // The pool's scratch: its kernel's (10, aligned to 16), then the plane scratch.
  EXPECT_EQ(occ[2].kind, ArenaOccupant::Kind::kScratch);
  EXPECT_EQ(occ[2].statement, 1);
  EXPECT_EQ(occ[2].first_step, 1);
  EXPECT_EQ(occ[2].last_step, 1);
  EXPECT_EQ(occ[2].kernel_scratch, 16);
  EXPECT_EQ(occ[2].contract_scratch, contract.scratch);
  EXPECT_EQ(occ[2].contract_scratch, 48);  // one output plane
  EXPECT_EQ(occ[2].bytes, 16 + 48);
  EXPECT_EQ(occ[2].group, -1);

  // The sigmoid's kernel scratch only.
  EXPECT_EQ(occ[3].kind, ArenaOccupant::Kind::kScratch);
  EXPECT_EQ(occ[3].statement, 2);
  EXPECT_EQ(occ[3].kernel_scratch, 112);
  EXPECT_EQ(occ[3].contract_scratch, 0);
  EXPECT_EQ(occ[3].bytes, 112);

  // The memory model's live bytes are the occupants' bytes at each step.
  for (size_t s = 0; s < m.live_bytes.size(); ++s) {
    int64_t sum = 0;
    for (const ArenaOccupant& o : occ) sum += o.BytesAt(static_cast<int>(s));
    EXPECT_EQ(sum, m.live_bytes[s]) << "step " << s;
  }
}

TEST(ArenaOccupantsTest, PlanAndGuardPlaceTheOccupants) {
  Chain t = MakeChain();
  const MemoryModel m = ComputeMemoryModel(t.p, 16);
  const ArenaPlan plan = PlanBest(t.p, m);
  OC_EXPECT_OK(ValidatePlan(t.p, m, plan));
  const std::vector<ArenaOccupant> occ = ArenaOccupants(t.p, m);
  for (const ArenaOccupant& o : occ) {
    const int64_t at = OccupantOffset(plan, o);
    EXPECT_GE(at, 0);
    EXPECT_LE(at + o.bytes, plan.arena_bytes);
    EXPECT_EQ(at, o.IsBuffer() ? plan.buffer_offset[o.buffer] : plan.scratch_offset[o.statement]);
  }
  // The pool may write b's bytes and its whole scratch, nothing else.
  const int64_t b_at = OccupantOffset(plan, occ[1]), scratch_at = OccupantOffset(plan, occ[2]);
  std::vector<std::pair<int64_t, int64_t>> expected = {{b_at, b_at + 144},
                                                       {scratch_at, scratch_at + 64}};
  std::sort(expected.begin(), expected.end());
  if (expected[0].second >= expected[1].first) {
    expected = {{expected[0].first, std::max(expected[0].second, expected[1].second)}};
  }
  EXPECT_EQ(DeclaredWrites(t.p, m, plan, 1), expected);
}

}  // namespace
}  // namespace oc
