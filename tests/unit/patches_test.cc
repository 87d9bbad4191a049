// Patch-based execution: which values bound a region, the window every
// patch statement computes (its pads, its input rows), the halo's MACs, and
// the crops of values whose readers need different windows, channel
// concatenations, and the rewrite's refusal of a grid too fine.
#include <algorithm>
#include <vector>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "gtest/gtest.h"
#include "passes/analysis/memory_model.h"
#include "passes/transforms/patches.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddF32Constant;
using ::oc::testing::AddOp;

// A k x k float convolution of x into c_out channels, stride s, pad p.
ValueId AddConv(Program& prog, ValueId x, int64_t c_out, int64_t k, int64_t s, int64_t p,
                const std::string& name) {
  const Shape& xs = prog.value(x).shape;
  const int64_t h = (xs[2] + 2 * p - k) / s + 1, w = (xs[3] + 2 * p - k) / s + 1;
  ValueId wv = AddF32Constant(prog, name + "_w", {c_out, xs[1], k, k},
                              std::vector<float>(static_cast<size_t>(c_out * xs[1] * k * k), 0.5f));
  ValueId y = AddOp(prog, OpKind::kConv, {x, wv}, name, {xs[0], c_out, h, w});
  Statement& st = prog.statements().back();
  st.attrs["kernel"] = std::vector<int64_t>{k, k};
  st.attrs["strides"] = std::vector<int64_t>{s, s};
  st.attrs["pads"] = std::vector<int64_t>{p, p, p, p};
  st.attrs["dilations"] = std::vector<int64_t>{1, 1};
  st.attrs["group"] = int64_t{1};
  st.macs = c_out * h * w * xs[1] * k * k;
  return y;
}

const Statement& ProducerOf(const Program& p, const std::string& name) {
  for (const Statement& s : p.statements()) {
    if (p.value(s.results[0]).name == name) return s;
  }
  static Statement none;
  ADD_FAILURE() << "no statement makes " << name;
  return none;
}

// x[1,3,16,16] -> a: 3x3 stride 2 (8 rows) -> relu -> b: 3x3 stride 1 -> copy out.
struct Chain {
  Program p;
  ValueId x, a, r, b;
  Chain() {
    x = p.AddInput("x", DType::kF32, {1, 3, 16, 16});
    a = AddConv(p, x, 8, 3, 2, 1, "a");
    r = AddOp(p, OpKind::kRelu, {a}, "r", {1, 8, 8, 8});
    b = AddConv(p, r, 4, 3, 1, 1, "b");
    p.outputs().push_back(AddOp(p, OpKind::kCopy, {b}, "out", {1, 4, 8, 8}));
  }
};

TEST(PatchesTest, RegionIsEverythingBetweenTheValues) {
  Chain c;
  const std::optional<PatchRegion> region = RegionBetween(c.p, c.x, c.b);
  ASSERT_TRUE(region.has_value());
  EXPECT_EQ(region->statements, (std::vector<int32_t>{0, 1, 2}));
  // The graph output's copy is not patchable; a region must start before its output.
  EXPECT_FALSE(RegionBetween(c.p, c.x, c.p.outputs()[0]).has_value());
  EXPECT_FALSE(RegionBetween(c.p, c.b, c.a).has_value());
  EXPECT_EQ(RegionsContaining(c.p, 1).size(), 4u);  // (x|a) -> (r|b)
}

