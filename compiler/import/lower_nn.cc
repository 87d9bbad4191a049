// Lowering of convolutions, matrix products, normalization, pooling, softmax
// and resizing.
#include <algorithm>
#include <cmath>

#include "compiler/import/node_context.h"
#include "compiler/import/shape_rules.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

absl::Status RequireF32(const NodeContext& ctx, int input) {
  DType t = ctx.InputValue(input).dtype;
  if (t != DType::kF32) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(t), " is not supported"));
  }
  return absl::OkStatus();
}

void SetWindowAttrs(Statement& s, const Window& w) {
  s.attrs["kernel"] = w.kernel;
  s.attrs["strides"] = w.strides;
  s.attrs["dilations"] = w.dilations;
  s.attrs["pads"] = w.pads;
}

absl::Status LowerConv(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  const Value& w = ctx.InputValue(1);
  if (x.shape.size() < 3 || x.shape.size() > 5) {
    return ctx.Unsupported(absl::StrCat("only 1-D, 2-D and 3-D convolutions are supported (input ",
                                        FormatShape(x.shape), ")"));
  }
  if (w.shape.size() != x.shape.size()) return ctx.Invalid("weights and input differ in rank");
  OC_ASSIGN_OR_RETURN(int64_t group, ctx.AttrInt("group", 1));
  const int64_t c_in = x.shape[1], c_out = w.shape[0];
  if (group <= 0 || c_in % group != 0 || c_out % group != 0 || w.shape[1] * group != c_in) {
    return ctx.Invalid(absl::StrCat("group ", group, " does not match input channels ", c_in,
                                    " and weights ", FormatShape(w.shape)));
  }
  Shape in_spatial(x.shape.begin() + 2, x.shape.end());
  std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> kattr, ctx.AttrInts("kernel_shape", kernel));
  if (kattr != kernel) return ctx.Invalid("kernel_shape disagrees with the weights");
  OC_ASSIGN_OR_RETURN(Window win, ResolveWindow(ctx, in_spatial, kernel, false));
  std::vector<ValueId> operands = {ctx.Input(0), ctx.Input(1)};
  if (ctx.HasInput(2)) {
    const Value& b = ctx.InputValue(2);
    if (b.shape != Shape{c_out}) return ctx.Invalid("bias must have one value per output channel");
    operands.push_back(ctx.Input(2));
  }
  Shape out = {x.shape[0], c_out};
  out.insert(out.end(), win.out_spatial.begin(), win.out_spatial.end());
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kConv, operands, {y});
  SetWindowAttrs(s, win);
  s.attrs["group"] = group;
  s.macs = NumElements(out) * (c_in / group) * NumElements(kernel);
  return absl::OkStatus();
}

// DeformConv (2-D): X, W, offset, B?, mask?; every input may be computed at
// run time. The output's spatial shape is the convolution's, and the offsets'.
absl::Status LowerDeformConv(NodeContext& ctx) {
  for (int i = 0; i < 5; ++i) {
    if (ctx.HasInput(i)) OC_RETURN_IF_ERROR(RequireF32(ctx, i));
  }
  const Shape& x = ctx.InputValue(0).shape;
  const Shape& w = ctx.InputValue(1).shape;
  if (x.size() != 4) return ctx.Unsupported("only 2-D DeformConv (NCHW input) is supported");
  if (w.size() != 4) return ctx.Invalid("W must be 4-D (M, C / group, kH, kW)");
  OC_ASSIGN_OR_RETURN(int64_t group, ctx.AttrInt("group", 1));
  OC_ASSIGN_OR_RETURN(int64_t offset_group, ctx.AttrInt("offset_group", 1));
  if (group <= 0 || x[1] != w[1] * group || w[0] % group != 0) {
    return ctx.Invalid(absl::StrCat("group ", group, " does not match X ", FormatShape(x),
                                    " and W ", FormatShape(w)));
  }
  if (offset_group <= 0 || x[1] % offset_group != 0) {
    return ctx.Invalid(absl::StrCat("offset_group ", offset_group, " does not divide the ",
                                    x[1], " input channels"));
  }
  std::vector<int64_t> kernel(w.begin() + 2, w.end());
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> kattr, ctx.AttrInts("kernel_shape", kernel));
  if (kattr != kernel) return ctx.Invalid("kernel_shape disagrees with W");
  OC_ASSIGN_OR_RETURN(Window win, ResolveWindow(ctx, Shape(x.begin() + 2, x.end()), kernel, false));
  const int64_t taps = kernel[0] * kernel[1];
  const Shape out = {x[0], w[0], win.out_spatial[0], win.out_spatial[1]};
  if (ctx.InputValue(2).shape != Shape{x[0], offset_group * taps * 2, out[2], out[3]}) {
    return ctx.Invalid(absl::StrCat("offset ", FormatShape(ctx.InputValue(2).shape),
                                    " does not match offset_group, the kernel and the output ",
                                    FormatShape(out)));
  }
  if (ctx.HasInput(3) && ctx.InputValue(3).shape != Shape{w[0]}) {
    return ctx.Invalid("B must have one value per output channel");
  }
  if (ctx.HasInput(4) &&
      ctx.InputValue(4).shape != Shape{x[0], offset_group * taps, out[2], out[3]}) {
    return ctx.Invalid("mask must be (N, offset_group * kH * kW, oH, oW)");
  }
  std::vector<ValueId> operands = {ctx.Input(0), ctx.Input(1), ctx.Input(2)};
  operands.push_back(ctx.HasInput(3) ? ctx.Input(3) : kNoValue);
  if (ctx.HasInput(4)) operands.push_back(ctx.Input(4));
  Statement& s = ctx.Emit(OpKind::kDeformConv, operands, {ctx.NewResult(0, DType::kF32, out)});
  SetWindowAttrs(s, win);
  s.attrs["group"] = group;
  s.attrs["offset_group"] = offset_group;
  s.macs = NumElements(out) * (x[1] / group) * taps;
  return absl::OkStatus();
}

