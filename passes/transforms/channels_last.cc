// Channels-last layout (--layout=nhwc): chooses which activations are stored
// NHWC. The IR keeps ONNX's logical NCHW shapes; the layout is a physical
// property the kernels honour. A float 2-D convolution (any group) and a
// float 2-D max pool read and write either layout, the convolution's weights
// re-laid at compile time; elementwise ops of equal shapes do not care, as
// long as all their tensors share a layout, and a binary op with an operand
// of shape [n, c, 1, 1] broadcasts over either; a global pool reads either.
// Everything else reads NCHW. So a
// value is NHWC when its producer is such a statement and every reader is
// one too; graph outputs stay NCHW. The 8-bit path likewise: a qlinear_conv
// (weights re-laid per output channel as [kh][kw][ic]), and qlinear_add /
// qlinear_mul / QuantizeLinear / DequantizeLinear with per-tensor parameters. A convolution or pool whose input and
// output are both NHWC computes output row by output row and may write over
// its dying input (the rows overlap contract, passes/overlap_contracts.h).
//
// Graph inputs keep ONNX's layout. When they live in the arena (--io=arena)
// and only such statements read one, a `to_channels_last` statement first
// rewrites its values NHWC in place (its scratch: one bit per element), so
// that the first convolution streams over the input instead of holding it
// whole beside its output.
//
// Marks: the statements' attributes `x_channels_last` / `y_channels_last`
// (1; a global pool: x only), `channels_last` (1) on a broadcasting binary
// op whose tensors are NHWC, and the convolutions' weights replaced by a constant re-laid per group
// as [kh][kw][ic][oc] (runtime/reference/src/conv2d_nhwc.c).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "passes/transforms/rewrite_utils.h"
#include "passes/transforms/rewrites.h"

