// Lowering of the loss ops: NegativeLogLikelihoodLoss, and
// SoftmaxCrossEntropyLoss as LogSoftmax over the classes then NLL.
#include "compiler/import/node_context.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// NLL of the log-probabilities `x` (N, C, d...) into output 0.
absl::Status EmitNll(NodeContext& ctx, ValueId x, int target, int weight) {
  Program& p = ctx.program();
  const Shape& xs = p.value(x).shape;
  const Value& t = ctx.InputValue(target);
  if (xs.size() < 2) return ctx.Invalid("the input needs (N, C) dimensions");
  if (t.dtype != DType::kI32 && t.dtype != DType::kI64) {
    return ctx.Invalid("the target must be int32 or int64");
  }
  Shape ts = xs;
  ts.erase(ts.begin() + 1);
  if (t.shape != ts) return ctx.Invalid("the target's shape must be the input's without C");
  std::vector<ValueId> operands = {x, ctx.Input(target)};
  if (ctx.HasInput(weight)) {
    if (ctx.InputValue(weight).shape != Shape{xs[1]}) return ctx.Invalid("weight must be (C)");
    operands.push_back(ctx.Input(weight));
  }
  OC_ASSIGN_OR_RETURN(std::string reduction, ctx.AttrString("reduction", "mean"));
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    return ctx.Invalid(absl::StrCat("reduction '", reduction, "' is not valid"));
  }
  ValueId y = ctx.NewResult(0, DType::kF32, reduction == "none" ? ts : Shape{});
  Statement& s = ctx.Emit(OpKind::kNllLoss, operands, {y});
  s.attrs["reduction"] = reduction;
  if (ctx.HasAttr("ignore_index")) {
    OC_ASSIGN_OR_RETURN(int64_t ignore, ctx.AttrInt("ignore_index", std::nullopt));
    s.attrs["ignore_index"] = ignore;
  }
  return absl::OkStatus();
}

absl::Status RequireF32(const NodeContext& ctx, int input) {
  if (ctx.HasInput(input) && ctx.InputValue(input).dtype != DType::kF32) {
    return ctx.Unsupported(
        absl::StrCat("element type ", DTypeName(ctx.InputValue(input).dtype), " is not supported"));
  }
  return absl::OkStatus();
}

absl::Status LowerNll(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  OC_RETURN_IF_ERROR(RequireF32(ctx, 2));
  return EmitNll(ctx, ctx.Input(0), 1, 2);
}

absl::Status LowerSoftmaxCrossEntropy(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  OC_RETURN_IF_ERROR(RequireF32(ctx, 2));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 2) return ctx.Invalid("the scores need (N, C) dimensions");
  ValueId log_prob = ctx.HasOutput(1) ? ctx.NewResult(1, DType::kF32, x.shape)
                                      : ctx.Temp(DType::kF32, x.shape, ".log_prob");
  Statement& s = ctx.Emit(OpKind::kLogSoftmax, {ctx.Input(0)}, {log_prob});
  s.attrs["axis"] = int64_t{1};
  s.attrs["coerce_2d"] = int64_t{0};
  return EmitNll(ctx, log_prob, 1, 2);
}

}  // namespace

void RegisterLossLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["NegativeLogLikelihoodLoss"] = LowerNll;
  t["SoftmaxCrossEntropyLoss"] = LowerSoftmaxCrossEntropy;
}

}  // namespace oc
