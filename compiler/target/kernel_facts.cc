// The runtime kernels' memory facts (see kernel_facts.h).
#include "compiler/target/kernel_facts.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace oc {
namespace {

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

// Float convolutions, and 8-bit ones (qlinear_conv: 8-bit in and out, the
// weights in operand 3): the element types a contract's kernels handle.
bool ContractTypes(const Statement& s, const Value& x, const Value& y) {
  if (s.op == OpKind::kQLinearConv) return Is8Bit(x.dtype) && Is8Bit(y.dtype);
  return x.dtype == DType::kF32 && y.dtype == DType::kF32;
}

int WeightOperand(const Statement& s) { return s.op == OpKind::kQLinearConv ? 3 : 1; }

}  // namespace

bool IsChannelsLastConv(const Statement& s) {
  return (s.op == OpKind::kConv || s.op == OpKind::kQLinearConv) &&
         (s.Int("x_channels_last") != 0 || s.Int("y_channels_last") != 0);
}

bool IsChannelsLastPool(const Statement& s) {
  return s.op == OpKind::kMaxPool && (s.Int("x_channels_last") != 0 || s.Int("y_channels_last") != 0);
}

bool IsRowStreamingConv(const Program& p, const Statement& s) {
  const bool q8 = s.op == OpKind::kQLinearConv;
  if ((s.op != OpKind::kConv && s.op != OpKind::kMaxPool && !q8) || s.Int("x_channels_last") == 0 ||
      s.Int("y_channels_last") == 0 || s.results.size() != 1 ||
      s.operands.size() < static_cast<size_t>(s.op == OpKind::kMaxPool ? 1 : WeightOperand(s) + 1)) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  const bool types = q8 ? Is8Bit(x.dtype) && Is8Bit(y.dtype)
                        : x.dtype == DType::kF32 && y.dtype == DType::kF32;
  return types && x.shape.size() == 4 && y.shape.size() == 4 && x.shape[0] == y.shape[0] &&
         (s.op == OpKind::kMaxPool || p.value(s.operands[WeightOperand(s)]).shape.size() == 4);
}

int64_t RowStreamingReach(const Program& p, const Statement& s) {
  const int64_t k_h = s.op == OpKind::kMaxPool ? s.Ints("kernel")[0]
                                               : p.value(s.operands[WeightOperand(s)]).shape[2];
  const int64_t dil = s.Has("dilations") ? s.Ints("dilations")[0] : 1;
  return (k_h - 1) * dil;
}

bool IsPerPlaneKernel(const Program& p, const Statement& s, int64_t* planes) {
  if (s.results.size() != 1 || s.operands.empty() || s.operands[0] == kNoValue) return false;
  if (IsChannelsLastConv(s) || IsChannelsLastPool(s)) return false;
  if (s.Int("weight_bits", 8) == 4) return false;  // 4-bit weights: no per-plane kernel
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (!ContractTypes(s, x, y)) return false;
  if (x.shape.size() < 3 || x.shape.size() > 5 || y.shape.size() != x.shape.size()) return false;
  if (x.shape[0] != y.shape[0] || x.shape[1] != y.shape[1]) return false;
  switch (s.op) {
    case OpKind::kConv:
    case OpKind::kQLinearConv: {
      // Depthwise: one input channel per group, one output channel per group.
      const Shape& w = p.value(s.operands[WeightOperand(s)]).shape;
      if (s.Int("group", 1) != x.shape[1] || w.empty() || w[0] != x.shape[1] || w[1] != 1) {
        return false;
      }
      break;
    }
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
      break;
    case OpKind::kResize:
      if (x.shape.size() != 4) return false;
      break;
    default:
      return false;
  }
  *planes = x.shape[0] * x.shape[1];
  return *planes > 0;
}

bool IsElementwiseNarrowing(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQuantizeLinear || s.results.size() != 1 || s.operands.empty() ||
      s.operands[0] == kNoValue) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  return x.dtype == DType::kF32 && Is8Bit(y.dtype) && x.shape == y.shape;
}

bool IsUnitWindowConv(const Program& p, const Statement& s) {
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (x.shape.size() < 3 || y.shape.size() != x.shape.size() || s.Int("group", 1) != 1) return false;
  for (size_t d = 2; d < x.shape.size(); ++d) {
    if (x.shape[d] != y.shape[d]) return false;
  }
  for (int64_t k : s.Ints("kernel")) {
    if (k != 1) return false;
  }
  for (int64_t st : s.Ints("strides")) {
    if (st != 1) return false;
  }
  for (int64_t pad : s.Ints("pads")) {
    if (pad != 0) return false;
  }
  return true;
}

