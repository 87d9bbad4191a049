// Lowering of the quantization ops with exact integer semantics:
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, and QLinearMatMul / QLinearConv as an integer product
// followed by a requantization. Scales and zero points may be computed at
// run time (they fix no shape).
#include <algorithm>
#include <vector>

#include "compiler/import/node_context.h"
#include "compiler/import/shape_rules.h"
#include "compiler/ir/printer.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

bool Is8Bit(DType t) { return t == DType::kU8 || t == DType::kI8; }

absl::Status Require(const NodeContext& ctx, bool ok, const std::string& what) {
  return ok ? absl::OkStatus() : ctx.Unsupported(what);
}

// The axis a per-axis scale applies to, or -1 for a per-tensor one.
absl::StatusOr<int64_t> QuantAxis(const NodeContext& ctx, int scale_input, const Shape& x) {
  const Value& scale = ctx.InputValue(scale_input);
  if (scale.dtype != DType::kF32) return ctx.Unsupported("scales must be float32");
  if (scale.NumElements() == 1 && scale.shape.size() <= 1) return int64_t{-1};
  if (scale.shape.size() != 1) return ctx.Invalid("the scale must be a scalar or 1-D");
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 1));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, static_cast<int64_t>(x.size())));
  if (scale.shape[0] != x[axis]) return ctx.Invalid("the scale does not match the axis");
  return axis;
}

absl::Status CheckZeroPoint(const NodeContext& ctx, int input, int scale_input) {
  if (!ctx.HasInput(input)) return absl::OkStatus();
  if (ctx.InputValue(input).NumElements() != ctx.InputValue(scale_input).NumElements()) {
    return ctx.Invalid("the zero point and the scale differ in size");
  }
  return absl::OkStatus();
}

// The attributes of QuantizeLinear-21 and DequantizeLinear-21/23 beyond
// their defaults: blocked quantization and a precision are refused; an
// output_dtype is returned (0 when absent).
absl::StatusOr<int64_t> NewerQuantAttributes(const NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(int64_t block_size, ctx.AttrInt("block_size", 0));
  OC_ASSIGN_OR_RETURN(int64_t precision, ctx.AttrInt("precision", 0));
  OC_ASSIGN_OR_RETURN(int64_t output_dtype, ctx.AttrInt("output_dtype", 0));
  if (block_size != 0) return ctx.Unsupported("blocked quantization (block_size) is not supported");
  if (precision != 0) return ctx.Unsupported("the precision attribute is not supported");
  return output_dtype;
}