absl::Status LowerConvTranspose(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  const Value& w = ctx.InputValue(1);
  if (x.shape.size() < 3 || x.shape.size() > 5) {
    return ctx.Unsupported("only 1-D, 2-D and 3-D transposed convolutions are supported");
  }
  if (w.shape.size() != x.shape.size()) return ctx.Invalid("weights and input differ in rank");
  const size_t n = x.shape.size() - 2;
  OC_ASSIGN_OR_RETURN(int64_t group, ctx.AttrInt("group", 1));
  const int64_t c_in = x.shape[1];
  if (group <= 0 || w.shape[0] != c_in || c_in % group != 0) {
    return ctx.Invalid("group and weights do not match the input channels");
  }
  const int64_t c_out = w.shape[1] * group;
  std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ctx.AttrInts("strides", std::vector<int64_t>(n, 1)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> dil, ctx.AttrInts("dilations", std::vector<int64_t>(n, 1)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> pads, ctx.AttrInts("pads", std::vector<int64_t>(2 * n, 0)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> out_pad,
                      ctx.AttrInts("output_padding", std::vector<int64_t>(n, 0)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, ctx.AttrInts("output_shape", std::vector<int64_t>{}));
  OC_ASSIGN_OR_RETURN(std::string auto_pad, ctx.AttrString("auto_pad", "NOTSET"));
  if (strides.size() != n || dil.size() != n || pads.size() != 2 * n || out_pad.size() != n) {
    return ctx.Invalid("strides, dilations, pads or output_padding have the wrong length");
  }
  if (!out_shape.empty() && out_shape.size() == n + 2) out_shape.erase(out_shape.begin(), out_shape.begin() + 2);
  Shape out = {x.shape[0], c_out};
  for (size_t i = 0; i < n; ++i) {
    if (strides[i] <= 0 || dil[i] <= 0 || pads[i] < 0 || pads[n + i] < 0 || out_pad[i] < 0) {
      return ctx.Invalid("strides, dilations, pads and output_padding must be positive");
    }
    const int64_t full = strides[i] * (x.shape[2 + i] - 1) + out_pad[i] + (kernel[i] - 1) * dil[i] + 1;
    int64_t target = -1;
    if (!out_shape.empty()) {
      if (out_shape.size() != n) return ctx.Invalid("output_shape has the wrong length");
      target = out_shape[i];
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      target = x.shape[2 + i] * strides[i];
    }
    if (target >= 0) {
      const int64_t total = full - target;
      const bool upper = auto_pad == "SAME_UPPER";
      // A target beyond the full output extends it at the end (like
      // output_padding): positions no input reaches hold the bias.
      pads[i] = total < 0 ? 0 : (upper ? total / 2 : total - total / 2);
      pads[n + i] = total - pads[i];
    }
    int64_t size = full - pads[i] - pads[n + i];
    if (size <= 0) return ctx.Invalid("the output would be empty");
    out.push_back(size);
  }
  std::vector<ValueId> operands = {ctx.Input(0), ctx.Input(1)};
  if (ctx.HasInput(2)) {
    if (ctx.InputValue(2).shape != Shape{c_out}) return ctx.Invalid("bias has the wrong shape");
    operands.push_back(ctx.Input(2));
  }
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kConvTranspose, operands, {y});
  s.attrs["kernel"] = kernel;
  s.attrs["strides"] = strides;
  s.attrs["dilations"] = dil;
  s.attrs["pads"] = pads;
  s.attrs["group"] = group;
  s.macs = x.NumElements() * (c_out / group) * NumElements(kernel);
  return absl::OkStatus();
}

absl::Status LowerGemm(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Shape& a = ctx.InputValue(0).shape;
  const Shape& b = ctx.InputValue(1).shape;
  if (a.size() != 2 || b.size() != 2) return ctx.Invalid("A and B must be matrices");
  OC_ASSIGN_OR_RETURN(int64_t ta, ctx.AttrInt("transA", 0));
  OC_ASSIGN_OR_RETURN(int64_t tb, ctx.AttrInt("transB", 0));
  OC_ASSIGN_OR_RETURN(float alpha, ctx.AttrFloat("alpha", 1.0f));
  OC_ASSIGN_OR_RETURN(float beta, ctx.AttrFloat("beta", 1.0f));
  const int64_t m = ta ? a[1] : a[0], k = ta ? a[0] : a[1];
  const int64_t kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
  if (k != kb) {
    return ctx.Invalid(absl::StrCat("A ", FormatShape(a), " and B ", FormatShape(b),
                                    " do not multiply"));
  }
  std::vector<ValueId> operands = {ctx.Input(0), ctx.Input(1)};
  if (ctx.HasInput(2)) {
    const Shape& c = ctx.InputValue(2).shape;
    OC_ASSIGN_OR_RETURN(Shape bc, BroadcastShapes(ctx, c, {m, n}));
    if (bc != Shape{m, n} || c.size() > 2) return ctx.Invalid("C does not broadcast to (M, N)");
    operands.push_back(ctx.Input(2));
  }
  ValueId y = ctx.NewResult(0, DType::kF32, {m, n});
  Statement& s = ctx.Emit(OpKind::kGemm, operands, {y});
  s.attrs["trans_a"] = ta ? int64_t{1} : int64_t{0};
  s.attrs["trans_b"] = tb ? int64_t{1} : int64_t{0};
  s.attrs["alpha"] = alpha;
  s.attrs["beta"] = beta;
  s.macs = m * n * k;
  return absl::OkStatus();
}

absl::Status LowerMatMul(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  Shape a = ctx.InputValue(0).shape, b = ctx.InputValue(1).shape;
  if (a.empty() || b.empty()) return ctx.Invalid("operands must have rank >= 1");
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k) return ctx.Invalid("the operands do not multiply");
  OC_ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(ctx, Shape(a.begin(), a.end() - 2),
                                                   Shape(b.begin(), b.end() - 2)));
  if (batch.size() > 6) return ctx.Unsupported("more than 6 batch dimensions");
  Shape out = batch;
  if (!a_vec) out.push_back(m);
  if (!b_vec) out.push_back(n);
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kMatMul, {ctx.Input(0), ctx.Input(1)}, {y});
  s.macs = NumElements(batch) * m * n * k;
  return absl::OkStatus();
}

