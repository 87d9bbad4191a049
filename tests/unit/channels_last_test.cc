// The channels-last layout: which values the pass stores NHWC, the rows
// contract it enables, and, byte by byte on random shapes, that the NHWC
// convolution's access order never overwrites input bytes before their last
// read with its output MinRowsDisplacement below its input.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "compiler/ir/verifier.h"
#include "compiler/target/kernel_facts.h"
#include "gtest/gtest.h"
#include "passes/analysis/memory_model.h"
#include "passes/analysis/overlap_contracts.h"
#include "passes/pipeline/pass.h"
#include "tests/unit/test_util.h"

namespace oc {
namespace {

using ::oc::testing::AddF32Constant;
using ::oc::testing::AddOp;
using ::oc::testing::ByteArena;

// A 3x3, pad 1, stride 1 float convolution of x into c_out channels.
ValueId AddConv3x3(Program& p, ValueId x, int64_t c_out, const std::string& name) {
  const Shape& xs = p.value(x).shape;
  std::vector<float> w(static_cast<size_t>(c_out * xs[1] * 9));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  ValueId wv = AddF32Constant(p, name + "_w", {c_out, xs[1], 3, 3}, w);
  ValueId y = AddOp(p, OpKind::kConv, {x, wv}, name, {xs[0], c_out, xs[2], xs[3]});
  Statement& s = p.statements().back();
  s.attrs["kernel"] = std::vector<int64_t>{3, 3};
  s.attrs["strides"] = std::vector<int64_t>{1, 1};
  s.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  s.attrs["dilations"] = std::vector<int64_t>{1, 1};
  s.attrs["group"] = int64_t{1};
  return y;
}

// A 3x3, pad 1, stride 1 depthwise convolution of x.
ValueId AddDepthwise3x3(Program& p, ValueId x, const std::string& name) {
  const Shape& xs = p.value(x).shape;
  std::vector<float> w(static_cast<size_t>(xs[1] * 9), 1.0f);
  ValueId wv = AddF32Constant(p, name + "_w", {xs[1], 1, 3, 3}, w);
  ValueId y = AddOp(p, OpKind::kConv, {x, wv}, name, xs);
  Statement& s = p.statements().back();
  s.attrs["kernel"] = std::vector<int64_t>{3, 3};
  s.attrs["strides"] = std::vector<int64_t>{1, 1};
  s.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  s.attrs["dilations"] = std::vector<int64_t>{1, 1};
  s.attrs["group"] = xs[1];
  return y;
}

// A 2x2, stride 2 max pool of x.
ValueId AddMaxPool2x2(Program& p, ValueId x, const std::string& name) {
  const Shape& xs = p.value(x).shape;
  ValueId y = AddOp(p, OpKind::kMaxPool, {x}, name, {xs[0], xs[1], xs[2] / 2, xs[3] / 2});
  Statement& s = p.statements().back();
  s.attrs["kernel"] = std::vector<int64_t>{2, 2};
  s.attrs["strides"] = std::vector<int64_t>{2, 2};
  s.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  return y;
}

// A 3x3, pad 1, stride 1 qlinear_conv of the uint8 x into c_out channels
// (weight byte (o, i, h, w) = its OIHW index mod 251), per-tensor parameters.
ValueId AddQConv3x3(Program& p, ValueId x, int64_t c_out, const std::string& name) {
  const Shape xs = p.value(x).shape;
  auto scalar = [&](const std::string& n, DType t, std::vector<uint8_t> bytes) {
    return p.AddConstant(name + n, t, {}, std::move(bytes));
  };
  std::vector<uint8_t> w(static_cast<size_t>(c_out * xs[1] * 9));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>(i % 251);
  const ValueId scale = scalar("_scale", DType::kF32, ::oc::testing::F32Bytes({0.5f}));
  const ValueId zp = scalar("_zp", DType::kU8, {3});
  const ValueId wv = p.AddConstant(name + "_w", DType::kI8, {c_out, xs[1], 3, 3}, w);
  const ValueId w_zp = scalar("_w_zp", DType::kI8, {0});
  ValueId y = AddOp(p, OpKind::kQLinearConv, {x, scale, zp, wv, scale, w_zp, scale, zp}, name,
                    {xs[0], c_out, xs[2], xs[3]});
  Value& yv = p.value(y);
  yv.dtype = DType::kU8;
  Statement& s = p.statements().back();
  s.attrs["kernel"] = std::vector<int64_t>{3, 3};
  s.attrs["strides"] = std::vector<int64_t>{1, 1};
  s.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  s.attrs["dilations"] = std::vector<int64_t>{1, 1};
  s.attrs["group"] = int64_t{1};
  return y;
}

// x -> conv a -> conv b -> conv c -> copy out.
TEST(ChannelsLastTest, ConvolutionStackStreamsInside) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 8, 8});
  ValueId a = AddConv3x3(p, x, 4, "a");
  ValueId b = AddConv3x3(p, a, 4, "b");
  ValueId c = AddConv3x3(p, b, 4, "c");
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {c}, "out", {1, 4, 8, 8}));
  PassStats stats;
  ASSERT_TRUE(RunChannelsLast(p, stats).ok());
  const auto& st = p.statements();
  // a: NCHW graph input in, NHWC out; b: both NHWC; c: NHWC in, NCHW out (a copy reads it).
  EXPECT_EQ(st[0].Int("x_channels_last"), 0);
  EXPECT_EQ(st[0].Int("y_channels_last"), 1);
  EXPECT_TRUE(IsRowStreamingConv(p, st[1]));
  EXPECT_EQ(st[2].Int("x_channels_last"), 1);
  EXPECT_EQ(st[2].Int("y_channels_last"), 0);
  EXPECT_EQ(stats.counters["channels-last.streaming-convs"], 1);
  // The weights are re-laid [kh][kw][ic][oc]: OIHW element (o, i, h, w) = its index.
  const std::vector<float> hwio = ::oc::testing::F32Values(p.value(st[1].operands[1]));
  EXPECT_EQ(hwio[((1 * 3 + 2) * 4 + 3) * 4 + 2], static_cast<float>(((2 * 4 + 3) * 3 + 1) * 3 + 2));

  MemoryModel m = ComputeMemoryModel(p, 16);
  ASSERT_EQ(m.overlaps.size(), 1u);
  EXPECT_EQ(m.overlaps[0].kind, OverlapContract::Kind::kRows);
  EXPECT_EQ(m.overlaps[0].planes, 8);
  // Rows of 8 x 4 floats: output row oy ends (oy + 1) * 128 bytes in while the
  // kernel still reads from input row oy - 1: two rows.
  EXPECT_EQ(m.overlaps[0].displacement, 256);
  EXPECT_EQ(m.overlaps[0].credit, 1024 - 256);
  EXPECT_FALSE(IsPerPlaneKernel(p, st[1], nullptr));
}

