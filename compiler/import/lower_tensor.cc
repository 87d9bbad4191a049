// Lowering of data-movement ops: views, concat/slice/split, transpose,
// expand/tile, pad, gather and reductions.
#include <algorithm>
#include <set>

#include "compiler/import/lower_shape_operands.h"
#include "compiler/import/node_context.h"
#include "compiler/import/shape_rules.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

absl::Status EmitView(NodeContext& ctx, const Shape& shape) {
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  ctx.Emit(OpKind::kReshape, {ctx.Input(0)}, {y});
  return absl::OkStatus();
}

absl::Status LowerReshape(NodeContext& ctx) {
  const Shape& in = ctx.InputValue(0).shape;
  std::vector<int64_t> spec;
  if (ctx.opset() >= 5 && IsRunTimeShapeOperand(ctx, 1)) return LowerReshapeWithRunTimeShape(ctx);
  if (ctx.opset() >= 5) {
    OC_ASSIGN_OR_RETURN(spec, ctx.ConstantInts(1, "shape"));
  } else {
    OC_ASSIGN_OR_RETURN(spec, ctx.AttrInts("shape", std::nullopt));
  }
  OC_ASSIGN_OR_RETURN(int64_t allowzero, ctx.AttrInt("allowzero", 0));
  OC_ASSIGN_OR_RETURN(Shape shape, ReshapeTarget(ctx, in, spec, allowzero != 0));
  return EmitView(ctx, shape);
}

absl::Status LowerFlatten(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(Shape shape, FlattenShape(ctx, ctx.InputValue(0).shape));
  return EmitView(ctx, shape);
}

absl::Status LowerSqueeze(NodeContext& ctx) {
  if (ctx.opset() >= 13 && IsRunTimeShapeOperand(ctx, 1)) return LowerSqueezeWithRunTimeAxes(ctx, true);
  OC_ASSIGN_OR_RETURN(Shape shape, SqueezeShape(ctx, ctx.InputValue(0).shape));
  return EmitView(ctx, shape);
}

absl::Status LowerUnsqueeze(NodeContext& ctx) {
  if (ctx.opset() >= 13 && IsRunTimeShapeOperand(ctx, 1)) return LowerSqueezeWithRunTimeAxes(ctx, false);
  OC_ASSIGN_OR_RETURN(Shape shape, UnsqueezeShape(ctx, ctx.InputValue(0).shape));
  return EmitView(ctx, shape);
}

absl::Status LowerConcat(NodeContext& ctx) {
  Shape shape;
  OC_ASSIGN_OR_RETURN(int64_t axis, ConcatAxis(ctx, &shape));
  std::vector<ValueId> operands;
  DType dtype = ctx.InputValue(0).dtype;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.HasInput(i)) continue;
    if (ctx.InputValue(i).dtype != dtype) return ctx.Invalid("inputs differ in element type");
    operands.push_back(ctx.Input(i));
  }
  ValueId y = ctx.NewResult(0, dtype, shape);
  Statement& s = ctx.Emit(OpKind::kConcat, operands, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

absl::Status LowerSlice(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(SliceSpec spec, SliceFor(ctx, x.shape));
  ValueId y = ctx.NewResult(0, x.dtype, spec.shape);
  Statement& s = ctx.Emit(OpKind::kSlice, {ctx.Input(0)}, {y});
  s.attrs["starts"] = spec.starts;
  s.attrs["steps"] = spec.steps;
  return absl::OkStatus();
}

absl::Status LowerSplit(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 0));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  std::vector<int64_t> sizes;
  if (ctx.opset() >= 13 || (ctx.opset() < 2 && ctx.HasInput(1))) {
    if (ctx.HasInput(1)) {
      OC_ASSIGN_OR_RETURN(sizes, ctx.ConstantInts(1, "split"));
    }
  } else {
    OC_ASSIGN_OR_RETURN(sizes, ctx.AttrInts("split", std::vector<int64_t>{}));
  }
  const int64_t n = ctx.num_outputs();
  // Split-18: num_outputs parts of ceil(dim / num_outputs), the last smaller.
  if (ctx.opset() >= 18 && ctx.HasAttr("num_outputs")) {
    OC_ASSIGN_OR_RETURN(int64_t parts, ctx.AttrInt("num_outputs", std::nullopt));
    if (!sizes.empty()) return ctx.Invalid("split and num_outputs are both given");
    if (parts != n) return ctx.Invalid(absl::StrCat("num_outputs is ", parts, " but the node has ", n, " outputs"));
    const int64_t part = (x.shape[axis] + n - 1) / n;
    for (int64_t i = 0; i < n; ++i) sizes.push_back(std::min(part, x.shape[axis] - i * part));
  }
  if (sizes.empty()) {
    if (x.shape[axis] % n != 0) {
      return ctx.Invalid(absl::StrCat("dimension ", x.shape[axis], " does not split evenly into ", n));
    }
    sizes.assign(n, x.shape[axis] / n);
  }
  if (static_cast<int64_t>(sizes.size()) != n) return ctx.Invalid("split sizes do not match the outputs");
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s <= 0) return ctx.Unsupported("empty split outputs are not supported");
    // Each part fits in the dimension, so the running total cannot overflow.
    if (s > x.shape[axis]) return ctx.Invalid("split sizes do not add up to the dimension");
    total += s;
  }
  if (total != x.shape[axis]) return ctx.Invalid("split sizes do not add up to the dimension");
  std::vector<ValueId> results;
  for (int64_t i = 0; i < n; ++i) {
    Shape shape = x.shape;
    shape[axis] = sizes[i];
    results.push_back(ctx.NewResult(static_cast<int>(i), x.dtype, shape));
  }
  Statement& s = ctx.Emit(OpKind::kSplit, {ctx.Input(0)}, results);
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