// BatchNormalization with parameters computed at run time: the per-channel
// scale and bias are computed by elementwise statements first.
absl::Status LowerRuntimeBatchNorm(NodeContext& ctx, float eps) {
  const int64_t c = ctx.InputValue(0).shape[1];
  for (int i = 1; i <= 4; ++i) {
    OC_RETURN_IF_ERROR(RequireF32(ctx, i));
    if (ctx.InputValue(i).shape != Shape{c}) {
      return ctx.Invalid("scale, B, mean and var need one value per channel");
    }
  }
  // scale' = scale / sqrt(var + eps), bias' = B - mean * scale'
  auto binary = [&](OpKind op, ValueId a, ValueId b, const char* name) {
    ValueId r = ctx.Temp(DType::kF32, {c}, name);
    ctx.Emit(op, {a, b}, {r});
    return r;
  };
  ValueId eps_c = ctx.ScalarConstant(DType::kF32, eps, ".eps");
  ValueId var_eps = binary(OpKind::kAdd, ctx.Input(4), eps_c, ".var_eps");
  ValueId std_dev = ctx.Temp(DType::kF32, {c}, ".std");
  ctx.Emit(OpKind::kSqrt, {var_eps}, {std_dev});
  ValueId scale = binary(OpKind::kDiv, ctx.Input(1), std_dev, ".scale");
  ValueId shift = binary(OpKind::kMul, ctx.Input(3), scale, ".mean_scaled");
  ValueId bias = binary(OpKind::kSub, ctx.Input(2), shift, ".bias");
  ValueId y = ctx.NewResult(0, DType::kF32, ctx.InputValue(0).shape);
  ctx.Emit(OpKind::kChannelAffine, {ctx.Input(0), scale, bias}, {y});
  return absl::OkStatus();
}

