#include "compiler/import/const_eval.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "compiler/import/shape_rules.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// Copies elements of `in` selected by a strided walk into a new tensor of
// `shape`: out[i] = in[offset + sum_d idx_d * strides[d]].
HostTensor StridedGather(const HostTensor& in, const Shape& shape, int64_t offset,
                         const std::vector<int64_t>& strides) {
  HostTensor out = HostTensor::Zeros(in.dtype, shape);
  const int64_t elem = DTypeSize(in.dtype);
  const int64_t n = out.NumElements();
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t src = offset;
    for (size_t d = 0; d < shape.size(); ++d) src += idx[d] * strides[d];
    std::memcpy(out.bytes.data() + i * elem, in.bytes.data() + src * elem, elem);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// Strides that read `in` broadcast to `out_shape` (0 on broadcast dims).
std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out_shape) {
  std::vector<int64_t> s(out_shape.size(), 0);
  std::vector<int64_t> own = Strides(in);
  size_t lead = out_shape.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) s[lead + d] = in[d] == 1 ? 0 : own[d];
  return s;
}

HostTensor Reshaped(HostTensor t, Shape shape) {
  t.shape = std::move(shape);
  return t;
}

using ElementFn = std::function<double(double, double)>;

absl::StatusOr<HostTensor> FoldBinary(const NodeContext& ctx, const HostTensor& a,
                                      const HostTensor& b, DType out_type, const ElementFn& fn) {
  OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, a.shape, b.shape));
  HostTensor ea = StridedGather(a, shape, 0, BroadcastStrides(a.shape, shape));
  HostTensor eb = StridedGather(b, shape, 0, BroadcastStrides(b.shape, shape));
  HostTensor out = HostTensor::Zeros(out_type, shape);
  const bool integral = !IsFloat(a.dtype);
  for (int64_t i = 0; i < out.NumElements(); ++i) {
    if (integral && !IsFloat(out_type)) {
      out.SetInt(i, SaturatingInt(fn(static_cast<double>(ea.GetInt(i)),
                                     static_cast<double>(eb.GetInt(i)))));
    } else {
      out.SetDouble(i, fn(ea.GetDouble(i), eb.GetDouble(i)));
    }
  }
  return out;
}

