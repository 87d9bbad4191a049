// The memory model (buffers, liveness, live bytes) and the arena planners,
// checked on a hand-computed program and against an independent oracle on a
// few hundred random programs.
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddF32Constant;
using ::oc::testing::AddOp;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// These tests hand-compute the plain model: views alias, nothing else does.
// The aliasing rules have their own tests (memory_aliases_test.cc).
AliasOptions ViewsOnly() {
  AliasOptions a = AliasOptions::None();
  a.views = true;
  return a;
}

TEST(MemoryModelTest, AlignUp) {
  EXPECT_EQ(AlignUp(0, 16), 0);
  EXPECT_EQ(AlignUp(1, 16), 16);
  EXPECT_EQ(AlignUp(16, 16), 16);
  EXPECT_EQ(AlignUp(17, 16), 32);
  EXPECT_EQ(AlignUp(5, 1), 5);
  EXPECT_EQ(AlignUp(20, 64), 64);
}

// step 0: a = relu(x)          [1,5] 20 bytes -> 32 aligned
// step 1: v = reshape(a)       view of a
// step 2: b = add(v, k)        scratch 10 -> 16 aligned
// step 3: c = relu(b)
// step 4: out = copy(c)        graph output
struct Chain {
  Program p;
  ValueId x, k, a, v, b, c, out;
};

Chain MakeChain() {
  Chain t;
  Program& p = t.p;
  t.x = p.AddInput("x", DType::kF32, {1, 5});
  t.k = AddF32Constant(p, "k", {5}, {1, 2, 3, 4, 5});
  t.a = AddOp(p, OpKind::kRelu, {t.x}, "a", {1, 5});
  t.v = AddOp(p, OpKind::kReshape, {t.a}, "v", {5});
  t.b = AddOp(p, OpKind::kAdd, {t.v, t.k}, "b", {5});
  p.statements().back().scratch_bytes = 10;
  t.c = AddOp(p, OpKind::kRelu, {t.b}, "c", {5});
  t.out = AddOp(p, OpKind::kCopy, {t.c}, "out", {5});
  p.outputs() = {t.out};
  return t;
}

TEST(MemoryModelTest, ChainProgramIsValid) { OC_EXPECT_OK(VerifyProgram(MakeChain().p)); }

TEST(MemoryModelTest, ViewsShareTheirOperandsBuffer) {
  Chain t = MakeChain();
  MemoryModel m = ComputeMemoryModel(t.p, 16, ViewsOnly());
  ASSERT_GE(m.buffer_of_value[t.a], 0);
  EXPECT_EQ(m.buffer_of_value[t.v], m.buffer_of_value[t.a]);
  const Buffer& buf = m.buffers[m.buffer_of_value[t.a]];
  EXPECT_EQ(buf.root, t.a);
  EXPECT_THAT(buf.values, ElementsAre(t.a, t.v));
  EXPECT_NE(m.buffer_of_value[t.b], m.buffer_of_value[t.a]);
  EXPECT_NE(m.buffer_of_value[t.c], m.buffer_of_value[t.b]);
}

TEST(MemoryModelTest, InputsOutputsAndConstantsAreNotInTheArena) {
  Chain t = MakeChain();
  MemoryModel m = ComputeMemoryModel(t.p, 16, ViewsOnly());
  const Buffer& in = m.buffers[m.buffer_of_value[t.x]];
  EXPECT_EQ(in.location, BufferLocation::kInput);
  EXPECT_EQ(in.io_index, 0);
  const Buffer& out = m.buffers[m.buffer_of_value[t.out]];
  EXPECT_EQ(out.location, BufferLocation::kOutput);
  EXPECT_EQ(out.io_index, 0);
  EXPECT_EQ(m.buffers[m.buffer_of_value[t.k]].location, BufferLocation::kConstant);
  EXPECT_FALSE(m.InArena(t.x));
  EXPECT_FALSE(m.InArena(t.out));
  EXPECT_FALSE(m.InArena(t.k));
  EXPECT_TRUE(m.InArena(t.a));
  EXPECT_TRUE(m.InArena(t.v));
  EXPECT_TRUE(m.InArena(t.b));
  EXPECT_TRUE(m.InArena(t.c));
  int arena_buffers = 0;
  for (const Buffer& b : m.buffers) arena_buffers += b.location == BufferLocation::kArena;
  EXPECT_EQ(arena_buffers, 3);
  EXPECT_EQ(m.buffers.size(), 6u);  // x, k, a, b, c, out
}