// An elementwise op mixing a graph input with a convolution's output keeps
// both NCHW; a value that is also a weight stays NCHW.
TEST(ChannelsLastTest, MixedElementwiseStaysNchw) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 6, 6});
  ValueId a = AddConv3x3(p, x, 4, "a");
  ValueId s = AddOp(p, OpKind::kAdd, {a, x}, "s", {1, 4, 6, 6});
  ValueId b = AddConv3x3(p, s, 4, "b");
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {b}, "out", {1, 4, 6, 6}));
  PassStats stats;
  ASSERT_TRUE(RunChannelsLast(p, stats).ok());
  for (const Statement& st : p.statements()) EXPECT_FALSE(IsChannelsLastConv(st)) << st.node_name;
  EXPECT_TRUE(stats.counters.empty());
}

TEST(ChannelsLastTest, RowsDisplacement) {
  // 3x3, pad 1, stride 1, equal rows: two rows.
  EXPECT_EQ(MinRowsDisplacement(1, 32, 100, 32, 100, 1, 1), 200);
  // Stride 2 halves the output rows: output row oy ends at (oy + 1) * 50,
  // input row 2 oy - 1 starts at (2 oy - 1) * 100: row 0 needs 50.
  EXPECT_EQ(MinRowsDisplacement(1, 32, 100, 16, 50, 2, 1), 50);
  // No padding, stride 1: one row.
  EXPECT_EQ(MinRowsDisplacement(1, 8, 10, 6, 10, 1, 0), 10);
  // Output rows wider than input rows, batch 2: the last output row ends at
  // 8 * 30 = 240 while the kernel still reads from input row 4 + 2 (at 60).
  EXPECT_EQ(MinRowsDisplacement(2, 4, 10, 4, 30, 1, 1), 180);
}

