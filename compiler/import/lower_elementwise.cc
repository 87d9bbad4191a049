// Lowering of elementwise ops: unary, binary with numpy broadcasting on
// every numeric type, comparisons and logical ops, Where, Cast, Clip.
#include <cfloat>
#include <cmath>

#include "absl/strings/match.h"
#include "compiler/import/node_context.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

struct UnaryInfo {
  const char* onnx;
  OpKind op;
  // Attributes copied as IR alpha/beta, with their ONNX defaults.
  const char* alpha_name;
  float alpha_default;
  const char* beta_name;
  float beta_default;
};

constexpr UnaryInfo kUnary[] = {
    {"Relu", OpKind::kRelu, nullptr, 0, nullptr, 0},
    {"LeakyRelu", OpKind::kLeakyRelu, "alpha", 0.01f, nullptr, 0},
    {"Sigmoid", OpKind::kSigmoid, nullptr, 0, nullptr, 0},
    {"HardSigmoid", OpKind::kHardSigmoid, "alpha", 0.2f, "beta", 0.5f},
    {"HardSwish", OpKind::kHardSwish, nullptr, 0, nullptr, 0},
    {"Tanh", OpKind::kTanh, nullptr, 0, nullptr, 0},
    {"Sqrt", OpKind::kSqrt, nullptr, 0, nullptr, 0},
    {"Exp", OpKind::kExp, nullptr, 0, nullptr, 0},
    {"Log", OpKind::kLog, nullptr, 0, nullptr, 0},
    {"Abs", OpKind::kAbs, nullptr, 0, nullptr, 0},
    {"Neg", OpKind::kNeg, nullptr, 0, nullptr, 0},
    {"Reciprocal", OpKind::kReciprocal, nullptr, 0, nullptr, 0},
    {"Floor", OpKind::kFloor, nullptr, 0, nullptr, 0},
    {"Ceil", OpKind::kCeil, nullptr, 0, nullptr, 0},
    {"Elu", OpKind::kElu, "alpha", 1.0f, nullptr, 0},
    {"Selu", OpKind::kSelu, "alpha", 1.67326319217681884765625f, "gamma",
     1.05070102214813232421875f},
    {"Softplus", OpKind::kSoftplus, nullptr, 0, nullptr, 0},
    {"Softsign", OpKind::kSoftsign, nullptr, 0, nullptr, 0},
    {"Erf", OpKind::kErf, nullptr, 0, nullptr, 0},
    {"Round", OpKind::kRound, nullptr, 0, nullptr, 0},
    {"Sign", OpKind::kSign, nullptr, 0, nullptr, 0},
    {"Sin", OpKind::kSin, nullptr, 0, nullptr, 0},
    {"Cos", OpKind::kCos, nullptr, 0, nullptr, 0},
    {"Tan", OpKind::kTan, nullptr, 0, nullptr, 0},
    {"Asin", OpKind::kAsin, nullptr, 0, nullptr, 0},
    {"Acos", OpKind::kAcos, nullptr, 0, nullptr, 0},
    {"Atan", OpKind::kAtan, nullptr, 0, nullptr, 0},
    {"Sinh", OpKind::kSinh, nullptr, 0, nullptr, 0},
    {"Cosh", OpKind::kCosh, nullptr, 0, nullptr, 0},
    {"Asinh", OpKind::kAsinh, nullptr, 0, nullptr, 0},
    {"Acosh", OpKind::kAcosh, nullptr, 0, nullptr, 0},
    {"Atanh", OpKind::kAtanh, nullptr, 0, nullptr, 0},
    {"ThresholdedRelu", OpKind::kThresholdedRelu, "alpha", 1.0f, nullptr, 0},
    {"Celu", OpKind::kCelu, "alpha", 1.0f, nullptr, 0},
    {"Shrink", OpKind::kShrink, "lambd", 0.5f, "bias", 0.0f},
    {"Mish", OpKind::kMish, nullptr, 0, nullptr, 0},
    {"Swish", OpKind::kSwish, "alpha", 1.0f, nullptr, 0},
};

bool IsSignedInt(DType t) {
  return t == DType::kI8 || t == DType::kI16 || t == DType::kI32 || t == DType::kI64;
}
bool IsUnsignedInt(DType t) {
  return t == DType::kU8 || t == DType::kU16 || t == DType::kU32 || t == DType::kU64;
}

