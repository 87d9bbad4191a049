// Lowering of ops that index with run-time data: GatherElements, Trilu, and
// the shape-producing ops whose results depend on data (refused clearly).
#include "compiler/import/node_context.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

absl::Status RequireIndexType(const NodeContext& ctx, int input, const char* what) {
  const DType t = ctx.InputValue(input).dtype;
  if (t != DType::kI32 && t != DType::kI64) {
    return ctx.Invalid(absl::StrCat(what, " must be int32 or int64"));
  }
  return absl::OkStatus();
}

absl::Status LowerGatherElements(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const Value& idx = ctx.InputValue(1);
  OC_RETURN_IF_ERROR(RequireIndexType(ctx, 1, "indices"));
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0 || idx.shape.size() != x.shape.size()) {
    return ctx.Invalid("data and indices must have the same rank (at least 1)");
  }
  if (rank > 8) return ctx.Unsupported("rank above 8 is not supported");
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 0));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  ValueId y = ctx.NewResult(0, x.dtype, idx.shape);
  Statement& s = ctx.Emit(OpKind::kGatherElements, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

absl::Status LowerTrilu(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 2) return ctx.Invalid("the input needs at least 2 dimensions");
  OC_ASSIGN_OR_RETURN(int64_t upper, ctx.AttrInt("upper", 1));
  std::vector<ValueId> operands = {ctx.Input(0)};
  int64_t k = 0;
  if (ctx.HasInput(1)) {
    if (ctx.InputValue(1).NumElements() != 1 || ctx.InputValue(1).dtype != DType::kI64) {
      return ctx.Invalid("k must be an int64 scalar");
    }
    if (ctx.IsConstantInput(1)) {
      k = ctx.ConstantInput(1).GetInt(0);
    } else {
      operands.push_back(ctx.Input(1));  // read when the model runs
    }
  }
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s = ctx.Emit(OpKind::kTrilu, operands, {y});
  s.attrs["upper"] = upper ? int64_t{1} : int64_t{0};
  s.attrs["k"] = k;
  return absl::OkStatus();
}

// Ops whose result shape depends on input data that is only known when the
// model runs (the constant cases are folded before lowering).
absl::Status RefuseDataDependentShape(NodeContext& ctx) {
  return ctx.Unsupported(
      "its result shape depends on input data computed at run time; onnx-to-c needs static "
      "shapes (it folds this op only when its inputs are constants)");
}

}  // namespace

void RegisterIndexingLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["GatherElements"] = LowerGatherElements;
  t["Trilu"] = LowerTrilu;
  for (const char* op : {"Range", "ConstantOfShape", "NonZero", "Unique", "Compress",
                         "NonMaxSuppression"}) {
    t[op] = RefuseDataDependentShape;
  }
}

}  // namespace oc
