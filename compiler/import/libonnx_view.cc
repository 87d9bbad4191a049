#include "compiler/import/libonnx_view.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/import/opset_versions.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

constexpr char kHiddenDomain[] = "onnx_to_c.newer_than_libonnx";

using Attrs = google::protobuf::RepeatedPtrField<onnx::AttributeProto>;

const onnx::AttributeProto* Find(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

void Remove(onnx::NodeProto& n, const std::string& name) {
  Attrs* attrs = n.mutable_attribute();
  for (int i = 0; i < attrs->size(); ++i) {
    if (attrs->Get(i).name() == name) {
      attrs->DeleteSubrange(i, 1);
      return;
    }
  }
}

int64_t IntOr(const onnx::NodeProto& n, const std::string& name, int64_t fallback) {
  const onnx::AttributeProto* a = Find(n, name);
  return a ? a->i() : fallback;
}

std::string StringOr(const onnx::NodeProto& n, const std::string& name, const std::string& fallback) {
  const onnx::AttributeProto* a = Find(n, name);
  return a ? a->s() : fallback;
}

bool AllOnes(const onnx::NodeProto& n, const std::string& name) {
  const onnx::AttributeProto* a = Find(n, name);
  if (!a) return true;
  for (int64_t v : a->ints()) {
    if (v != 1) return false;
  }
  return true;
}

// Removes `name` when it holds its default (or is absent); false otherwise.
bool DropDefaultInt(onnx::NodeProto& n, const std::string& name, int64_t default_value) {
  if (IntOr(n, name, default_value) != default_value) return false;
  Remove(n, name);
  return true;
}

bool HasInput(const onnx::NodeProto& n, int i) { return i < n.input_size() && !n.input(i).empty(); }

// Integer tensors the model fixes (initializers, Constant nodes), by name.
class ConstantInts {
 public:
  explicit ConstantInts(const onnx::GraphProto& g) {
    for (const auto& t : g.initializer()) tensors_[t.name()] = &t;
    for (const auto& n : g.node()) {
      if (n.op_type() == "Constant" && n.output_size() == 1 && n.attribute_size() == 1 &&
          n.attribute(0).name() == "value") {
        tensors_[n.output(0)] = &n.attribute(0).t();
      }
    }
  }
  std::optional<std::vector<int64_t>> Get(const std::string& name) const {
    auto it = tensors_.find(name);
    if (it == tensors_.end()) return std::nullopt;
    const onnx::TensorProto& t = *it->second;
    if (t.data_type() != onnx::TensorProto::INT64 || t.dims_size() > 1) return std::nullopt;
    std::vector<int64_t> v(t.int64_data().begin(), t.int64_data().end());
    if (t.has_raw_data()) {
      const std::string& raw = t.raw_data();
      if (raw.size() % sizeof(int64_t) != 0) return std::nullopt;
      v.resize(raw.size() / sizeof(int64_t));
      for (size_t i = 0; i < v.size(); ++i) {
        int64_t x = 0;
        for (int b = 7; b >= 0; --b) x = (x << 8) | static_cast<unsigned char>(raw[i * 8 + b]);
        v[i] = x;
      }
    }
    return v;
  }

 private:
  std::unordered_map<std::string, const onnx::TensorProto*> tensors_;
};

// Rewrites `n` (whose semantic version is `v`) into its opset-17 form, or
// returns false when it uses what only the newer version has.
bool WriteAsLibOnnxVersion(onnx::NodeProto& n, const OpVersion& v, const ConstantInts& constants) {
  const std::string& op = n.op_type();
  if (v.change == VersionChange::kNewOp) return false;
  if (op.rfind("Reduce", 0) == 0) {
    if (IntOr(n, "noop_with_empty_axes", 0) != 0) return false;
    Remove(n, "noop_with_empty_axes");
    if (HasInput(n, 1)) {
      std::optional<std::vector<int64_t>> axes = constants.Get(n.input(1));
      if (!axes || axes->empty()) return false;
      onnx::AttributeProto* a = n.add_attribute();
      a->set_name("axes");
      a->set_type(onnx::AttributeProto::INTS);
      for (int64_t x : *axes) a->add_ints(x);
    }
    if (n.input_size() > 1) n.mutable_input()->DeleteSubrange(1, n.input_size() - 1);
    return true;
  }
  if (op == "Split") return Find(n, "num_outputs") == nullptr;
  if (op == "Pad") return !HasInput(n, 3) && StringOr(n, "mode", "constant") != "wrap";
  if (op == "Resize") {
    if (Find(n, "axes") || StringOr(n, "keep_aspect_ratio_policy", "stretch") != "stretch" ||
        StringOr(n, "coordinate_transformation_mode", "") == "half_pixel_symmetric") {
      return false;
    }
    Remove(n, "keep_aspect_ratio_policy");
    return DropDefaultInt(n, "antialias", 0);
  }
  if (op == "ScatterElements" || op == "ScatterND") {
    const std::string r = StringOr(n, "reduction", "none");
    return r != "max" && r != "min";
  }
  if (op == "LpPool" || op == "AveragePool") {
    if (!AllOnes(n, "dilations")) return false;
    Remove(n, "dilations");
    return op == "AveragePool" || DropDefaultInt(n, "ceil_mode", 0);
  }
  if (op == "Cast" || op == "CastLike") {
    Remove(n, "saturate");  // changes nothing but float8 results
    return true;
  }
  if (op == "QuantizeLinear" || op == "DequantizeLinear") {
    Remove(n, "saturate");
    if (!DropDefaultInt(n, "block_size", 0) || !DropDefaultInt(n, "precision", 0)) return false;
    // output_dtype only says what a zero point would say.
    const int64_t dtype = IntOr(n, "output_dtype", 0);
    if (dtype != 0 && op == "QuantizeLinear" && !HasInput(n, 2)) return false;
    if (dtype != 0 && op == "DequantizeLinear" && dtype != onnx::TensorProto::FLOAT) return false;
    Remove(n, "output_dtype");
    return true;
  }
  return false;
}

}  // namespace