bool IsPixelwiseConv(const Program& p, const Statement& s) {
  if ((s.op != OpKind::kConv && s.op != OpKind::kQLinearConv) || s.results.size() != 1 ||
      s.operands.size() < 2 || IsChannelsLastConv(s)) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (!ContractTypes(s, x, y) || !IsUnitWindowConv(p, s)) return false;
  return x.shape[0] == 1 || y.shape[1] <= x.shape[1];
}

namespace {

// One spatial axis (h or w) of a Conv: sizes, kernel, stride, dilation, pads.
struct Axis {
  int64_t in = 1, out = 1, k = 1, stride = 1, dil = 1, pad_begin = 0, pad_end = 0;
  // Outputs with a tap outside [0, in).
  int64_t EdgeOutputs() const {
    int64_t n = 0;
    for (int64_t o = 0; o < out; ++o) {
      const int64_t first = o * stride - pad_begin, last = first + (k - 1) * dil;
      if (first < 0 || last >= in) ++n;
    }
    return n;
  }
};

// The h and w axes of a float 1-D or 2-D Conv (h is 1 for 1-D), or false.
bool ConvAxes(const Program& p, const Statement& s, Axis* h, Axis* w) {
  if (s.op != OpKind::kConv || s.operands.size() < 2 || s.results.size() != 1 || IsChannelsLastConv(s)) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (x.dtype != DType::kF32 || (x.shape.size() != 3 && x.shape.size() != 4)) return false;
  const size_t n = x.shape.size() - 2;
  const std::vector<int64_t> k = s.Ints("kernel"), st = s.Ints("strides"), d = s.Ints("dilations"),
                             pads = s.Ints("pads");
  if (k.size() != n || st.size() != n || d.size() != n || pads.size() != 2 * n) return false;
  Axis* axes[2] = {h, w};
  for (size_t i = 0; i < n; ++i) {
    Axis& a = *axes[2 - n + i];
    a = {x.shape[2 + i], y.shape[2 + i], k[i], st[i], d[i], pads[i], pads[n + i]};
  }
  if (n == 1) *h = Axis{};
  return true;
}

bool AllFinite(const Value& v) {
  for (size_t i = 0; i + 4 <= v.data.size(); i += 4) {
    float f;
    std::memcpy(&f, &v.data[i], 4);
    if (!std::isfinite(f)) return false;
  }
  return true;
}

bool HasNegativeZero(const Value& v) {
  for (size_t i = 0; i + 4 <= v.data.size(); i += 4) {
    uint32_t bits;
    std::memcpy(&bits, &v.data[i], 4);
    if (bits == 0x80000000u) return true;
  }
  return false;
}

}  // namespace

int64_t ConvBandScratchBytes(const Program& p, const Statement& s) {
  Axis h, w;
  if (!ConvAxes(p, s, &h, &w)) return 0;
  if (h.pad_begin + h.pad_end + w.pad_begin + w.pad_end == 0 || h.out < 1 || w.out < 1) return 0;
  const int64_t group = s.Int("group", 1);
  const int64_t c_in = p.value(s.operands[0]).shape[1], c_out = p.value(s.results[0]).shape[1];
  const int64_t cig = c_in / group;
  if (cig == 1 && c_out / group == 1) return 0;  // depthwise: its own kernel
  const Value& weights = p.value(s.operands[1]);
  if (!weights.IsConstant() || weights.dtype != DType::kF32 || !AllFinite(weights)) return 0;
  if (s.operands.size() > 2 && s.operands[2] != kNoValue) {
    const Value& bias = p.value(s.operands[2]);
    if (!bias.IsConstant() || bias.dtype != DType::kF32 || HasNegativeZero(bias)) return 0;
  }
  // oc_conv2d_band_floats: cig * k_h * band_w floats.
  const int64_t band_w = (w.out - 1) * w.stride + (w.k - 1) * w.dil + 1;
  return cig * h.k * band_w * 4;
}

bool QConvFoldsZeroPoints(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQLinearConv || s.operands.size() < 8 || s.Int("weight_bits", 8) != 8) return false;
  const Value& w = p.value(s.operands[3]);
  const Value& w_zp = p.value(s.operands[5]);
  if (!w.IsConstant() || !w_zp.IsConstant() || !Is8Bit(w.dtype)) return false;
  for (uint8_t b : w_zp.data) {
    if (b != 0) return false;
  }
  return s.operands.size() <= 8 || s.operands[8] == kNoValue || p.value(s.operands[8]).IsConstant();
}