TEST(MemoryModelTest, FirstAndLastSteps) {
  Chain t = MakeChain();
  MemoryModel m = ComputeMemoryModel(t.p, 16, ViewsOnly());
  auto buf = [&](ValueId v) { return m.buffers[m.buffer_of_value[v]]; };
  EXPECT_EQ(buf(t.a).first_step, 0);
  EXPECT_EQ(buf(t.a).last_step, 2);  // read through the view at step 2
  EXPECT_EQ(buf(t.b).first_step, 2);
  EXPECT_EQ(buf(t.b).last_step, 3);
  EXPECT_EQ(buf(t.c).first_step, 3);
  EXPECT_EQ(buf(t.c).last_step, 4);
  EXPECT_EQ(buf(t.x).first_step, 0);
  EXPECT_EQ(buf(t.out).last_step, 4);
  EXPECT_EQ(buf(t.a).bytes, 20);
  EXPECT_EQ(buf(t.a).aligned_bytes, 32);
}

TEST(MemoryModelTest, LiveBytesPerStepAndPeak) {
  Chain t = MakeChain();
  MemoryModel m = ComputeMemoryModel(t.p, 16, ViewsOnly());
  // a:32 over 0..2, b:32 over 2..3, c:32 over 3..4, scratch 16 at step 2.
  EXPECT_THAT(m.live_bytes, ElementsAre(32, 32, 80, 64, 32));
  EXPECT_EQ(m.peak_bytes, 80);
  EXPECT_EQ(m.peak_step, 2);
  MemoryModel m1 = ComputeMemoryModel(t.p, 1, ViewsOnly());
  EXPECT_THAT(m1.live_bytes, ElementsAre(20, 20, 50, 40, 20));
  EXPECT_EQ(m1.peak_bytes, 50);
  MemoryModel m64 = ComputeMemoryModel(t.p, 64, ViewsOnly());
  EXPECT_THAT(m64.live_bytes, ElementsAre(64, 64, 192, 128, 64));
}

TEST(MemoryModelTest, AnOutputThatIsAViewMovesItsWholeBufferOutOfTheArena) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {2, 2});
  ValueId r = AddOp(p, OpKind::kRelu, {x}, "r", {2, 2});
  ValueId v = AddOp(p, OpKind::kReshape, {r}, "v", {4});
  p.outputs() = {v};
  MemoryModel m = ComputeMemoryModel(p, 16, ViewsOnly());
  EXPECT_EQ(m.buffer_of_value[r], m.buffer_of_value[v]);
  EXPECT_EQ(m.buffers[m.buffer_of_value[r]].location, BufferLocation::kOutput);
  EXPECT_THAT(m.live_bytes, ElementsAre(0, 0));
  EXPECT_EQ(m.peak_bytes, 0);
}

// --io=arena: the input is an arena buffer from step 0 to its last reader, the
// output one from its producer to the last step, both counted in the live bytes.
TEST(MemoryModelTest, InputsAndOutputsInTheArenaLiveForTheWholeRun) {
  Chain t = MakeChain();
  AliasOptions io = ViewsOnly();
  io.io_in_arena = true;
  MemoryModel m = ComputeMemoryModel(t.p, 16, io);
  auto buf = [&](ValueId v) { return m.buffers[m.buffer_of_value[v]]; };
  EXPECT_EQ(buf(t.x).location, BufferLocation::kArena);
  EXPECT_TRUE(buf(t.x).holds_input);
  EXPECT_EQ(buf(t.out).location, BufferLocation::kArena);
  EXPECT_TRUE(buf(t.out).holds_output);
  EXPECT_EQ(buf(t.x).first_step, 0);
  EXPECT_EQ(buf(t.x).last_step, 0);
  EXPECT_EQ(buf(t.out).first_step, 4);
  EXPECT_EQ(buf(t.out).last_step, 4);
  EXPECT_EQ(CallerIoBytes(m), 0);
  // x:32 at step 0, out:32 at step 4, on top of the plain model's live bytes.
  EXPECT_THAT(m.live_bytes, ElementsAre(64, 32, 80, 64, 64));
  EXPECT_EQ(CallerIoBytes(ComputeMemoryModel(t.p, 16, ViewsOnly())), 40);
}