// The NHWC kernel's order: output rows (n, oy) in turn, pixel by pixel; each
// pixel reads its window's pixels inside the input, then writes its channels.
TEST(ChannelsLastTest, RowsNeverOverwriteLiveInput) {
  std::mt19937 rng(11);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 3000; ++round) {
    const int64_t n = uniform(1, 2), h = uniform(1, 9), w = uniform(1, 9), ci = uniform(1, 5),
                  co = uniform(1, 6), k = uniform(1, 5), s = uniform(1, 3), dil = uniform(1, 2),
                  pt = uniform(0, k - 1), pb = uniform(0, k - 1), align = int64_t{1} << uniform(2, 5);
    const int64_t span = (k - 1) * dil + 1;
    if (h + pt + pb < span || w + pt + pb < span) continue;
    const int64_t ho = (h + pt + pb - span) / s + 1, wo = (w + pt + pb - span) / s + 1;
    const int64_t in_row = w * ci * 4, out_row = wo * co * 4;
    const int64_t d = AlignUp(MinRowsDisplacement(n, h, in_row, ho, out_row, s, pt), align);
    const int64_t x = d, in_bytes = n * h * in_row, out_bytes = n * ho * out_row;
    ByteArena arena(std::max(x + in_bytes, out_bytes));
    arena.Write(x, in_bytes, 1);
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t oy = 0; oy < ho; ++oy) {
        for (int64_t ox = 0; ox < wo; ++ox) {
          for (int64_t kh = 0; kh < k; ++kh) {
            for (int64_t kw = 0; kw < k; ++kw) {
              const int64_t iy = oy * s - pt + kh * dil, ix = ox * s - pt + kw * dil;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              ASSERT_TRUE(arena.Holds(x + ((b * h + iy) * w + ix) * ci * 4, ci * 4, 1))
                  << "n " << n << " h " << h << " w " << w << " k " << k << " s " << s << " d " << dil;
            }
          }
          arena.Write(((b * ho + oy) * wo + ox) * co * 4, co * 4, 2);
        }
      }
    }
  }
}

// With the inputs in the arena, an input only convolutions read is relaid
// NHWC in place first, so the first convolution streams over it.
TEST(ChannelsLastTest, InputInTheArenaIsRelaidInPlace) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 3, 8, 8});
  ValueId a = AddConv3x3(p, x, 4, "a");
  ValueId b = AddConv3x3(p, a, 4, "b");
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {b}, "out", {1, 4, 8, 8}));
  PassStats caller_stats;
  Program caller = p;
  ASSERT_TRUE(RunChannelsLast(caller, caller_stats, /*inputs_in_arena=*/false).ok());
  EXPECT_EQ(caller.statements()[0].op, OpKind::kConv);  // a caller's input is not ours to rewrite
  PassStats stats;
  ASSERT_TRUE(RunChannelsLast(p, stats, /*inputs_in_arena=*/true).ok());
  ASSERT_TRUE(VerifyProgram(p).ok());
  const auto& st = p.statements();
  ASSERT_EQ(st[0].op, OpKind::kToChannelsLast);
  EXPECT_EQ(st[0].operands[0], x);
  EXPECT_EQ(st[0].scratch_bytes, (3 * 8 * 8 + 7) / 8);
  EXPECT_EQ(st[1].operands[0], st[0].results[0]);
  EXPECT_TRUE(IsRowStreamingConv(p, st[1]));
  EXPECT_EQ(stats.counters["channels-last.relaid-inputs"], 1);
  AliasOptions aliases;
  aliases.io_in_arena = true;
  MemoryModel m = ComputeMemoryModel(p, 16, aliases);
  EXPECT_EQ(m.in_place_operand[0], 0);  // over the input's own bytes
  ASSERT_GE(m.overlap_of_statement[1], 0);
  const OverlapContract& c = m.overlaps[m.overlap_of_statement[1]];
  EXPECT_TRUE(c.kind == OverlapContract::Kind::kRows || c.kind == OverlapContract::Kind::kRowsUp);
}

