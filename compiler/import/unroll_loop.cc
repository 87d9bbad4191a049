// Loop with a compile-time trip count, unrolled: the body's nodes are
// imported once per iteration, so the memory model sees every step. This is
// what tf2onnx writes for an unfused Keras RNN (a Loop over the time steps
// with a constant trip count and a constant true condition).
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/import/import_node.h"
#include "compiler/import/node_context.h"
#include "compiler/import/tensor_data.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// Body nodes imported over all iterations of one Loop: the generated C grows
// with them.
constexpr int64_t kMaxUnrolledNodes = 100000;
// Without a trip count, the loop must stop on its (folded) condition within this.
constexpr int64_t kMaxIterationsWithoutTripCount = 10000;

const std::unordered_map<std::string, const onnx::ValueInfoProto*>& NoInferredShapes() {
  static const auto* none = new std::unordered_map<std::string, const onnx::ValueInfoProto*>();
  return *none;
}

absl::StatusOr<bool> ConstantCondition(const NodeContext& ctx, const Program& p, ValueId v,
                                       const char* what) {
  const Value& value = p.value(v);
  if (!value.IsConstant()) {
    return ctx.Unsupported(absl::StrCat(what, " is computed at run time; onnx-to-c unrolls loops "
                                        "whose trip count and condition are constants"));
  }
  if (value.NumElements() != 1) return ctx.Invalid(absl::StrCat(what, " must be one value"));
  HostTensor t{value.dtype, value.shape, value.data};
  return t.GetInt(0) != 0;
}

}  // namespace

absl::Status UnrollLoop(const onnx::NodeProto& node, ImportScope& scope) {
  Program& p = scope.program;
  NodeContext ctx(node, scope.opset, p, scope.names);
  const onnx::AttributeProto* body_attr = ctx.FindAttr("body");
  if (body_attr == nullptr || !body_attr->has_g()) return ctx.Invalid("the body graph is missing");
  const onnx::GraphProto& body = body_attr->g();
  const int carried = node.input_size() - 2;
  const int scanned = body.output_size() - 1 - carried;
  if (carried < 0 || body.input_size() != 2 + carried || scanned < 0 ||
      node.output_size() != carried + scanned) {
    return ctx.Invalid("the inputs and outputs of the node and its body do not match");
  }
  int64_t trips = kMaxIterationsWithoutTripCount;
  const bool has_trip_count = ctx.HasInput(0);
  if (has_trip_count) {
    const Value& m = ctx.InputValue(0);
    if (!m.IsConstant()) {
      return ctx.Unsupported("its trip count M is computed at run time; onnx-to-c unrolls loops "
                             "whose trip count and condition are constants");
    }
    if (m.NumElements() != 1) return ctx.Invalid("the trip count M must be one value");
    trips = HostTensor{m.dtype, m.shape, m.data}.GetInt(0);
  }
  bool running = true;
  if (ctx.HasInput(1)) {
    OC_ASSIGN_OR_RETURN(running, ConstantCondition(ctx, p, ctx.Input(1), "its condition"));
  }
  std::vector<ValueId> state;
  for (int j = 0; j < carried; ++j) {
    if (!ctx.HasInput(2 + j)) return ctx.Invalid("a loop-carried input is missing");
    state.push_back(ctx.Input(2 + j));
  }
  std::vector<ValueId> body_constants;
  for (const auto& init : body.initializer()) {
    OC_ASSIGN_OR_RETURN(HostTensor t, DecodeTensorProto(init));
    body_constants.push_back(p.AddConstant(init.name(), t.dtype, t.shape, std::move(t.bytes)));
  }

  std::vector<std::vector<ValueId>> scans(scanned);
  int64_t iteration = 0, imported = 0;
  for (; iteration < trips && running; ++iteration) {
    imported += body.node_size();
    if (imported > kMaxUnrolledNodes) {
      return ctx.Unsupported(absl::StrCat("unrolled, it would have more than ", kMaxUnrolledNodes,
                                          " nodes (", body.node_size(), " per iteration)"));
    }
    // The body sees the outer scope, its initializers and its inputs.
    std::unordered_map<std::string, ValueId> names = scope.names;
    for (int k = 0; k < body.initializer_size(); ++k) names[body.initializer(k).name()] = body_constants[k];
    const std::string prefix = absl::StrCat(node.name(), "/", iteration, "/");
    HostTensor iter = HostTensor::Zeros(DType::kI64, {});
    iter.SetInt(0, iteration);
    names[body.input(0).name()] = p.AddConstant(prefix + body.input(0).name(), DType::kI64, {}, std::move(iter.bytes));
    HostTensor cond = HostTensor::Zeros(DType::kBool, {});
    cond.SetInt(0, 1);
    names[body.input(1).name()] = p.AddConstant(prefix + body.input(1).name(), DType::kBool, {}, std::move(cond.bytes));
    for (int j = 0; j < carried; ++j) names[body.input(2 + j).name()] = state[j];
    ImportScope inner{p, names, NoInferredShapes(), scope.opset, scope.folded_bytes};
    for (const onnx::NodeProto& body_node : body.node()) {
      onnx::NodeProto step = body_node;
      step.set_name(prefix + body_node.name());
      OC_RETURN_IF_ERROR(ImportNode(step, inner));
    }
    std::vector<ValueId> outs;
    for (const auto& out : body.output()) {
      auto it = names.find(out.name());
      if (it == names.end()) return ctx.Invalid(absl::StrCat("body output '", out.name(), "' is never computed"));
      outs.push_back(it->second);
    }
    OC_ASSIGN_OR_RETURN(running, ConstantCondition(ctx, p, outs[0], "the body's condition"));
    for (int j = 0; j < carried; ++j) state[j] = outs[1 + j];
    for (int k = 0; k < scanned; ++k) scans[k].push_back(outs[1 + carried + k]);
  }
  if (!has_trip_count && running) {
    return ctx.Unsupported(absl::StrCat("it does not stop within ", kMaxIterationsWithoutTripCount,
                                        " iterations"));
  }

  for (int j = 0; j < carried; ++j) ctx.BindOutput(j, state[j]);
  // Scan outputs: the iterations' values stacked along a new first axis.
  for (int k = 0; k < scanned; ++k) {
    if (scans[k].empty()) return ctx.Unsupported("it runs no iteration, so its scan outputs would be empty");
    const Value& first = p.value(scans[k][0]);
    const DType dtype = first.dtype;
    Shape one = first.shape;
    one.insert(one.begin(), 1);
    Shape stacked = first.shape;
    stacked.insert(stacked.begin(), static_cast<int64_t>(scans[k].size()));
    std::vector<ValueId> parts;
    for (size_t i = 0; i < scans[k].size(); ++i) {
      const Value& v = p.value(scans[k][i]);
      if (v.dtype != dtype || v.shape != first.shape) {
        return ctx.Invalid("a scan output changes its type or shape between iterations");
      }
      parts.push_back(ctx.Reshaped(scans[k][i], one, absl::StrCat(".scan", k, "_", i)));
    }
    ValueId y = ctx.NewResult(carried + k, dtype, stacked);
    Statement& s = ctx.Emit(OpKind::kConcat, parts, {y});
    s.attrs["axis"] = int64_t{0};
  }
  return absl::OkStatus();
}

}  // namespace oc