// CenterCropPad (opset 18): per listed axis, crop the centered window of the
// target size (start (in - size) / 2) or pad zeros around the input (begin
// (size - in) / 2, the rest at the end): a Slice, then a Pad.
absl::Status LowerCenterCropPad(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.ConstantInts(1, "shape"));
  std::vector<int64_t> all(rank);
  for (int64_t i = 0; i < rank; ++i) all[i] = i;
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.AttrInts("axes", all));
  if (sizes.size() != axes.size()) return ctx.Invalid("shape needs one size per axis");
  Shape cropped = x.shape, padded = x.shape;
  std::vector<int64_t> starts(rank, 0), steps(rank, 1), pads(2 * rank, 0);
  std::set<int64_t> seen;
  for (size_t i = 0; i < axes.size(); ++i) {
    OC_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(ctx, axes[i], rank));
    if (!seen.insert(a).second) return ctx.Invalid("axes repeats an axis");
    const int64_t in = x.shape[a], size = sizes[i];
    if (size <= 0 || size > kMaxTensorBytes) return ctx.Invalid(absl::StrCat("size ", size, " is out of range"));
    if (size < in) {
      starts[a] = (in - size) / 2;
      cropped[a] = padded[a] = size;
    } else if (size > in) {
      pads[a] = (size - in) / 2;
      pads[rank + a] = size - in - pads[a];
      padded[a] = size;
    }
  }
  const bool crops = cropped != x.shape, pads_any = padded != cropped;
  if (!crops && !pads_any) {
    ctx.BindOutput(0, ctx.Input(0));
    return absl::OkStatus();
  }
  ValueId in = ctx.Input(0);
  if (crops) {
    ValueId y = pads_any ? ctx.Temp(x.dtype, cropped, ".cropped") : ctx.NewResult(0, x.dtype, cropped);
    Statement& s = ctx.Emit(OpKind::kSlice, {in}, {y});
    s.attrs["starts"] = starts;
    s.attrs["steps"] = steps;
    in = y;
  }
  if (pads_any) {
    const DType t = x.dtype;
    ValueId y = ctx.NewResult(0, t, padded);
    Statement& s = ctx.Emit(OpKind::kPad, {in}, {y});
    s.attrs["pads"] = pads;
    s.attrs["mode"] = std::string("constant");
    if (IsFloat(t)) {
      s.attrs["value"] = 0.0f;
    } else {
      s.attrs["int_value"] = int64_t{0};
    }
  }
  return absl::OkStatus();
}