// An input's bytes may be reused once it dies (an in-place op over it), an
// output's never: the caller reads it after the run.
TEST(MemoryModelTest, AnArenaOutputIsNeverWrittenInPlace) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {4});
  ValueId a = AddOp(p, OpKind::kRelu, {x}, "a", {4});  // may overwrite x
  ValueId b = AddOp(p, OpKind::kRelu, {a}, "b", {4});  // an output
  ValueId c = AddOp(p, OpKind::kRelu, {b}, "c", {4});  // must not overwrite b
  ValueId d = AddOp(p, OpKind::kRelu, {c}, "d", {4});
  p.outputs() = {b, d};
  AliasOptions io;
  io.io_in_arena = true;
  MemoryModel m = ComputeMemoryModel(p, 16, io);
  EXPECT_EQ(m.buffer_of_value[a], m.buffer_of_value[x]);
  EXPECT_NE(m.buffer_of_value[c], m.buffer_of_value[b]);
  EXPECT_EQ(m.buffers[m.buffer_of_value[b]].last_step, 3);
  // With caller buffers the same op writes over a, which is no output.
  io.io_in_arena = false;
  MemoryModel caller = ComputeMemoryModel(p, 16, io);
  EXPECT_EQ(caller.buffers[caller.buffer_of_value[b]].location, BufferLocation::kOutput);
}

TEST(MemoryModelTest, ChainPlans) {
  Chain t = MakeChain();
  MemoryModel m = ComputeMemoryModel(t.p, 16, ViewsOnly());
  ArenaPlan greedy = PlanGreedyBySize(t.p, m);
  ArenaPlan linear = PlanLinear(t.p, m);
  OC_ASSERT_OK(ValidatePlan(t.p, m, greedy));
  OC_ASSERT_OK(ValidatePlan(t.p, m, linear));
  EXPECT_EQ(greedy.planner, "greedy");
  EXPECT_EQ(linear.planner, "linear");
  // Greedy reaches the modeled peak here: a and c share offset 0.
  EXPECT_EQ(greedy.arena_bytes, 80);
  EXPECT_EQ(greedy.buffer_offset[m.buffer_of_value[t.a]], 0);
  EXPECT_EQ(greedy.buffer_offset[m.buffer_of_value[t.b]], 32);
  EXPECT_EQ(greedy.buffer_offset[m.buffer_of_value[t.c]], 0);
  EXPECT_EQ(greedy.scratch_offset[2], 64);
  EXPECT_EQ(linear.arena_bytes, 32 * 3 + 16);
  for (ValueId v : {t.x, t.k, t.out}) {
    EXPECT_EQ(greedy.buffer_offset[m.buffer_of_value[v]], -1);
    EXPECT_EQ(linear.buffer_offset[m.buffer_of_value[v]], -1);
  }
  EXPECT_THAT(greedy.scratch_offset, ElementsAre(-1, -1, 64, -1, -1));
}

// ---- ValidatePlan on deliberately broken plans ------------------------------------

class BrokenPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = ComputeMemoryModel(t_.p, 16, ViewsOnly());
    plan_ = PlanGreedyBySize(t_.p, model_);
    ASSERT_TRUE(ValidatePlan(t_.p, model_, plan_).ok());
  }
  int B(ValueId v) const { return model_.buffer_of_value[v]; }
  void ExpectInvalid(const std::string& message_part) {
    absl::Status st = ValidatePlan(t_.p, model_, plan_);
    ASSERT_FALSE(st.ok()) << "expected '" << message_part << "'";
    EXPECT_THAT(std::string(st.message()), HasSubstr(message_part));
  }
  Chain t_ = MakeChain();
  MemoryModel model_;
  ArenaPlan plan_;
};