absl::StatusOr<bool> FoldArithmetic(NodeContext& ctx, const std::string& op) {
  static const std::set<std::string> kComparisons = {"Equal", "Less", "Greater", "LessOrEqual",
                                                      "GreaterOrEqual"};
  static const std::set<std::string> kLogical = {"And", "Or", "Xor"};
  const bool comparison = kComparisons.count(op) != 0, logical = kLogical.count(op) != 0;
  if (op != "Add" && op != "Sub" && op != "Mul" && op != "Div" && op != "Min" && op != "Max" &&
      !comparison && !logical) {
    return false;
  }
  HostTensor a = ctx.ConstantInput(0), b = ctx.ConstantInput(1);
  if (a.dtype != b.dtype) return ctx.Invalid("operands differ in element type");
  // Min and Max fold on integers only (float NaNs follow the kernels' rules);
  // And, Or and Xor take booleans.
  if ((op == "Min" || op == "Max") && IsFloat(a.dtype)) return false;
  if (logical && a.dtype != DType::kBool) return false;
  const bool f32 = a.dtype == DType::kF32;
  // Float32 arithmetic rounds to float after each operation, as the kernels do.
  auto round = [f32](double v) { return f32 ? static_cast<double>(static_cast<float>(v)) : v; };
  ElementFn fn;
  DType out_type = a.dtype;
  if (op == "Add") fn = [&](double x, double y) { return round(x + y); };
  else if (op == "Sub") fn = [&](double x, double y) { return round(x - y); };
  else if (op == "Mul") fn = [&](double x, double y) { return round(x * y); };
  else if (op == "Div") {
    if (!IsFloat(a.dtype)) {
      for (int64_t i = 0; i < b.NumElements(); ++i) {
        if (b.GetInt(i) == 0) return ctx.Invalid("integer division by zero in a constant");
      }
      fn = [](double x, double y) { return std::trunc(x / y); };
    } else {
      fn = [&](double x, double y) { return round(x / y); };
    }
  } else if (comparison || logical) {
    out_type = DType::kBool;
    if (op == "Equal") fn = [](double x, double y) { return x == y ? 1.0 : 0.0; };
    if (op == "Less") fn = [](double x, double y) { return x < y ? 1.0 : 0.0; };
    if (op == "Greater") fn = [](double x, double y) { return x > y ? 1.0 : 0.0; };
    if (op == "LessOrEqual") fn = [](double x, double y) { return x <= y ? 1.0 : 0.0; };
    if (op == "GreaterOrEqual") fn = [](double x, double y) { return x >= y ? 1.0 : 0.0; };
    if (op == "And") fn = [](double x, double y) { return x != 0 && y != 0 ? 1.0 : 0.0; };
    if (op == "Or") fn = [](double x, double y) { return x != 0 || y != 0 ? 1.0 : 0.0; };
    if (op == "Xor") fn = [](double x, double y) { return (x != 0) != (y != 0) ? 1.0 : 0.0; };
  } else if (op == "Min") {
    fn = [](double x, double y) { return std::min(x, y); };
  } else if (op == "Max") {
    fn = [](double x, double y) { return std::max(x, y); };
  } else {
    return false;
  }
  if (a.dtype == DType::kI64 || a.dtype == DType::kU64) {
    // Exact integer arithmetic for shape values (doubles lose bits past 2^53).
    OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, a.shape, b.shape));
    HostTensor ea = StridedGather(a, shape, 0, BroadcastStrides(a.shape, shape));
    HostTensor eb = StridedGather(b, shape, 0, BroadcastStrides(b.shape, shape));
    HostTensor out = HostTensor::Zeros(out_type, shape);
    for (int64_t i = 0; i < out.NumElements(); ++i) {
      int64_t x = ea.GetInt(i), y = eb.GetInt(i), r = 0;
      if (op == "Add") r = x + y;
      else if (op == "Sub") r = x - y;
      else if (op == "Mul") r = x * y;
      else if (op == "Div") r = x / y;
      else if (op == "Equal") r = x == y;
      else if (op == "Less") r = x < y;
      else if (op == "Greater") r = x > y;
      else if (op == "LessOrEqual") r = x <= y;
      else if (op == "GreaterOrEqual") r = x >= y;
      else if (op == "Min") r = std::min(x, y);
      else if (op == "Max") r = std::max(x, y);
      out.SetInt(i, r);
    }
    ctx.BindConstantOutput(0, std::move(out));
    return true;
  }
  OC_ASSIGN_OR_RETURN(HostTensor out, FoldBinary(ctx, a, b, out_type, fn));
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