absl::Status LowerTranspose(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, TransposePerm(ctx, x.shape));
  if (x.shape.size() > 8) return ctx.Unsupported("rank above 8 is not supported");
  Shape shape;
  for (int64_t p : perm) shape.push_back(x.shape[p]);
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  Statement& s = ctx.Emit(OpKind::kTranspose, {ctx.Input(0)}, {y});
  s.attrs["perm"] = perm;
  return absl::OkStatus();
}

absl::Status LowerExpand(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> target, ctx.ConstantInts(1, "shape"));
  OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, x.shape, target));
  if (shape.size() > 8) return ctx.Unsupported("rank above 8 is not supported");
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  ctx.Emit(OpKind::kExpand, {ctx.Input(0)}, {y});
  return absl::OkStatus();
}

absl::Status LowerTile(NodeContext& ctx) {
  if (ctx.opset() < 6) return ctx.Unsupported("Tile before opset 6 (tiles, axis) is not supported");
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> repeats, ctx.ConstantInts(1, "repeats"));
  if (repeats.size() != x.shape.size()) return ctx.Invalid("repeats has the wrong length");
  if (x.shape.size() > 4) return ctx.Unsupported("Tile above rank 4 is not supported");
  Shape shape = x.shape;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] <= 0) return ctx.Unsupported("repeats must be positive");
    shape[i] *= repeats[i];
  }
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  Statement& s = ctx.Emit(OpKind::kTile, {ctx.Input(0)}, {y});
  s.attrs["repeats"] = repeats;
  return absl::OkStatus();
}

absl::Status LowerPad(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  OC_ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", "constant"));
  std::vector<int64_t> pads;
  double value = 0.0;
  if (ctx.opset() < 11) {
    OC_ASSIGN_OR_RETURN(pads, ctx.AttrInts(ctx.opset() < 2 ? "paddings" : "pads", std::nullopt));
    OC_ASSIGN_OR_RETURN(float v, ctx.AttrFloat("value", 0.0f));
    value = v;
  } else {
    OC_ASSIGN_OR_RETURN(pads, ctx.ConstantInts(1, "pads"));
    if (ctx.HasInput(2)) {
      if (!ctx.IsConstantInput(2) || ctx.InputValue(2).NumElements() != 1) {
        return ctx.Unsupported("constant_value must be a constant scalar");
      }
      value = ctx.ConstantInput(2).GetDouble(0);
    }
    // Pad-18: pads lists begins then ends for the `axes` input's axes only.
    if (ctx.opset() >= 18 && ctx.HasInput(3)) {
      OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.ConstantInts(3, "axes"));
      const int64_t k = static_cast<int64_t>(axes.size());
      if (static_cast<int64_t>(pads.size()) != 2 * k) return ctx.Invalid("pads has the wrong length for axes");
      std::vector<int64_t> full(2 * rank, 0);
      std::set<int64_t> seen;
      for (int64_t i = 0; i < k; ++i) {
        OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axes[i], rank));
        if (!seen.insert(axis).second) return ctx.Invalid("axes repeats an axis");
        full[axis] = pads[i];
        full[rank + axis] = pads[k + i];
      }
      pads = std::move(full);
    } else if (ctx.HasInput(3)) {
      return ctx.Invalid("the axes input needs opset 18");
    }
  }
  // The pad value travels as a float (floats) or an int64 (integers): exact
  // for every value of those types but float64 ones that are not floats.
  if ((x.dtype == DType::kF64 && static_cast<double>(static_cast<float>(value)) != value) ||
      (x.dtype == DType::kF16 && value != 0.0)) {
    return ctx.Unsupported("this constant_value is not supported for its element type");
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank) return ctx.Invalid("pads has the wrong length");
  if (mode != "constant" && mode != "reflect" && mode != "edge") {
    return ctx.Unsupported(absl::StrCat("mode '", mode, "' is not supported"));
  }
  for (int64_t p : pads) {
    if (p < -kMaxTensorBytes || p > kMaxTensorBytes) {
      return ctx.Invalid(absl::StrCat("pad ", p, " is out of range"));
    }
  }
  Shape shape = x.shape;
  for (int64_t i = 0; i < rank; ++i) {
    shape[i] += pads[i] + pads[rank + i];
    if (shape[i] <= 0) return ctx.Unsupported("the padded tensor would be empty");
    if (mode == "reflect" && (pads[i] >= x.shape[i] || pads[rank + i] >= x.shape[i])) {
      return ctx.Invalid("reflect pads must be smaller than the dimension");
    }
  }
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  Statement& s = ctx.Emit(OpKind::kPad, {ctx.Input(0)}, {y});
  s.attrs["pads"] = pads;
  s.attrs["mode"] = mode;
  if (IsFloat(x.dtype)) {
    s.attrs["value"] = static_cast<float>(value);
  } else {
    s.attrs["int_value"] = static_cast<int64_t>(value);
  }
  return absl::OkStatus();
}