TEST_F(BrokenPlanTest, OverlapOfTwoLiveBuffers) {
  plan_.buffer_offset[B(t_.b)] = plan_.buffer_offset[B(t_.a)];  // both live at step 2
  ExpectInvalid("are live together and overlap");
  ExpectInvalid("buffer 'a'");
}

TEST_F(BrokenPlanTest, PartialOverlap) {
  plan_.arena_bytes = 256;
  plan_.buffer_offset[B(t_.b)] = 16;  // [16,48) against a's [0,32)
  ExpectInvalid("are live together and overlap");
}

TEST_F(BrokenPlanTest, ScratchOverlappingALiveBuffer) {
  plan_.scratch_offset[2] = plan_.buffer_offset[B(t_.b)];
  ExpectInvalid("scratch of statement 2");
}

TEST_F(BrokenPlanTest, BufferOutsideTheArena) {
  plan_.buffer_offset[B(t_.c)] = plan_.arena_bytes;
  ExpectInvalid("buffer 'c' lies outside the arena");
}

TEST_F(BrokenPlanTest, NegativeOffset) {
  plan_.buffer_offset[B(t_.a)] = -16;
  ExpectInvalid("buffer 'a' lies outside the arena");
}

TEST_F(BrokenPlanTest, ArenaTooSmall) {
  plan_.arena_bytes -= 16;
  ExpectInvalid("lies outside the arena");
}

TEST_F(BrokenPlanTest, MisalignedBuffer) {
  plan_.arena_bytes += 16;
  plan_.buffer_offset[B(t_.c)] += 8;
  ExpectInvalid("buffer 'c' is misaligned");
}

TEST_F(BrokenPlanTest, MisalignedScratch) {
  plan_.arena_bytes += 16;
  plan_.scratch_offset[2] += 4;
  ExpectInvalid("scratch of statement 2 is misaligned");
}

TEST_F(BrokenPlanTest, SharingBetweenBuffersNeverLiveTogetherIsFine) {
  // a (steps 0..2) and c (3..4) may share; b and the scratch move up.
  plan_.arena_bytes = 128;
  plan_.buffer_offset[B(t_.a)] = 96;
  plan_.buffer_offset[B(t_.c)] = 96;
  OC_EXPECT_OK(ValidatePlan(t_.p, model_, plan_));
}

// ---- random programs ----------------------------------------------------------