// EyeLike depends only on its input's (static) shape: ones on diagonal k.
absl::StatusOr<bool> FoldEyeLike(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() != 2) return ctx.Invalid("the input must be 2-D");
  DType dtype = x.dtype;
  if (ctx.HasAttr("dtype")) {
    OC_ASSIGN_OR_RETURN(int64_t t, ctx.AttrInt("dtype", std::nullopt));
    auto d = DTypeFromOnnx(static_cast<int32_t>(t));
    if (!d.ok()) return ctx.Unsupported(d.status().message());
    dtype = *d;
  }
  OC_ASSIGN_OR_RETURN(int64_t k, ctx.AttrInt("k", 0));
  HostTensor out = HostTensor::Zeros(dtype, x.shape);
  for (int64_t i = 0; i < x.shape[0]; ++i) {
    const int64_t j = i + k;
    if (j >= 0 && j < x.shape[1]) out.SetInt(i * x.shape[1] + j, 1);
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

// Hann, Hamming and Blackman windows: a0 - a1 cos(2 pi n / N) + a2 cos(4 pi
// n / N), N = size (periodic) or size - 1 (symmetric). Their size fixes the
// shape, so it must be a constant.
absl::StatusOr<bool> FoldWindow(NodeContext& ctx) {
  const std::string& op = ctx.op_type();
  if (!ctx.IsConstantInput(0)) {
    return ctx.Unsupported(absl::StrCat("input 'size' (", ctx.node().input(0),
                                        ") is computed at run time; onnx-to-c needs it to be a "
                                        "constant because it fixes shapes in the static arena"));
  }
  const int64_t size = ctx.ConstantInput(0).GetInt(0);
  OC_RETURN_IF_ERROR(CheckStaticDims({size}, DType::kF64, "the window"));
  OC_ASSIGN_OR_RETURN(int64_t periodic, ctx.AttrInt("periodic", 1));
  OC_ASSIGN_OR_RETURN(int64_t out_type, ctx.AttrInt("output_datatype", 1));
  auto dtype = DTypeFromOnnx(static_cast<int32_t>(out_type));
  if (!dtype.ok()) return ctx.Unsupported(dtype.status().message());
  const double a0 = op == "HannWindow" ? 0.5 : op == "HammingWindow" ? 25.0 / 46.0 : 0.42;
  const double a1 = op == "BlackmanWindow" ? 0.5 : 1.0 - a0;
  const double a2 = op == "BlackmanWindow" ? 0.08 : 0.0;
  const double n_div = static_cast<double>(periodic ? size : size - 1);
  HostTensor out = HostTensor::Zeros(*dtype, {size});
  for (int64_t n = 0; n < size; ++n) {
    const double t = n_div > 0 ? 6.283185307179586 * static_cast<double>(n) / n_div : 0.0;
    out.SetDouble(n, a0 - a1 * std::cos(t) + a2 * std::cos(2.0 * t));
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

}  // namespace

bool AllInputsConstant(const NodeContext& ctx) {
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (ctx.HasInput(i) && !ctx.IsConstantInput(i)) return false;
  }
  return ctx.num_inputs() > 0;
}

absl::StatusOr<HostTensor> ConstantNodeValue(const NodeContext& ctx) {
  const auto& node = ctx.node();
  for (const auto& a : node.attribute()) {
    if (a.name() == "value") {
      auto t = DecodeTensorProto(a.t());
      if (!t.ok()) return ctx.Invalid(t.status().message());
      return *t;
    }
    if (a.name() == "value_float") {
      HostTensor t = HostTensor::Zeros(DType::kF32, {});
      t.SetDouble(0, a.f());
      return t;
    }
    if (a.name() == "value_floats") {
      HostTensor t = HostTensor::Zeros(DType::kF32, {static_cast<int64_t>(a.floats_size())});
      for (int i = 0; i < a.floats_size(); ++i) t.SetDouble(i, a.floats(i));
      return t;
    }
    if (a.name() == "value_int") {
      HostTensor t = HostTensor::Zeros(DType::kI64, {});
      t.SetInt(0, a.i());
      return t;
    }
    if (a.name() == "value_ints") {
      HostTensor t = HostTensor::Zeros(DType::kI64, {static_cast<int64_t>(a.ints_size())});
      for (int i = 0; i < a.ints_size(); ++i) t.SetInt(i, a.ints(i));
      return t;
    }
  }
  return ctx.Unsupported("only tensor, float and int constants are supported");
}

namespace {

// Folding rules (registered below): each binds every output as a constant
// and returns true, or returns false when it cannot fold this node (the
// importer then lowers it).

absl::StatusOr<bool> FoldShape(NodeContext& ctx) {
  const Shape& in = ctx.InputValue(0).shape;
  int64_t rank = static_cast<int64_t>(in.size());
  OC_ASSIGN_OR_RETURN(int64_t start, ctx.AttrInt("start", 0));
  OC_ASSIGN_OR_RETURN(int64_t end, ctx.AttrInt("end", rank));
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  if (end <= start) return ctx.Unsupported("the shape slice is empty");
  HostTensor t = HostTensor::Zeros(DType::kI64, {end - start});
  for (int64_t i = start; i < end; ++i) t.SetInt(i - start, in[i]);
  ctx.BindConstantOutput(0, std::move(t));
  return true;
}

absl::StatusOr<bool> FoldSize(NodeContext& ctx) {
  HostTensor t = HostTensor::Zeros(DType::kI64, {});
  t.SetInt(0, ctx.InputValue(0).NumElements());
  ctx.BindConstantOutput(0, std::move(t));
  return true;
}

absl::StatusOr<bool> FoldIdentity(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  ctx.BindConstantOutput(0, x);
  if (ctx.HasOutput(1)) {  // the Dropout mask: all true in inference
    HostTensor mask = HostTensor::Zeros(DType::kBool, x.shape);
    for (int64_t i = 0; i < mask.NumElements(); ++i) mask.SetInt(i, 1);
    ctx.BindConstantOutput(1, std::move(mask));
  }
  return true;
}

absl::StatusOr<bool> FoldReshape(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> spec, ctx.opset() >= 5
                                                     ? ctx.ConstantInts(1, "shape")
                                                     : ctx.AttrInts("shape", std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t allowzero, ctx.AttrInt("allowzero", 0));
  OC_ASSIGN_OR_RETURN(Shape shape, ReshapeTarget(ctx, x.shape, spec, allowzero != 0));
  ctx.BindConstantOutput(0, Reshaped(x, shape));
  return true;
}

absl::StatusOr<bool> FoldReshapeLike(NodeContext& ctx) {
  const std::string& op = ctx.op_type();
  const HostTensor x = ctx.ConstantInput(0);
  absl::StatusOr<Shape> shape = op == "Flatten"   ? FlattenShape(ctx, x.shape)
                                : op == "Squeeze" ? SqueezeShape(ctx, x.shape)
                                                  : UnsqueezeShape(ctx, x.shape);
  if (!shape.ok()) return shape.status();
  ctx.BindConstantOutput(0, Reshaped(x, *shape));
  return true;
}

absl::StatusOr<bool> FoldCast(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  OC_ASSIGN_OR_RETURN(int64_t to, ctx.AttrInt("to", std::nullopt));
  auto dtype = DTypeFromOnnx(static_cast<int32_t>(to));
  if (!dtype.ok()) return ctx.Unsupported(dtype.status().message());
  HostTensor out = HostTensor::Zeros(*dtype, x.shape);
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    if (IsFloat(x.dtype)) {
      out.SetDouble(i, x.GetDouble(i));
    } else {
      out.SetInt(i, x.GetInt(i));
    }
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldConcat(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  Shape shape;
  OC_ASSIGN_OR_RETURN(int64_t axis, ConcatAxis(ctx, &shape));
  HostTensor out = HostTensor::Zeros(x.dtype, shape);
  const int64_t elem = DTypeSize(x.dtype);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  int64_t offset = 0;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.HasInput(i)) continue;
    HostTensor part = ctx.ConstantInput(i);
    if (part.dtype != x.dtype) return ctx.Invalid("inputs differ in element type");
    int64_t rows = part.shape[axis] * inner;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(out.bytes.data() + (o * shape[axis] * inner + offset) * elem,
                  part.bytes.data() + o * rows * elem, rows * elem);
    }
    offset += rows;
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldGather(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  OC_ASSIGN_OR_RETURN(GatherSpec g, GatherFor(ctx, x.shape));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < g.axis; ++d) outer *= x.shape[d];
  for (size_t d = g.axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  HostTensor out = HostTensor::Zeros(x.dtype, g.shape);
  const int64_t elem = DTypeSize(x.dtype), n = static_cast<int64_t>(g.indices.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < n; ++k) {
      std::memcpy(out.bytes.data() + ((o * n + k) * inner) * elem,
                  x.bytes.data() + ((o * x.shape[g.axis] + g.indices[k]) * inner) * elem,
                  inner * elem);
    }
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldSlice(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  OC_ASSIGN_OR_RETURN(SliceSpec s, SliceFor(ctx, x.shape));
  std::vector<int64_t> strides = Strides(x.shape);
  int64_t offset = 0;
  for (size_t d = 0; d < strides.size(); ++d) {
    offset += s.starts[d] * strides[d];
    strides[d] *= s.steps[d];
  }
  ctx.BindConstantOutput(0, StridedGather(x, s.shape, offset, strides));
  return true;
}

absl::StatusOr<bool> FoldTranspose(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, TransposePerm(ctx, x.shape));
  std::vector<int64_t> in_strides = Strides(x.shape), strides;
  Shape shape;
  for (int64_t p : perm) {
    shape.push_back(x.shape[p]);
    strides.push_back(in_strides[p]);
  }
  ctx.BindConstantOutput(0, StridedGather(x, shape, 0, strides));
  return true;
}

absl::StatusOr<bool> FoldExpand(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> target, ctx.ConstantInts(1, "shape"));
  OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, x.shape, target));
  ctx.BindConstantOutput(0, StridedGather(x, shape, 0, BroadcastStrides(x.shape, shape)));
  return true;
}