// DepthToSpace / SpaceToDepth: a reshape to 6-D, a transpose, a reshape
// back to 4-D.
absl::Status LowerDepthSpace(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() != 4) return ctx.Invalid("the input must be 4-D (NCHW)");
  OC_ASSIGN_OR_RETURN(int64_t b, ctx.AttrInt("blocksize", std::nullopt));
  if (b <= 0) return ctx.Invalid("blocksize must be positive");
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  Shape six, out;
  std::vector<int64_t> perm;
  if (ctx.op_type() == "DepthToSpace") {
    if (c % (b * b) != 0) return ctx.Invalid("channels are not a multiple of blocksize^2");
    OC_ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", "DCR"));
    if (mode == "DCR") {
      six = {n, b, b, c / (b * b), h, w};
      perm = {0, 3, 4, 1, 5, 2};
    } else if (mode == "CRD") {
      six = {n, c / (b * b), b, b, h, w};
      perm = {0, 1, 4, 2, 5, 3};
    } else {
      return ctx.Invalid(absl::StrCat("mode '", mode, "' is not DCR or CRD"));
    }
    out = {n, c / (b * b), h * b, w * b};
  } else {
    if (h % b != 0 || w % b != 0) return ctx.Invalid("H and W are not multiples of blocksize");
    six = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {n, c * b * b, h / b, w / b};
  }
  ValueId v = ctx.Reshaped(ctx.Input(0), six, ".blocks");
  Shape moved;
  for (int64_t p : perm) moved.push_back(six[p]);
  ValueId t = ctx.Temp(x.dtype, moved, ".moved");
  Statement& s = ctx.Emit(OpKind::kTranspose, {v}, {t});
  s.attrs["perm"] = perm;
  ValueId y = ctx.NewResult(0, x.dtype, out);
  ctx.Emit(OpKind::kReshape, {t}, {y});
  return absl::OkStatus();
}

