// Loop and Scan unrolled: the body's nodes are imported once per iteration,
// so the memory model sees every step. A Loop's trip count and conditions
// need only be known at compile time, not be constants of the model: each
// iteration's body is imported with the iteration number, the condition and
// the carried values bound, so constant folding propagates them through the
// condition's cone. That is what tf2onnx writes for an unfused Keras RNN: a
// Loop over the time steps whose body recomputes the condition from the
// counter and constants (`i < M and time + 1 < steps`).
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/import/import_node.h"
#include "compiler/import/node_context.h"
#include "compiler/import/run_time_cone.h"
#include "compiler/import/tensor_data.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// Body nodes imported over all iterations of all loops of a model (nested
// ones multiply): the generated C grows with them.
constexpr int64_t kMaxUnrolledNodes = 100000;
// Without a trip count, the loop must stop on its (folded) condition within this.
constexpr int64_t kMaxIterationsWithoutTripCount = 10000;

const std::unordered_map<std::string, const onnx::ValueInfoProto*>& NoInferredShapes() {
  static const auto* none = new std::unordered_map<std::string, const onnx::ValueInfoProto*>();
  return *none;
}

// The error for a trip count or condition that depends on run-time data.
absl::Status DataDependent(const NodeContext& ctx, const Program& p, ValueId v, const std::string& what) {
  return ctx.Unsupported(absl::StrCat(what, " is computed at run time from ", RunTimeSource(p, v),
                                      "; onnx-to-c unrolls loops whose trip count and conditions "
                                      "are known at compile time"));
}

absl::StatusOr<bool> ConstantCondition(const NodeContext& ctx, const Program& p, ValueId v,
                                       const std::string& what) {
  const Value& value = p.value(v);
  if (!value.IsConstant()) return DataDependent(ctx, p, v, what);
  if (value.NumElements() != 1) return ctx.Invalid(absl::StrCat(what, " must be one value"));
  HostTensor t{value.dtype, value.shape, value.data};
  return t.GetInt(0) != 0;
}

// Imports the body once with its inputs bound to `inputs` (after the outer
// scope and the body's initializers); returns its outputs.
absl::StatusOr<std::vector<ValueId>> ImportBodyOnce(const NodeContext& ctx, const onnx::GraphProto& body,
                                                    const std::vector<ValueId>& body_constants,
                                                    const std::vector<ValueId>& inputs,
                                                    const std::string& prefix, ImportScope& scope) {
  // Every iteration counts, an empty body's too (it still binds constants).
  scope.unrolled_nodes += 1 + body.node_size();
  if (scope.unrolled_nodes > kMaxUnrolledNodes) {
    return ctx.Unsupported(absl::StrCat("unrolled, its loops would have more than ", kMaxUnrolledNodes,
                                        " iterations and nodes"));
  }
  // The body's names are bound in the outer map for the iteration and the
  // outer bindings they shadow restored after it (a copy of the outer map per
  // iteration would cost its size each time).
  std::unordered_map<std::string, std::optional<ValueId>> shadowed;
  auto shadow = [&](const std::string& name) {
    if (shadowed.count(name)) return;
    auto it = scope.names.find(name);
    shadowed[name] = it == scope.names.end() ? std::nullopt : std::optional<ValueId>(it->second);
  };
  for (const auto& init : body.initializer()) shadow(init.name());
  for (const auto& in : body.input()) shadow(in.name());
  for (const auto& body_node : body.node()) {
    for (const std::string& out : body_node.output()) shadow(out);
  }
  for (int k = 0; k < body.initializer_size(); ++k) scope.names[body.initializer(k).name()] = body_constants[k];
  for (int i = 0; i < body.input_size(); ++i) scope.names[body.input(i).name()] = inputs[i];
  ImportScope inner{scope.program, scope.names, NoInferredShapes(), scope.opset, scope.folded_bytes,
                    scope.unrolled_nodes};
  absl::Status status;
  std::vector<ValueId> outs;
  for (const onnx::NodeProto& body_node : body.node()) {
    onnx::NodeProto step = body_node;
    step.set_name(prefix + body_node.name());
    status = ImportNode(step, inner);
    if (!status.ok()) break;
  }
  for (const auto& out : body.output()) {
    if (!status.ok()) break;
    auto it = scope.names.find(out.name());
    if (it == scope.names.end()) {
      status = ctx.Invalid(absl::StrCat("body output '", out.name(), "' is never computed"));
    } else {
      outs.push_back(it->second);
    }
  }
  for (const auto& [name, old] : shadowed) {
    if (old) {
      scope.names[name] = *old;
    } else {
      scope.names.erase(name);
    }
  }
  if (!status.ok()) return status;
  return outs;
}