namespace oc {
namespace {

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

// A float 2-D convolution that reads and writes either layout.
bool IsLayoutFreeConv(const Program& p, const Statement& s) {
  if (s.op != OpKind::kConv || s.operands.size() < 2) return false;
  const Value& x = p.value(s.operands[0]);
  const Value& w = p.value(s.operands[1]);
  const Value& y = p.value(s.results[0]);
  return x.dtype == DType::kF32 && y.dtype == DType::kF32 && x.shape.size() == 4 &&
         y.shape.size() == 4 && w.IsConstant() && w.dtype == DType::kF32 && !w.data.empty();
}

// An 8-bit 2-D convolution (qlinear_conv: x, x_scale, x_zp, w, ...) with
// constant weights: oc_qconv2d_nhwc reads and writes either layout.
bool IsLayoutFreeQConv(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQLinearConv || s.operands.size() < 8 || s.results.size() != 1) return false;
  const Value& x = p.value(s.operands[0]);
  const Value& w = p.value(s.operands[3]);
  const Value& y = p.value(s.results[0]);
  return Is8Bit(x.dtype) && Is8Bit(y.dtype) && x.shape.size() == 4 && y.shape.size() == 4 &&
         w.IsConstant() && Is8Bit(w.dtype) && w.shape.size() == 4 &&
         static_cast<int64_t>(w.data.size()) == w.NumElements();
}

// A float 2-D max pool without indices: oc_maxpool2d_nhwc_f32.
bool IsLayoutFreePool(const Program& p, const Statement& s) {
  if (s.op != OpKind::kMaxPool || s.results.size() != 1 || s.operands.size() != 1) return false;
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  return x.dtype == DType::kF32 && y.dtype == DType::kF32 && x.shape.size() == 4 &&
         y.shape.size() == 4 && s.Ints("strides").size() == 2 && s.Ints("pads").size() == 4;
}

// True when `v` broadcasts over a 4-D result's H and W: [n or 1, c or 1, 1, 1]
// (the same bytes in either layout).
bool IsChannelBroadcast(const Shape& v, const Shape& y) {
  return v.size() == 4 && y.size() == 4 && v[2] == 1 && v[3] == 1 && (v[0] == 1 || v[0] == y[0]) &&
         (v[1] == 1 || v[1] == y[1]) && y[2] * y[3] > 1;
}

// An 8-bit elementwise statement with per-tensor quantization: qlinear_add /
// qlinear_mul of equal shapes (tensors in operands 0 and 3), QuantizeLinear /
// DequantizeLinear (operand 0); their other operands are one-element constants.
bool IsPerTensorQuantized(const Program& p, const Statement& s) {
  std::vector<size_t> tensors;
  if (s.op == OpKind::kQLinearAdd || s.op == OpKind::kQLinearMul) {
    tensors = {0, 3};
  } else if (s.op == OpKind::kQuantizeLinear || s.op == OpKind::kDequantizeLinear) {
    tensors = {0};
  } else {
    return false;
  }
  if (s.results.size() != 1) return false;
  const Shape& shape = p.value(s.results[0]).shape;
  for (size_t k = 0; k < s.operands.size(); ++k) {
    if (s.operands[k] == kNoValue) continue;
    const Value& v = p.value(s.operands[k]);
    const bool tensor = std::find(tensors.begin(), tensors.end(), k) != tensors.end();
    if (tensor ? v.shape != shape || v.IsConstant() : !v.IsConstant() || v.NumElements() != 1) {
      return false;
    }
  }
  return true;
}

// An elementwise op whose tensors all have the result's shape (the same
// element of each at the same index, whatever the layout), or a binary op
// whose other operands broadcast over H and W (a squeeze-and-excitation
// scale; `*broadcast` set, the emitter then broadcasts over NHWC).
bool IsLayoutFreeElementwise(const Program& p, const Statement& s, bool* broadcast) {
  const OpCategory cat = GetOpInfo(s.op).category;
  *broadcast = false;
  if (IsPerTensorQuantized(p, s)) return true;
  if ((cat != OpCategory::kUnary && cat != OpCategory::kBinary) || s.op == OpKind::kPRelu ||
      s.results.size() != 1) {
    return false;
  }
  const Shape& shape = p.value(s.results[0]).shape;
  bool full = false;
  for (ValueId v : s.operands) {
    if (v == kNoValue) return false;
    const Value& operand = p.value(v);
    if (operand.shape == shape && !operand.IsConstant()) {
      full = true;
    } else if (cat == OpCategory::kBinary && IsChannelBroadcast(operand.shape, shape)) {
      *broadcast = true;
    } else {
      return false;
    }
  }
  return full;
}

// GlobalAveragePool / GlobalMaxPool of a 4-D float: reads either layout, its
// [n, c, 1, 1] result is the same bytes in both.
bool IsLayoutFreeReduction(const Program& p, const Statement& s) {
  if (s.op != OpKind::kGlobalAveragePool && s.op != OpKind::kGlobalMaxPool) return false;
  const Value& x = p.value(s.operands[0]);
  return x.dtype == DType::kF32 && x.shape.size() == 4 && p.value(s.results[0]).dtype == DType::kF32;
}

// The OIHW weights of an 8-bit convolution as [oc][kh][kw][ic] (ic within
// the group), bytes.
std::vector<uint8_t> OhwiWeights(const Value& w) {
  const int64_t oc = w.shape[0], ic = w.shape[1], kh = w.shape[2], kw = w.shape[3];
  std::vector<uint8_t> out(w.data.size());
  for (int64_t o = 0; o < oc; ++o) {
    for (int64_t i = 0; i < ic; ++i) {
      for (int64_t h = 0; h < kh; ++h) {
        for (int64_t x = 0; x < kw; ++x) {
          out[((o * kh + h) * kw + x) * ic + i] = w.data[((o * ic + i) * kh + h) * kw + x];
        }
      }
    }
  }
  return out;
}

// The OIHW weights of a convolution of `group` groups as [g][kh][kw][ic][oc]
// (ic and oc within the group; for a depthwise convolution the same order).
std::vector<float> HwioWeights(const Value& w, int64_t group) {
  const int64_t oc = w.shape[0], ic = w.shape[1], kh = w.shape[2], kw = w.shape[3];
  const int64_t cog = oc / group;
  const std::vector<float> oihw = ConstantAsFloats(w);
  std::vector<float> out(oihw.size());
  for (int64_t o = 0; o < oc; ++o) {
    const int64_t g = o / cog, oo = o % cog;
    for (int64_t i = 0; i < ic; ++i) {
      for (int64_t h = 0; h < kh; ++h) {
        for (int64_t x = 0; x < kw; ++x) {
          out[(((g * kh + h) * kw + x) * ic + i) * cog + oo] = oihw[((o * ic + i) * kh + h) * kw + x];
        }
      }
    }
  }
  return out;
}

// What each statement can do with channels-last tensors, by statement index.
struct LayoutRoles {
  std::vector<bool> windowed;     // convolutions and pools: only their operand 0 may be NHWC
  std::vector<bool> elementwise;  // either layout, as long as all their tensors share it
  std::vector<bool> broadcast;    // elementwise with an operand of shape [n, c, 1, 1]
  std::vector<bool> reduction;    // reads either layout (operand 0)
};

// Statements that read and write either layout: convolutions and pools
// (`windowed`: only their operand 0 may be NHWC), elementwise ops.
LayoutRoles ClassifyStatements(const Program& p) {
  const auto& stmts = p.statements();
  LayoutRoles roles{std::vector<bool>(stmts.size()), std::vector<bool>(stmts.size()),
                    std::vector<bool>(stmts.size()), std::vector<bool>(stmts.size())};
  for (size_t i = 0; i < stmts.size(); ++i) {
    roles.windowed[i] = IsLayoutFreeConv(p, stmts[i]) || IsLayoutFreeQConv(p, stmts[i]) ||
                        IsLayoutFreePool(p, stmts[i]);
    bool b = false;
    roles.elementwise[i] = IsLayoutFreeElementwise(p, stmts[i], &b);
    roles.broadcast[i] = b;
    roles.reduction[i] = IsLayoutFreeReduction(p, stmts[i]);
  }
  return roles;
}

// An elementwise op's tensors that must share its result's layout.
std::vector<ValueId> FullTensors(const Program& p, const Statement& s) {
  std::vector<ValueId> tensors;
  const Shape& shape = p.value(s.results[0]).shape;
  for (ValueId v : s.operands) {
    if (p.value(v).shape == shape) tensors.push_back(v);
  }
  tensors.push_back(s.results[0]);
  return tensors;
}

// Candidates: 4-D float results of those statements, not graph outputs;
// graph inputs in the arena too (relaid by a to_channels_last statement).
std::vector<bool> Candidates(const Program& p, const LayoutRoles& roles,
                             const std::vector<std::vector<int>>& users, bool inputs_in_arena) {
  const auto& stmts = p.statements();
  std::vector<bool> nhwc(p.num_values(), false);
  auto candidate = [&](ValueId v) {
    const DType t = p.value(v).dtype;
    return p.value(v).shape.size() == 4 && (t == DType::kF32 || Is8Bit(t)) && !IsGraphOutput(p, v) &&
           !users[v].empty();
  };
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!roles.windowed[i] && !roles.elementwise[i]) continue;
    nhwc[stmts[i].results[0]] = candidate(stmts[i].results[0]);
  }
  if (inputs_in_arena) {
    for (ValueId in : p.inputs()) nhwc[in] = candidate(in);
  }
  return nhwc;
}