// Depthwise convolutions and max pools stream too; a squeeze-and-excitation
// scale ([n, c, 1, 1], from a global pool of the same tensor) broadcasts over NHWC.
TEST(ChannelsLastTest, DepthwisePoolAndSqueezeExcitationStream) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 8, 8});
  ValueId a = AddConv3x3(p, x, 4, "a");
  ValueId d = AddDepthwise3x3(p, a, "d");
  ValueId g = AddOp(p, OpKind::kGlobalAveragePool, {d}, "g", {1, 4, 1, 1});
  ValueId e = AddOp(p, OpKind::kMul, {d, g}, "e", {1, 4, 8, 8});
  ValueId m = AddMaxPool2x2(p, e, "m");
  ValueId b = AddConv3x3(p, m, 4, "b");
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {b}, "out", {1, 4, 4, 4}));
  PassStats stats;
  ASSERT_TRUE(RunChannelsLast(p, stats).ok());
  const auto& st = p.statements();
  EXPECT_TRUE(IsRowStreamingConv(p, st[1]));  // depthwise
  EXPECT_EQ(st[2].Int("x_channels_last"), 1);  // global pool
  EXPECT_EQ(st[3].Int("channels_last"), 1);    // broadcast multiply
  EXPECT_TRUE(IsRowStreamingConv(p, st[4]));  // max pool
  EXPECT_TRUE(IsChannelsLastPool(st[4]));
  int64_t planes = 0;
  EXPECT_FALSE(IsPerPlaneKernel(p, st[4], &planes));
  EXPECT_EQ(stats.counters["channels-last.streaming-pools"], 1);
  EXPECT_EQ(stats.counters["channels-last.broadcasts"], 1);
  EXPECT_EQ(stats.counters["channels-last.reductions"], 1);
}

TEST(ChannelsLastTest, RowsRise) {
  // 3x3, pad 1, stride 1, equal rows of 128 bytes: row oy still reads input
  // row oy + 1, so rows last first may start two rows above the input.
  EXPECT_EQ(MinRowsRise(1, 8, 128, 8, 128, 1, 1, 2), 256);
  // Stride 2, no padding, 2x2: row oy reads up to input row 2 oy + 1.
  EXPECT_EQ(MinRowsRise(1, 8, 100, 4, 50, 2, 0, 1), 8 * 100 - 3 * 50);
  // 1x1 into rows four times wider: output row 0, written last, must clear
  // input row 0; the rows above it are written over rows already read.
  EXPECT_EQ(MinRowsRise(1, 8, 10, 8, 40, 1, 0, 0), 10);
}

// A chain of equal streaming convolutions alternates down and up, so its
// buffers stay within a few rows of one another instead of drifting down.
TEST(ChannelsLastTest, ChainsAlternateDirections) {
  Program p;
  ValueId v = p.AddInput("x", DType::kF32, {1, 4, 8, 8});
  for (int i = 0; i < 6; ++i) v = AddConv3x3(p, v, 4, "c" + std::to_string(i));
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {v}, "out", {1, 4, 8, 8}));
  PassStats stats;
  ASSERT_TRUE(RunChannelsLast(p, stats).ok());
  MemoryModel m = ComputeMemoryModel(p, 16);
  ASSERT_EQ(m.overlaps.size(), 4u);
  int up = 0;
  int64_t at = 0, lo = 0, hi = 1024;
  for (const OverlapContract& c : m.overlaps) {
    up += c.kind == OverlapContract::Kind::kRowsUp;
    at -= c.displacement;
    lo = std::min(lo, at);
    hi = std::max(hi, at + 1024);
  }
  EXPECT_EQ(up, 2);
  EXPECT_LE(hi - lo, 1024 + 2 * 256);
  // Leaving a contract out by statement id.
  AliasOptions cut;
  cut.cut_contracts = {p.statements()[m.overlaps[0].statement].id};
  EXPECT_EQ(ComputeMemoryModel(p, 16, cut).overlaps.size(), 3u);
}

