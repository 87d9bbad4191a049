// Rewrites x * HardSigmoid(x) with alpha = 1/6 and beta = 0.5 (how exporters
// spell HardSwish before opset 14) as hard_swish(x), which fuse-activation
// can then move into the convolution producing x: the two full-size
// intermediate tensors and two passes over them disappear. The bits are the
// same: hard_swish computes x * clamp01(x * (1/6) + 0.5) with the same
// single-precision constant, one multiplication and one addition, then one
// more multiplication (commutative in IEEE arithmetic).
#include "passes/transforms/rewrite_utils.h"
#include "passes/transforms/rewrites.h"

namespace oc {

absl::Status RunFuseHardSwish(Program& p, PassStats& stats) {
  auto& stmts = p.statements();
  std::vector<bool> erase(stmts.size(), false);
  const std::vector<int> def = p.DefiningStatementIndex();
  const std::vector<std::vector<int>> users = p.UsersIndex();
  for (size_t i = 0; i < stmts.size(); ++i) {
    Statement& mul = stmts[i];
    if (mul.op != OpKind::kMul || mul.operands.size() != 2) continue;
    for (int side = 0; side < 2; ++side) {
      const ValueId x = mul.operands[side], h = mul.operands[1 - side];
      const int hs_index = def[h];
      if (hs_index < 0 || erase[hs_index]) continue;
      const Statement& hs = stmts[hs_index];
      if (hs.op != OpKind::kHardSigmoid || hs.operands[0] != x || users[h].size() != 1 ||
          IsGraphOutput(p, h) || p.value(x).dtype != DType::kF32 ||
          hs.Float("alpha") != 1.0f / 6.0f || hs.Float("beta") != 0.5f) {
        continue;
      }
      Statement swish;
      swish.id = mul.id;
      swish.op = OpKind::kHardSwish;
      swish.operands = {x};
      swish.results = mul.results;
      swish.node_name = hs.node_name + "+" + mul.node_name;
      swish.onnx_op = "HardSwish";
      erase[hs_index] = true;
      mul = std::move(swish);
      stats.Add("fuse-hard-swish", "fused", 1);
      break;
    }
  }
  EraseStatements(p, erase);
  p.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