// Gather with indices computed at run time: the indices are an operand.
absl::Status LowerRuntimeGather(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  const Value& idx = ctx.InputValue(1);
  if (idx.dtype != DType::kI32 && idx.dtype != DType::kI64) {
    return ctx.Invalid("indices must be int32 or int64");
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 0));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  Shape shape(x.shape.begin(), x.shape.begin() + axis);
  shape.insert(shape.end(), idx.shape.begin(), idx.shape.end());
  shape.insert(shape.end(), x.shape.begin() + axis + 1, x.shape.end());
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  Statement& s = ctx.Emit(OpKind::kGather, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

absl::Status LowerGather(NodeContext& ctx) {
  if (ctx.HasInput(1) && !ctx.IsConstantInput(1)) return LowerRuntimeGather(ctx);
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(GatherSpec g, GatherFor(ctx, x.shape));
  ValueId y = ctx.NewResult(0, x.dtype, g.shape);
  Statement& s = ctx.Emit(OpKind::kGather, {ctx.Input(0)}, {y});
  s.attrs["axis"] = g.axis;
  s.attrs["indices"] = g.indices;
  return absl::OkStatus();
}

struct ReduceInfo {
  const char* onnx;
  OpKind op;
};

constexpr ReduceInfo kReduces[] = {
    {"ReduceSum", OpKind::kReduceSum},         {"ReduceMean", OpKind::kReduceMean},
    {"ReduceMax", OpKind::kReduceMax},         {"ReduceMin", OpKind::kReduceMin},
    {"ReduceProd", OpKind::kReduceProd},       {"ReduceL1", OpKind::kReduceL1},
    {"ReduceL2", OpKind::kReduceL2},           {"ReduceLogSum", OpKind::kReduceLogSum},
    {"ReduceLogSumExp", OpKind::kReduceLogSumExp}, {"ReduceSumSquare", OpKind::kReduceSumSquare},
};

OpKind ReduceKind(const std::string& onnx_op) {
  for (const ReduceInfo& r : kReduces) {
    if (onnx_op == r.onnx) return r.op;
  }
  return OpKind::kReduceSum;
}

// The kept dims of `in` after reducing `reduced`.
Shape ReducedShape(const Shape& in, const std::set<int64_t>& reduced, bool keepdims) {
  Shape shape;
  for (int64_t i = 0; i < static_cast<int64_t>(in.size()); ++i) {
    if (!reduced.count(i)) {
      shape.push_back(in[i]);
    } else if (keepdims) {
      shape.push_back(1);
    }
  }
  return shape;
}

// Reduce whose axes are a graph input: the declared output shape fixes the
// static shapes; every axes mask that gives it (as many axes as the input
// holds) is recorded, the generated run function checks that the value passed
// is one of them, and the kernel reads its mask at run time.
absl::Status LowerReduceWithRunTimeAxes(NodeContext& ctx, OpKind kind, bool keepdims) {
  const Value& x = ctx.InputValue(0);
  const Value& axes = ctx.InputValue(1);
  const std::optional<Shape> declared = ctx.DeclaredOutputShape(0);
  if (axes.kind != ValueKind::kInput || !declared || axes.dtype != DType::kI64 ||
      axes.shape.size() != 1 || x.shape.size() > 8) {
    return ctx.ConstantInts(1, "axes").status();  // the constant-axes error
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> masks;
  for (int64_t m = 0; m < (int64_t{1} << rank); ++m) {
    std::set<int64_t> reduced;
    for (int64_t d = 0; d < rank; ++d) {
      if ((m >> d) & 1) reduced.insert(d);
    }
    if (static_cast<int64_t>(reduced.size()) == axes.shape[0] &&
        ReducedShape(x.shape, reduced, keepdims) == *declared) {
      masks.push_back(m);
    }
  }
  if (masks.empty()) {
    return ctx.Invalid(absl::StrCat("no ", axes.shape[0], " axes of ", FormatShape(x.shape),
                                    " reduce it to the declared output shape ",
                                    FormatShape(*declared)));
  }
  ValueId y = ctx.NewResult(0, x.dtype, *declared);
  Statement& s = ctx.Emit(kind, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["axes"] = std::vector<int64_t>{};
  s.attrs["keepdims"] = keepdims ? int64_t{1} : int64_t{0};
  s.attrs["run_time_axes_masks"] = masks;
  return absl::OkStatus();
}

absl::Status LowerReduce(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.dtype != DType::kF32 && x.dtype != DType::kF64) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(x.dtype), " is not supported"));
  }
  const std::string& op = ctx.op_type();
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> axes;
  bool noop_with_empty = false;
  // axes became an input at ReduceSum-13 and the rest of the family's 18.
  if ((op == "ReduceSum" && ctx.opset() >= 13) || ctx.opset() >= 18) {
    OC_ASSIGN_OR_RETURN(int64_t noop, ctx.AttrInt("noop_with_empty_axes", 0));
    if (ctx.HasInput(1) && !ctx.IsConstantInput(1)) {
      OC_ASSIGN_OR_RETURN(int64_t keep, ctx.AttrInt("keepdims", 1));
      return LowerReduceWithRunTimeAxes(ctx, ReduceKind(op), keep != 0);
    }
    if (ctx.HasInput(1)) {
      OC_ASSIGN_OR_RETURN(axes, ctx.ConstantInts(1, "axes"));
    }
    noop_with_empty = noop != 0;
  } else {
    OC_ASSIGN_OR_RETURN(axes, ctx.AttrInts("axes", std::vector<int64_t>{}));
  }
  OC_ASSIGN_OR_RETURN(int64_t keepdims, ctx.AttrInt("keepdims", 1));
  if (axes.empty() && noop_with_empty) {
    ctx.BindOutput(0, ctx.Input(0));
    return absl::OkStatus();
  }
  std::set<int64_t> reduced;
  if (axes.empty()) {
    for (int64_t i = 0; i < rank; ++i) reduced.insert(i);
  }
  for (int64_t a : axes) {
    OC_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(ctx, a, rank));
    reduced.insert(n);
  }
  if (rank > 8) return ctx.Unsupported("rank above 8 is not supported");
  const OpKind kind = ReduceKind(op);
  ValueId y = ctx.NewResult(0, x.dtype, ReducedShape(x.shape, reduced, keepdims != 0));
  Statement& s = ctx.Emit(kind, {ctx.Input(0)}, {y});
  s.attrs["axes"] = std::vector<int64_t>(reduced.begin(), reduced.end());
  s.attrs["keepdims"] = keepdims ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