// Det of the trailing n x n matrices.
absl::Status LowerDet(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Shape& x = ctx.InputValue(0).shape;
  if (x.size() < 2 || x[x.size() - 1] != x[x.size() - 2]) {
    return ctx.Invalid("the input must hold square matrices");
  }
  const int64_t n = x.back();
  ValueId y = ctx.NewResult(0, DType::kF32, Shape(x.begin(), x.end() - 2));
  Statement& s = ctx.Emit(OpKind::kDet, {ctx.Input(0)}, {y});
  s.scratch_bytes = n * n * 4;
  s.macs = NumElements(x) * n / 3;
  return absl::OkStatus();
}

absl::Status LowerBatchNorm(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  for (int i = 1; i < ctx.num_outputs(); ++i) {
    if (ctx.HasOutput(i)) return ctx.Unsupported("training-mode outputs are not supported");
  }
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 2) return ctx.Invalid("the input needs a channel dimension");
  const int64_t c = x.shape[1];
  if (ctx.opset() < 7) {
    OC_ASSIGN_OR_RETURN(int64_t spatial, ctx.AttrInt("spatial", 1));
    if (!spatial) return ctx.Unsupported("spatial = 0 is not supported");
  }
  OC_ASSIGN_OR_RETURN(float eps, ctx.AttrFloat("epsilon", 1e-5f));
  for (int i = 1; i <= 4; ++i) {
    if (!ctx.IsConstantInput(i)) return LowerRuntimeBatchNorm(ctx, eps);
  }
  OC_ASSIGN_OR_RETURN(std::vector<float> gamma, ctx.ConstantFloats(1, "scale"));
  OC_ASSIGN_OR_RETURN(std::vector<float> beta, ctx.ConstantFloats(2, "B"));
  OC_ASSIGN_OR_RETURN(std::vector<float> mean, ctx.ConstantFloats(3, "mean"));
  OC_ASSIGN_OR_RETURN(std::vector<float> var, ctx.ConstantFloats(4, "var"));
  if (static_cast<int64_t>(gamma.size()) != c || static_cast<int64_t>(beta.size()) != c ||
      static_cast<int64_t>(mean.size()) != c || static_cast<int64_t>(var.size()) != c) {
    return ctx.Invalid("scale, B, mean and var need one value per channel");
  }
  // y = (x - mean) / sqrt(var + eps) * gamma + beta = x * scale + bias
  HostTensor scale = HostTensor::Zeros(DType::kF32, {c});
  HostTensor bias = HostTensor::Zeros(DType::kF32, {c});
  for (int64_t i = 0; i < c; ++i) {
    float sc = gamma[i] / std::sqrt(var[i] + eps);
    scale.SetDouble(i, sc);
    bias.SetDouble(i, beta[i] - mean[i] * sc);
  }
  Program& p = ctx.program();
  ValueId sv = p.AddConstant(ctx.node().name() + ".scale", DType::kF32, {c}, scale.bytes);
  ValueId bv = p.AddConstant(ctx.node().name() + ".bias", DType::kF32, {c}, bias.bytes);
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  ctx.Emit(OpKind::kChannelAffine, {ctx.Input(0), sv, bv}, {y});
  return absl::OkStatus();
}

absl::Status LowerPool(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const bool is_max = ctx.op_type() == "MaxPool";
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 3 || x.shape.size() > 5) {
    return ctx.Unsupported("only 1-D, 2-D and 3-D pooling is supported");
  }
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ctx.AttrInts("kernel_shape", std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t ceil_mode, ctx.AttrInt("ceil_mode", 0));
  OC_ASSIGN_OR_RETURN(int64_t storage_order, ctx.AttrInt("storage_order", 0));
  Shape in_spatial(x.shape.begin() + 2, x.shape.end());
  OC_ASSIGN_OR_RETURN(Window win, ResolveWindow(ctx, in_spatial, kernel, ceil_mode != 0));
  Shape out = {x.shape[0], x.shape[1]};
  out.insert(out.end(), win.out_spatial.begin(), win.out_spatial.end());
  std::vector<ValueId> results = {ctx.NewResult(0, DType::kF32, out)};
  if (is_max && ctx.HasOutput(1)) results.push_back(ctx.NewResult(1, DType::kI64, out));
  Statement& s =
      ctx.Emit(is_max ? OpKind::kMaxPool : OpKind::kAveragePool, {ctx.Input(0)}, results);
  SetWindowAttrs(s, win);
  if (is_max) s.attrs["storage_order"] = storage_order ? int64_t{1} : int64_t{0};
  if (!is_max) {
    OC_ASSIGN_OR_RETURN(int64_t include, ctx.AttrInt("count_include_pad", 0));
    s.attrs["count_include_pad"] = include ? int64_t{1} : int64_t{0};
  }
  return absl::OkStatus();
}