// Random chains and diamonds of relu/add/concat/reshape over [1,n] f32
// tensors, with scratch on some statements and a few extra outputs.
Program RandomProgram(std::mt19937& rng) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Program p;
  std::vector<ValueId> pool;
  int inputs = uniform(1, 3);
  for (int i = 0; i < inputs; ++i) {
    pool.push_back(p.AddInput("in" + std::to_string(i), DType::kF32, {1, uniform(1, 300)}));
  }
  auto n_of = [&](ValueId v) { return p.value(v).shape[1]; };
  auto pick_recent = [&]() {
    int window = std::min<int>(static_cast<int>(pool.size()), 6);
    return pool[pool.size() - 1 - uniform(0, window - 1)];
  };
  const int steps = uniform(1, 40);
  for (int i = 0; i < steps; ++i) {
    const std::string name = "v" + std::to_string(i);
    ValueId u = pick_recent();
    ValueId r = kNoValue;
    switch (uniform(0, 5)) {
      case 0:
        r = AddOp(p, OpKind::kRelu, {u}, name, {1, n_of(u)});
        break;
      case 1: {  // add with a same-shaped value (a diamond when both come from one root)
        std::vector<ValueId> same;
        for (ValueId w : pool) {
          if (n_of(w) == n_of(u)) same.push_back(w);
        }
        ValueId w = same[uniform(0, static_cast<int>(same.size()) - 1)];
        r = AddOp(p, OpKind::kAdd, {u, w}, name, {1, n_of(u)});
        break;
      }
      case 2: {
        ValueId w = pool[uniform(0, static_cast<int>(pool.size()) - 1)];
        if (n_of(u) + n_of(w) > 2000) {
          r = AddOp(p, OpKind::kRelu, {u}, name, {1, n_of(u)});
          break;
        }
        r = AddOp(p, OpKind::kConcat, {u, w}, name, {1, n_of(u) + n_of(w)});
        p.statements().back().attrs["axis"] = int64_t{1};
        break;
      }
      case 3:
        r = AddOp(p, OpKind::kReshape, {u}, name, {1, n_of(u)});
        break;
      case 4: {  // a diamond: two branches from u joined by add
        ValueId l = AddOp(p, OpKind::kRelu, {u}, name + "_l", {1, n_of(u)});
        ValueId rr = AddOp(p, OpKind::kSigmoid, {u}, name + "_r", {1, n_of(u)});
        r = AddOp(p, OpKind::kAdd, {l, rr}, name, {1, n_of(u)});
        break;
      }
      default: {  // with a constant operand
        std::vector<float> data(n_of(u), 0.5f);
        ValueId k = AddF32Constant(p, name + "_k", {1, n_of(u)}, data);
        r = AddOp(p, OpKind::kMul, {u, k}, name, {1, n_of(u)});
        break;
      }
    }
    if (uniform(0, 4) == 0) p.statements().back().scratch_bytes = uniform(1, 500);
    pool.push_back(r);
  }
  // The last value is an output; so are a few random earlier ones. Each
  // output gets a copy of its own, as the importer guarantees.
  std::vector<ValueId> outs = {pool.back()};
  for (int i = uniform(0, 2); i > 0; --i) outs.push_back(pool[uniform(0, pool.size() - 1)]);
  for (size_t i = 0; i < outs.size(); ++i) {
    p.outputs().push_back(
        AddOp(p, OpKind::kCopy, {outs[i]}, "out" + std::to_string(i), {1, n_of(outs[i])}));
  }
  return p;
}

// Liveness computed from scratch, without the memory model's code: the root
// of a value follows views; a root's bytes are live from its definition to
// the last statement reading it or any view of it.
struct Oracle {
  std::vector<ValueId> root;
  std::vector<int> def, last;
  std::vector<bool> arena;  // per root
  std::vector<int64_t> live;
};

Oracle ComputeOracle(const Program& p, int64_t alignment) {
  Oracle o;
  const size_t n = p.num_values();
  o.root.resize(n);
  for (size_t v = 0; v < n; ++v) o.root[v] = static_cast<ValueId>(v);
  o.def.assign(n, -1);
  o.last.assign(n, -1);
  o.arena.assign(n, false);
  const auto& stmts = p.statements();
  for (size_t s = 0; s < stmts.size(); ++s) {
    for (ValueId r : stmts[s].results) {
      if (stmts[s].op == OpKind::kReshape) {
        o.root[r] = o.root[stmts[s].operands[0]];
      } else {
        o.def[r] = static_cast<int>(s);
        o.last[r] = static_cast<int>(s);
        o.arena[r] = true;
      }
    }
  }
  for (ValueId out : p.outputs()) o.arena[o.root[out]] = false;
  for (size_t s = 0; s < stmts.size(); ++s) {
    for (ValueId v : stmts[s].operands) {
      ValueId r = o.root[v];
      o.last[r] = std::max(o.last[r], static_cast<int>(s));
    }
  }
  o.live.assign(stmts.size(), 0);
  for (size_t v = 0; v < n; ++v) {
    if (!o.arena[v]) continue;
    for (int s = o.def[v]; s <= o.last[v]; ++s) {
      o.live[s] += AlignUp(p.value(static_cast<ValueId>(v)).ByteSize(), alignment);
    }
  }
  for (size_t s = 0; s < stmts.size(); ++s) o.live[s] += AlignUp(stmts[s].scratch_bytes, alignment);
  return o;
}