// CumSum: the axis may be computed at run time (it fixes no shape).
absl::Status LowerCumSum(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.dtype != DType::kF32 && x.dtype != DType::kF64 && x.dtype != DType::kI32 &&
      x.dtype != DType::kI64) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(x.dtype), " is not supported"));
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0 || rank > 8) return ctx.Unsupported("rank 0 or above 8 is not supported");
  const Value& a = ctx.InputValue(1);
  if ((a.dtype != DType::kI32 && a.dtype != DType::kI64) || a.NumElements() != 1) {
    return ctx.Invalid("axis must be an int32 or int64 scalar");
  }
  OC_ASSIGN_OR_RETURN(int64_t exclusive, ctx.AttrInt("exclusive", 0));
  OC_ASSIGN_OR_RETURN(int64_t reverse, ctx.AttrInt("reverse", 0));
  std::vector<ValueId> operands = {ctx.Input(0)};
  int64_t axis = -1;
  if (ctx.IsConstantInput(1)) {
    OC_ASSIGN_OR_RETURN(axis, NormalizeAxis(ctx, ctx.ConstantInput(1).GetInt(0), rank));
  } else {
    operands.push_back(ctx.Input(1));
  }
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s = ctx.Emit(OpKind::kCumSum, operands, {y});
  s.attrs["axis"] = axis;
  s.attrs["exclusive"] = exclusive ? int64_t{1} : int64_t{0};
  s.attrs["reverse"] = reverse ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

// ArgMax / ArgMin: int64 indices along one axis.
absl::Status LowerArgMax(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.dtype != DType::kF32) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(x.dtype), " is not supported"));
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0) return ctx.Invalid("the input is a scalar");
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 0));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  OC_ASSIGN_OR_RETURN(int64_t keepdims, ctx.AttrInt("keepdims", 1));
  OC_ASSIGN_OR_RETURN(int64_t last, ctx.AttrInt("select_last_index", 0));
  ValueId y = ctx.NewResult(0, DType::kI64, ReducedShape(x.shape, {axis}, keepdims != 0));
  Statement& s = ctx.Emit(ctx.op_type() == "ArgMax" ? OpKind::kArgMax : OpKind::kArgMin,
                          {ctx.Input(0)}, {y});
  s.attrs["axis"] = axis;
  s.attrs["select_last_index"] = last ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

}  // namespace

void RegisterTensorLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["Reshape"] = LowerReshape;
  t["Flatten"] = LowerFlatten;
  t["Squeeze"] = LowerSqueeze;
  t["Unsqueeze"] = LowerUnsqueeze;
  t["Concat"] = LowerConcat;
  t["Slice"] = LowerSlice;
  t["Split"] = LowerSplit;
  t["Transpose"] = LowerTranspose;
  t["Expand"] = LowerExpand;
  t["Tile"] = LowerTile;
  t["Pad"] = LowerPad;
  t["CenterCropPad"] = LowerCenterCropPad;
  t["Gather"] = LowerGather;
  t["DepthToSpace"] = LowerDepthSpace;
  t["SpaceToDepth"] = LowerDepthSpace;
  for (const ReduceInfo& r : kReduces) t[r.onnx] = LowerReduce;
  t["ArgMax"] = LowerArgMax;
  t["CumSum"] = LowerCumSum;
  t["ArgMin"] = LowerArgMax;
}

}  // namespace oc