// Whether the runtime has a binary kernel (binary_<type>.c) for op on t.
bool HasBinaryKernel(OpKind op, DType t) {
  switch (op) {
    case OpKind::kAnd:
    case OpKind::kOr:
    case OpKind::kXor: return t == DType::kBool || IsSignedInt(t) || IsUnsignedInt(t);
    case OpKind::kBitShift: return IsUnsignedInt(t);
    case OpKind::kPRelu: return t == DType::kF32;
    case OpKind::kPow: return t != DType::kF64 && t != DType::kBool;
    case OpKind::kEqual:
    case OpKind::kLess:
    case OpKind::kLessOrEqual:
    case OpKind::kGreater:
    case OpKind::kGreaterOrEqual: return true;
    default: return t != DType::kBool;
  }
}

// Result type of a binary-kernel op on operands of type t.
DType BinaryResultType(OpKind op, DType t) {
  switch (op) {
    case OpKind::kEqual:
    case OpKind::kLess:
    case OpKind::kLessOrEqual:
    case OpKind::kGreater:
    case OpKind::kGreaterOrEqual: return DType::kBool;
    default: return t;
  }
}

// Emits `op(a, b)` (broadcasting) into output 0 of the node, or into a
// temporary named after `suffix` when `suffix` is not empty.
absl::StatusOr<ValueId> EmitBinary(NodeContext& ctx, OpKind op, ValueId a, ValueId b,
                                   const std::string& suffix) {
  Program& p = ctx.program();
  const DType t = p.value(a).dtype;
  if (p.value(b).dtype != t) return ctx.Invalid("the operands differ in element type");
  if (!HasBinaryKernel(op, t)) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(t), " is not supported"));
  }
  OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, p.value(a).shape, p.value(b).shape));
  if (shape.size() > 8) return ctx.Unsupported("rank above 8 is not supported");
  const DType rt = BinaryResultType(op, t);
  ValueId y = suffix.empty() ? ctx.NewResult(0, rt, shape) : ctx.Temp(rt, shape, suffix);
  ctx.Emit(op, {a, b}, {y});
  return y;
}

// Before opset 7, elementwise ops broadcast only with broadcast=1, lining up
// B's dims with A's from `axis` (default: A's trailing dims).
absl::StatusOr<ValueId> LegacyBroadcastOperand(NodeContext& ctx, ValueId a, ValueId b) {
  if (ctx.opset() >= 7) return b;
  Program& p = ctx.program();
  const Shape& as = p.value(a).shape;
  const Shape bs = p.value(b).shape;
  OC_ASSIGN_OR_RETURN(int64_t broadcast, ctx.AttrInt("broadcast", 0));
  if (!broadcast) {
    if (as != bs) return ctx.Invalid("the shapes differ and broadcast is not set");
    return b;
  }
  const int64_t rank = static_cast<int64_t>(as.size()), brank = static_cast<int64_t>(bs.size());
  OC_ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", rank - brank));
  if (axis < 0) axis += rank;
  if (axis < 0 || axis + brank > rank) return ctx.Invalid("axis does not fit B into A");
  Shape aligned(rank, 1);
  for (int64_t i = 0; i < brank; ++i) {
    if (bs[i] != as[axis + i] && bs[i] != 1) return ctx.Invalid("B does not broadcast to A");
    aligned[axis + i] = bs[i];
  }
  return ctx.Reshaped(b, aligned, ".aligned");
}

// Before opset 7 PRelu's slope is one value or one per channel (dim 1).
absl::StatusOr<ValueId> LegacyPReluSlope(NodeContext& ctx) {
  const Shape& x = ctx.InputValue(0).shape;
  const Shape& slope = ctx.InputValue(1).shape;
  if (ctx.opset() >= 7 || slope.size() != 1 || x.size() < 2 || slope[0] == 1 ||
      slope[0] != x[1]) {
    return ctx.Input(1);
  }
  Shape per_channel(x.size() - 1, 1);
  per_channel[0] = slope[0];
  return ctx.Reshaped(ctx.Input(1), per_channel, ".per_channel");
}

absl::Status RequireF32(const NodeContext& ctx, int input) {
  DType t = ctx.InputValue(input).dtype;
  if (t != DType::kF32) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(t), " is not supported"));
  }
  return absl::OkStatus();
}