absl::Status LowerQuantize(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_RETURN_IF_ERROR(Require(ctx, x.dtype == DType::kF32, "only float32 input is supported"));
  OC_ASSIGN_OR_RETURN(int64_t output_dtype, NewerQuantAttributes(ctx));
  DType out = ctx.HasInput(2) ? ctx.InputValue(2).dtype : DType::kU8;
  if (output_dtype != 0) {  // QuantizeLinear-21: the type without a zero point
    OC_ASSIGN_OR_RETURN(DType named, DTypeFromOnnx(static_cast<int32_t>(output_dtype)));
    if (ctx.HasInput(2) && named != out) return ctx.Invalid("output_dtype and the zero point differ in type");
    out = named;
  }
  OC_RETURN_IF_ERROR(Require(ctx, Is8Bit(out), "only uint8 and int8 outputs are supported"));
  OC_ASSIGN_OR_RETURN(int64_t axis, QuantAxis(ctx, 1, x.shape));
  OC_RETURN_IF_ERROR(CheckZeroPoint(ctx, 2, 1));
  std::vector<ValueId> operands = {ctx.Input(0), ctx.Input(1)};
  if (ctx.HasInput(2)) operands.push_back(ctx.Input(2));
  ValueId y = ctx.NewResult(0, out, x.shape);
  Statement& s = ctx.Emit(OpKind::kQuantizeLinear, operands, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

// Blocked DequantizeLinear-21 (block_size along `axis`) of constants. Scales
// and zero points that vary along one axis only (one block per weight row of
// a Gemm, say) become a per-axis DequantizeLinear, which the 8-bit and 4-bit
// kernels take; others are evaluated here into float32 constants, each
// element (x - zp) * scale in float32 as ONNX defines it.
absl::Status LowerBlockedDequantize(NodeContext& ctx, int64_t block_size) {
  if (!ctx.IsConstantInput(0) || !ctx.IsConstantInput(1) || (ctx.HasInput(2) && !ctx.IsConstantInput(2))) {
    return ctx.Unsupported("blocked quantization (block_size) of values computed at run time is not supported");
  }
  const HostTensor x = ctx.ConstantInput(0), scale = ctx.ConstantInput(1);
  const HostTensor zp = ctx.HasInput(2) ? ctx.ConstantInput(2) : HostTensor::Zeros(x.dtype, scale.shape);
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", 1));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, static_cast<int64_t>(x.shape.size())));
  bool shapes_ok = block_size > 0 && scale.shape.size() == x.shape.size() && zp.shape == scale.shape &&
                   scale.dtype == DType::kF32;
  for (size_t d = 0; shapes_ok && d < x.shape.size(); ++d) {
    const int64_t want = static_cast<int64_t>(d) == axis ? (x.shape[d] + block_size - 1) / block_size : x.shape[d];
    shapes_ok = scale.shape[d] == want;
  }
  if (!shapes_ok) return ctx.Invalid("the blocked scale or zero point does not match the input and block_size");
  // Element i's scale and zero point index; `varies[d]`: they change along d.
  const int64_t n = x.NumElements(), rank = static_cast<int64_t>(x.shape.size());
  std::vector<int64_t> at(static_cast<size_t>(n));
  std::vector<bool> varies(x.shape.size(), false);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, index = 0, stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t c = rest % x.shape[d] / (d == axis ? block_size : 1);
      rest /= x.shape[d];
      index += c * stride;
      stride *= scale.shape[d];
    }
    at[i] = index;
  }
  for (int64_t d = 0; d < rank; ++d) {
    for (int64_t i = 0; i < n && !varies[d]; ++i) {
      const int64_t step = NumElements(Shape(x.shape.begin() + d + 1, x.shape.end()));
      if (i / step % x.shape[d] == 0) continue;
      varies[d] = scale.GetDouble(at[i]) != scale.GetDouble(at[i - step]) || zp.GetInt(at[i]) != zp.GetInt(at[i - step]);
    }
  }
  const int64_t along = std::count(varies.begin(), varies.end(), true) == 1
                            ? std::find(varies.begin(), varies.end(), true) - varies.begin() : -1;
  if (along >= 0 || std::count(varies.begin(), varies.end(), true) == 0) {
    const int64_t len = along >= 0 ? x.shape[along] : 1;
    const int64_t step = along >= 0 ? NumElements(Shape(x.shape.begin() + along + 1, x.shape.end())) : 1;
    HostTensor s1 = HostTensor::Zeros(DType::kF32, {len}), z1 = HostTensor::Zeros(x.dtype, {len});
    for (int64_t c = 0; c < len; ++c) {
      s1.SetDouble(c, scale.GetDouble(at[c * step]));
      z1.SetInt(c, zp.GetInt(at[c * step]));
    }
    Program& p = ctx.program();
    const ValueId sv = p.AddConstant(ctx.node().name() + ".scale", DType::kF32, s1.shape, std::move(s1.bytes));
    const ValueId zv = p.AddConstant(ctx.node().name() + ".zero_point", x.dtype, z1.shape, std::move(z1.bytes));
    p.value(zv).element_bits = ctx.InputValue(0).element_bits;
    Statement& st = ctx.Emit(OpKind::kDequantizeLinear, {ctx.Input(0), sv, zv}, {ctx.NewResult(0, DType::kF32, x.shape)});
    st.attrs["axis"] = along >= 0 ? along : int64_t{-1};
    return absl::OkStatus();
  }
  HostTensor y = HostTensor::Zeros(DType::kF32, x.shape);
  for (int64_t i = 0; i < n; ++i) {
    y.SetDouble(i, static_cast<float>(x.GetInt(i) - zp.GetInt(at[i])) * static_cast<float>(scale.GetDouble(at[i])));
  }
  ctx.BindConstantOutput(0, std::move(y));
  return absl::OkStatus();
}