absl::StatusOr<bool> FoldConstantOfShape(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.ConstantInts(0, "shape"));
  HostTensor value = HostTensor::Zeros(DType::kF32, {1});
  if (const auto* a = ctx.FindAttr("value")) {
    auto t = DecodeTensorProto(a->t());
    if (!t.ok()) return ctx.Invalid(t.status().message());
    value = *t;
  }
  OC_RETURN_IF_ERROR(CheckStaticDims(dims, value.dtype, "ConstantOfShape's result"));
  HostTensor out = HostTensor::Zeros(value.dtype, dims);
  const int64_t elem = DTypeSize(value.dtype);
  for (int64_t i = 0; i < out.NumElements(); ++i) {
    std::memcpy(out.bytes.data() + i * elem, value.bytes.data(), elem);
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldRange(NodeContext& ctx) {
  HostTensor start = ctx.ConstantInput(0), limit = ctx.ConstantInput(1),
             delta = ctx.ConstantInput(2);
  double s = start.GetDouble(0), l = limit.GetDouble(0), d = delta.GetDouble(0);
  if (d == 0) return ctx.Invalid("delta is 0");
  int64_t n = SaturatingInt(std::max(0.0, std::ceil((l - s) / d)));
  OC_RETURN_IF_ERROR(CheckStaticDims({n}, start.dtype, "Range's result"));
  HostTensor out = HostTensor::Zeros(start.dtype, {n});
  for (int64_t i = 0; i < n; ++i) {
    if (IsFloat(start.dtype)) {
      out.SetDouble(i, s + static_cast<double>(i) * d);
    } else {
      // Wraps like the target's integers instead of overflowing.
      out.SetInt(i, static_cast<int64_t>(static_cast<uint64_t>(start.GetInt(0)) +
                                         static_cast<uint64_t>(i) *
                                             static_cast<uint64_t>(delta.GetInt(0))));
    }
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

// The indices of the nonzero elements, (rank, count).
absl::StatusOr<bool> FoldNonZero(NodeContext& ctx) {
  const HostTensor x = ctx.ConstantInput(0);
  std::vector<int64_t> hits;
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    if (IsFloat(x.dtype) ? x.GetDouble(i) != 0.0 : x.GetInt(i) != 0) hits.push_back(i);
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size()), n = static_cast<int64_t>(hits.size());
  const std::vector<int64_t> strides = Strides(x.shape);
  HostTensor out = HostTensor::Zeros(DType::kI64, {rank, n});
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t d = 0; d < rank; ++d) out.SetInt(d * n + k, hits[k] / strides[d] % x.shape[d]);
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldWhere(NodeContext& ctx) {
  HostTensor c = ctx.ConstantInput(0), a = ctx.ConstantInput(1), b = ctx.ConstantInput(2);
  OC_ASSIGN_OR_RETURN(Shape ab, BroadcastShapes(ctx, a.shape, b.shape));
  OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, c.shape, ab));
  HostTensor ec = StridedGather(c, shape, 0, BroadcastStrides(c.shape, shape));
  HostTensor ea = StridedGather(a, shape, 0, BroadcastStrides(a.shape, shape));
  HostTensor eb = StridedGather(b, shape, 0, BroadcastStrides(b.shape, shape));
  HostTensor out = HostTensor::Zeros(a.dtype, shape);
  const int64_t elem = DTypeSize(a.dtype);
  for (int64_t i = 0; i < out.NumElements(); ++i) {
    const HostTensor& src = ec.GetInt(i) ? ea : eb;
    std::memcpy(out.bytes.data() + i * elem, src.bytes.data() + i * elem, elem);
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldUnary(NodeContext& ctx) {
  const std::string& op = ctx.op_type();
  const HostTensor x = ctx.ConstantInput(0);
  HostTensor out = HostTensor::Zeros(x.dtype, x.shape);
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    if (!IsFloat(x.dtype)) {
      int64_t v = x.GetInt(i);
      if (op == "Neg") v = -v;
      else if (op == "Abs") v = v < 0 ? -v : v;
      else if (op == "Not") v = !v;
      else if (op != "Floor" && op != "Ceil") return false;
      out.SetInt(i, v);
      continue;
    }
    float v = static_cast<float>(x.GetDouble(i));
    if (op == "Neg") v = -v;
    else if (op == "Sqrt") v = std::sqrt(v);
    else if (op == "Abs") v = std::fabs(v);
    else if (op == "Floor") v = std::floor(v);
    else if (op == "Ceil") v = std::ceil(v);
    else if (op == "Reciprocal") v = 1.0f / v;
    else return false;
    out.SetDouble(i, v);
  }
  ctx.BindConstantOutput(0, std::move(out));
  return true;
}

absl::StatusOr<bool> FoldElementwiseArithmetic(NodeContext& ctx) {
  if (ctx.num_inputs() != 2) return false;
  return FoldArithmetic(ctx, ctx.op_type());
}

}  // namespace