// Neg, Abs, Relu and Sign of other numeric types, through the binary kernels.
absl::Status LowerTypedUnary(NodeContext& ctx, OpKind op) {
  const ValueId x = ctx.Input(0);
  const DType t = ctx.InputValue(0).dtype;
  const bool negatable = IsSignedInt(t) || t == DType::kF64 || t == DType::kF16;
  if (op == OpKind::kAbs && IsUnsignedInt(t)) {
    ctx.BindOutput(0, x);
    return absl::OkStatus();
  }
  if (t == DType::kBool || (op != OpKind::kRelu && op != OpKind::kSign && !negatable) ||
      (op != OpKind::kNeg && op != OpKind::kAbs && op != OpKind::kRelu && op != OpKind::kSign)) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(t), " is not supported"));
  }
  const ValueId zero = ctx.ScalarConstant(t, 0.0, ".zero");
  if (op == OpKind::kSign) {  // (x > 0) - (x < 0)
    OC_ASSIGN_OR_RETURN(ValueId pos, EmitBinary(ctx, OpKind::kGreater, x, zero, ".pos"));
    OC_ASSIGN_OR_RETURN(ValueId neg, EmitBinary(ctx, OpKind::kLess, x, zero, ".neg"));
    return EmitBinary(ctx, OpKind::kSub, ctx.CastTo(pos, t, ".pos_n"), ctx.CastTo(neg, t, ".neg_n"),
                      "")
        .status();
  }
  if (op == OpKind::kRelu) return EmitBinary(ctx, OpKind::kMax, x, zero, "").status();
  if (op == OpKind::kNeg) return EmitBinary(ctx, OpKind::kSub, zero, x, "").status();
  OC_ASSIGN_OR_RETURN(ValueId neg, EmitBinary(ctx, OpKind::kSub, zero, x, ".neg"));
  return EmitBinary(ctx, OpKind::kMax, x, neg, "").status();
}

absl::Status LowerUnary(NodeContext& ctx) {
  const UnaryInfo* info = nullptr;
  for (const UnaryInfo& u : kUnary) {
    if (ctx.op_type() == u.onnx) info = &u;
  }
  if (ctx.InputValue(0).dtype != DType::kF32) return LowerTypedUnary(ctx, info->op);
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s = ctx.Emit(info->op, {ctx.Input(0)}, {y});
  if (info->alpha_name) {
    OC_ASSIGN_OR_RETURN(float a, ctx.AttrFloat(info->alpha_name, info->alpha_default));
    s.attrs["alpha"] = a;
  }
  if (info->beta_name) {
    OC_ASSIGN_OR_RETURN(float b, ctx.AttrFloat(info->beta_name, info->beta_default));
    s.attrs["beta"] = b;
  }
  return absl::OkStatus();
}

// Clip: with constant float32 bounds one clip kernel; otherwise (bounds
// computed at run time, integer types) Max then Min.
absl::Status LowerClip(NodeContext& ctx) {
  const Value& x = ctx.InputValue(0);
  if (ctx.opset() < 11) {
    OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
    OC_ASSIGN_OR_RETURN(float lo, ctx.AttrFloat("min", -FLT_MAX));
    OC_ASSIGN_OR_RETURN(float hi, ctx.AttrFloat("max", FLT_MAX));
    ValueId y = ctx.NewResult(0, x.dtype, x.shape);
    Statement& s = ctx.Emit(OpKind::kClip, {ctx.Input(0)}, {y});
    s.attrs["alpha"] = lo;
    s.attrs["beta"] = hi;
    return absl::OkStatus();
  }
  for (int i = 1; i <= 2; ++i) {
    if (ctx.HasInput(i) && ctx.InputValue(i).NumElements() != 1) {
      return ctx.Invalid(absl::StrCat(i == 1 ? "min" : "max", " must be a scalar"));
    }
  }
  const bool constant_bounds = (!ctx.HasInput(1) || ctx.IsConstantInput(1)) &&
                               (!ctx.HasInput(2) || ctx.IsConstantInput(2));
  if (x.dtype == DType::kF32 && constant_bounds) {
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (ctx.HasInput(1)) lo = ctx.ConstantFloats(1, "min")->at(0);
    if (ctx.HasInput(2)) hi = ctx.ConstantFloats(2, "max")->at(0);
    ValueId y = ctx.NewResult(0, x.dtype, x.shape);
    Statement& s = ctx.Emit(OpKind::kClip, {ctx.Input(0)}, {y});
    s.attrs["alpha"] = lo;
    s.attrs["beta"] = hi;
    return absl::OkStatus();
  }
  ValueId v = ctx.Input(0);
  if (!ctx.HasInput(1) && !ctx.HasInput(2)) {
    ctx.BindOutput(0, v);
    return absl::OkStatus();
  }
  if (ctx.HasInput(1)) {
    OC_ASSIGN_OR_RETURN(v, EmitBinary(ctx, OpKind::kMax, v, ctx.Input(1),
                                      ctx.HasInput(2) ? ".lower" : ""));
  }
  if (ctx.HasInput(2)) {
    OC_RETURN_IF_ERROR(EmitBinary(ctx, OpKind::kMin, v, ctx.Input(2), "").status());
  }
  return absl::OkStatus();
}