// Drops the values read by anything but a windowed statement's or a
// reduction's operand 0, or an elementwise op; true if it dropped one.
bool DropOtherReaders(const Program& p, const LayoutRoles& roles, const std::vector<std::vector<int>>& users,
                      std::vector<bool>& nhwc) {
  bool changed = false;
  for (size_t v = 0; v < nhwc.size(); ++v) {
    if (!nhwc[v]) continue;
    for (int u : users[v]) {
      const Statement& s = p.statements()[u];
      bool as_x_only = (roles.windowed[u] || roles.reduction[u]) && s.operands[0] == static_cast<ValueId>(v);
      for (size_t k = 1; as_x_only && k < s.operands.size(); ++k) {
        as_x_only = s.operands[k] != static_cast<ValueId>(v);
      }
      if (!as_x_only && !roles.elementwise[u]) {
        nhwc[v] = false;
        changed = true;
        break;
      }
    }
  }
  return changed;
}

// Makes each elementwise op's tensors agree (all NHWC or none); true if it
// dropped one.
bool AgreeElementwise(const Program& p, const LayoutRoles& roles, std::vector<bool>& nhwc) {
  bool changed = false;
  for (size_t i = 0; i < p.statements().size(); ++i) {
    if (!roles.elementwise[i]) continue;
    const std::vector<ValueId> tensors = FullTensors(p, p.statements()[i]);
    bool all = true, any = false;
    for (ValueId v : tensors) all = all && nhwc[v], any = any || nhwc[v];
    if (any && !all) {
      for (ValueId v : tensors) nhwc[v] = false;
      changed = true;
    }
  }
  return changed;
}

