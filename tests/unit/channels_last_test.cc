// The channels-last layout: which values the pass stores NHWC, the rows
// contract it enables, and, byte by byte on random shapes, that the NHWC
// convolution's access order never overwrites input bytes before their last
// read with its output MinRowsDisplacement below its input.
#include <algorithm>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "passes/memory_model.h"
#include "passes/overlap_contracts.h"
#include "passes/pass.h"
#include "targets/kernel_facts.h"
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

}  // namespace
}  // namespace oc
