// Channels-last layout (--layout=nhwc): chooses which activations are stored
// NHWC. The IR keeps ONNX's logical NCHW shapes; the layout is a physical
// property the kernels honour. A float 2-D convolution (group 1) reads and
// writes either layout, its weights re-laid at compile time; elementwise ops
// of equal shapes do not care, as long as all their tensors share a layout.
// Everything else reads NCHW. So a value is NHWC when its producer is such a
// convolution or elementwise op and every reader is one too; graph inputs and
// outputs stay NCHW. A convolution whose input and output are both NHWC
// computes output row by output row and may write over its dying input
// (the rows overlap contract, passes/overlap_contracts.h).
//
// Marks: the convolution's attributes `x_channels_last` / `y_channels_last`
// (1), and its weights replaced by a constant re-laid per group as
// [kh][kw][ic][oc] (runtime/src/conv2d_nhwc.c).
#include "absl/strings/str_cat.h"
#include "passes/pass.h"
#include "passes/rewrite_utils.h"

namespace oc {
namespace {

// A float 2-D convolution that reads and writes either layout.
bool IsLayoutFreeConv(const Program& p, const Statement& s) {
  if (s.op != OpKind::kConv || s.Int("group", 1) != 1 || s.operands.size() < 2) return false;
  const Value& x = p.value(s.operands[0]);
  const Value& w = p.value(s.operands[1]);
  const Value& y = p.value(s.results[0]);
  return x.dtype == DType::kF32 && y.dtype == DType::kF32 && x.shape.size() == 4 &&
         y.shape.size() == 4 && w.IsConstant() && w.dtype == DType::kF32 && !w.data.empty();
}

// An elementwise op whose tensors all have the result's shape: the same
// element of each at the same index, whatever the layout.
bool IsLayoutFreeElementwise(const Program& p, const Statement& s) {
  const OpCategory cat = GetOpInfo(s.op).category;
  if ((cat != OpCategory::kUnary && cat != OpCategory::kBinary) || s.op == OpKind::kPRelu ||
      s.results.size() != 1) {
    return false;
  }
  const Shape& shape = p.value(s.results[0]).shape;
  for (ValueId v : s.operands) {
    if (v == kNoValue || p.value(v).shape != shape || p.value(v).IsConstant()) return false;
  }
  return true;
}

// The OIHW weights of a group-1 convolution as [kh][kw][ic][oc].
std::vector<float> HwioWeights(const Value& w) {
  const int64_t oc = w.shape[0], ic = w.shape[1], kh = w.shape[2], kw = w.shape[3];
  const std::vector<float> oihw = ConstantAsFloats(w);
  std::vector<float> out(oihw.size());
  for (int64_t o = 0; o < oc; ++o) {
    for (int64_t i = 0; i < ic; ++i) {
      for (int64_t h = 0; h < kh; ++h) {
        for (int64_t x = 0; x < kw; ++x) {
          out[((h * kw + x) * ic + i) * oc + o] = oihw[((o * ic + i) * kh + h) * kw + x];
        }
      }
    }
  }
  return out;
}

}  // namespace

absl::Status RunChannelsLast(Program& p, PassStats& stats) {
  auto& stmts = p.statements();
  const std::vector<std::vector<int>> users = p.UsersIndex();
  std::vector<bool> conv(stmts.size()), elementwise(stmts.size());
  for (size_t i = 0; i < stmts.size(); ++i) {
    conv[i] = IsLayoutFreeConv(p, stmts[i]);
    elementwise[i] = IsLayoutFreeElementwise(p, stmts[i]);
  }
  // Candidates: 4-D float results of those statements, not graph outputs.
  std::vector<bool> nhwc(p.num_values(), false);
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!conv[i] && !elementwise[i]) continue;
    const ValueId y = stmts[i].results[0];
    nhwc[y] = p.value(y).shape.size() == 4 && p.value(y).dtype == DType::kF32 && !IsGraphOutput(p, y);
  }
  // Drop values read by anything else, then make each elementwise op's
  // tensors agree, until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t v = 0; v < nhwc.size(); ++v) {
      if (!nhwc[v]) continue;
      for (int u : users[v]) {
        const Statement& s = stmts[u];
        bool as_x_only = conv[u] && s.operands[0] == static_cast<ValueId>(v);
        for (size_t k = 1; as_x_only && k < s.operands.size(); ++k) {
          as_x_only = s.operands[k] != static_cast<ValueId>(v);
        }
        if (!as_x_only && !elementwise[u]) {
          nhwc[v] = false;
          changed = true;
          break;
        }
      }
    }
    for (size_t i = 0; i < stmts.size(); ++i) {
      if (!elementwise[i]) continue;
      std::vector<ValueId> tensors = stmts[i].operands;
      tensors.push_back(stmts[i].results[0]);
      bool all = true, any = false;
      for (ValueId v : tensors) all = all && nhwc[v], any = any || nhwc[v];
      if (any && !all) {
        for (ValueId v : tensors) nhwc[v] = false;
        changed = true;
      }
    }
  }
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!conv[i]) continue;
    Statement& s = stmts[i];
    const bool x_last = nhwc[s.operands[0]], y_last = nhwc[s.results[0]];
    if (!x_last && !y_last) continue;
    if (x_last) s.attrs["x_channels_last"] = int64_t{1};
    if (y_last) s.attrs["y_channels_last"] = int64_t{1};
    const Value& w = p.value(s.operands[1]);
    const ValueId hwio = p.AddConstant(absl::StrCat(w.name, "_hwio"), DType::kF32, w.shape,
                                       FloatsAsBytes(HwioWeights(w)));
    s.operands[1] = hwio;
    stats.Add("channels-last", x_last && y_last ? "streaming-convs" : "edge-convs", 1);
  }
  p.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