// An overlap check independent of ValidatePlan: at every step, the live
// arena ranges are pairwise disjoint, aligned and inside the arena.
void ExpectPlanSound(const Program& p, const MemoryModel& m, const ArenaPlan& plan) {
  const auto& stmts = p.statements();
  for (size_t s = 0; s < stmts.size(); ++s) {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (const Buffer& b : m.buffers) {
      if (b.location != BufferLocation::kArena) continue;
      if (b.first_step > static_cast<int>(s) || b.last_step < static_cast<int>(s)) continue;
      ranges.emplace_back(plan.buffer_offset[b.id], plan.buffer_offset[b.id] + b.aligned_bytes);
    }
    if (stmts[s].scratch_bytes > 0) {
      int64_t off = plan.scratch_offset[s];
      ranges.emplace_back(off, off + AlignUp(stmts[s].scratch_bytes, m.alignment));
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 0; i < ranges.size(); ++i) {
      ASSERT_GE(ranges[i].first, 0);
      ASSERT_LE(ranges[i].second, plan.arena_bytes);
      ASSERT_EQ(ranges[i].first % m.alignment, 0);
      if (i > 0) {
        ASSERT_LE(ranges[i - 1].second, ranges[i].first) << "overlap at step " << s;
      }
    }
  }
}

TEST(MemoryModelRandomTest, ModelMatchesOracleAndPlansAreValid) {
  std::mt19937 rng(20240611);
  const int64_t alignments[] = {1, 4, 16, 64};
  int greedy_beat_linear = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Program p = RandomProgram(rng);
    SCOPED_TRACE("program " + std::to_string(iter) + ":\n" + PrintProgram(p));
    OC_ASSERT_OK(VerifyProgram(p));
    const int64_t alignment = alignments[iter % 4];
    MemoryModel m = ComputeMemoryModel(p, alignment, ViewsOnly());
    Oracle o = ComputeOracle(p, alignment);

    // Buffers.
    for (size_t v = 0; v < p.num_values(); ++v) {
      ASSERT_GE(m.buffer_of_value[v], 0);
      EXPECT_EQ(m.buffer_of_value[v], m.buffer_of_value[o.root[v]]) << "value " << v;
      const Buffer& b = m.buffers[m.buffer_of_value[v]];
      EXPECT_EQ(b.location == BufferLocation::kArena, static_cast<bool>(o.arena[o.root[v]]))
          << "value " << v;
      if (b.location == BufferLocation::kArena) {
        EXPECT_EQ(b.first_step, o.def[o.root[v]]);
        EXPECT_EQ(b.last_step, o.last[o.root[v]]);
      }
    }
    // Live bytes and the peak.
    ASSERT_EQ(m.live_bytes, o.live);
    ASSERT_FALSE(o.live.empty());
    EXPECT_EQ(m.peak_bytes, *std::max_element(o.live.begin(), o.live.end()));
    EXPECT_EQ(m.live_bytes[m.peak_step], m.peak_bytes);

    // Plans.
    ArenaPlan greedy = PlanGreedyBySize(p, m);
    ArenaPlan linear = PlanLinear(p, m);
    OC_ASSERT_OK(ValidatePlan(p, m, greedy));
    OC_ASSERT_OK(ValidatePlan(p, m, linear));
    ExpectPlanSound(p, m, greedy);
    ExpectPlanSound(p, m, linear);
    EXPECT_GE(greedy.arena_bytes, m.peak_bytes);
    EXPECT_GE(linear.arena_bytes, greedy.arena_bytes);
    int64_t total = 0;
    for (const Buffer& b : m.buffers) {
      if (b.location == BufferLocation::kArena) {
        total += b.aligned_bytes;
      } else {
        EXPECT_EQ(greedy.buffer_offset[b.id], -1);
        EXPECT_EQ(linear.buffer_offset[b.id], -1);
      }
    }
    for (const Statement& s : p.statements()) total += AlignUp(s.scratch_bytes, alignment);
    EXPECT_EQ(linear.arena_bytes, total);
    greedy_beat_linear += greedy.arena_bytes < linear.arena_bytes;
    if (HasFailure()) break;
  }
  // The generator makes programs where reuse is possible.
  EXPECT_GT(greedy_beat_linear, 100);
}

