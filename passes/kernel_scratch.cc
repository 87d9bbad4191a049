#include "passes/kernel_scratch.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace oc {
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
  if (s.op != OpKind::kConv || s.operands.size() < 2 || s.results.size() != 1) return false;
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

int64_t ConvEdgeMacs(const Program& p, const Statement& s) {
  Axis h, w;
  if (!ConvAxes(p, s, &h, &w)) return 0;
  const int64_t edge_pixels = h.out * w.out - (h.out - h.EdgeOutputs()) * (w.out - w.EdgeOutputs());
  const int64_t group = s.Int("group", 1);
  const Value& x = p.value(s.operands[0]);
  const int64_t c_out = p.value(s.results[0]).shape[1];
  return x.shape[0] * edge_pixels * c_out * (x.shape[1] / group) * h.k * w.k;
}

}  // namespace oc
