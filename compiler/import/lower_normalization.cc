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

// One step of a normalization written as elementwise ops and means: a
// float32 temporary; a ReduceMean keeps the dims of `reduced`.
ValueId EmitStep(NodeContext& ctx, OpKind op, std::vector<ValueId> operands, const Shape& shape,
                 const char* name, const std::vector<int64_t>& reduced) {
  ValueId r = ctx.Temp(DType::kF32, shape, name);
  Statement& s = ctx.Emit(op, std::move(operands), {r});
  if (op == OpKind::kReduceMean) {
    s.attrs["axes"] = reduced;
    s.attrs["keepdims"] = int64_t{1};
  }
  return r;
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
    return EmitStep(ctx, op, std::move(operands), shape, name, reduced);
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

// GroupNormalization: instance normalization of x viewed as (N, groups,
// rest), then, from version 21, a per-channel scale and bias (version 18
// scales per group, which instance normalization does itself).
absl::Status LowerGroupNorm(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 2) return ctx.Invalid("the input needs a channel dimension");
  OC_ASSIGN_OR_RETURN(int64_t groups, ctx.AttrInt("num_groups", std::nullopt));
  OC_ASSIGN_OR_RETURN(float eps, ctx.AttrFloat("epsilon", 1e-5f));
  OC_ASSIGN_OR_RETURN(int64_t stash, ctx.AttrInt("stash_type", 1));
  if (stash != 1) return ctx.Unsupported("only stash_type 1 (float32) is supported");
  const int64_t n = x.shape[0], c = x.shape[1];
  if (groups <= 0 || c % groups != 0) {
    return ctx.Invalid(absl::StrCat("num_groups ", groups, " does not divide the ", c, " channels"));
  }
  const bool per_channel = ctx.opset() >= 21;
  const int64_t params = per_channel ? c : groups;
  if (ctx.InputValue(1).NumElements() != params || ctx.InputValue(2).NumElements() != params) {
    return ctx.Invalid(absl::StrCat("scale and bias need ", params, " values (one per ",
                                    per_channel ? "channel" : "group", ")"));
  }
  const Shape grouped = {n, groups, NumElements(x.shape) / (n * groups)};
  ValueId xv = ctx.Reshaped(ctx.Input(0), grouped, ".grouped");
  ValueId scale, bias;
  if (!per_channel) {
    scale = ctx.Reshaped(ctx.Input(1), {params}, ".scale");
    bias = ctx.Reshaped(ctx.Input(2), {params}, ".bias");
  } else {
    HostTensor ones = HostTensor::Zeros(DType::kF32, {groups});
    for (int64_t g = 0; g < groups; ++g) ones.SetDouble(g, 1.0);
    Program& p = ctx.program();
    const std::string base = ctx.node().output(0);
    scale = p.AddConstant(base + ".ones", DType::kF32, {groups}, std::move(ones.bytes));
    bias = p.AddConstant(base + ".zeros", DType::kF32, {groups},
                         HostTensor::Zeros(DType::kF32, {groups}).bytes);
  }
  ValueId normalized = ctx.Temp(DType::kF32, grouped, ".normalized");
  Statement& s = ctx.Emit(OpKind::kInstanceNorm, {xv, scale, bias}, {normalized});
  s.attrs["epsilon"] = eps;
  if (!per_channel) {
    ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
    ctx.Emit(OpKind::kReshape, {normalized}, {y});
    return absl::OkStatus();
  }
  ValueId unflat = ctx.Reshaped(normalized, x.shape, ".ungrouped");
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  ctx.Emit(OpKind::kChannelAffine,
           {unflat, ctx.Reshaped(ctx.Input(1), {c}, ".scale"), ctx.Reshaped(ctx.Input(2), {c}, ".bias")},
           {y});
  return absl::OkStatus();
}

// RMSNormalization (opset 23): x / sqrt(mean(x^2 over axis..) + epsilon) * scale.
absl::Status LowerRmsNorm(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx));
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0 || rank > 8) return ctx.Unsupported("ranks 1 to 8 are supported");
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", -1));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  OC_ASSIGN_OR_RETURN(float eps, ctx.AttrFloat("epsilon", 1e-5f));
  OC_ASSIGN_OR_RETURN(int64_t stash, ctx.AttrInt("stash_type", 1));
  if (stash != 1) return ctx.Unsupported("only stash_type 1 (float32) is supported");
  std::vector<int64_t> reduced;
  Shape kept = x.shape;
  for (int64_t a = axis; a < rank; ++a) {
    reduced.push_back(a);
    kept[a] = 1;
  }
  auto emit = [&](OpKind op, std::vector<ValueId> operands, const Shape& shape, const char* name) {
    return EmitStep(ctx, op, std::move(operands), shape, name, reduced);
  };
  ValueId x_sq = emit(OpKind::kMul, {ctx.Input(0), ctx.Input(0)}, x.shape, ".x_sq");
  ValueId mean_sq = emit(OpKind::kReduceMean, {x_sq}, kept, ".mean_sq");
  ValueId eps_v = ctx.ScalarConstant(DType::kF32, eps, ".eps");
  ValueId var = emit(OpKind::kAdd, {mean_sq, eps_v}, kept, ".plus_eps");
  ValueId rms = emit(OpKind::kSqrt, {var}, kept, ".rms");
  ValueId normalized = emit(OpKind::kDiv, {ctx.Input(0), rms}, x.shape, ".normalized");
  OC_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(ctx, x.shape, ctx.InputValue(1).shape));
  if (out != x.shape) return ctx.Invalid("scale does not broadcast to X");
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  ctx.Emit(OpKind::kMul, {normalized, ctx.Input(1)}, {y});
  return absl::OkStatus();
}

}  // namespace

void RegisterNormalizationLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["LayerNormalization"] = LowerLayerNorm;
  t["InstanceNormalization"] = LowerInstanceNorm;
  t["LRN"] = LowerLrn;
  t["MeanVarianceNormalization"] = LowerMvn;
  t["GroupNormalization"] = LowerGroupNorm;
  t["RMSNormalization"] = LowerRmsNorm;
}

}  // namespace oc