absl::Status LowerGelu(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  OC_ASSIGN_OR_RETURN(std::string approx, ctx.AttrString("approximate", "none"));
  if (approx != "none" && approx != "tanh") {
    return ctx.Invalid(absl::StrCat("approximate '", approx, "' is not 'none' or 'tanh'"));
  }
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  ctx.Emit(approx == "tanh" ? OpKind::kGeluTanh : OpKind::kGelu, {ctx.Input(0)}, {y});
  return absl::OkStatus();
}

// Identity, and Dropout in inference: the output is the input. A Dropout
// that trains (drops at random) is refused.
absl::Status LowerIdentity(NodeContext& ctx) {
  if (ctx.op_type() == "Dropout" && ctx.opset() >= 12 && ctx.HasInput(2)) {
    if (!ctx.IsConstantInput(2)) {
      return ctx.Unsupported(absl::StrCat(
          "input 'training_mode' (", ctx.node().input(2),
          ") is computed at run time; onnx-to-c compiles inference and needs it constant"));
    }
    bool zero_ratio = false;
    if (ctx.HasInput(1)) {
      OC_ASSIGN_OR_RETURN(std::vector<float> ratio, ctx.ConstantFloats(1, "ratio"));
      zero_ratio = ratio.size() == 1 && ratio[0] == 0.0f;
    }
    if (ctx.ConstantInput(2).GetInt(0) != 0 && !zero_ratio) {
      return ctx.Unsupported("training-mode Dropout drops at random; it is not supported");
    }
  }
  ctx.BindOutput(0, ctx.Input(0));
  if (ctx.op_type() == "Dropout" && ctx.HasOutput(1)) {
    // In inference every element is kept: the mask is all true.
    HostTensor mask = HostTensor::Zeros(DType::kBool, ctx.InputValue(0).shape);
    for (int64_t i = 0; i < mask.NumElements(); ++i) mask.SetInt(i, 1);
    ctx.BindConstantOutput(1, std::move(mask));
  }
  return absl::OkStatus();
}

OpKind BinaryKind(const std::string& op) {
  static const std::pair<const char*, OpKind> kKinds[] = {
      {"Add", OpKind::kAdd},         {"Sum", OpKind::kAdd},
      {"Mean", OpKind::kAdd},        {"Sub", OpKind::kSub},
      {"Mul", OpKind::kMul},         {"Div", OpKind::kDiv},
      {"Pow", OpKind::kPow},         {"Min", OpKind::kMin},
      {"Max", OpKind::kMax},         {"PRelu", OpKind::kPRelu},
      {"Mod", OpKind::kMod},         {"BitShift", OpKind::kBitShift},
      {"And", OpKind::kAnd},         {"Or", OpKind::kOr},
      {"Xor", OpKind::kXor},         {"Equal", OpKind::kEqual},
      {"BitwiseAnd", OpKind::kAnd},  {"BitwiseOr", OpKind::kOr},
      {"BitwiseXor", OpKind::kXor},
      {"Less", OpKind::kLess},       {"LessOrEqual", OpKind::kLessOrEqual},
      {"Greater", OpKind::kGreater}, {"GreaterOrEqual", OpKind::kGreaterOrEqual},
  };
  for (const auto& [name, kind] : kKinds) {
    if (op == name) return kind;
  }
  return OpKind::kAdd;
}

// Pow's exponent may have another type than its base: it is converted to
// the base's type. An integer base needs an integral exponent.
absl::StatusOr<ValueId> PowExponent(NodeContext& ctx) {
  const DType base = ctx.InputValue(0).dtype, exp = ctx.InputValue(1).dtype;
  if (exp == base) return ctx.Input(1);
  if (!IsFloat(base) && IsFloat(exp)) {
    if (!ctx.IsConstantInput(1)) {
      return ctx.Unsupported(absl::StrCat("an integer base (", DTypeName(base),
                                          ") with a float exponent computed at run time is not "
                                          "supported"));
    }
    HostTensor e = ctx.ConstantInput(1);
    for (int64_t i = 0; i < e.NumElements(); ++i) {
      if (e.GetDouble(i) != std::floor(e.GetDouble(i))) {
        return ctx.Unsupported("an integer base with a fractional exponent is not supported");
      }
    }
  }
  return ctx.CastTo(ctx.Input(1), base, ".exponent");
}

