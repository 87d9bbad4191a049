// Fuses an activation into the statement producing its only input
// (conv, conv_transpose, gemm, matmul): the kernel applies it in its epilogue,
// so the intermediate tensor never exists.
#include "passes/transforms/rewrite_utils.h"
#include "passes/transforms/rewrites.h"

namespace oc {
namespace {

const char* ActivationName(OpKind op) {
  switch (op) {
    case OpKind::kRelu: return "relu";
    case OpKind::kClip: return "clip";
    case OpKind::kLeakyRelu: return "leaky_relu";
    case OpKind::kHardSigmoid: return "hard_sigmoid";
    case OpKind::kHardSwish: return "hard_swish";
    case OpKind::kSigmoid: return "sigmoid";
    case OpKind::kTanh: return "tanh";
    default: return nullptr;
  }
}

bool AcceptsActivation(OpKind op) {
  return op == OpKind::kConv || op == OpKind::kConvTranspose || op == OpKind::kGemm ||
         op == OpKind::kMatMul;
}

}  // namespace

absl::Status RunFuseActivation(Program& p, PassStats& stats) {
  auto& stmts = p.statements();
  std::vector<bool> erase(stmts.size(), false);
  std::vector<int> def = p.DefiningStatementIndex();
  std::vector<std::vector<int>> users = p.UsersIndex();
  for (size_t i = 0; i < stmts.size(); ++i) {
    Statement& act = stmts[i];
    const char* name = ActivationName(act.op);
    if (!name) continue;
    ValueId x = act.operands[0];
    int producer = def[x];
    if (producer < 0 || erase[producer]) continue;
    Statement& prod = stmts[producer];
    if (!AcceptsActivation(prod.op) || prod.Has("act") || users[x].size() != 1 ||
        IsGraphOutput(p, x)) {
      continue;
    }
    Statement fused = std::move(prod);
    fused.attrs["act"] = std::string(name);
    if (act.Has("alpha")) fused.attrs["act_alpha"] = act.Float("alpha");
    if (act.Has("beta")) fused.attrs["act_beta"] = act.Float("beta");
    fused.results = act.results;
    fused.node_name = fused.node_name + "+" + act.node_name;
    // The fused statement keeps the producer's place in the order.
    erase[i] = true;
    stmts[producer] = std::move(fused);
    stats.Add("fuse-activation", "fused", 1);
  }
  EraseStatements(p, erase);
  p.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