namespace {

bool ContainsHidden(const onnx::GraphProto& g) {
  for (const onnx::NodeProto& n : g.node()) {
    if (n.domain() == kHiddenDomain) return true;
    for (const auto& attr : n.attribute()) {
      if (attr.has_g() && ContainsHidden(attr.g())) return true;
      for (const auto& sub : attr.graphs()) {
        if (ContainsHidden(sub)) return true;
      }
    }
  }
  return false;
}

// Hides, in `g`, the nodes whose subgraphs hide one and the readers of a
// hidden node's results (ONNX shape inference runs a Loop's body itself).
void HideReaders(onnx::GraphProto& g) {
  std::unordered_set<std::string> untyped;
  for (onnx::NodeProto& n : *g.mutable_node()) {
    bool hide = n.domain() == kHiddenDomain;
    for (const std::string& in : n.input()) hide = hide || untyped.count(in) != 0;
    for (const auto& attr : n.attribute()) {
      hide = hide || (attr.has_g() && ContainsHidden(attr.g()));
      for (const auto& sub : attr.graphs()) hide = hide || ContainsHidden(sub);
    }
    if (!hide) continue;
    if (n.domain().empty() || n.domain() == "ai.onnx") n.set_domain(kHiddenDomain);
    for (const std::string& out : n.output()) untyped.insert(out);
  }
}

// Writes the nodes of `g` and of its subgraphs (the parser's nesting limit
// bounds the recursion) in their opset-17 form or hides them.
absl::Status ViewGraph(onnx::GraphProto& g, int opset, bool& any_hidden) {
  const ConstantInts constants(g);
  for (onnx::NodeProto& n : *g.mutable_node()) {
    for (auto& attr : *n.mutable_attribute()) {
      if (attr.has_g()) OC_RETURN_IF_ERROR(ViewGraph(*attr.mutable_g(), opset, any_hidden));
      for (auto& sub : *attr.mutable_graphs()) OC_RETURN_IF_ERROR(ViewGraph(sub, opset, any_hidden));
    }
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    const OpVersion* v = SemanticVersionAfterLibOnnx(n.op_type(), opset);
    if (v == nullptr) continue;
    OC_RETURN_IF_ERROR(CheckNodeAgainstTable(n, *v));
    if (WriteAsLibOnnxVersion(n, *v, constants)) continue;
    n.set_domain(kHiddenDomain);
    any_hidden = true;
  }
  return absl::OkStatus();
}

}  // namespace

void HideReadersOfHidden(onnx::ModelProto& view) { HideReaders(*view.mutable_graph()); }

absl::StatusOr<onnx::ModelProto> LibOnnxView(const onnx::ModelProto& model, int opset) {
  onnx::ModelProto view = model;
  bool any_hidden = false;
  for (auto& imp : *view.mutable_opset_import()) {
    if (imp.domain().empty() || imp.domain() == "ai.onnx") imp.set_version(kLibOnnxMaxOpset);
  }
  OC_RETURN_IF_ERROR(ViewGraph(*view.mutable_graph(), opset, any_hidden));
  if (any_hidden) {
    onnx::OperatorSetIdProto* imp = view.add_opset_import();
    imp->set_domain(kHiddenDomain);
    imp->set_version(1);
  }
  return view;
}

}  // namespace oc