// LpPool: (sum over the window of |x|^p)^(1/p), as |x|^p, an average pool
// that counts the padding (the window's sum over its size), times the
// window size, then the p-th root.
absl::Status LowerLpPool(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 3 || x.shape.size() > 5) {
    return ctx.Unsupported("only 1-D, 2-D and 3-D pooling is supported");
  }
  OC_ASSIGN_OR_RETURN(int64_t p, ctx.AttrInt("p", 2));
  if (p < 1 || p > 64) return ctx.Unsupported(absl::StrCat("p = ", p, " is not supported (1 to 64)"));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ctx.AttrInts("kernel_shape", std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t ceil_mode, ctx.AttrInt("ceil_mode", 0));
  if (ceil_mode != 0) return ctx.Unsupported("ceil_mode is not supported");
  Shape in_spatial(x.shape.begin() + 2, x.shape.end());
  OC_ASSIGN_OR_RETURN(Window win, ResolveWindow(ctx, in_spatial, kernel, false));
  Shape out = {x.shape[0], x.shape[1]};
  out.insert(out.end(), win.out_spatial.begin(), win.out_spatial.end());
  int64_t window = 1;
  for (int64_t k : win.kernel) window *= k;
  auto emit = [&](OpKind op, std::vector<ValueId> operands, const Shape& shape, const char* name) {
    ValueId r = name ? ctx.Temp(DType::kF32, shape, name) : ctx.NewResult(0, DType::kF32, shape);
    ctx.Emit(op, std::move(operands), {r});
    return r;
  };
  ValueId powered = p == 2 ? emit(OpKind::kMul, {ctx.Input(0), ctx.Input(0)}, x.shape, ".squared")
                           : emit(OpKind::kAbs, {ctx.Input(0)}, x.shape, ".abs");
  if (p > 2) {
    powered = emit(OpKind::kPow, {powered, ctx.ScalarConstant(DType::kF32, static_cast<double>(p), ".p")},
                   x.shape, ".powered");
  }
  ValueId mean = ctx.Temp(DType::kF32, out, ".mean");
  Statement& s = ctx.Emit(OpKind::kAveragePool, {powered}, {mean});
  SetWindowAttrs(s, win);
  s.attrs["count_include_pad"] = int64_t{1};
  ValueId count = ctx.ScalarConstant(DType::kF32, static_cast<double>(window), ".window");
  if (p == 1) {
    emit(OpKind::kMul, {mean, count}, out, nullptr);
    return absl::OkStatus();
  }
  ValueId sum = emit(OpKind::kMul, {mean, count}, out, ".sum");
  if (p == 2) {
    emit(OpKind::kSqrt, {sum}, out, nullptr);
  } else {
    emit(OpKind::kPow, {sum, ctx.ScalarConstant(DType::kF32, 1.0 / static_cast<double>(p), ".root")}, out,
         nullptr);
  }
  return absl::OkStatus();
}

absl::Status LowerGlobalPool(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() < 3) return ctx.Invalid("the input needs spatial dimensions");
  Shape out = {x.shape[0], x.shape[1]};
  out.resize(x.shape.size(), 1);
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  ctx.Emit(ctx.op_type() == "GlobalMaxPool" ? OpKind::kGlobalMaxPool : OpKind::kGlobalAveragePool,
           {ctx.Input(0)}, {y});
  return absl::OkStatus();
}