// Add/Sub/Mul/Div/Pow/Mod/BitShift/PRelu/And/Or/Xor and comparisons, and the
// variadic Sum/Mean/Min/Max as chains.
absl::Status LowerBinary(NodeContext& ctx) {
  const std::string& op = ctx.op_type();
  const OpKind kind = BinaryKind(op);
  std::vector<ValueId> operands;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.HasInput(i)) return ctx.Invalid("an input is missing");
    operands.push_back(ctx.Input(i));
  }
  if (operands.empty()) return ctx.Invalid("no inputs");
  Program& p = ctx.program();
  const DType t0 = p.value(operands[0]).dtype;
  if (absl::StartsWith(op, "Bitwise") && !IsSignedInt(t0) && !IsUnsignedInt(t0)) {
    return ctx.Invalid("the operands must be integers");
  }
  if ((op == "And" || op == "Or" || op == "Xor") && t0 != DType::kBool) {
    return ctx.Invalid("the operands must be bool");
  }
  if (kind == OpKind::kPow) {
    OC_ASSIGN_OR_RETURN(operands[1], PowExponent(ctx));
  }
  if (kind == OpKind::kPRelu) {
    OC_ASSIGN_OR_RETURN(operands[1], LegacyPReluSlope(ctx));
  } else if (operands.size() == 2) {
    OC_ASSIGN_OR_RETURN(operands[1], LegacyBroadcastOperand(ctx, operands[0], operands[1]));
  }
  if (kind == OpKind::kPRelu) {
    OC_ASSIGN_OR_RETURN(Shape s, BroadcastShapes(ctx, p.value(operands[0]).shape,
                                                 p.value(operands[1]).shape));
    if (s != p.value(operands[0]).shape) return ctx.Invalid("slope does not broadcast to X");
  }
  const bool mean = op == "Mean";
  if (operands.size() == 1 && !mean) {  // Sum/Min/Max of one input
    ctx.BindOutput(0, operands[0]);
    return absl::OkStatus();
  }
  ValueId acc = operands[0];
  for (size_t i = 1; i < operands.size(); ++i) {
    const bool last = i + 1 == operands.size() && !mean;
    OC_ASSIGN_OR_RETURN(acc, EmitBinary(ctx, kind, acc, operands[i],
                                        last ? "" : absl::StrCat(".part", i)));
  }
  if (mean) {
    const DType t = p.value(acc).dtype;
    if (!IsFloat(t)) return ctx.Unsupported("Mean of integers is not supported");
    ValueId n = ctx.ScalarConstant(t, static_cast<double>(operands.size()), ".count");
    OC_RETURN_IF_ERROR(EmitBinary(ctx, OpKind::kDiv, acc, n, "").status());
  }
  return absl::OkStatus();
}

absl::Status LowerMod(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(int64_t fmod, ctx.AttrInt("fmod", 0));
  if (IsFloat(ctx.InputValue(0).dtype) && !fmod) {
    return ctx.Invalid("fmod must be 1 for floating-point operands");
  }
  OC_RETURN_IF_ERROR(EmitBinary(ctx, OpKind::kMod, ctx.Input(0), ctx.Input(1), "").status());
  ctx.program().statements().back().attrs["fmod"] = fmod ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

absl::Status LowerBitShift(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(std::string direction, ctx.AttrString("direction", std::nullopt));
  if (direction != "LEFT" && direction != "RIGHT") {
    return ctx.Invalid(absl::StrCat("direction '", direction, "' is not LEFT or RIGHT"));
  }
  OC_RETURN_IF_ERROR(
      EmitBinary(ctx, OpKind::kBitShift, ctx.Input(0), ctx.Input(1), "").status());
  ctx.program().statements().back().attrs["direction"] =
      std::string(direction == "LEFT" ? "left" : "right");
  return absl::OkStatus();
}

// Not: x xor true.
absl::Status LowerNot(NodeContext& ctx) {
  if (ctx.InputValue(0).dtype != DType::kBool) return ctx.Invalid("the input must be bool");
  ValueId t = ctx.ScalarConstant(DType::kBool, 1.0, ".true");
  return EmitBinary(ctx, OpKind::kXor, ctx.Input(0), t, "").status();
}

// BitwiseNot: x xor all ones.
absl::Status LowerBitwiseNot(NodeContext& ctx) {
  const DType t = ctx.InputValue(0).dtype;
  if (!IsSignedInt(t) && !IsUnsignedInt(t)) return ctx.Invalid("the input must be an integer");
  HostTensor ones = HostTensor::Zeros(t, {});
  ones.SetInt(0, -1);
  ValueId all_ones = ctx.program().AddConstant(ctx.node().output(0) + ".ones", t, {},
                                               std::move(ones.bytes));
  return EmitBinary(ctx, OpKind::kXor, ctx.Input(0), all_ones, "").status();
}

absl::Status LowerWhere(NodeContext& ctx) {
  const Value& c = ctx.InputValue(0);
  const Value& a = ctx.InputValue(1);
  const Value& b = ctx.InputValue(2);
  if (c.dtype != DType::kBool) return ctx.Invalid("the condition must be bool");
  if (a.dtype != b.dtype) return ctx.Invalid("X and Y differ in element type");
  OC_ASSIGN_OR_RETURN(Shape ab, BroadcastShapes(ctx, a.shape, b.shape));
  OC_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(ctx, c.shape, ab));
  if (shape.size() > 8) return ctx.Unsupported("rank above 8 is not supported");
  ValueId y = ctx.NewResult(0, a.dtype, shape);
  ctx.Emit(OpKind::kWhere, {ctx.Input(0), ctx.Input(1), ctx.Input(2)}, {y});
  return absl::OkStatus();
}