TEST(PatchesTest, TwoStripsComputeTheirWindowsWithTheImagePaddingOnly) {
  Chain c;
  const int64_t a_macs = c.p.statements()[0].macs;
  const std::optional<PatchRegion> region = RegionBetween(c.p, c.x, c.b);
  ASSERT_TRUE(region.has_value());
  absl::StatusOr<PatchRewrite> rw = ApplyPatches(c.p, *region, {2, 1});
  ASSERT_TRUE(rw.ok()) << rw.status();
  ASSERT_TRUE(VerifyProgram(c.p).ok()) << VerifyProgram(c.p);
  // Strip 0: b rows 0..3 read r rows 0..4, which a makes from x rows 0..9.
  EXPECT_EQ(ProducerOf(c.p, "x [patch 0,0]").Ints("starts"), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(c.p.value(ProducerOf(c.p, "x [patch 0,0]").results[0]).shape, (Shape{1, 3, 10, 16}));
  // (a's right padding is never read at stride 2: the window drops it.)
  EXPECT_EQ(ProducerOf(c.p, "a [patch 0,0]").Ints("pads"), (std::vector<int64_t>{1, 1, 0, 0}));
  EXPECT_EQ(c.p.value(ProducerOf(c.p, "r [patch 0,0]").results[0]).shape, (Shape{1, 8, 5, 8}));
  EXPECT_EQ(ProducerOf(c.p, "b [patch 0,0]").Ints("pads"), (std::vector<int64_t>{1, 1, 0, 1}));
  // Strip 1: b rows 4..7 read r rows 3..7 (the image's bottom padding), from x rows 5..15.
  EXPECT_EQ(ProducerOf(c.p, "x [patch 1,0]").Ints("starts"), (std::vector<int64_t>{0, 0, 5, 0}));
  EXPECT_EQ(c.p.value(ProducerOf(c.p, "x [patch 1,0]").results[0]).shape, (Shape{1, 3, 11, 16}));
  EXPECT_EQ(ProducerOf(c.p, "a [patch 1,0]").Ints("pads"), (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(ProducerOf(c.p, "b [patch 1,0]").Ints("pads"), (std::vector<int64_t>{0, 1, 1, 1}));
  // The halo: rows 3 and 4 of a computed twice; b's rows once.
  EXPECT_EQ(rw->patched_macs - rw->region_macs, a_macs / 8 * 2);
  // b is assembled by one concatenation along H, and the copy still reads it.
  const Statement& join = ProducerOf(c.p, "b");
  EXPECT_EQ(join.op, OpKind::kConcat);
  EXPECT_EQ(join.Int("axis"), 2);
  EXPECT_EQ(c.p.statements().back().op, OpKind::kCopy);
}

TEST(PatchesTest, AGridAssemblesRowsOfColumns) {
  Chain c;
  absl::StatusOr<PatchRewrite> rw = ApplyPatches(c.p, *RegionBetween(c.p, c.x, c.b), {2, 2});
  ASSERT_TRUE(rw.ok()) << rw.status();
  ASSERT_TRUE(VerifyProgram(c.p).ok());
  EXPECT_EQ(ProducerOf(c.p, "x [patch 1,1]").Ints("starts"), (std::vector<int64_t>{0, 0, 5, 5}));
  EXPECT_EQ(ProducerOf(c.p, "b [patch 1,1]").Ints("pads"), (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(ProducerOf(c.p, "b [patch row 0]").Int("axis"), 3);
  EXPECT_EQ(ProducerOf(c.p, "b").Int("axis"), 2);
}

TEST(PatchesTest, TheRewriteIsDeterministic) {
  Chain c1, c2;
  ASSERT_TRUE(ApplyPatches(c1.p, *RegionBetween(c1.p, c1.x, c1.b), {3, 2}).ok());
  ASSERT_TRUE(ApplyPatches(c2.p, *RegionBetween(c2.p, c2.x, c2.b), {3, 2}).ok());
  EXPECT_EQ(PrintProgram(c1.p), PrintProgram(c2.p));
}

TEST(PatchesTest, ReusedBandsComputeEveryRowOfAConvolutionOnce) {
  // Four bands of b's 8 rows, 2 each. The 3x3 `a` keeps the rows the band
  // before computed and computes only the 2 below them (the last band: 1);
  // the relu between recomputes its halo rows from them.
  Chain c;
  const int64_t a_macs = ProducerOf(c.p, "a").macs;
  std::optional<PatchRegion> region = RegionBetween(c.p, c.x, c.b);
  ASSERT_TRUE(region.has_value());
  EXPECT_FALSE(ApplyPatches(c.p, *region, {4, 2, true}).ok());  // bands of whole rows only
  absl::StatusOr<PatchRewrite> rw = ApplyPatches(c.p, *region, {4, 1, true});
  ASSERT_TRUE(rw.ok()) << rw.status();
  ASSERT_TRUE(VerifyProgram(c.p).ok()) << VerifyProgram(c.p);
  int64_t a_patched = 0;
  for (const Statement& s : c.p.statements()) {
    if (c.p.value(s.results[0]).name.rfind("a [patch", 0) == 0 && s.op == OpKind::kConv) a_patched += s.macs;
  }
  EXPECT_EQ(a_patched, a_macs);  // no row of a twice
  // Band 1 holds a's rows 1..5: rows 1..3 kept from band 0, rows 3..5 new.
  const Statement& fresh = ProducerOf(c.p, "a [patch 1,0] new rows");
  EXPECT_EQ(c.p.value(fresh.results[0]).shape, (Shape{1, 8, 2, 8}));
  EXPECT_EQ(fresh.Ints("pads"), (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(c.p.value(fresh.operands[0]).shape, (Shape{1, 3, 5, 16}));  // x rows 5..10
  const Statement& joined = ProducerOf(c.p, "a [patch 1,0]");
  EXPECT_EQ(joined.op, OpKind::kConcat);
  EXPECT_EQ(c.p.value(joined.operands[0]).shape, (Shape{1, 8, 2, 8}));  // the cache
  EXPECT_EQ(c.p.value(joined.results[0]).shape, (Shape{1, 8, 4, 8}));
  EXPECT_EQ(c.p.value(ProducerOf(c.p, "a [patch 3,0] new rows").results[0]).shape, (Shape{1, 8, 1, 8}));
  // Only the relu recomputes its halo rows: 3 + 4 + 4 + 3 of its 8.
  Chain fresh_chain;
  Program& q = fresh_chain.p;
  for (Statement& s : q.statements()) {
    if (s.op == OpKind::kRelu) s.macs = 8 * 8 * 8;  // one per element
  }
  const auto macs = PatchMacs(q, *RegionBetween(q, fresh_chain.x, fresh_chain.b), {4, 1, true});
  ASSERT_TRUE(macs.ok());
  EXPECT_EQ(macs->second - macs->first, 8 * 8 * 6);
}

TEST(PatchesTest, BandsReusingEveryValueComputeNoRowTwice) {
  // The same four bands with every value keeping its rows: the relu too, so
  // no extra MACs, and each band's relu computes only its new rows.
  Chain c;
  for (Statement& s : c.p.statements()) {
    if (s.op == OpKind::kRelu) s.macs = 8 * 8 * 8;  // one per element
  }
  std::optional<PatchRegion> region = RegionBetween(c.p, c.x, c.b);
  ASSERT_TRUE(region.has_value());
  EXPECT_FALSE(ApplyPatches(c.p, *region, {4, 1, false, true}).ok());  // reuse_all needs reuse
  const auto macs = PatchMacs(c.p, *region, {4, 1, true, true});
  ASSERT_TRUE(macs.ok());
  EXPECT_EQ(macs->second, macs->first);
  absl::StatusOr<PatchRewrite> rw = ApplyPatches(c.p, *region, {4, 1, true, true});
  ASSERT_TRUE(rw.ok()) << rw.status();
  ASSERT_TRUE(VerifyProgram(c.p).ok()) << VerifyProgram(c.p);
  EXPECT_EQ(rw->patched_macs, rw->region_macs);
  // Band 1's relu: b's rows 2..4 need r's rows 1..5; rows 1..3 are band 0's.
  const Statement& relu = ProducerOf(c.p, "r [patch 1,0] new rows");
  EXPECT_EQ(c.p.value(relu.results[0]).shape, (Shape{1, 8, 2, 8}));
  EXPECT_EQ(c.p.value(relu.operands[0]).shape, (Shape{1, 8, 2, 8}));  // only a's new rows
  EXPECT_EQ(ProducerOf(c.p, "r [patch 1,0]").op, OpKind::kConcat);
}

TEST(PatchesTest, ThePeakDropsWhenTheWideValueIsPatched) {
  // A 1x1 expansion to 64 channels is the peak; per strip it is an eighth.
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 32, 32});
  ValueId e = AddConv(p, x, 64, 1, 1, 0, "expand");
  ValueId d = AddConv(p, e, 4, 3, 2, 1, "reduce");
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {d}, "out", {1, 4, 16, 16}));
  const int64_t before = ComputeMemoryModel(p, 16).peak_bytes;
  ASSERT_TRUE(ApplyPatches(p, *RegionBetween(p, x, d), {8, 1}).ok());
  const int64_t after = ComputeMemoryModel(p, 16).peak_bytes;
  EXPECT_GE(before, 64 * 32 * 32 * 4);
  EXPECT_LT(after, before / 3);
}

// x feeds a 3x3 convolution a and a 1x1 one b whose results are added into s:
// a strip needs a halo of x for a and not for b.
struct Branches {
  Program p;
  ValueId x, a, b, s;
  Branches() {
    x = p.AddInput("x", DType::kF32, {1, 2, 8, 8});
    a = AddConv(p, x, 2, 3, 1, 1, "a");
    b = AddConv(p, x, 2, 1, 1, 0, "b");
    s = AddOp(p, OpKind::kAdd, {a, b}, "s", {1, 2, 8, 8});
    p.outputs().push_back(AddOp(p, OpKind::kCopy, {s}, "out", {1, 2, 8, 8}));
  }
};

TEST(PatchesTest, ReadersOfDifferentWindowsOfTheInputEachReadTheirSlice) {
  Branches br;
  Program& p = br.p;
  const ValueId x = br.x, s = br.s;
  const std::string before = PrintProgram(p);
  std::optional<PatchRegion> region = RegionBetween(p, x, s);
  ASSERT_TRUE(region.has_value());
  EXPECT_FALSE(ApplyPatches(p, *region, {9, 1}).ok());  // more strips than rows
  EXPECT_EQ(PrintProgram(p), before);
  ASSERT_TRUE(ApplyPatches(p, *region, {2, 1}).ok());
  ASSERT_TRUE(VerifyProgram(p).ok()) << VerifyProgram(p);
  // Strip 0: a reads x rows 0..4 (its halo), b rows 0..3, each sliced from x.
  const Statement& a0 = ProducerOf(p, "a [patch 0,0]");
  const Statement& b0 = ProducerOf(p, "b [patch 0,0]");
  EXPECT_EQ(p.value(a0.operands[0]).shape, (Shape{1, 2, 5, 8}));
  EXPECT_EQ(p.value(b0.operands[0]).shape, (Shape{1, 2, 4, 8}));
  EXPECT_EQ(ProducerOf(p, p.value(b0.operands[0]).name).Ints("starts"), (std::vector<int64_t>{0, 0, 0, 0}));
  // Strip 1: b's rows 4..7 start at row 4 of x; a's rows 3..7 at row 3.
  const Statement& b1 = ProducerOf(p, "b [patch 1,0]");
  EXPECT_EQ(ProducerOf(p, p.value(b1.operands[0]).name).Ints("starts"), (std::vector<int64_t>{0, 0, 4, 0}));
  EXPECT_EQ(ProducerOf(p, "a [patch 1,0]").Ints("pads"), (std::vector<int64_t>{0, 1, 1, 1}));
}

TEST(PatchesTest, AResidualSkipKeepsTheHullAndTheAddReadsACrop) {
  // m = 1x1(x); s = m + 3x3(m): m's patch holds the rows the 3x3 needs, the
  // Add reads the patch's own rows of it, cropped out of that.
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 2, 8, 8});
  ValueId m = AddConv(p, x, 4, 1, 1, 0, "m");
  ValueId a = AddConv(p, m, 4, 3, 1, 1, "a");
  ValueId s = AddOp(p, OpKind::kAdd, {m, a}, "s", {1, 4, 8, 8});
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {s}, "out", {1, 4, 8, 8}));
  const int64_t m_macs = p.statements()[0].macs;
  absl::StatusOr<PatchRewrite> rw = ApplyPatches(p, *RegionBetween(p, x, s), {2, 1});
  ASSERT_TRUE(rw.ok()) << rw.status();
  ASSERT_TRUE(VerifyProgram(p).ok()) << VerifyProgram(p);
  EXPECT_EQ(p.value(ProducerOf(p, "m [patch 1,0]").results[0]).shape, (Shape{1, 4, 5, 8}));  // rows 3..7
  const Statement& add1 = ProducerOf(p, "s [patch 1,0]");
  const Statement& crop = ProducerOf(p, p.value(add1.operands[0]).name);
  EXPECT_EQ(crop.op, OpKind::kSlice);
  EXPECT_EQ(p.value(crop.operands[0]).name, "m [patch 1,0]");
  EXPECT_EQ(crop.Ints("starts"), (std::vector<int64_t>{0, 0, 1, 0}));  // row 4 of m is row 1 of the patch
  EXPECT_EQ(p.value(add1.operands[0]).shape, (Shape{1, 4, 4, 8}));
  EXPECT_EQ(p.value(add1.operands[1]).name, "a [patch 1,0]");
  // The halo: one row of m per strip.
  EXPECT_EQ(rw->patched_macs - rw->region_macs, m_macs / 8 * 2);
}

