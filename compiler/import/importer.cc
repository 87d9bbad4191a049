#include "compiler/import/importer.h"

#include <unordered_map>
#include <unordered_set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/import/const_eval.h"
#include "compiler/import/import_node.h"
#include "compiler/import/model_loader.h"
#include "compiler/import/onnx_op_table.h"
#include "compiler/import/opset_versions.h"
#include "compiler/import/node_context.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/error_list.h"
#include "compiler/support/status.h"

namespace oc {

// ---- NodeContext -----------------------------------------------------------

std::string NodeContext::Where() const {
  const bool onnx_domain = node_.domain().empty() || node_.domain() == "ai.onnx";
  const int version = onnx_domain ? OpSinceVersion(node_.op_type(), opset_) : 0;
  return absl::StrCat("node '", node_.name(), "' (", node_.op_type(),
                      version > 0 ? absl::StrCat("-", version) : std::string(), ")");
}

absl::Status NodeContext::Invalid(absl::string_view message) const {
  return absl::InvalidArgumentError(absl::StrCat(Where(), ": ", message));
}

absl::Status NodeContext::Unsupported(absl::string_view message) const {
  return absl::UnimplementedError(absl::StrCat(Where(), ": ", message));
}

HostTensor NodeContext::ConstantInput(int i) const {
  const Value& v = InputValue(i);
  HostTensor t;
  t.dtype = v.dtype;
  t.shape = v.shape;
  t.bytes = v.data;
  return t;
}

absl::StatusOr<std::vector<int64_t>> NodeContext::ConstantInts(int i, const char* what) const {
  if (!HasInput(i)) return Invalid(absl::StrCat("input '", what, "' is missing"));
  if (!IsConstantInput(i)) {
    return Unsupported(absl::StrCat(
        "input '", what, "' (", node_.input(i),
        ") is computed at run time; onnx-to-c needs it to be a constant because it fixes "
        "shapes in the static arena"));
  }
  HostTensor t = ConstantInput(i);
  if (IsFloat(t.dtype)) return Invalid(absl::StrCat("input '", what, "' must be an integer tensor"));
  std::vector<int64_t> out(t.NumElements());
  for (int64_t k = 0; k < t.NumElements(); ++k) out[k] = t.GetInt(k);
  return out;
}

absl::StatusOr<std::vector<float>> NodeContext::ConstantFloats(int i, const char* what) const {
  if (!HasInput(i)) return Invalid(absl::StrCat("input '", what, "' is missing"));
  if (!IsConstantInput(i)) {
    return Unsupported(absl::StrCat(
        "input '", what, "' (", node_.input(i),
        ") is computed at run time; onnx-to-c needs it to be a constant because it fixes "
        "shapes in the static arena"));
  }
  HostTensor t = ConstantInput(i);
  std::vector<float> out(t.NumElements());
  for (int64_t k = 0; k < t.NumElements(); ++k) out[k] = static_cast<float>(t.GetDouble(k));
  return out;
}

const onnx::AttributeProto* NodeContext::FindAttr(const std::string& name) const {
  for (const auto& a : node_.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

absl::StatusOr<int64_t> NodeContext::AttrInt(const std::string& name,
                                             std::optional<int64_t> fallback) const {
  const auto* a = FindAttr(name);
  if (!a) {
    if (fallback) return *fallback;
    return Invalid(absl::StrCat("attribute '", name, "' is required"));
  }
  if (a->type() != onnx::AttributeProto::INT) {
    return Invalid(absl::StrCat("attribute '", name, "' must be an int"));
  }
  return a->i();
}

absl::StatusOr<float> NodeContext::AttrFloat(const std::string& name,
                                             std::optional<float> fallback) const {
  const auto* a = FindAttr(name);
  if (!a) {
    if (fallback) return *fallback;
    return Invalid(absl::StrCat("attribute '", name, "' is required"));
  }
  if (a->type() != onnx::AttributeProto::FLOAT) {
    return Invalid(absl::StrCat("attribute '", name, "' must be a float"));
  }
  return a->f();
}

absl::StatusOr<std::string> NodeContext::AttrString(const std::string& name,
                                                    std::optional<std::string> fallback) const {
  const auto* a = FindAttr(name);
  if (!a) {
    if (fallback) return *fallback;
    return Invalid(absl::StrCat("attribute '", name, "' is required"));
  }
  if (a->type() != onnx::AttributeProto::STRING) {
    return Invalid(absl::StrCat("attribute '", name, "' must be a string"));
  }
  return a->s();
}

absl::StatusOr<std::vector<int64_t>> NodeContext::AttrInts(
    const std::string& name, std::optional<std::vector<int64_t>> fallback) const {
  const auto* a = FindAttr(name);
  if (!a) {
    if (fallback) return *fallback;
    return Invalid(absl::StrCat("attribute '", name, "' is required"));
  }
  if (a->type() != onnx::AttributeProto::INTS) {
    return Invalid(absl::StrCat("attribute '", name, "' must be a list of ints"));
  }
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

absl::StatusOr<std::vector<float>> NodeContext::AttrFloats(
    const std::string& name, std::optional<std::vector<float>> fallback) const {
  const auto* a = FindAttr(name);
  if (!a) {
    if (fallback) return *fallback;
    return Invalid(absl::StrCat("attribute '", name, "' is required"));
  }
  if (a->type() != onnx::AttributeProto::FLOATS) {
    return Invalid(absl::StrCat("attribute '", name, "' must be a list of floats"));
  }
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

ValueId NodeContext::NewResult(int i, DType dtype, Shape shape) {
  std::string name = HasOutput(i) ? node_.output(i) : absl::StrCat(node_.name(), "_unused", i);
  ValueId id = program_.AddResultValue(name, dtype, std::move(shape));
  if (HasOutput(i)) names_[node_.output(i)] = id;
  return id;
}

Statement& NodeContext::Emit(OpKind op, std::vector<ValueId> operands,
                             std::vector<ValueId> results) {
  Statement& s = program_.AddStatement(op, std::move(operands), std::move(results));
  s.node_name = node_.name();
  s.onnx_op = node_.op_type();
  return s;
}

void NodeContext::BindOutput(int i, ValueId existing) {
  if (HasOutput(i)) names_[node_.output(i)] = existing;
}

void NodeContext::BindConstantOutput(int i, HostTensor t) {
  if (!HasOutput(i)) return;
  ValueId id = program_.AddConstant(node_.output(i), t.dtype, t.shape, std::move(t.bytes));
  program_.value(id).element_bits = t.element_bits;
  names_[node_.output(i)] = id;
}

ValueId NodeContext::Temp(DType dtype, Shape shape, const std::string& suffix) {
  const std::string base = node_.output_size() > 0 ? node_.output(0) : node_.name();
  return program_.AddResultValue(base + suffix, dtype, std::move(shape));
}

ValueId NodeContext::Reshaped(ValueId v, const Shape& shape, const std::string& suffix) {
  const Value& val = program_.value(v);
  if (val.shape == shape) return v;
  if (val.IsConstant()) {
    return program_.AddConstant(val.name + suffix, val.dtype, shape, val.data);
  }
  ValueId r = Temp(val.dtype, shape, suffix);
  Emit(OpKind::kReshape, {v}, {r});
  return r;
}

ValueId NodeContext::CastTo(ValueId v, DType dtype, const std::string& suffix) {
  const Value& val = program_.value(v);
  if (val.dtype == dtype) return v;
  if (val.IsConstant()) {
    HostTensor in{val.dtype, val.shape, val.data};
    HostTensor out = HostTensor::Zeros(dtype, val.shape);
    for (int64_t k = 0; k < in.NumElements(); ++k) {
      if (IsFloat(val.dtype)) {
        out.SetDouble(k, in.GetDouble(k));
      } else {
        out.SetInt(k, in.GetInt(k));
      }
    }
    return program_.AddConstant(val.name + suffix, dtype, val.shape, std::move(out.bytes));
  }
  ValueId r = Temp(dtype, val.shape, suffix);
  Emit(OpKind::kCast, {v}, {r});
  return r;
}

ValueId NodeContext::ScalarConstant(DType dtype, double value, const std::string& suffix) {
  HostTensor t = HostTensor::Zeros(dtype, {});
  t.SetDouble(0, value);
  const std::string base = node_.output_size() > 0 ? node_.output(0) : node_.name();
  return program_.AddConstant(base + suffix, dtype, {}, std::move(t.bytes));
}

absl::StatusOr<int64_t> NormalizeAxis(const NodeContext& ctx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return ctx.Invalid(absl::StrCat("axis ", axis, " is out of range for rank ", rank));
  }
  return axis < 0 ? axis + rank : axis;
}

absl::StatusOr<Shape> BroadcastShapes(const NodeContext& ctx, const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return ctx.Invalid(absl::StrCat("shapes ", FormatShape(a), " and ", FormatShape(b),
                                      " cannot be broadcast"));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// ---- The importer ----------------------------------------------------------

namespace {


// Weights from the file are bounded by its size (1 GiB); constants folded
// from them by this.
constexpr int64_t kMaxFoldedBytes = int64_t{256} << 20;

absl::StatusOr<Shape> StaticShapeOf(const onnx::ValueInfoProto& vi, DType* dtype) {
  const std::string what = absl::StrCat("graph input '", vi.name(), "'");
  if (!vi.type().has_tensor_type()) {
    return absl::UnimplementedError(absl::StrCat(what, " is not a tensor"));
  }
  const auto& tt = vi.type().tensor_type();
  OC_ASSIGN_OR_RETURN(*dtype, DTypeFromOnnx(tt.elem_type()));
  if (!tt.has_shape()) {
    return absl::InvalidArgumentError(absl::StrCat(what, " has no shape (dynamic rank)"));
  }
  Shape shape;
  for (const auto& d : tt.shape().dim()) {
    if (d.has_dim_value()) {
      shape.push_back(d.dim_value());
    } else {
      if (d.dim_param().empty()) {
        return absl::UnimplementedError(absl::StrCat(
            what, " has an unknown dimension; onnx-to-c needs static shapes: fix the dimension in the model"));
      }
      return absl::UnimplementedError(absl::StrCat(
          what, " has a dynamic (symbolic) '", d.dim_param(),
          "' dimension; onnx-to-c needs static shapes: pin it with --dim=", d.dim_param(), "=N"));
    }
  }
  OC_RETURN_IF_ERROR(CheckStaticDims(shape, *dtype, what, /*allow_empty=*/true));
  return shape;
}

// ONNX shape inference's static result for `name`, if any.
std::optional<Shape> InferredShape(const std::unordered_map<std::string, const onnx::ValueInfoProto*>& infos,
                                   const std::string& name) {
  auto it = infos.find(name);
  if (it == infos.end() || !it->second->type().has_tensor_type()) return std::nullopt;
  const auto& tt = it->second->type().tensor_type();
  if (!tt.has_shape()) return std::nullopt;
  Shape s;
  for (const auto& d : tt.shape().dim()) {
    if (!d.has_dim_value()) return std::nullopt;
    s.push_back(d.dim_value());
  }
  return s;
}

}  // namespace

std::optional<Shape> NodeContext::DeclaredOutputShape(int i) const {
  if (declared_ == nullptr || !HasOutput(i)) return std::nullopt;
  return InferredShape(*declared_, node_.output(i));
}

namespace {

// Gives every graph output a buffer of its own: outputs that are graph inputs,
// constants, views or repeated get a copy statement.
void MaterializeOutputs(Program& p) {
  std::vector<int> def = p.DefiningStatementIndex();
  std::unordered_set<ValueId> seen;
  for (ValueId& out : p.outputs()) {
    const Value& v = p.value(out);
    bool needs_copy = v.kind != ValueKind::kResult || seen.count(out) != 0 ||
                      GetOpInfo(p.statements()[def[out]].op).effect == MemoryEffect::kView;
    seen.insert(out);
    if (!needs_copy) continue;
    ValueId copy = p.AddResultValue(v.name, v.dtype, v.shape);
    Statement& s = p.AddStatement(OpKind::kCopy, {out}, {copy});
    s.node_name = "graph output " + p.value(out).name;
    s.onnx_op = "Output";
    out = copy;
  }
}


// Errors of a node's lowering name the node (helpers shared with other
// layers report without it).
absl::Status NameTheNode(const NodeContext& ctx, absl::Status status) {
  if (status.ok() || absl::StartsWith(status.message(), "node '")) return status;
  return absl::Status(status.code(), absl::StrCat(ctx.Where(), ": ", status.message()));
}

}  // namespace

absl::Status ImportNode(const onnx::NodeProto& node, ImportScope& scope) {
  Program& p = scope.program;
  NodeContext ctx(node, scope.opset, p, scope.names);
  ctx.SetDeclaredShapes(&scope.inferred);
  if (!node.domain().empty() && node.domain() != "ai.onnx") {
    return ctx.Unsupported(absl::StrCat("domain '", node.domain(), "' is not supported"));
  }
  for (int i = 0; i < node.input_size(); ++i) {
    if (!node.input(i).empty() && !scope.names.count(node.input(i))) {
      return ctx.Invalid(absl::StrCat("input '", node.input(i), "' is not defined"));
    }
  }
  if (node.op_type() == "Constant") {
    OC_ASSIGN_OR_RETURN(HostTensor t, ConstantNodeValue(ctx));
    ctx.BindConstantOutput(0, std::move(t));
    return absl::OkStatus();
  }
  const size_t first_new_value = p.num_values();
  if (node.op_type() == "Loop") {
    OC_RETURN_IF_ERROR(UnrollLoop(node, scope));
  } else if (node.op_type() == "Scan") {
    OC_RETURN_IF_ERROR(UnrollScan(node, scope));
  } else {
    OC_RETURN_IF_ERROR(NameTheNode(ctx, FoldOrLowerNode(ctx)));
  }
  // Shapes computed from a hostile model's attributes and constants are
  // checked here, before anything multiplies their dimensions.
  for (size_t v = first_new_value; v < p.num_values(); ++v) {
    const Value& made = p.value(static_cast<ValueId>(v));
    absl::Status fits = CheckStaticDims(made.shape, made.dtype, absl::StrCat("'", made.name, "'"),
                                        /*allow_empty=*/true);
    if (!fits.ok()) return ctx.Invalid(fits.message());
    // Folding can expand a few bytes (ConstantOfShape, Expand, Tile) into
    // constants that would be emitted as C text: their total is bounded.
    scope.folded_bytes += static_cast<int64_t>(made.data.size());
    if (scope.folded_bytes > kMaxFoldedBytes) {
      return ctx.Invalid(absl::StrCat("constants computed at compile time exceed ",
                                      kMaxFoldedBytes >> 20, " MiB"));
    }
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty()) continue;
    auto bound = scope.names.find(node.output(i));
    if (bound == scope.names.end()) {
      return ctx.Unsupported(absl::StrCat("output ", i, " ('", node.output(i),
                                          "') is not supported"));
    }
    std::optional<Shape> inferred = InferredShape(scope.inferred, node.output(i));
    const Shape mine = p.value(bound->second).shape;
    if (!p.value(bound->second).IsConstant() && NumElements(mine) == 0) {
      // An empty result is known from its shape: its statement is dead code.
      const Value empty = p.value(bound->second);
      bound->second = p.AddConstant(empty.name, empty.dtype, empty.shape, {});
    }
    if (inferred && *inferred != mine) {
      return ctx.Invalid(absl::StrCat("output '", node.output(i), "' has shape ",
                                      FormatShape(mine), " but ONNX shape inference says ",
                                      FormatShape(*inferred)));
    }
  }
  return absl::OkStatus();
}

namespace {

absl::StatusOr<Program> Import(const LoadedModel& loaded, const ImportOptions& options) {
  const onnx::GraphProto& g = loaded.model.graph();
  Program p;
  p.name = options.program_name;
  std::unordered_map<std::string, ValueId> names;

  std::unordered_set<std::string> initializer_names;
  for (const auto& init : g.initializer()) {
    auto decoded = DecodeTensorProto(init);
    if (!decoded.ok()) {
      return absl::Status(decoded.status().code(),
                          absl::StrCat("initializer: ", decoded.status().message()));
    }
    names[init.name()] = p.AddConstant(init.name(), decoded->dtype, decoded->shape,
                                       std::move(decoded->bytes));
    p.value(names[init.name()]).element_bits = decoded->element_bits;
    initializer_names.insert(init.name());
  }
  // Independent problems are all reported: an input or node that fails does
  // not stop the walk; the nodes that read what it would have made are
  // skipped (their errors would only repeat it).
  ErrorList errors;
  std::unordered_set<std::string> failed;
  for (const auto& in : g.input()) {
    if (initializer_names.count(in.name())) continue;  // an initializer with a default
    DType dtype = DType::kF32;
    absl::StatusOr<Shape> shape = StaticShapeOf(in, &dtype);
    if (!errors.Add(shape.status())) {
      failed.insert(in.name());
      continue;
    }
    ValueId input = p.AddInput(in.name(), dtype, *shape);
    // An empty input (a zero dimension) stays in the interface as a buffer of
    // 0 bytes; its readers see its value, which its shape alone determines.
    names[in.name()] = NumElements(*shape) == 0 ? p.AddConstant(in.name(), dtype, *shape, {}) : input;
  }

  std::unordered_map<std::string, const onnx::ValueInfoProto*> infos;
  for (const auto& vi : g.value_info()) infos[vi.name()] = &vi;
  for (const auto& vi : g.output()) infos[vi.name()] = &vi;

  int64_t folded_bytes = 0, unrolled_nodes = 0;
  ImportScope scope{p, names, infos, loaded.opset, folded_bytes, unrolled_nodes};
  for (const auto& node : g.node()) {
    bool reads_failed = false;
    for (const std::string& in : node.input()) reads_failed = reads_failed || failed.count(in) != 0;
    if (reads_failed || !errors.Add(ImportNode(node, scope))) {
      for (const std::string& out : node.output()) failed.insert(out);
      if (errors.full()) break;
    }
  }
  OC_RETURN_IF_ERROR(errors.ToStatus());

  for (const auto& out : g.output()) {
    auto it = names.find(out.name());
    if (it == names.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("graph output '", out.name(), "' is never computed"));
    }
    p.outputs().push_back(it->second);
  }
  if (p.outputs().empty()) return absl::InvalidArgumentError("the graph has no outputs");
  MaterializeOutputs(p);
  OC_RETURN_IF_ERROR(VerifyProgram(p));
  return p;
}

}  // namespace

absl::StatusOr<Program> ImportOnnxBytes(const std::string& bytes, const ImportOptions& options) {
  OC_ASSIGN_OR_RETURN(LoadedModel loaded, LoadOnnxModelFromBytes(bytes, options.dim_values));
  if (options.defaulted_dims) *options.defaulted_dims = loaded.defaulted_dims;
  return Import(loaded, options);
}

absl::StatusOr<Program> ImportOnnxFile(const std::string& path, const ImportOptions& options) {
  OC_ASSIGN_OR_RETURN(LoadedModel loaded, LoadOnnxModel(path, options.dim_values));
  if (options.defaulted_dims) *options.defaulted_dims = loaded.defaulted_dims;
  return Import(loaded, options);
}

}  // namespace oc