absl::StatusOr<std::vector<ValueId>> BodyConstants(const onnx::GraphProto& body, Program& p) {
  std::vector<ValueId> constants;
  for (const auto& init : body.initializer()) {
    OC_ASSIGN_OR_RETURN(HostTensor t, DecodeTensorProto(init));
    constants.push_back(p.AddConstant(init.name(), t.dtype, t.shape, std::move(t.bytes)));
  }
  return constants;
}

// Binds output `index` to the iterations' values stacked along `axis` (a new
// axis), in reverse order when `reverse`.
absl::Status BindStacked(NodeContext& ctx, int index, std::vector<ValueId> parts_in, int64_t axis,
                         bool reverse, const std::string& suffix) {
  Program& p = ctx.program();
  if (parts_in.empty()) return ctx.Unsupported("it runs no iteration, so its scan outputs would be empty");
  if (reverse) std::reverse(parts_in.begin(), parts_in.end());
  const Value& first = p.value(parts_in[0]);
  const DType dtype = first.dtype;
  const Shape shape = first.shape;
  const int64_t rank = static_cast<int64_t>(shape.size()) + 1;
  if (axis < -rank || axis >= rank) return ctx.Invalid(absl::StrCat("scan output axis ", axis, " is out of range"));
  if (axis < 0) axis += rank;
  Shape one = shape, stacked = shape;
  one.insert(one.begin() + axis, 1);
  stacked.insert(stacked.begin() + axis, static_cast<int64_t>(parts_in.size()));
  std::vector<ValueId> parts;
  for (size_t i = 0; i < parts_in.size(); ++i) {
    const Value& v = p.value(parts_in[i]);
    if (v.dtype != dtype || v.shape != shape) {
      return ctx.Invalid("a scan output changes its type or shape between iterations");
    }
    parts.push_back(ctx.Reshaped(parts_in[i], one, absl::StrCat(suffix, index, "_", i)));
  }
  ValueId y = ctx.NewResult(index, dtype, stacked);
  Statement& s = ctx.Emit(OpKind::kConcat, parts, {y});
  s.attrs["axis"] = axis;
  return absl::OkStatus();
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
    if (!m.IsConstant()) return DataDependent(ctx, p, ctx.Input(0), "its trip count M");
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
  OC_ASSIGN_OR_RETURN(std::vector<ValueId> body_constants, BodyConstants(body, p));

  std::vector<std::vector<ValueId>> scans(scanned);
  int64_t iteration = 0;
  for (; iteration < trips && running; ++iteration) {
    const std::string prefix = absl::StrCat(node.name(), "/", iteration, "/");
    HostTensor iter = HostTensor::Zeros(DType::kI64, {});
    iter.SetInt(0, iteration);
    HostTensor cond = HostTensor::Zeros(DType::kBool, {});
    cond.SetInt(0, 1);
    std::vector<ValueId> inputs = {
        p.AddConstant(prefix + body.input(0).name(), DType::kI64, {}, std::move(iter.bytes)),
        p.AddConstant(prefix + body.input(1).name(), DType::kBool, {}, std::move(cond.bytes))};
    inputs.insert(inputs.end(), state.begin(), state.end());
    OC_ASSIGN_OR_RETURN(std::vector<ValueId> outs,
                        ImportBodyOnce(ctx, body, body_constants, inputs, prefix, scope));
    OC_ASSIGN_OR_RETURN(running, ConstantCondition(ctx, p, outs[0],
                                                   absl::StrCat("the body's condition '", body.output(0).name(),
                                                                "' after iteration ", iteration)));
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
    OC_RETURN_IF_ERROR(BindStacked(ctx, carried + k, scans[k], 0, false, ".scan"));
  }
  return absl::OkStatus();
}