TEST(PatchesTest, BranchesJoinedByAChannelConcatRunPerPatch) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 2, 8, 8});
  ValueId a = AddConv(p, x, 3, 3, 1, 1, "a");
  ValueId b = AddConv(p, x, 2, 1, 1, 0, "b");
  ValueId c = AddOp(p, OpKind::kConcat, {a, b}, "c", {1, 5, 8, 8});
  p.statements().back().attrs["axis"] = int64_t{1};
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {c}, "out", {1, 5, 8, 8}));
  Program along_h = p;  // a concatenation along H is not patchable
  along_h.statements()[2].attrs["axis"] = int64_t{2};
  EXPECT_FALSE(RegionBetween(along_h, x, c).has_value());
  std::optional<PatchRegion> region = RegionBetween(p, x, c);
  ASSERT_TRUE(region.has_value());
  ASSERT_TRUE(ApplyPatches(p, *region, {2, 2}).ok());
  ASSERT_TRUE(VerifyProgram(p).ok()) << VerifyProgram(p);
  const Statement& c11 = ProducerOf(p, "c [patch 1,1]");
  EXPECT_EQ(c11.op, OpKind::kConcat);
  EXPECT_EQ(c11.Int("axis"), 1);
  EXPECT_EQ(p.value(c11.results[0]).shape, (Shape{1, 5, 4, 4}));
  EXPECT_EQ(p.value(c11.operands[0]).name, "a [patch 1,1]");
}