absl::Status LowerSoftmax(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  const bool coerce = ctx.opset() < 13;
  OC_ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", coerce ? 1 : -1));
  if (rank == 0) return ctx.Invalid("the input is a scalar");
  OC_ASSIGN_OR_RETURN(axis, NormalizeAxis(ctx, axis, rank));
  ValueId y = ctx.NewResult(0, DType::kF32, x.shape);
  const OpKind kind = ctx.op_type() == "LogSoftmax" ? OpKind::kLogSoftmax
                      : ctx.op_type() == "Hardmax"  ? OpKind::kHardmax
                                                    : OpKind::kSoftmax;
  Statement& s = ctx.Emit(kind, {ctx.Input(0)}, {y});
  s.attrs["axis"] = axis;
  s.attrs["coerce_2d"] = coerce ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

// Resize (opset 10+) and Upsample: nearest and (bi)linear over the two
// innermost dims of a 4-D tensor.
absl::Status LowerResize(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  if (x.shape.size() != 4) return ctx.Unsupported("only 4-D (NCHW) resizing is supported");
  OC_ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", "nearest"));
  std::string coord = "asymmetric", nearest = "floor";
  std::vector<float> scales;
  Shape out;
  const bool upsample = ctx.op_type() == "Upsample";
  if (upsample && ctx.opset() < 7) {
    return ctx.Unsupported("Upsample before opset 7 (height_scale, width_scale) is not supported");
  }
  if (upsample || ctx.opset() < 11) {
    if (upsample && ctx.opset() < 9) {
      OC_ASSIGN_OR_RETURN(scales, ctx.AttrFloats("scales", std::nullopt));
    } else {
      OC_ASSIGN_OR_RETURN(scales, ctx.ConstantFloats(1, "scales"));
    }
    if (mode == "bilinear") mode = "linear";
  } else {
    OC_ASSIGN_OR_RETURN(coord, ctx.AttrString("coordinate_transformation_mode", "half_pixel"));
    OC_ASSIGN_OR_RETURN(nearest, ctx.AttrString("nearest_mode", "round_prefer_floor"));
    bool has_scales = ctx.HasInput(2) && !(ctx.IsConstantInput(2) && ctx.InputValue(2).NumElements() == 0);
    if (ctx.HasInput(2) && ctx.IsConstantInput(2) && ctx.InputValue(2).NumElements() == 0) has_scales = false;
    // Resize-18: scales or sizes may list only the `axes`.
    std::vector<int64_t> axes = {0, 1, 2, 3};
    if (ctx.opset() >= 18 && ctx.HasAttr("axes")) {
      OC_ASSIGN_OR_RETURN(axes, ctx.AttrInts("axes", std::nullopt));
      for (int64_t& a : axes) {
        OC_ASSIGN_OR_RETURN(a, NormalizeAxis(ctx, a, 4));
      }
    }
    if (has_scales) {
      OC_ASSIGN_OR_RETURN(std::vector<float> given, ctx.ConstantFloats(2, "scales"));
      if (given.size() != axes.size()) return ctx.Invalid("scales needs one value per axis");
      scales.assign(4, 1.0f);
      for (size_t i = 0; i < axes.size(); ++i) scales[axes[i]] = given[i];
    } else if (ctx.HasInput(3)) {
      OC_ASSIGN_OR_RETURN(std::vector<int64_t> given, ctx.ConstantInts(3, "sizes"));
      if (given.size() != axes.size()) return ctx.Invalid("sizes needs one value per axis");
      out = x.shape;
      for (size_t i = 0; i < axes.size(); ++i) out[axes[i]] = given[i];
      for (int i = 0; i < 4; ++i) scales.push_back(static_cast<float>(out[i]) / static_cast<float>(x.shape[i]));
      // Resize-18's keep_aspect_ratio_policy: one scale for the listed axes.
      OC_ASSIGN_OR_RETURN(std::string policy, ctx.AttrString("keep_aspect_ratio_policy", "stretch"));
      if (ctx.opset() >= 18 && policy != "stretch") {
        if (policy != "not_larger" && policy != "not_smaller") {
          return ctx.Invalid(absl::StrCat("keep_aspect_ratio_policy '", policy, "' is not valid"));
        }
        float scale = scales[axes[0]];
        for (int64_t a : axes) {
          scale = policy == "not_larger" ? std::min(scale, scales[a]) : std::max(scale, scales[a]);
        }
        for (int64_t a : axes) {
          scales[a] = scale;
          // round(scale * in), halves to even as ONNX's reference does.
          out[a] = static_cast<int64_t>(std::nearbyint(static_cast<double>(scale) * x.shape[a]));
        }
      }
    } else {
      return ctx.Invalid("neither scales nor sizes is given");
    }
    OC_ASSIGN_OR_RETURN(int64_t antialias, ctx.AttrInt("antialias", 0));
    if (ctx.opset() >= 18 && antialias != 0 && mode != "nearest" && (scales[2] < 1.0f || scales[3] < 1.0f)) {
      return ctx.Unsupported("antialiased downsampling is not supported");
    }
  }
  if (scales.size() != 4) return ctx.Invalid("scales must have 4 values");
  if (scales[0] != 1.0f || scales[1] != 1.0f) {
    return ctx.Unsupported("only the two innermost dimensions may be resized");
  }
  if (out.empty()) {
    for (int i = 0; i < 4; ++i) {
      const double size = std::floor(static_cast<double>(x.shape[i]) * scales[i]);
      // Also false for NaN: the cast below must see a representable value.
      if (!(size >= 0 && size <= static_cast<double>(kMaxTensorBytes))) {
        return ctx.Invalid(absl::StrCat("scale ", scales[i], " is out of range"));
      }
      out.push_back(static_cast<int64_t>(size));
    }
  }
  if (out[0] != x.shape[0] || out[1] != x.shape[1]) return ctx.Invalid("sizes change N or C");
  if (mode != "nearest" && mode != "linear") {
    return ctx.Unsupported(absl::StrCat("mode '", mode, "' is not supported"));
  }
  if (coord != "half_pixel" && coord != "asymmetric" && coord != "align_corners" &&
      coord != "pytorch_half_pixel" && coord != "tf_half_pixel_for_nearest") {
    return ctx.Unsupported(absl::StrCat("coordinate_transformation_mode '", coord, "' is not supported"));
  }
  if (nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" && nearest != "floor" &&
      nearest != "ceil") {
    return ctx.Invalid(absl::StrCat("nearest_mode '", nearest, "' is not valid"));
  }
  if ((upsample || ctx.opset() < 11) && (scales[2] < 1.0f || scales[3] < 1.0f) && mode == "nearest") {
    return ctx.Unsupported("downsampling with opset < 11 nearest resize is not supported");
  }
  for (int64_t d : out) {
    if (d <= 0) return ctx.Unsupported("the resized tensor would be empty");
  }
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kResize, {ctx.Input(0)}, {y});
  s.attrs["mode"] = mode;
  s.attrs["coord_mode"] = coord;
  s.attrs["nearest_mode"] = nearest;
  s.attrs["scales"] = std::vector<float>{scales[2], scales[3]};
  return absl::OkStatus();
}