absl::Status LowerDequantize(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(int64_t block_size, ctx.AttrInt("block_size", 0));
  if (block_size != 0) return LowerBlockedDequantize(ctx, block_size);
  OC_RETURN_IF_ERROR(Require(ctx, Is8Bit(x.dtype) || x.dtype == DType::kI32,
                             "only uint8, int8 and int32 inputs are supported"));
  OC_ASSIGN_OR_RETURN(int64_t output_dtype, NewerQuantAttributes(ctx));
  OC_RETURN_IF_ERROR(Require(ctx, output_dtype == 0 || output_dtype == onnx::TensorProto::FLOAT,
                             "only float32 output is supported"));
  OC_ASSIGN_OR_RETURN(int64_t axis, QuantAxis(ctx, 1, x.shape));
  OC_RETURN_IF_ERROR(CheckZeroPoint(ctx, 2, 1));
  std::vector<ValueId> operands = {ctx.Input(0), ctx.Input(1)};
  if (ctx.HasInput(2)) {
    if (ctx.InputValue(2).dtype != x.dtype)
      return ctx.Invalid("x and its zero point differ in type");
    operands.push_back(ctx.Input(2));
  }
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  Statement& s = ctx.Emit(OpKind::kDequantizeLinear, operands, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
}

absl::Status LowerDynamicQuantize(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  OC_RETURN_IF_ERROR(Require(ctx, x.dtype == DType::kF32, "only float32 input is supported"));
  std::vector<ValueId> results = {ctx.NewResult(0, DType::kU8, x.shape),
                                  ctx.NewResult(1, DType::kF32, {}),
                                  ctx.NewResult(2, DType::kU8, {})};
  ctx.Emit(OpKind::kDynamicQuantizeLinear, {ctx.Input(0)}, results);
  return absl::OkStatus();
}

// The int32 product of MatMulInteger (inputs a, b, a_zp, b_zp at the given
// positions), named `suffix` (empty: output 0).
absl::StatusOr<ValueId> EmitMatMulInteger(NodeContext& ctx, int a, int b, int a_zp, int b_zp,
                                          const std::string& suffix) {
  Shape as = ctx.InputValue(a).shape, bs = ctx.InputValue(b).shape;
  OC_RETURN_IF_ERROR(Require(ctx,
                             Is8Bit(ctx.InputValue(a).dtype) && Is8Bit(ctx.InputValue(b).dtype),
                             "only 8-bit operands are supported"));
  if (as.size() < 2 || bs.size() < 2) return ctx.Unsupported("1-D operands are not supported");
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k) return ctx.Invalid("the operands do not multiply");
  OC_ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(ctx, Shape(as.begin(), as.end() - 2),
                                                   Shape(bs.begin(), bs.end() - 2)));
  if (batch.size() > 6) return ctx.Unsupported("more than 6 batch dimensions");
  std::vector<ValueId> operands = {ctx.Input(a), ctx.Input(b), kNoValue, kNoValue};
  for (auto [input, slot, len] : {std::tuple{a_zp, 2, m}, std::tuple{b_zp, 3, n}}) {
    if (!ctx.HasInput(input)) continue;
    const Value& zp = ctx.InputValue(input);
    if (zp.dtype != ctx.InputValue(slot == 2 ? a : b).dtype) {
      return ctx.Invalid("an operand and its zero point differ in type");
    }
    if (zp.NumElements() != 1 && zp.NumElements() != len) {
      return ctx.Unsupported("zero points must be per tensor, per row of A or per column of B");
    }
    operands[slot] = ctx.Input(input);
  }
  while (operands.back() == kNoValue) operands.pop_back();
  Shape out = batch;
  out.push_back(m);
  out.push_back(n);
  ValueId y =
      suffix.empty() ? ctx.NewResult(0, DType::kI32, out) : ctx.Temp(DType::kI32, out, suffix);
  Statement& s = ctx.Emit(OpKind::kMatMulInteger, operands, {y});
  s.macs = NumElements(out) * k;
  return y;
}

absl::Status LowerMatMulInteger(NodeContext& ctx) {
  return EmitMatMulInteger(ctx, 0, 1, 2, 3, "").status();
}

