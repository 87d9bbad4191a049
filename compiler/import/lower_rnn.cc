// Lowering of the recurrent layers RNN, GRU and LSTM: one statement each,
// whose kernel runs every time step (the sequence length is static; per-row
// sequence_lens may be computed at run time).
#include <iterator>

#include "absl/strings/str_join.h"
#include "compiler/import/node_context.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

struct Activation {
  const char* name;
  float alpha, beta;  // ONNX defaults
};

constexpr Activation kActivations[] = {
    {"Sigmoid", 0, 0},
    {"Tanh", 0, 0},
    {"Relu", 0, 0},
    {"Affine", 1.0f, 0},
    {"LeakyRelu", 0.01f, 0},
    {"ThresholdedRelu", 1.0f, 0},
    {"ScaledTanh", 1.0f, 1.0f},
    {"HardSigmoid", 0.2f, 0.5f},
    {"Elu", 1.0f, 0},
    {"Softsign", 0, 0},
    {"Softplus", 0, 0},
};

absl::Status LowerRecurrent(NodeContext& ctx) {
  const std::string& op = ctx.op_type();
  const int gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  const int n_acts = op == "LSTM" ? 3 : op == "GRU" ? 2 : 1;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (ctx.HasInput(i) && i != 4 && ctx.InputValue(i).dtype != DType::kF32) {
      return ctx.Unsupported(
          absl::StrCat("element type ", DTypeName(ctx.InputValue(i).dtype), " is not supported"));
    }
  }
  const Value& x = ctx.InputValue(0);
  OC_ASSIGN_OR_RETURN(int64_t layout, ctx.AttrInt("layout", 0));
  OC_ASSIGN_OR_RETURN(int64_t hidden, ctx.AttrInt("hidden_size", std::nullopt));
  OC_ASSIGN_OR_RETURN(std::string direction, ctx.AttrString("direction", "forward"));
  if (x.shape.size() != 3) return ctx.Invalid("X must be 3-D");
  const int64_t seq = layout ? x.shape[1] : x.shape[0], batch = layout ? x.shape[0] : x.shape[1];
  const int64_t input = x.shape[2];
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    return ctx.Invalid(absl::StrCat("direction '", direction, "' is not valid"));
  }
  if (hidden <= 0) return ctx.Invalid("hidden_size must be positive");
  auto expect = [&](int i, const Shape& shape, const char* what) -> absl::Status {
    if (ctx.HasInput(i) && ctx.InputValue(i).shape != shape) {
      return ctx.Invalid(absl::StrCat(what, " must have shape ", absl::StrJoin(shape, "x")));
    }
    return absl::OkStatus();
  };
  const Shape state = layout ? Shape{batch, dirs, hidden} : Shape{dirs, batch, hidden};
  OC_RETURN_IF_ERROR(expect(1, {dirs, gates * hidden, input}, "W"));
  OC_RETURN_IF_ERROR(expect(2, {dirs, gates * hidden, hidden}, "R"));
  OC_RETURN_IF_ERROR(expect(3, {dirs, 2 * gates * hidden}, "B"));
  OC_RETURN_IF_ERROR(expect(4, {batch}, "sequence_lens"));
  OC_RETURN_IF_ERROR(expect(5, state, "initial_h"));
  if (ctx.HasInput(4) && ctx.InputValue(4).dtype != DType::kI32) {
    return ctx.Invalid("sequence_lens must be int32");
  }
  if (op == "LSTM") {
    OC_RETURN_IF_ERROR(expect(6, state, "initial_c"));
    OC_RETURN_IF_ERROR(expect(7, {dirs, 3 * hidden}, "P"));
  }
  // Activations: n_acts per direction, with their alpha/beta lists.
  std::vector<std::string> default_acts = {"Sigmoid", "Tanh", "Tanh"};
  if (op == "RNN") default_acts = {"Tanh"};
  std::vector<std::string> acts;
  if (const auto* a = ctx.FindAttr("activations")) {
    for (const auto& s : a->strings()) acts.push_back(s);
  }
  if (acts.empty()) {
    for (int64_t d = 0; d < dirs; ++d) {
      acts.insert(acts.end(), default_acts.begin(), default_acts.begin() + n_acts);
    }
  }
  if (static_cast<int64_t>(acts.size()) != n_acts * dirs) {
    return ctx.Invalid("activations has the wrong length");
  }
  OC_ASSIGN_OR_RETURN(std::vector<float> alphas,
                      ctx.AttrFloats("activation_alpha", std::vector<float>{}));
  OC_ASSIGN_OR_RETURN(std::vector<float> betas,
                      ctx.AttrFloats("activation_beta", std::vector<float>{}));
  if ((!alphas.empty() && alphas.size() != acts.size()) ||
      (!betas.empty() && betas.size() != acts.size())) {
    return ctx.Unsupported("activation_alpha/beta must give one value per activation");
  }
  std::vector<int64_t> kinds;
  std::vector<float> act_alpha, act_beta;
  for (size_t i = 0; i < acts.size(); ++i) {
    int kind = -1;
    for (size_t k = 0; k < std::size(kActivations); ++k) {
      if (acts[i] == kActivations[k].name) kind = static_cast<int>(k);
    }
    if (kind < 0) return ctx.Unsupported(absl::StrCat("activation ", acts[i], " is not supported"));
    kinds.push_back(kind);
    act_alpha.push_back(alphas.empty() ? kActivations[kind].alpha : alphas[i]);
    act_beta.push_back(betas.empty() ? kActivations[kind].beta : betas[i]);
  }
  std::vector<ValueId> operands;
  const int n_inputs = op == "LSTM" ? 8 : 6;
  for (int i = 0; i < n_inputs; ++i) operands.push_back(ctx.HasInput(i) ? ctx.Input(i) : kNoValue);
  while (operands.back() == kNoValue) operands.pop_back();
  const Shape y_shape = layout ? Shape{batch, seq, dirs, hidden} : Shape{seq, dirs, batch, hidden};
  std::vector<ValueId> results;
  std::vector<int64_t> outputs;
  for (int i = 0; i < (op == "LSTM" ? 3 : 2); ++i) {
    if (!ctx.HasOutput(i)) continue;
    results.push_back(ctx.NewResult(i, DType::kF32, i == 0 ? y_shape : state));
    outputs.push_back(i);
  }
  if (results.empty()) return absl::OkStatus();  // nothing is used
  const OpKind kind = op == "LSTM" ? OpKind::kLstm : op == "GRU" ? OpKind::kGru : OpKind::kRnn;
  Statement& s = ctx.Emit(kind, operands, results);
  s.attrs["outputs"] = outputs;
  s.attrs["hidden"] = hidden;
  s.attrs["reverse"] = direction == "reverse" ? int64_t{1} : int64_t{0};
  s.attrs["layout"] = layout ? int64_t{1} : int64_t{0};
  s.attrs["activations"] = kinds;
  s.attrs["activation_alpha"] = act_alpha;
  s.attrs["activation_beta"] = act_beta;
  if (ctx.HasAttr("clip")) {
    OC_ASSIGN_OR_RETURN(float clip, ctx.AttrFloat("clip", std::nullopt));
    s.attrs["clip"] = clip;
  }
  if (op == "GRU") {
    OC_ASSIGN_OR_RETURN(int64_t lbr, ctx.AttrInt("linear_before_reset", 0));
    s.attrs["linear_before_reset"] = lbr ? int64_t{1} : int64_t{0};
  }
  if (op == "LSTM") {
    OC_ASSIGN_OR_RETURN(int64_t coupled, ctx.AttrInt("input_forget", 0));
    s.attrs["input_forget"] = coupled ? int64_t{1} : int64_t{0};
  }
  const int64_t scratch_floats = op == "LSTM"  ? 2 * batch * hidden + 2 * hidden
                                 : op == "GRU" ? batch * hidden + 4 * hidden
                                               : batch * hidden + hidden;
  s.scratch_bytes = scratch_floats * 4;
  s.macs = dirs * seq * batch * gates * hidden * (input + hidden);
  return absl::OkStatus();
}

}  // namespace

void RegisterRecurrentLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["RNN"] = LowerRecurrent;
  t["GRU"] = LowerRecurrent;
  t["LSTM"] = LowerRecurrent;
}

}  // namespace oc