TEST(PatchesTest, TheRegionListsItsStatementsWhateverTheProgramOrder) {
  Branches br;
  Program& p = br.p;
  const ValueId x = br.x, s = br.s;
  const std::vector<int32_t> ids = RegionBetween(p, x, s)->statements;
  std::swap(p.statements()[0], p.statements()[1]);  // b before a: another valid order
  EXPECT_EQ(RegionBetween(p, x, s)->statements, ids);
  Program q = p;
  std::swap(q.statements()[0], q.statements()[1]);
  ASSERT_TRUE(ApplyPatches(p, *RegionBetween(p, x, s), {2, 2}).ok());
  ASSERT_TRUE(ApplyPatches(q, *RegionBetween(q, x, s), {2, 2}).ok());
  std::vector<int32_t> p_ids, q_ids;
  for (const Statement& st : p.statements()) p_ids.push_back(st.id);
  for (const Statement& st : q.statements()) q_ids.push_back(st.id);
  std::sort(p_ids.begin(), p_ids.end());
  std::sort(q_ids.begin(), q_ids.end());
  EXPECT_EQ(p_ids, q_ids);
  EXPECT_EQ(p.num_values(), q.num_values());
}

TEST(PatchesTest, AValueReadOutsideTheRegionEndsIt) {
  Chain c;
  // r is also read by a second graph output: x -> b is no longer one region.
  c.p.outputs().push_back(AddOp(c.p, OpKind::kCopy, {c.r}, "out2", {1, 8, 8, 8}));
  EXPECT_FALSE(RegionBetween(c.p, c.x, c.b).has_value());
  EXPECT_TRUE(RegionBetween(c.p, c.x, c.r).has_value());
  EXPECT_TRUE(RegionBetween(c.p, c.r, c.b).has_value());
}

}  // namespace
}  // namespace oc
