// Lowering of ops that index with run-time data (Gather/Scatter variants,
// Trilu, OneHot, TopK, ReverseSequence, MaxUnpool), and clear refusals for
// ops whose result shape depends on data, random ops and control flow.
#include <algorithm>

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

// The reduction attribute of ScatterElements / ScatterND (opset 16+);
// combining needs float32.
absl::StatusOr<std::string> ScatterReduction(const NodeContext& ctx, DType t) {
  OC_ASSIGN_OR_RETURN(std::string r, ctx.AttrString("reduction", "none"));
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min") {
    return ctx.Invalid(absl::StrCat("reduction '", r, "' is not valid"));
  }
  if (r != "none" && t != DType::kF32) {
    return ctx.Unsupported("scatter reductions are supported on float32 only");
  }
  return r;
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

// ScatterElements (and the deprecated Scatter, its opset 9 name).
absl::Status LowerScatterElements(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const Value& idx = ctx.InputValue(1);
  OC_RETURN_IF_ERROR(RequireIndexType(ctx, 1, "indices"));
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0 || rank > 8 || idx.shape.size() != x.shape.size() ||
      ctx.InputValue(2).shape != idx.shape || ctx.InputValue(2).dtype != x.dtype) {
    return ctx.Invalid(
        "data, indices and updates must have one rank (1 to 8); updates the "
        "indices' shape and the data's type");
  }
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 0));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  OC_ASSIGN_OR_RETURN(std::string reduction, ScatterReduction(ctx, x.dtype));
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s =
      ctx.Emit(OpKind::kScatterElements, {ctx.Input(0), ctx.Input(1), ctx.Input(2)}, {y});
  s.attrs["axis"] = axis;
  s.attrs["reduction"] = reduction;
  return absl::OkStatus();
}