// Drops an input that no convolution or pool streams over (an elementwise
// reader alone gains nothing from the rewrite); true if it dropped one.
bool DropInputsNotStreamed(const Program& p, const LayoutRoles& roles,
                           const std::vector<std::vector<int>>& users, std::vector<bool>& nhwc) {
  const auto& stmts = p.statements();
  // A statement that streams its NHWC result into a windowed statement
  // (an 8-bit model's input goes through its QuantizeLinear first).
  auto streams_into = [&](int u) -> bool {
    if (roles.windowed[u]) return nhwc[stmts[u].results[0]];
    if (!roles.elementwise[u] || !nhwc[stmts[u].results[0]]) return false;
    for (int r : users[stmts[u].results[0]]) {
      if (roles.windowed[r] && nhwc[stmts[r].results[0]]) return true;
    }
    return false;
  };
  bool changed = false;
  for (ValueId in : p.inputs()) {
    if (!nhwc[in]) continue;
    bool streams = false;
    for (int u : users[in]) streams = streams || streams_into(u);
    if (!streams) {
      nhwc[in] = false;
      changed = true;
    }
  }
  return changed;
}

// Marks the statements that read or write NHWC, and re-lays the weights of
// the convolutions among them.
void MarkStatements(Program& p, const LayoutRoles& roles, const std::vector<bool>& nhwc, PassStats& stats) {
  auto& stmts = p.statements();
  for (size_t i = 0; i < stmts.size(); ++i) {
    Statement& s = stmts[i];
    if (roles.reduction[i] && nhwc[s.operands[0]]) {
      s.attrs["x_channels_last"] = int64_t{1};
      stats.Add("channels-last", "reductions", 1);
    }
    if (roles.broadcast[i] && nhwc[s.results[0]]) {
      s.attrs["channels_last"] = int64_t{1};
      stats.Add("channels-last", "broadcasts", 1);
    }
    if (!roles.windowed[i]) continue;
    const bool x_last = nhwc[s.operands[0]], y_last = nhwc[s.results[0]];
    if (!x_last && !y_last) continue;
    if (x_last) s.attrs["x_channels_last"] = int64_t{1};
    if (y_last) s.attrs["y_channels_last"] = int64_t{1};
    const bool pool = s.op == OpKind::kMaxPool;
    if (s.op == OpKind::kQLinearConv) {
      const Value& w = p.value(s.operands[3]);
      s.operands[3] = p.AddConstant(absl::StrCat(w.name, "_ohwi"), w.dtype, w.shape, OhwiWeights(w));
    } else if (!pool) {
      const Value& w = p.value(s.operands[1]);
      const ValueId hwio = p.AddConstant(absl::StrCat(w.name, "_hwio"), DType::kF32, w.shape,
                                         FloatsAsBytes(HwioWeights(w, s.Int("group", 1))));
      s.operands[1] = hwio;
    }
    stats.Add("channels-last",
              x_last && y_last ? (pool ? "streaming-pools" : "streaming-convs")
                               : (pool ? "edge-pools" : "edge-convs"),
              1);
  }
}

// The relaid inputs: statements before everything else write the inputs'
// values NHWC, and their readers read those.
void RelayInputs(Program& p, const std::vector<std::vector<int>>& users, const std::vector<bool>& nhwc,
                 PassStats& stats) {
  auto& stmts = p.statements();
  size_t relaid = 0;
  for (ValueId in : p.inputs()) {
    if (!nhwc[in]) continue;
    const Value& x = p.value(in);
    const ValueId y = p.AddResultValue(absl::StrCat(x.name, "_nhwc"), x.dtype, x.shape);
    for (int u : users[in]) {
      for (ValueId& operand : stmts[u].operands) {
        if (operand == in) operand = y;
      }
    }
    const int64_t item_elements = x.NumElements() / std::max<int64_t>(x.shape[0], 1);
    Statement& t = p.AddStatement(OpKind::kToChannelsLast, {in}, {y});
    t.scratch_bytes = (item_elements + 7) / 8;
    ++relaid;
    stats.Add("channels-last", "relaid-inputs", 1);
  }
  std::rotate(stmts.begin(), stmts.end() - static_cast<std::ptrdiff_t>(relaid), stmts.end());
}

}  // namespace

absl::Status RunChannelsLast(Program& p, PassStats& stats, bool inputs_in_arena) {
  const std::vector<std::vector<int>> users = p.UsersIndex();
  const LayoutRoles roles = ClassifyStatements(p);
  std::vector<bool> nhwc = Candidates(p, roles, users, inputs_in_arena);
  // Drop values read by anything else, then make each elementwise op's
  // tensors agree; drop an input that no convolution or pool streams over;
  // until nothing changes.
  for (bool changed = true; changed;) {
    changed = DropOtherReaders(p, roles, users, nhwc);
    changed = AgreeElementwise(p, roles, nhwc) || changed;
    changed = DropInputsNotStreamed(p, roles, users, nhwc) || changed;
  }
  MarkStatements(p, roles, nhwc, stats);
  RelayInputs(p, users, nhwc, stats);
  p.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