bool QConvTakesPackedTaps(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQLinearConv || s.results.size() != 1 || IsChannelsLastConv(s) ||
      !QConvFoldsZeroPoints(p, s)) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (!Is8Bit(x.dtype) || !Is8Bit(y.dtype) || (x.shape.size() != 3 && x.shape.size() != 4)) return false;
  const int64_t group = s.Int("group", 1);
  if (y.shape[1] / group < 4) return false;
  bool pointwise = group == 1;
  for (int64_t k : s.Ints("kernel")) pointwise = pointwise && k == 1;
  for (int64_t st : s.Ints("strides")) pointwise = pointwise && st == 1;
  for (int64_t pad : s.Ints("pads")) pointwise = pointwise && pad == 0;
  return !pointwise;
}

int64_t QConvColumnScratchBytes(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQLinearConv || s.results.size() != 1 || s.operands.size() < 8 ||
      IsChannelsLastConv(s)) {
    return 0;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (!Is8Bit(x.dtype) || !Is8Bit(y.dtype) || (x.shape.size() != 3 && x.shape.size() != 4)) return 0;
  const int64_t group = s.Int("group", 1);
  const int64_t cig = x.shape[1] / group, cog = y.shape[1] / group;
  if (cog < 4 || IsPixelwiseConv(p, s) || !QConvFoldsZeroPoints(p, s)) return 0;  // pointwise: its own kernel
  int64_t window = 1;
  for (int64_t k : s.Ints("kernel")) window *= k;
  return cig * window;
}

int64_t QConvNhwcColumnScratchBytes(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQLinearConv || s.results.size() != 1 || s.operands.size() < 8 ||
      s.Int("x_channels_last") == 0 || s.Int("group", 1) != 1 ||
      !(QConvFoldsZeroPoints(p, s) || HasFourBitWeights(s))) {
    return 0;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& w = p.value(s.operands[3]);
  const std::vector<int64_t> kernel = s.Ints("kernel");
  if (!Is8Bit(x.dtype) || !Is8Bit(p.value(s.results[0]).dtype) || x.shape.size() != 4 || kernel.size() != 2 ||
      w.shape.empty() || w.shape[0] <= 0) {
    return 0;
  }
  const int64_t window = w.NumElements() / w.shape[0];  // k_h k_w c_in
  const int64_t row = window / kernel[0];                // k_w c_in
  if (kernel[0] * kernel[1] < 2 || row % 4 != 0) return 0;
  return 4 * window + row;
}

ScratchKernel FastKernelWithScratch(const Program& p, const Statement& s) {
  if (int64_t bytes = ConvBandScratchBytes(p, s); bytes > 0) {
    return {"conv2d_band", bytes, ConvEdgeMacs(p, s)};
  }
  if (int64_t bytes = QConvColumnScratchBytes(p, s); bytes > 0) return {"qconv2d_column", bytes, s.macs};
  if (int64_t bytes = QConvNhwcColumnScratchBytes(p, s); bytes > 0) {
    return {"qconv2d_nhwc_column", bytes, s.macs};
  }
  return {};
}

int64_t ConvEdgeMacs(const Program& p, const Statement& s) {
  Axis h, w;
  if (!ConvAxes(p, s, &h, &w)) return 0;
  const int64_t edge_pixels = h.out * w.out - (h.out - h.EdgeOutputs()) * (w.out - w.EdgeOutputs());
  const int64_t group = s.Int("group", 1);
  const Value& x = p.value(s.operands[0]);
  const int64_t c_out = p.value(s.results[0]).shape[1];
  return x.shape[0] * edge_pixels * c_out * (x.shape[1] / group) * h.k * w.k;
}

bool HasFourBitWeights(const Statement& s) {
  return (s.op == OpKind::kQLinearConv || s.op == OpKind::kQLinearGemm) && s.Int("weight_bits", 8) == 4;
}

int64_t FourBitWeightBytes(const Program& p, const Statement& s) {
  const Value& w = p.value(s.operands[3]);
  const int64_t channels = s.op == OpKind::kQLinearConv ? w.shape[0] : w.shape[s.Int("trans_b") != 0 ? 0 : 1];
  const int64_t kk = w.NumElements() / channels;
  return (channels + 3) / 4 * ((kk + 3) / 4) * 8 + channels;
}

}  // namespace oc
