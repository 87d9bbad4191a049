#include "compiler/import/onnx_op_table.h"

#include "absl/strings/str_cat.h"
#include "compiler/import/const_eval.h"
#include "compiler/support/status.h"

namespace oc {

const std::unordered_map<std::string, OnnxOpRules>& OnnxOpTable() {
  static const auto* table = [] {
    std::unordered_map<std::string, LowerFn> lowerings;
    RegisterNnLowerings(lowerings);
    RegisterElementwiseLowerings(lowerings);
    RegisterTensorLowerings(lowerings);
    RegisterIndexingLowerings(lowerings);
    RegisterNormalizationLowerings(lowerings);
    RegisterLossLowerings(lowerings);
    RegisterEinsumLowerings(lowerings);
    RegisterQuantLowerings(lowerings);
    RegisterRecurrentLowerings(lowerings);
    RegisterAttentionLowerings(lowerings);
    auto* t = new std::unordered_map<std::string, OnnxOpRules>();
    for (const auto& [op, lower] : lowerings) (*t)[op].lower = lower;
    RegisterFoldingRules(*t);
    return t;
  }();
  return *table;
}

absl::Status FoldOrLowerNode(NodeContext& ctx) {
  const auto& table = OnnxOpTable();
  auto it = table.find(ctx.op_type());
  if (it == table.end()) {
    return ctx.Unsupported(absl::StrCat("op ", ctx.op_type(), " is not supported"));
  }
  const OnnxOpRules& rules = it->second;
  if (rules.fold.fold && (!rules.fold.needs_constant_inputs || AllInputsConstant(ctx))) {
    OC_ASSIGN_OR_RETURN(bool folded, rules.fold.fold(ctx));
    if (folded) return absl::OkStatus();
  }
  if (!rules.lower) return ctx.Unsupported(absl::StrCat("op ", ctx.op_type(), " is not supported"));
  return rules.lower(ctx);
}

}  // namespace oc
