// Lowering of normalizations with statistics computed when the model runs:
// LayerNormalization, InstanceNormalization, and BatchNormalization whose
// parameters are not constants.
#include <algorithm>

#include "compiler/import/node_context.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

absl::Status RequireF32(const NodeContext& ctx) {
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (ctx.HasInput(i) && ctx.InputValue(i).dtype != DType::kF32) {
      return ctx.Unsupported(
          absl::StrCat("element type ", DTypeName(ctx.InputValue(i).dtype), " is not supported"));
    }
  }
  return absl::OkStatus();
}

absl::Status LowerLayerNorm(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx));
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0) return ctx.Invalid("the input is a scalar");
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", -1));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  OC_ASSIGN_OR_RETURN(float eps, ctx.AttrFloat("epsilon", 1e-5f));
  OC_ASSIGN_OR_RETURN(int64_t stash, ctx.AttrInt("stash_type", 1));
  if (stash != 1) return ctx.Unsupported("only stash_type 1 (float32) is supported");
  const Shape normalized(x.shape.begin() + axis, x.shape.end());
  std::vector<ValueId> operands = {ctx.Input(0)};
  for (int i = 1; i <= 2; ++i) {
    if (!ctx.HasInput(i)) continue;
    if (ctx.InputValue(i).NumElements() != NumElements(normalized)) {
      return ctx.Unsupported(
          absl::StrCat(i == 1 ? "Scale" : "B", " must have the normalized dims' shape"));
    }
    operands.push_back(ctx.Input(i));
  }
  Shape stats(x.shape.begin(), x.shape.begin() + axis);
  stats.resize(x.shape.size(), 1);
  std::vector<ValueId> results = {ctx.NewResult(0, DType::kF32, x.shape)};
  const bool has_stats = ctx.HasOutput(1) || ctx.HasOutput(2);
  if (has_stats) {
    results.push_back(ctx.NewResult(1, DType::kF32, stats));
    results.push_back(ctx.NewResult(2, DType::kF32, stats));
  }
  Statement& s = ctx.Emit(OpKind::kLayerNorm, operands, results);
  s.attrs["axis"] = axis;
  s.attrs["epsilon"] = eps;
  return absl::OkStatus();
}

absl::Status LowerInstanceNorm(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 3) return ctx.Invalid("the input needs spatial dimensions");
  const int64_t c = x.shape[1];
  if (ctx.InputValue(1).NumElements() != c || ctx.InputValue(2).NumElements() != c) {
    return ctx.Invalid("scale and B need one value per channel");
  }
  OC_ASSIGN_OR_RETURN(float eps, ctx.AttrFloat("epsilon", 1e-5f));
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  Statement& s = ctx.Emit(OpKind::kInstanceNorm, {ctx.Input(0), ctx.Input(1), ctx.Input(2)}, {y});
  s.attrs["epsilon"] = eps;
  return absl::OkStatus();
}

absl::Status LowerLrn(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 2) return ctx.Invalid("the input needs a channel dimension");
  OC_ASSIGN_OR_RETURN(int64_t size, ctx.AttrInt("size", std::nullopt));
  if (size <= 0) return ctx.Invalid("size must be positive");
  OC_ASSIGN_OR_RETURN(float alpha, ctx.AttrFloat("alpha", 1e-4f));
  OC_ASSIGN_OR_RETURN(float beta, ctx.AttrFloat("beta", 0.75f));
  OC_ASSIGN_OR_RETURN(float bias, ctx.AttrFloat("bias", 1.0f));
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  Statement& s = ctx.Emit(OpKind::kLrn, {ctx.Input(0)}, {y});
  s.attrs["size"] = size;
  s.attrs["alpha"] = alpha;
  s.attrs["beta"] = beta;
  s.attrs["bias"] = bias;
  return absl::OkStatus();
}

// MeanVarianceNormalization as its ONNX function body: (X - E[X]) /
// (sqrt(E[X^2] - E[X]^2) + 1e-9) over `axes`.
absl::Status LowerMvn(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx));
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes,
                      ctx.AttrInts("axes", std::vector<int64_t>{0, 2, 3}));
  if (rank > 8) return ctx.Unsupported("rank above 8 is not supported");
  std::vector<int64_t> reduced;
  Shape kept = x.shape;
  for (int64_t a : axes) {
    OC_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(ctx, a, rank));
    reduced.push_back(n);
    kept[n] = 1;
  }
  std::sort(reduced.begin(), reduced.end());
  reduced.erase(std::unique(reduced.begin(), reduced.end()), reduced.end());
  auto emit = [&](OpKind op, std::vector<ValueId> operands, const Shape& shape, const char* name) {
    ValueId r = ctx.Temp(DType::kF32, shape, name);
    Statement& s = ctx.Emit(op, std::move(operands), {r});
    if (op == OpKind::kReduceMean) {
      s.attrs["axes"] = reduced;
      s.attrs["keepdims"] = int64_t{1};
    }
    return r;
  };
  ValueId mean = emit(OpKind::kReduceMean, {ctx.Input(0)}, kept, ".mean");
  ValueId mean_sq = emit(OpKind::kMul, {mean, mean}, kept, ".mean_sq");
  ValueId x_sq = emit(OpKind::kMul, {ctx.Input(0), ctx.Input(0)}, x.shape, ".x_sq");
  ValueId sq_mean = emit(OpKind::kReduceMean, {x_sq}, kept, ".sq_mean");
  ValueId var = emit(OpKind::kSub, {sq_mean, mean_sq}, kept, ".var");
  ValueId std_dev = emit(OpKind::kSqrt, {var}, kept, ".std");
  ValueId eps = ctx.ScalarConstant(DType::kF32, 1e-9, ".eps");
  ValueId denom = emit(OpKind::kAdd, {std_dev, eps}, kept, ".denom");
  ValueId centered = emit(OpKind::kSub, {ctx.Input(0), mean}, x.shape, ".centered");
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  ctx.Emit(OpKind::kDiv, {centered, denom}, {y});
  return absl::OkStatus();
}

}  // namespace

void RegisterNormalizationLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["LayerNormalization"] = LowerLayerNorm;
  t["InstanceNormalization"] = LowerInstanceNorm;
  t["LRN"] = LowerLrn;
  t["MeanVarianceNormalization"] = LowerMvn;
}

}  // namespace oc