// The int32 convolution of ConvInteger (x, w, x_zp, w_zp at the given
// positions), named `suffix` (empty: output 0).
absl::StatusOr<ValueId> EmitConvInteger(NodeContext& ctx, int x_in, int w_in, int x_zp, int w_zp,
                                        const std::string& suffix) {
  const Value& x = ctx.InputValue(x_in);
  const Value& w = ctx.InputValue(w_in);
  OC_RETURN_IF_ERROR(
      Require(ctx, Is8Bit(x.dtype) && Is8Bit(w.dtype), "only 8-bit operands are supported"));
  if (x.shape.size() < 3 || x.shape.size() > 5 || w.shape.size() != x.shape.size()) {
    return ctx.Unsupported("only 1-D, 2-D and 3-D convolutions are supported");
  }
  OC_ASSIGN_OR_RETURN(int64_t group, ctx.AttrInt("group", 1));
  const int64_t c_in = x.shape[1], c_out = w.shape[0];
  if (group <= 0 || c_in % group != 0 || c_out % group != 0 || w.shape[1] * group != c_in) {
    return ctx.Invalid("group does not match the channels");
  }
  Shape in_spatial(x.shape.begin() + 2, x.shape.end());
  std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
  OC_ASSIGN_OR_RETURN(Window win, ResolveWindow(ctx, in_spatial, kernel, false));
  std::vector<ValueId> operands = {ctx.Input(x_in), ctx.Input(w_in), kNoValue, kNoValue};
  if (ctx.HasInput(x_zp)) {
    if (ctx.InputValue(x_zp).NumElements() != 1)
      return ctx.Unsupported("x_zero_point must be one value");
    operands[2] = ctx.Input(x_zp);
  }
  if (ctx.HasInput(w_zp)) {
    const int64_t nz = ctx.InputValue(w_zp).NumElements();
    if (nz != 1 && nz != c_out)
      return ctx.Invalid("w_zero_point must be per tensor or per channel");
    operands[3] = ctx.Input(w_zp);
  }
  while (operands.back() == kNoValue) operands.pop_back();
  Shape out = {x.shape[0], c_out};
  out.insert(out.end(), win.out_spatial.begin(), win.out_spatial.end());
  ValueId y =
      suffix.empty() ? ctx.NewResult(0, DType::kI32, out) : ctx.Temp(DType::kI32, out, suffix);
  Statement& s = ctx.Emit(OpKind::kConvInteger, operands, {y});
  s.attrs["kernel"] = win.kernel;
  s.attrs["strides"] = win.strides;
  s.attrs["dilations"] = win.dilations;
  s.attrs["pads"] = win.pads;
  s.attrs["group"] = group;
  s.macs = NumElements(out) * (c_in / group) * NumElements(kernel);
  return y;
}

absl::Status LowerConvInteger(NodeContext& ctx) {
  return EmitConvInteger(ctx, 0, 1, 2, 3, "").status();
}

// acc (int32, channels along `channel_axis`) requantized into output 0.
absl::Status EmitRequantize(NodeContext& ctx, ValueId acc, int64_t channel_axis, int a_scale,
                            int b_scale, int y_scale, int y_zp, int bias) {
  const Shape& shape = ctx.program().value(acc).shape;
  const DType out = ctx.InputValue(y_zp).dtype;
  OC_RETURN_IF_ERROR(Require(ctx, Is8Bit(out), "only uint8 and int8 outputs are supported"));
  for (int i : {a_scale, b_scale, y_scale}) {
    if (ctx.InputValue(i).dtype != DType::kF32) return ctx.Unsupported("scales must be float32");
  }
  if (ctx.InputValue(a_scale).NumElements() != 1 || ctx.InputValue(y_scale).NumElements() != 1 ||
      ctx.InputValue(y_zp).NumElements() != 1) {
    return ctx.Unsupported("only per-tensor input and output quantization is supported");
  }
  const int64_t nb = ctx.InputValue(b_scale).NumElements();
  if (nb != 1 && nb != shape[channel_axis]) return ctx.Invalid("the weight scale does not match");
  std::vector<ValueId> operands = {acc, ctx.Input(a_scale), ctx.Input(b_scale), ctx.Input(y_scale),
                                   ctx.Input(y_zp)};
  if (ctx.HasInput(bias)) {
    if (ctx.InputValue(bias).dtype != DType::kI32 ||
        ctx.InputValue(bias).NumElements() != shape[channel_axis]) {
      return ctx.Invalid("the bias must be int32 with one value per output channel");
    }
    operands.push_back(ctx.Input(bias));
  }
  ValueId y = ctx.NewResult(0, out, shape);
  Statement& s = ctx.Emit(OpKind::kRequantize, operands, {y});
  s.attrs["axis"] = channel_axis;
  return absl::OkStatus();
}

// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp).
absl::Status LowerQLinearMatMul(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(ValueId acc, EmitMatMulInteger(ctx, 0, 3, 2, 5, ".acc"));
  const int64_t rank = static_cast<int64_t>(ctx.program().value(acc).shape.size());
  return EmitRequantize(ctx, acc, rank - 1, 1, 4, 6, 7, -1);
}

// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?).
absl::Status LowerQLinearConv(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(ValueId acc, EmitConvInteger(ctx, 0, 3, 2, 5, ".acc"));
  return EmitRequantize(ctx, acc, 1, 1, 4, 6, 7, 8);
}

}  // namespace

void RegisterQuantLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["QuantizeLinear"] = LowerQuantize;
  t["DequantizeLinear"] = LowerDequantize;
  t["DynamicQuantizeLinear"] = LowerDynamicQuantize;
  t["MatMulInteger"] = LowerMatMulInteger;
  t["ConvInteger"] = LowerConvInteger;
  t["QLinearMatMul"] = LowerQLinearMatMul;
  t["QLinearConv"] = LowerQLinearConv;
}

}  // namespace oc