absl::Status LowerGridSample(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  OC_RETURN_IF_ERROR(RequireF32(ctx, 1));
  const Shape& x = ctx.InputValue(0).shape;
  const Shape& g = ctx.InputValue(1).shape;
  if (x.size() != 4 && x.size() != 5) {
    return ctx.Unsupported("only 4-D (NCHW) and 5-D (NCDHW) GridSample is supported");
  }
  const size_t dims = x.size() - 2;
  if (g.size() != x.size() || g[0] != x[0] || g.back() != static_cast<int64_t>(dims)) {
    return ctx.Invalid(dims == 2 ? "grid must be (N, H, W, 2)" : "grid must be (N, D, H, W, 3)");
  }
  OC_ASSIGN_OR_RETURN(std::string mode,
                      ctx.AttrString("mode", ctx.opset() >= 20 ? "linear" : "bilinear"));
  OC_ASSIGN_OR_RETURN(std::string padding, ctx.AttrString("padding_mode", "zeros"));
  // GridSample-20 renamed the 2-D modes for its N-d form.
  if (ctx.opset() >= 20) {
    if (mode == "linear") {
      mode = "bilinear";
    } else if (mode == "cubic") {
      mode = "bicubic";
    } else if (mode != "nearest") {
      return ctx.Invalid(absl::StrCat("mode '", mode, "' is not valid"));
    }
  }
  OC_ASSIGN_OR_RETURN(int64_t align, ctx.AttrInt("align_corners", 0));
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") {
    return ctx.Invalid(absl::StrCat("mode '", mode, "' is not valid"));
  }
  if (padding != "zeros" && padding != "border" && padding != "reflection") {
    return ctx.Invalid(absl::StrCat("padding_mode '", padding, "' is not valid"));
  }
  if (dims == 3 && mode == "bicubic") return ctx.Unsupported("5-D GridSample in cubic mode");
  Shape out = {x[0], x[1]};
  out.insert(out.end(), g.begin() + 1, g.end() - 1);
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kGridSample, {ctx.Input(0), ctx.Input(1)}, {y});
  s.attrs["mode"] = mode;
  s.attrs["padding"] = padding;
  s.attrs["align_corners"] = align ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

