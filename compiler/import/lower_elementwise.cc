// Lowering of elementwise unary and binary (broadcasting) ops.
#include <cfloat>
#include <cmath>

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
    {"ThresholdedRelu", OpKind::kThresholdedRelu, "alpha", 1.0f, nullptr, 0},
    {"Celu", OpKind::kCelu, "alpha", 1.0f, nullptr, 0},
};

absl::Status RequireF32(const NodeContext& ctx, int input) {
  DType t = ctx.InputValue(input).dtype;
  if (t != DType::kF32) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(t), " is not supported"));
  }
  return absl::OkStatus();
}

absl::Status LowerUnary(NodeContext& ctx) {
  const UnaryInfo* info = nullptr;
  for (const UnaryInfo& u : kUnary) {
    if (ctx.op_type() == u.onnx) info = &u;
  }
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
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

absl::Status LowerClip(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  float lo = -FLT_MAX, hi = FLT_MAX;
  if (ctx.opset() < 11) {
    OC_ASSIGN_OR_RETURN(lo, ctx.AttrFloat("min", -FLT_MAX));
    OC_ASSIGN_OR_RETURN(hi, ctx.AttrFloat("max", FLT_MAX));
  } else {
    if (ctx.HasInput(1)) {
      OC_ASSIGN_OR_RETURN(std::vector<float> v, ctx.ConstantFloats(1, "min"));
      if (v.size() != 1) return ctx.Invalid("min must be a scalar");
      lo = v[0];
    }
    if (ctx.HasInput(2)) {
      OC_ASSIGN_OR_RETURN(std::vector<float> v, ctx.ConstantFloats(2, "max"));
      if (v.size() != 1) return ctx.Invalid("max must be a scalar");
      hi = v[0];
    }
  }
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  Statement& s = ctx.Emit(OpKind::kClip, {ctx.Input(0)}, {y});
  s.attrs["alpha"] = lo;
  s.attrs["beta"] = hi;
  return absl::OkStatus();
}

absl::Status LowerGelu(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  OC_ASSIGN_OR_RETURN(std::string approx, ctx.AttrString("approximate", "none"));
  if (approx != "none") return ctx.Unsupported("only the exact (erf) Gelu is supported");
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, x.dtype, x.shape);
  ctx.Emit(OpKind::kGelu, {ctx.Input(0)}, {y});
  return absl::OkStatus();
}

// Identity and Dropout (inference): the output is the input.
absl::Status LowerIdentity(NodeContext& ctx) {
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
  if (op == "Add" || op == "Sum" || op == "Mean") return OpKind::kAdd;
  if (op == "Sub") return OpKind::kSub;
  if (op == "Mul") return OpKind::kMul;
  if (op == "Div") return OpKind::kDiv;
  if (op == "Pow") return OpKind::kPow;
  if (op == "Min") return OpKind::kMin;
  if (op == "Max") return OpKind::kMax;
  return OpKind::kPRelu;
}

// A constant operand of another numeric type (Pow's exponent) becomes f32.
absl::StatusOr<ValueId> AsF32Operand(NodeContext& ctx, int i) {
  const Value& v = ctx.InputValue(i);
  if (v.dtype == DType::kF32) return ctx.Input(i);
  if (!v.IsConstant()) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(v.dtype), " is not supported"));
  }
  HostTensor t = ctx.ConstantInput(i);
  HostTensor f = HostTensor::Zeros(DType::kF32, t.shape);
  for (int64_t k = 0; k < t.NumElements(); ++k) f.SetDouble(k, t.GetDouble(k));
  return ctx.program().AddConstant(v.name + ".f32", DType::kF32, t.shape, std::move(f.bytes));
}

// Add/Sub/Mul/Div/Pow/PRelu, and the variadic Sum/Mean/Min/Max as chains.
absl::Status LowerBinary(NodeContext& ctx) {
  OC_RETURN_IF_ERROR(RequireF32(ctx, 0));
  const std::string& op = ctx.op_type();
  std::vector<ValueId> operands;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.HasInput(i)) return ctx.Invalid("an input is missing");
    OC_ASSIGN_OR_RETURN(ValueId v, AsF32Operand(ctx, i));
    operands.push_back(v);
  }
  if (operands.empty()) return ctx.Invalid("no inputs");
  Program& p = ctx.program();
  const OpKind kind = BinaryKind(op);
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
    OC_ASSIGN_OR_RETURN(Shape s, BroadcastShapes(ctx, p.value(acc).shape, p.value(operands[i]).shape));
    const bool last = i + 1 == operands.size() && !mean;
    ValueId y = last ? ctx.NewResult(0, DType::kF32, s)
                     : p.AddResultValue(absl::StrCat(ctx.node().output(0), ".part", i), DType::kF32, s);
    ctx.Emit(kind, {acc, operands[i]}, {y});
    acc = y;
  }
  if (mean) {
    HostTensor inv = HostTensor::Zeros(DType::kF32, {});
    inv.SetDouble(0, 1.0 / static_cast<double>(operands.size()));
    ValueId c = p.AddConstant(ctx.node().name() + ".inv_count", DType::kF32, {}, inv.bytes);
    ValueId y = ctx.NewResult(0, DType::kF32, p.value(acc).shape);
    ctx.Emit(OpKind::kMul, {acc, c}, {y});
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterElementwiseLowerings(std::unordered_map<std::string, LowerFn>& t) {
  for (const UnaryInfo& u : kUnary) t[u.onnx] = LowerUnary;
  t["Clip"] = LowerClip;
  t["Gelu"] = LowerGelu;
  t["Identity"] = LowerIdentity;
  t["Dropout"] = LowerIdentity;
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "Sum", "Mean", "PRelu"}) {
    t[op] = LowerBinary;
  }
}

}  // namespace oc