void RegisterFoldingRules(std::unordered_map<std::string, OnnxOpRules>& table) {
  // Shape, Size, EyeLike and the windows need static shapes only; the others
  // constant inputs.
  table["Shape"].fold = {FoldShape, false};
  table["Size"].fold = {FoldSize, false};
  table["EyeLike"].fold = {FoldEyeLike, false};
  table["HannWindow"].fold = {FoldWindow, false};
  table["HammingWindow"].fold = {FoldWindow, false};
  table["BlackmanWindow"].fold = {FoldWindow, false};
  table["Identity"].fold = {FoldIdentity, true};
  table["Dropout"].fold = {FoldIdentity, true};
  table["Reshape"].fold = {FoldReshape, true};
  table["Flatten"].fold = {FoldReshapeLike, true};
  table["Squeeze"].fold = {FoldReshapeLike, true};
  table["Unsqueeze"].fold = {FoldReshapeLike, true};
  table["Cast"].fold = {FoldCast, true};
  table["Concat"].fold = {FoldConcat, true};
  table["Gather"].fold = {FoldGather, true};
  table["Slice"].fold = {FoldSlice, true};
  table["Transpose"].fold = {FoldTranspose, true};
  table["Expand"].fold = {FoldExpand, true};
  table["ConstantOfShape"].fold = {FoldConstantOfShape, true};
  table["Range"].fold = {FoldRange, true};
  table["NonZero"].fold = {FoldNonZero, true};
  table["Where"].fold = {FoldWhere, true};
  table["Neg"].fold = {FoldUnary, true};
  table["Sqrt"].fold = {FoldUnary, true};
  table["Abs"].fold = {FoldUnary, true};
  table["Floor"].fold = {FoldUnary, true};
  table["Ceil"].fold = {FoldUnary, true};
  table["Not"].fold = {FoldUnary, true};
  table["Reciprocal"].fold = {FoldUnary, true};
  table["Add"].fold = {FoldElementwiseArithmetic, true};
  table["Sub"].fold = {FoldElementwiseArithmetic, true};
  table["Mul"].fold = {FoldElementwiseArithmetic, true};
  table["Div"].fold = {FoldElementwiseArithmetic, true};
  table["Equal"].fold = {FoldElementwiseArithmetic, true};
  table["Less"].fold = {FoldElementwiseArithmetic, true};
  table["Greater"].fold = {FoldElementwiseArithmetic, true};
  // What a loop's condition is computed from (unroll_loop.cc).
  for (const char* op : {"LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Min", "Max"}) {
    table[op].fold = {FoldElementwiseArithmetic, true};
  }
}

}  // namespace oc
