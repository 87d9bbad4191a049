// Folds `channel_affine(conv(x, w, b), scale, bias)` into the convolution:
// w'[o] = w[o] * scale[o], b'[o] = b[o] * scale[o] + bias[o]. This is how
// BatchNormalization after a Conv disappears.
#include <cstring>

#include "passes/transforms/rewrite_utils.h"
#include "passes/transforms/rewrites.h"

namespace oc {

absl::Status RunFoldChannelAffine(Program& p, PassStats& stats) {
  auto& stmts = p.statements();
  std::vector<bool> erase(stmts.size(), false);
  std::vector<int> def = p.DefiningStatementIndex();
  std::vector<std::vector<int>> users = p.UsersIndex();
  for (size_t i = 0; i < stmts.size(); ++i) {
    Statement& affine = stmts[i];
    if (affine.op != OpKind::kChannelAffine) continue;
    ValueId x = affine.operands[0];
    int producer = def[x];
    if (producer < 0 || erase[producer]) continue;
    Statement& conv = stmts[producer];
    if (conv.op != OpKind::kConv || conv.Has("act") || users[x].size() != 1 ||
        IsGraphOutput(p, x)) {
      continue;
    }
    const Value& scale = p.value(affine.operands[1]);
    const Value& bias = p.value(affine.operands[2]);
    const Value& w = p.value(conv.operands[1]);
    if (!scale.IsConstant() || !bias.IsConstant() || !w.IsConstant()) continue;
    const int64_t c_out = w.shape[0];
    if (w.dtype != DType::kF32 || scale.dtype != DType::kF32 || bias.dtype != DType::kF32 ||
        scale.NumElements() != c_out || bias.NumElements() != c_out) {
      continue;
    }
    const int64_t per_channel = w.NumElements() / c_out;
    std::vector<float> wf = ConstantAsFloats(w), sf = ConstantAsFloats(scale),
                       bf = ConstantAsFloats(bias);
    std::vector<float> b0(c_out, 0.0f);
    if (conv.operands.size() > 2 && conv.operands[2] != kNoValue) {
      const Value& b = p.value(conv.operands[2]);
      if (!b.IsConstant() || b.dtype != DType::kF32 || b.NumElements() != c_out) continue;
      b0 = ConstantAsFloats(b);
    }
    for (int64_t o = 0; o < c_out; ++o) {
      for (int64_t k = 0; k < per_channel; ++k) wf[o * per_channel + k] *= sf[o];
      b0[o] = b0[o] * sf[o] + bf[o];
    }
    ValueId new_w = p.AddConstant(p.value(conv.operands[1]).name + ".folded", DType::kF32,
                                  p.value(conv.operands[1]).shape, FloatsAsBytes(wf));
    ValueId new_b = p.AddConstant(p.value(affine.results[0]).name + ".folded_bias",
                                  DType::kF32, {c_out}, FloatsAsBytes(b0));
    // The conv now produces the affine's result directly.
    Statement folded = std::move(conv);
    folded.operands = {folded.operands[0], new_w, new_b};
    folded.results = affine.results;
    folded.node_name = folded.node_name + "+" + affine.node_name;
    // The folded statement keeps the convolution's place in the order.
    erase[i] = true;
    stmts[producer] = std::move(folded);
    stats.Add("fold-channel-affine", "folded", 1);
  }
  EraseStatements(p, erase);
  p.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