// Runs the program on a byte-tagged arena, independently of the planner's
// and the validator's notion of occupants: every statement finds each
// operand's bytes still tagged by the statements that wrote them (a
// concatenation's result by its operands' writers, a view by its operand's),
// then tags its result's bytes (an elided statement writes nothing; an
// in-place one may overwrite its operand) and its scratch.
void ExpectBytesSurvive(const Program& p, const MemoryModel& m, const ArenaPlan& plan) {
  std::vector<int> tag(static_cast<size_t>(plan.arena_bytes), -1);
  const std::vector<int> def = p.DefiningStatementIndex();
  const auto& stmts = p.statements();
  std::function<std::vector<int>(ValueId)> expected = [&](ValueId v) {
    const int d = def[v];
    if (d >= 0 && m.elided[d] && stmts[d].op == OpKind::kConcat) {
      std::vector<int> e;
      for (ValueId x : stmts[d].operands) {
        std::vector<int> part = expected(x);
        e.insert(e.end(), part.begin(), part.end());
      }
      return e;
    }
    if (d >= 0 && m.elided[d]) return expected(stmts[d].operands[0]);  // a view
    return std::vector<int>(static_cast<size_t>(p.value(v).ByteSize()), d);
  };
  auto start = [&](ValueId v) { return plan.buffer_offset[m.buffer_of_value[v]] + m.offset_in_buffer[v]; };
  for (size_t s = 0; s < stmts.size(); ++s) {
    for (ValueId o : stmts[s].operands) {
      if (o == kNoValue || !m.InArena(o)) continue;
      const std::vector<int> want = expected(o);
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(tag[start(o) + i], want[i]) << "value " << o << " clobbered before statement " << s;
      }
    }
    if (m.elided[s]) continue;
    if (stmts[s].scratch_bytes > 0) {
      std::fill_n(tag.begin() + plan.scratch_offset[s], AlignUp(stmts[s].scratch_bytes, m.alignment), -2);
    }
    for (ValueId r : stmts[s].results) {
      if (m.InArena(r)) std::fill_n(tag.begin() + start(r), p.value(r).ByteSize(), static_cast<int>(s));
    }
  }
}

// Every alias on (concat buffers in parts, each live from its own writer):
// the plans keep every byte a later statement reads, and the parts never
// make the planned arena larger than the concat buffers kept whole.
TEST(MemoryModelRandomTest, ConcatPartsKeepEveryByteAndNeverGrowTheArena) {
  std::mt19937 rng(20261204);
  int with_parts = 0, smaller = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Program p = RandomProgram(rng);
    SCOPED_TRACE("program " + std::to_string(iter) + ":\n" + PrintProgram(p));
    const int64_t alignment = iter % 2 ? 4 : 16;
    const MemoryModel m = ComputeMemoryModel(p, alignment);
    AliasOptions whole_concats;
    whole_concats.concat_parts = false;
    const MemoryModel w = ComputeMemoryModel(p, alignment, whole_concats);
    bool parted = false;
    for (const Buffer& b : m.buffers) parted = parted || !b.parts.empty();
    with_parts += parted;
    EXPECT_LE(m.peak_bytes, w.peak_bytes);
    for (const ArenaPlan& plan : {PlanBest(p, m), PlanGreedyBySize(p, m)}) {
      OC_EXPECT_OK(ValidatePlan(p, m, plan));
      ExpectBytesSurvive(p, m, plan);
      EXPECT_GE(plan.arena_bytes, m.peak_bytes);
    }
    const int64_t best = PlanBest(p, m).arena_bytes, best_whole = PlanBest(p, w).arena_bytes;
    EXPECT_LE(best, best_whole);
    smaller += best < best_whole;
  }
  EXPECT_GT(with_parts, 30);
  EXPECT_GT(smaller, 5);
}

}  // namespace
}  // namespace oc