absl::Status LowerGatherND(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const Value& idx = ctx.InputValue(1);
  OC_RETURN_IF_ERROR(RequireIndexType(ctx, 1, "indices"));
  OC_ASSIGN_OR_RETURN(int64_t b, ctx.AttrInt("batch_dims", 0));
  const int64_t r = static_cast<int64_t>(x.shape.size()),
                q = static_cast<int64_t>(idx.shape.size());
  if (q < 1 || b < 0 || b >= std::min(r, q)) return ctx.Invalid("batch_dims is out of range");
  const int64_t k = idx.shape.back();
  if (k < 1 || k > r - b || k > 8)
    return ctx.Unsupported("the index tuple length is not supported");
  for (int64_t i = 0; i < b; ++i) {
    if (x.shape[i] != idx.shape[i]) return ctx.Invalid("batch dims differ");
  }
  Shape out(idx.shape.begin(), idx.shape.end() - 1);
  out.insert(out.end(), x.shape.begin() + b + k, x.shape.end());
  ValueId y = ctx.NewResult(0, x.dtype, out);
  Statement& s = ctx.Emit(OpKind::kGatherND, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["batch_dims"] = b;
  return absl::OkStatus();
}

absl::Status LowerScatterND(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const Value& idx = ctx.InputValue(1);
  OC_RETURN_IF_ERROR(RequireIndexType(ctx, 1, "indices"));
  const int64_t r = static_cast<int64_t>(x.shape.size()),
                q = static_cast<int64_t>(idx.shape.size());
  if (q < 1) return ctx.Invalid("indices must have rank >= 1");
  const int64_t k = idx.shape.back();
  if (k < 1 || k > r || k > 8) return ctx.Unsupported("the index tuple length is not supported");
  Shape updates(idx.shape.begin(), idx.shape.end() - 1);
  updates.insert(updates.end(), x.shape.begin() + k, x.shape.end());
  if (ctx.InputValue(2).shape != updates || ctx.InputValue(2).dtype != x.dtype) {
    return ctx.Invalid("updates have the wrong shape or type");
  }
  OC_ASSIGN_OR_RETURN(std::string reduction, ScatterReduction(ctx, x.dtype));
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s = ctx.Emit(OpKind::kScatterND, {ctx.Input(0), ctx.Input(1), ctx.Input(2)}, {y});
  s.attrs["reduction"] = reduction;
  return absl::OkStatus();
}

absl::Status LowerReverseSequence(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_RETURN_IF_ERROR(RequireIndexType(ctx, 1, "sequence_lens"));
  OC_ASSIGN_OR_RETURN(int64_t batch_axis, ctx.AttrInt("batch_axis", 1));
  OC_ASSIGN_OR_RETURN(int64_t time_axis, ctx.AttrInt("time_axis", 0));
  if (x.shape.size() < 2 ||
      !((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0))) {
    return ctx.Invalid("batch_axis and time_axis must be 0 and 1");
  }
  if (ctx.InputValue(1).shape != Shape{x.shape[batch_axis]}) {
    return ctx.Invalid("sequence_lens must have one value per batch row");
  }
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s = ctx.Emit(OpKind::kReverseSequence, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["time_axis"] = time_axis;
  return absl::OkStatus();
}

// OneHot with a constant depth (it fixes the output shape).
absl::Status LowerOneHot(NodeContext& ctx) {
  const Value& idx = ctx.InputValue(0);
  if (!ctx.IsConstantInput(1)) {
    return ctx.Unsupported(absl::StrCat("input 'depth' (", ctx.node().input(1),
                                        ") is computed at run time; onnx-to-c needs it to be a "
                                        "constant because it fixes shapes in the static arena"));
  }
  if (IsFloat(idx.dtype) && idx.dtype != DType::kF32) {
    return ctx.Unsupported("float16/float64 indices are not supported");
  }
  const int64_t depth = SaturatingInt(ctx.ConstantInput(1).GetDouble(0));
  if (depth <= 0) return ctx.Invalid("depth must be positive");
  if (ctx.InputValue(2).NumElements() != 2) return ctx.Invalid("values must hold two elements");
  const int64_t rank = static_cast<int64_t>(idx.shape.size()) + 1;
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", -1));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  Shape out = idx.shape;
  out.insert(out.begin() + axis, depth);
  ValueId y = ctx.NewResult(0, ctx.InputValue(2).dtype, out);
  Statement& s = ctx.Emit(OpKind::kOneHot, {ctx.Input(0), ctx.Input(2)}, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

absl::Status LowerMaxUnpool(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.dtype != DType::kF32) return ctx.Unsupported("only float32 is supported");
  if (ctx.InputValue(1).dtype != DType::kI64 || ctx.InputValue(1).shape != x.shape) {
    return ctx.Invalid("I must be int64 with X's shape");
  }
  if (x.shape.size() < 3 || x.shape.size() > 5) {
    return ctx.Unsupported("only 1-D, 2-D and 3-D MaxUnpool is supported");
  }
  // The default output shape (the pooled input's), which the indices address.
  const size_t n = x.shape.size() - 2;
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ctx.AttrInts("kernel_shape", std::nullopt));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                      ctx.AttrInts("strides", std::vector<int64_t>(n, 1)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> pads,
                      ctx.AttrInts("pads", std::vector<int64_t>(2 * n, 0)));
  if (kernel.size() != n || strides.size() != n || pads.size() != 2 * n) {
    return ctx.Invalid("kernel_shape, strides or pads have the wrong length");
  }
  Shape def = {x.shape[0], x.shape[1]};
  for (size_t i = 0; i < n; ++i) {
    def.push_back((x.shape[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[n + i]);
  }
  OC_RETURN_IF_ERROR(CheckStaticDims(def, DType::kF32, "MaxUnpool's result"));
  Shape out = def;
  if (ctx.HasInput(2)) {
    if (!ctx.IsConstantInput(2)) {
      return ctx.Unsupported(
          absl::StrCat("input 'output_shape' (", ctx.node().input(2),
                       ") is computed at run time; onnx-to-c needs it to be "
                       "a constant because it fixes shapes in the static arena"));
    }
    OC_ASSIGN_OR_RETURN(out, ctx.ConstantInts(2, "output_shape"));
    if (out.size() != x.shape.size() || out[0] != def[0] || out[1] != def[1]) {
      return ctx.Invalid("output_shape must keep N and C");
    }
    OC_RETURN_IF_ERROR(CheckStaticDims(out, DType::kF32, "MaxUnpool's result"));
  }
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kMaxUnpool, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["default_shape"] = def;
  return absl::OkStatus();
}

// TopK with a constant k (it fixes the output shape).
absl::Status LowerTopK(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.dtype != DType::kF32) return ctx.Unsupported("only float32 is supported");
  int64_t k = 0;
  if (ctx.opset() < 10) {
    OC_ASSIGN_OR_RETURN(k, ctx.AttrInt("k", std::nullopt));
  } else {
    OC_ASSIGN_OR_RETURN(std::vector<int64_t> kv, ctx.ConstantInts(1, "K"));
    if (kv.size() != 1) return ctx.Invalid("K must hold one value");
    k = kv[0];
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", -1));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  OC_ASSIGN_OR_RETURN(int64_t largest, ctx.AttrInt("largest", 1));
  if (k <= 0 || k > x.shape[axis]) {
    return ctx.Unsupported(
        "k must be between 1 and the axis length (empty results are not supported)");
  }
  Shape out = x.shape;
  out[axis] = k;
  ValueId values =
      ctx.HasOutput(0) ? ctx.NewResult(0, DType::kF32, out) : ctx.Temp(DType::kF32, out, ".values");
  ValueId indices = ctx.HasOutput(1) ? ctx.NewResult(1, DType::kI64, out)
                                     : ctx.Temp(DType::kI64, out, ".indices");
  Statement& s = ctx.Emit(OpKind::kTopK, {ctx.Input(0)}, {values, indices});
  s.attrs["axis"] = axis;
  s.attrs["k"] = k;
  s.attrs["largest"] = largest ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

// TfIdfVectorizer on integer tokens; the pool becomes the kernel's tables.
absl::Status LowerTfIdf(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.dtype != DType::kI32 && x.dtype != DType::kI64) {
    return ctx.Unsupported("only int32 and int64 tokens are supported");
  }
  if (x.shape.size() != 1 && x.shape.size() != 2) return ctx.Invalid("X must be 1-D or 2-D");
  if (ctx.HasAttr("pool_strings")) return ctx.Unsupported("string pools are not supported");
  OC_ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t min_gram, ctx.AttrInt("min_gram_length", std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t max_gram, ctx.AttrInt("max_gram_length", std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t max_skip, ctx.AttrInt("max_skip_count", std::nullopt));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> counts, ctx.AttrInts("ngram_counts", std::nullopt));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> indexes, ctx.AttrInts("ngram_indexes", std::nullopt));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> pool, ctx.AttrInts("pool_int64s", std::nullopt));
  OC_ASSIGN_OR_RETURN(std::vector<float> weights, ctx.AttrFloats("weights", std::vector<float>{}));
  const int64_t m = mode == "TF" ? 0 : mode == "IDF" ? 1 : mode == "TFIDF" ? 2 : -1;
  if (m < 0) return ctx.Invalid(absl::StrCat("mode '", mode, "' is not valid"));
  if (min_gram < 1 || max_gram < min_gram || max_skip < 0 ||
      static_cast<int64_t>(counts.size()) != max_gram) {
    return ctx.Invalid("the n-gram lengths, skip count or ngram_counts are not valid");
  }
  std::vector<int64_t> starts = counts, first_id;
  starts.push_back(static_cast<int64_t>(pool.size()));
  if (starts[0] < 0) return ctx.Invalid("ngram_counts does not split the pool");
  int64_t ids = 0;
  for (int64_t n = 1; n <= max_gram; ++n) {
    const int64_t size = starts[n] - starts[n - 1];
    if (size < 0 || size % n != 0) return ctx.Invalid("ngram_counts does not split the pool");
    first_id.push_back(ids);
    ids += size / n;
  }
  if (static_cast<int64_t>(indexes.size()) != ids ||
      (!weights.empty() && static_cast<int64_t>(weights.size()) != ids)) {
    return ctx.Invalid("ngram_indexes (and weights) need one value per pool n-gram");
  }
  int64_t cols = 0;
  for (int64_t i : indexes) {
    if (i < 0) return ctx.Invalid("ngram_indexes must not be negative");
    cols = std::max(cols, i + 1);
  }
  if (cols == 0) return ctx.Unsupported("the output would be empty");
  Shape out = x.shape.size() == 1 ? Shape{cols} : Shape{x.shape[0], cols};
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kTfIdf, {ctx.Input(0)}, {y});
  s.attrs["mode"] = m;
  s.attrs["min_gram"] = min_gram;
  s.attrs["max_gram"] = max_gram;
  s.attrs["max_skip"] = max_skip;
  s.attrs["pool"] = pool;
  s.attrs["pool_starts"] = starts;
  s.attrs["first_id"] = first_id;
  s.attrs["out_index"] = indexes;
  if (!weights.empty()) s.attrs["weights"] = weights;
  return absl::OkStatus();
}

// Ops whose result shape depends on input data that is only known when the
// model runs (the constant cases are folded before lowering).
absl::Status RefuseDataDependentShape(NodeContext& ctx) {
  const std::string& op = ctx.op_type();
  const bool folds = op == "Range" || op == "ConstantOfShape" || op == "NonZero";
  return ctx.Unsupported(absl::StrCat(
      "its result shape depends on input data computed at run time; onnx-to-c needs static "
      "shapes",
      folds ? " (it folds this op when its inputs are constants)" : ""));
}

absl::Status RefuseRandom(NodeContext& ctx) {
  return ctx.Unsupported(
      "random number generation is not supported (outputs must be deterministic)");
}

absl::Status RefuseNonTensor(NodeContext& ctx) {
  return ctx.Unsupported("sequence and optional values are not supported (only tensors)");
}

absl::Status RefuseControlFlow(NodeContext& ctx) {
  return ctx.Unsupported("control flow (ops with subgraphs) is not supported");
}

}  // namespace

void RegisterIndexingLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["GatherElements"] = LowerGatherElements;
  t["Trilu"] = LowerTrilu;
  t["ScatterElements"] = LowerScatterElements;
  t["Scatter"] = LowerScatterElements;
  t["GatherND"] = LowerGatherND;
  t["ScatterND"] = LowerScatterND;
  t["ReverseSequence"] = LowerReverseSequence;
  t["OneHot"] = LowerOneHot;
  t["MaxUnpool"] = LowerMaxUnpool;
  t["TopK"] = LowerTopK;
  t["TfIdfVectorizer"] = LowerTfIdf;
  for (const char* op :
       {"Range", "ConstantOfShape", "NonZero", "Unique", "Compress", "NonMaxSuppression"}) {
    t[op] = RefuseDataDependentShape;
  }
  for (const char* op : {"Bernoulli", "RandomUniform", "RandomUniformLike", "RandomNormal",
                         "RandomNormalLike", "Multinomial"}) {
    t[op] = RefuseRandom;
  }
  t["If"] = RefuseControlFlow;  // Loop and Scan: unroll_loop.cc
  for (const char* op : {"SequenceConstruct", "SequenceEmpty", "SequenceAt", "SequenceInsert",
                         "SequenceErase", "SequenceLength", "SequenceMap", "SplitToSequence",
                         "ConcatFromSequence", "Optional", "OptionalGetElement",
                         "OptionalHasElement"}) {
    t[op] = RefuseNonTensor;
  }
}

}  // namespace oc