// Before opset 6 Cast's `to` is a type name.
absl::StatusOr<DType> CastTarget(const NodeContext& ctx) {
  if (ctx.op_type() == "CastLike") return ctx.InputValue(1).dtype;
  const auto* attr = ctx.FindAttr("to");
  if (attr && attr->type() == onnx::AttributeProto::STRING) {
    onnx::TensorProto::DataType t;
    if (!onnx::TensorProto::DataType_Parse(attr->s(), &t)) {
      return ctx.Invalid(absl::StrCat("'to' names no type: ", attr->s()));
    }
    auto dtype = DTypeFromOnnx(t);
    if (!dtype.ok()) return ctx.Unsupported(dtype.status().message());
    return *dtype;
  }
  OC_ASSIGN_OR_RETURN(int64_t to, ctx.AttrInt("to", std::nullopt));
  auto dtype = DTypeFromOnnx(static_cast<int32_t>(to));
  if (!dtype.ok()) return ctx.Unsupported(dtype.status().message());
  return *dtype;
}

absl::Status LowerCast(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(DType to, CastTarget(ctx));
  ctx.BindOutput(0, ctx.CastTo(ctx.Input(0), to, ""));
  return absl::OkStatus();
}

absl::Status LowerIsNaNInf(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, DType::kBool, x.shape);
  if (ctx.op_type() == "IsNaN") {
    ctx.Emit(OpKind::kIsNaN, {ctx.Input(0)}, {y});
    return absl::OkStatus();
  }
  OC_ASSIGN_OR_RETURN(int64_t pos, ctx.AttrInt("detect_positive", 1));
  OC_ASSIGN_OR_RETURN(int64_t neg, ctx.AttrInt("detect_negative", 1));
  Statement& s = ctx.Emit(OpKind::kIsInf, {ctx.Input(0)}, {y});
  s.attrs["detect_positive"] = pos ? int64_t{1} : int64_t{0};
  s.attrs["detect_negative"] = neg ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

}  // namespace

void RegisterElementwiseLowerings(std::unordered_map<std::string, LowerFn>& t) {
  for (const UnaryInfo& u : kUnary) t[u.onnx] = LowerUnary;
  t["Clip"] = LowerClip;
  t["Gelu"] = LowerGelu;
  t["Identity"] = LowerIdentity;
  t["Dropout"] = LowerIdentity;
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "Sum", "Mean", "PRelu",
                         "And", "Or", "Xor", "Equal", "Less", "LessOrEqual", "Greater",
                         "GreaterOrEqual"}) {
    t[op] = LowerBinary;
  }
  t["Mod"] = LowerMod;
  t["BitShift"] = LowerBitShift;
  t["Not"] = LowerNot;
  t["BitwiseNot"] = LowerBitwiseNot;
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}) t[op] = LowerBinary;
  t["Where"] = LowerWhere;
  t["Cast"] = LowerCast;
  t["CastLike"] = LowerCast;
  t["IsNaN"] = LowerIsNaNInf;
  t["IsInf"] = LowerIsNaNInf;
}

}  // namespace oc