absl::Status LowerRoiAlign(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  OC_RETURN_IF_ERROR(RequireF32(ctx, 1));
  const Shape& x = ctx.InputValue(0).shape;
  const Shape& rois = ctx.InputValue(1).shape;
  if (x.size() != 4) return ctx.Invalid("X must be 4-D (NCHW)");
  if (rois.size() != 2 || rois[1] != 4) return ctx.Invalid("rois must be (num_rois, 4)");
  if (ctx.InputValue(2).dtype != DType::kI64 || ctx.InputValue(2).shape != Shape{rois[0]}) {
    return ctx.Invalid("batch_indices must be int64 (num_rois)");
  }
  OC_ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", "avg"));
  OC_ASSIGN_OR_RETURN(std::string coord, ctx.AttrString("coordinate_transformation_mode",
                                                        ctx.opset() >= 16 ? "half_pixel"
                                                                          : "output_half_pixel"));
  OC_ASSIGN_OR_RETURN(int64_t oh, ctx.AttrInt("output_height", 1));
  OC_ASSIGN_OR_RETURN(int64_t ow, ctx.AttrInt("output_width", 1));
  OC_ASSIGN_OR_RETURN(int64_t ratio, ctx.AttrInt("sampling_ratio", 0));
  OC_ASSIGN_OR_RETURN(float scale, ctx.AttrFloat("spatial_scale", 1.0f));
  if ((mode != "avg" && mode != "max") || (coord != "half_pixel" && coord != "output_half_pixel") ||
      oh <= 0 || ow <= 0 || ratio < 0) {
    return ctx.Invalid("mode, coordinate_transformation_mode, output sizes or sampling_ratio is "
                       "not valid");
  }
  ValueId y = ctx.NewResult(0, DType::kF32, {rois[0], x[1], oh, ow});
  Statement& s = ctx.Emit(OpKind::kRoiAlign, {ctx.Input(0), ctx.Input(1), ctx.Input(2)}, {y});
  s.attrs["mode"] = mode;
  s.attrs["sampling_ratio"] = ratio;
  s.attrs["spatial_scale"] = scale;
  s.attrs["half_pixel"] = coord == "half_pixel" ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

// DFT along a signal axis (opsets 17 and 20), with a constant dft_length.
absl::Status LowerDft(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Shape& x = ctx.InputValue(0).shape;
  const int64_t rank = static_cast<int64_t>(x.size());
  if (rank < 3 || (x.back() != 1 && x.back() != 2)) {
    return ctx.Invalid("the input must be (batch, signal dims..., 1 or 2)");
  }
  int64_t axis = 1;
  if (ctx.opset() >= 20) {  // DFT-20: axis is input 2, default -2
    axis = -2;
    if (ctx.HasInput(2)) {
      OC_ASSIGN_OR_RETURN(std::vector<int64_t> a, ctx.ConstantInts(2, "axis"));
      if (a.size() != 1) return ctx.Invalid("axis must be one value");
      axis = a[0];
    }
  } else {
    OC_ASSIGN_OR_RETURN(axis, ctx.AttrInt("axis", 1));
  }
  if (axis < 0) axis += rank;
  if (axis < 1 || axis >= rank - 1) return ctx.Invalid("axis must be a signal dimension");
  OC_ASSIGN_OR_RETURN(int64_t inverse, ctx.AttrInt("inverse", 0));
  OC_ASSIGN_OR_RETURN(int64_t onesided, ctx.AttrInt("onesided", 0));
  int64_t len = x[axis];
  if (ctx.HasInput(1)) {
    OC_ASSIGN_OR_RETURN(std::vector<int64_t> l, ctx.ConstantInts(1, "dft_length"));
    if (l.size() != 1 || l[0] <= 0) return ctx.Invalid("dft_length must be one positive value");
    len = l[0];
  }
  if (onesided && (inverse || x.back() == 2)) {
    return ctx.Unsupported("onesided applies to real forward transforms only");
  }
  if (len > 65536) return ctx.Unsupported("dft_length above 65536 is not supported");
  Shape out = x;
  out[axis] = onesided ? len / 2 + 1 : len;
  out.back() = 2;
  std::vector<float> tw;
  for (int64_t m = 0; m < len; ++m) {
    const double angle = 6.283185307179586 * static_cast<double>(m) / static_cast<double>(len);
    tw.push_back(static_cast<float>(std::cos(angle)));
    tw.push_back(static_cast<float>(std::sin(angle)));
  }
  ValueId y = ctx.NewResult(0, DType::kF32, out);
  Statement& s = ctx.Emit(OpKind::kDft, {ctx.Input(0)}, {y});
  s.attrs["axis"] = axis;
  s.attrs["len"] = len;
  s.attrs["inverse"] = inverse ? int64_t{1} : int64_t{0};
  s.attrs["twiddles"] = tw;
  s.macs = NumElements(out) * std::min(len, x[axis]);
  return absl::OkStatus();
}

// STFT: only its constant-argument form could have static shapes, and the
// framing is not implemented; say which input is the problem.
absl::Status LowerStft(NodeContext& ctx) {
  if (ctx.HasInput(1) && !ctx.IsConstantInput(1)) {
    return ctx.Unsupported(absl::StrCat("input 'frame_step' (", ctx.node().input(1),
                                        ") is computed at run time; onnx-to-c needs it to be a "
                                        "constant because it fixes shapes in the static arena"));
  }
  return ctx.Unsupported("STFT is not supported");
}

}  // namespace

void RegisterNnLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["Conv"] = LowerConv;
  t["ConvTranspose"] = LowerConvTranspose;
  t["DeformConv"] = LowerDeformConv;
  t["Gemm"] = LowerGemm;
  t["MatMul"] = LowerMatMul;
  t["Det"] = LowerDet;
  t["GridSample"] = LowerGridSample;
  t["RoiAlign"] = LowerRoiAlign;
  t["DFT"] = LowerDft;
  t["STFT"] = LowerStft;
  t["BatchNormalization"] = LowerBatchNorm;
  t["MaxPool"] = LowerPool;
  t["AveragePool"] = LowerPool;
  t["LpPool"] = LowerLpPool;
  t["GlobalAveragePool"] = LowerGlobalPool;
  t["GlobalMaxPool"] = LowerGlobalPool;
  t["Softmax"] = LowerSoftmax;
  t["LogSoftmax"] = LowerSoftmax;
  t["Hardmax"] = LowerSoftmax;
  t["Resize"] = LowerResize;
  t["Upsample"] = LowerResize;
}

}  // namespace oc
