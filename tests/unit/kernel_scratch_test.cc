// Which convolutions may run over a row band, and the band's size
// (compiler/target/kernel_facts.h; the runtime's oc_conv2d_band_floats is the same
// formula).
#include "compiler/target/kernel_facts.h"

#include <cmath>
#include <limits>

#include "tests/unit/test_util.h"

namespace oc {
namespace {

using testing::AddF32Constant;

struct ConvCase {
  int64_t c_in = 4, c_out = 8, group = 1, h = 10, w = 12, k = 3, stride = 1, dil = 1, pad = 1;
  float weight = 0.5f, bias = 1.0f;
  bool with_bias = true;
};

// x (1, c_in, h, w) -> Conv -> y; returns the program with one statement.
Program MakeConv(const ConvCase& c) {
  Program p;
  const int64_t span = (c.k - 1) * c.dil + 1;
  const int64_t ho = (c.h + 2 * c.pad - span) / c.stride + 1, wo = (c.w + 2 * c.pad - span) / c.stride + 1;
  ValueId x = p.AddInput("x", DType::kF32, {1, c.c_in, c.h, c.w});
  std::vector<float> w(static_cast<size_t>(c.c_out * (c.c_in / c.group) * c.k * c.k), 0.25f);
  w[1] = c.weight;
  std::vector<ValueId> operands = {x, AddF32Constant(p, "w", {c.c_out, c.c_in / c.group, c.k, c.k}, w)};
  if (c.with_bias) {
    std::vector<float> b(static_cast<size_t>(c.c_out), 0.0f);
    b[0] = c.bias;
    operands.push_back(AddF32Constant(p, "b", {c.c_out}, b));
  }
  ValueId y = testing::AddOp(p, OpKind::kConv, operands, "y", {1, c.c_out, ho, wo});
  Statement& s = p.statements().back();
  s.attrs["kernel"] = std::vector<int64_t>{c.k, c.k};
  s.attrs["strides"] = std::vector<int64_t>{c.stride, c.stride};
  s.attrs["dilations"] = std::vector<int64_t>{c.dil, c.dil};
  s.attrs["pads"] = std::vector<int64_t>{c.pad, c.pad, c.pad, c.pad};
  s.attrs["group"] = c.group;
  p.outputs().push_back(y);
  return p;
}

int64_t Band(const ConvCase& c) {
  Program p = MakeConv(c);
  return ConvBandScratchBytes(p, p.statements()[0]);
}

TEST(KernelScratch, BandSizeIsOneGroupsRowsOfPaddedWidth) {
  ConvCase c;  // 3x3 pad 1 stride 1: band 4 channels x 3 rows x (12 + 2) columns
  EXPECT_EQ(Band(c), 4 * 3 * 14 * 4);
  c.stride = 2;  // w_out 6: columns (6 - 1) * 2 + 3 = 13
  EXPECT_EQ(Band(c), 4 * 3 * 13 * 4);
  c = ConvCase{};
  c.dil = 2;  // w_out 10: columns 9 + 4 + 1 = 14
  c.pad = 2;
  c.w = 10;
  EXPECT_EQ(Band(c), 4 * 3 * 14 * 4);
  c = ConvCase{};
  c.group = 2;  // one group's 2 input channels
  EXPECT_EQ(Band(c), 2 * 3 * 14 * 4);
}

TEST(KernelScratch, OnlyWhenPaddingReadsAsZeroExactly) {
  ConvCase c;
  EXPECT_GT(Band(c), 0);
  c.pad = 0;
  EXPECT_EQ(Band(c), 0) << "no padding: no edges to remove";
  c = ConvCase{};
  c.bias = -0.0f;
  EXPECT_EQ(Band(c), 0) << "a -0.0 bias";
  c.bias = 0.0f;
  EXPECT_GT(Band(c), 0) << "a +0.0 bias";
  c.with_bias = false;
  EXPECT_GT(Band(c), 0);
  c = ConvCase{};
  c.weight = std::numeric_limits<float>::infinity();
  EXPECT_EQ(Band(c), 0) << "an infinite weight";
  c.weight = std::nanf("");
  EXPECT_EQ(Band(c), 0) << "a NaN weight";
  c = ConvCase{};
  c.group = c.c_in = c.c_out = 4;
  EXPECT_EQ(Band(c), 0) << "depthwise keeps its own kernel";
  c.c_out = 8;  // depthwise with multiplier 2: one input channel, two outputs per group
  EXPECT_GT(Band(c), 0);
}

TEST(KernelScratch, EdgeMacsCountThePixelsWithAPaddingTap) {
  ConvCase c;  // 10x12 output; the 8x10 interior has no padding tap
  Program p = MakeConv(c);
  EXPECT_EQ(ConvEdgeMacs(p, p.statements()[0]), (10 * 12 - 8 * 10) * 8 * 4 * 9);
  c.pad = 0;
  p = MakeConv(c);
  EXPECT_EQ(ConvEdgeMacs(p, p.statements()[0]), 0);
}

}  // namespace
}  // namespace oc