// The 8-bit path: qlinear_conv stacks stream like the float ones (weights
// re-laid per output channel [kh][kw][ic], rows of one byte per element), a
// per-tensor qlinear_add of two NHWC tensors (a residual) keeps them NHWC, and an 8-bit
// model's input in the arena is relaid before its QuantizeLinear.
TEST(ChannelsLastTest, EightBitConvolutionsStream) {
  Program p;
  ValueId x = p.AddInput("x", DType::kF32, {1, 4, 8, 8});
  const ValueId qs = p.AddConstant("q_scale", DType::kF32, {}, ::oc::testing::F32Bytes({0.5f}));
  const ValueId qz = p.AddConstant("q_zp", DType::kU8, {}, {3});
  ValueId q = AddOp(p, OpKind::kQuantizeLinear, {x, qs, qz}, "q", {1, 4, 8, 8});
  p.value(q).dtype = DType::kU8;
  p.statements().back().attrs["axis"] = int64_t{1};
  ValueId a = AddQConv3x3(p, q, 4, "a");
  ValueId b = AddQConv3x3(p, a, 4, "b");
  ValueId d = AddQConv3x3(p, b, 4, "d");
  ValueId sum = AddOp(p, OpKind::kQLinearAdd, {b, qs, qz, d, qs, qz, qs, qz}, "sum", {1, 4, 8, 8});
  p.value(sum).dtype = DType::kU8;
  ValueId c = AddQConv3x3(p, sum, 4, "c");
  p.outputs().push_back(AddOp(p, OpKind::kCopy, {c}, "out", {1, 4, 8, 8}));
  p.value(p.outputs().back()).dtype = DType::kU8;
  const absl::Status valid = VerifyProgram(p);
  ASSERT_TRUE(valid.ok()) << valid;
  PassStats stats;
  ASSERT_TRUE(RunChannelsLast(p, stats, /*inputs_in_arena=*/true).ok());
  ASSERT_TRUE(VerifyProgram(p).ok());
  const auto& st = p.statements();
  ASSERT_EQ(st[0].op, OpKind::kToChannelsLast);
  ASSERT_EQ(st[1].op, OpKind::kQuantizeLinear);
  EXPECT_EQ(st[1].operands[0], st[0].results[0]);
  EXPECT_TRUE(IsRowStreamingConv(p, st[2]));  // a
  EXPECT_TRUE(IsRowStreamingConv(p, st[3]));  // b
  EXPECT_TRUE(IsRowStreamingConv(p, st[4]));  // d
  EXPECT_EQ(st[5].op, OpKind::kQLinearAdd);
  EXPECT_TRUE(IsChannelsLastConv(st[6]));     // c: NHWC in, NCHW out (a copy reads it)
  EXPECT_EQ(st[6].Int("y_channels_last"), 0);
  EXPECT_FALSE(IsPerPlaneKernel(p, st[3], nullptr));
  EXPECT_EQ(QConvColumnScratchBytes(p, st[3]), 0);
  EXPECT_EQ(stats.counters["channels-last.streaming-convs"], 3);
  EXPECT_EQ(stats.counters["channels-last.edge-convs"], 1);
  // OHWI: byte ((o * 3 + h) * 3 + w) * 4 + i is OIHW byte ((o * 4 + i) * 3 + h) * 3 + w.
  const Value& ohwi = p.value(st[3].operands[3]);
  EXPECT_EQ(ohwi.data[((2 * 3 + 1) * 3 + 2) * 4 + 3], ((2 * 4 + 3) * 3 + 1) * 3 + 2);

  AliasOptions aliases;
  aliases.io_in_arena = true;
  MemoryModel m = ComputeMemoryModel(p, 16, aliases);
  ASSERT_GE(m.overlap_of_statement[3], 0);
  const OverlapContract& rows = m.overlaps[m.overlap_of_statement[3]];
  ASSERT_EQ(rows.kind, OverlapContract::Kind::kRows);
  // Rows of 8 x 4 bytes: output row oy ends (oy + 1) * 32 bytes in while
  // the kernel still reads from input row oy - 1: two rows.
  EXPECT_EQ(rows.displacement, 64);
  EXPECT_EQ(rows.credit, 256 - 64);
}

}  // namespace
}  // namespace oc