absl::Status UnrollScan(const onnx::NodeProto& node, ImportScope& scope) {
  Program& p = scope.program;
  NodeContext ctx(node, scope.opset, p, scope.names);
  if (scope.opset < 9) return ctx.Unsupported("Scan before opset 9 (with a batch axis) is not supported");
  const onnx::AttributeProto* body_attr = ctx.FindAttr("body");
  if (body_attr == nullptr || !body_attr->has_g()) return ctx.Invalid("the body graph is missing");
  const onnx::GraphProto& body = body_attr->g();
  OC_ASSIGN_OR_RETURN(int64_t scanned_in, ctx.AttrInt("num_scan_inputs", std::nullopt));
  const int64_t carried = node.input_size() - scanned_in;
  const int64_t scanned_out = body.output_size() - carried;
  if (scanned_in < 1 || carried < 0 || scanned_out < 0 || body.input_size() != node.input_size() ||
      node.output_size() != body.output_size()) {
    return ctx.Invalid("the inputs and outputs of the node and its body do not match");
  }
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> in_axes,
                      ctx.AttrInts("scan_input_axes", std::vector<int64_t>(scanned_in, 0)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> in_dirs,
                      ctx.AttrInts("scan_input_directions", std::vector<int64_t>(scanned_in, 0)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> out_axes,
                      ctx.AttrInts("scan_output_axes", std::vector<int64_t>(scanned_out, 0)));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> out_dirs,
                      ctx.AttrInts("scan_output_directions", std::vector<int64_t>(scanned_out, 0)));
  if (static_cast<int64_t>(in_axes.size()) != scanned_in || static_cast<int64_t>(in_dirs.size()) != scanned_in ||
      static_cast<int64_t>(out_axes.size()) != scanned_out ||
      static_cast<int64_t>(out_dirs.size()) != scanned_out) {
    return ctx.Invalid("the scan axes and directions do not match the scan inputs and outputs");
  }
  std::vector<ValueId> state;
  for (int64_t j = 0; j < node.input_size(); ++j) {
    if (!ctx.HasInput(static_cast<int>(j))) return ctx.Invalid("an input is missing");
  }
  for (int64_t j = 0; j < carried; ++j) state.push_back(ctx.Input(static_cast<int>(j)));
  // Every scan input has the same length along its axis.
  int64_t length = -1;
  for (int64_t m = 0; m < scanned_in; ++m) {
    const Shape& shape = ctx.InputValue(static_cast<int>(carried + m)).shape;
    const int64_t rank = static_cast<int64_t>(shape.size());
    OC_ASSIGN_OR_RETURN(in_axes[m], NormalizeAxis(ctx, in_axes[m], rank));
    if (length >= 0 && shape[in_axes[m]] != length) return ctx.Invalid("the scan inputs differ in length");
    length = shape[in_axes[m]];
  }
  OC_ASSIGN_OR_RETURN(std::vector<ValueId> body_constants, BodyConstants(body, p));
  std::vector<std::vector<ValueId>> scans(scanned_out);
  for (int64_t t = 0; t < length; ++t) {
    const std::string prefix = absl::StrCat(node.name(), "/", t, "/");
    std::vector<ValueId> inputs = state;
    for (int64_t m = 0; m < scanned_in; ++m) {
      // Element t (from the end when reversed) along the axis, the axis removed.
      // (Copies: adding values may move the program's value table.)
      const Shape x_shape = ctx.InputValue(static_cast<int>(carried + m)).shape;
      const DType x_dtype = ctx.InputValue(static_cast<int>(carried + m)).dtype;
      const int64_t axis = in_axes[m];
      std::vector<int64_t> starts(x_shape.size(), 0), steps(x_shape.size(), 1);
      starts[axis] = in_dirs[m] ? length - 1 - t : t;
      Shape slice_shape = x_shape;
      slice_shape[axis] = 1;
      ValueId slice = ctx.Temp(x_dtype, slice_shape, absl::StrCat(".in", m, "_", t));
      Statement& s = ctx.Emit(OpKind::kSlice, {ctx.Input(static_cast<int>(carried + m))}, {slice});
      s.attrs["starts"] = starts;
      s.attrs["steps"] = steps;
      Shape element = x_shape;
      element.erase(element.begin() + axis);
      inputs.push_back(ctx.Reshaped(slice, element, absl::StrCat(".elem", m, "_", t)));
    }
    OC_ASSIGN_OR_RETURN(std::vector<ValueId> outs,
                        ImportBodyOnce(ctx, body, body_constants, inputs, prefix, scope));
    for (int64_t j = 0; j < carried; ++j) state[j] = outs[j];
    for (int64_t k = 0; k < scanned_out; ++k) scans[k].push_back(outs[carried + k]);
  }
  for (int64_t j = 0; j < carried; ++j) ctx.BindOutput(static_cast<int>(j), state[j]);
  for (int64_t k = 0; k < scanned_out; ++k) {
    OC_RETURN_IF_ERROR(BindStacked(ctx, static_cast<int>(carried + k), scans[k], out_axes[k],
                                   out_dirs[k] != 0, ".scan"));
  }
  return absl::OkStatus();
}

}  // namespace oc
