#include "compiler/import/model_loader.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <unordered_map>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "compiler/import/attribute_guard.h"
#include "compiler/import/external_data.h"
#include "compiler/import/ir_version.h"
#include "compiler/import/libonnx_view.h"
#include "compiler/import/opset_versions.h"
#include "compiler/import/pin_dims.h"
#include "compiler/support/error_list.h"
#include "compiler/support/status.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"

namespace oc {
namespace {

constexpr int64_t kMaxModelBytes = int64_t{1} << 30;  // protobuf's own ceiling is 2 GiB
constexpr int kMaxNesting = 64;  // ONNX nests graphs in attributes; real models need < 10

bool UsesExternalData(const onnx::TensorProto& t) {
  return t.data_location() == onnx::TensorProto::EXTERNAL || t.external_data_size() > 0;
}

// Where an external tensor says its data is, for the error message. The path
// is never opened: weights must live inside the model file.
std::string ExternalLocation(const onnx::TensorProto& t) {
  for (const auto& entry : t.external_data()) {
    if (entry.key() == "location") return absl::StrCat(" ('", entry.value(), "')");
  }
  return "";
}

// Tensors in node attributes (a Constant's value) must hold their bytes; only
// initializers may live in an external file (LoadExternalInitializers).
absl::Status RejectExternalAttributes(const onnx::GraphProto& g) {
  for (const auto& node : g.node()) {
    for (const auto& attr : node.attribute()) {
      const onnx::TensorProto* external = nullptr;
      if (attr.has_t() && UsesExternalData(attr.t())) external = &attr.t();
      for (const auto& t : attr.tensors()) {
        if (UsesExternalData(t)) external = &t;
      }
      if (external) {
        return absl::InvalidArgumentError(absl::StrCat(
            "node '", node.name(), "' (", node.op_type(), "): attribute '", attr.name(),
            "' uses external data", ExternalLocation(*external), ", which onnx-to-c refuses"));
      }
      // Subgraphs (If, Loop, Scan) are refused later, but the ONNX checker
      // sees them first. The parser's nesting limit bounds this recursion.
      if (attr.has_g()) OC_RETURN_IF_ERROR(RejectExternalAttributes(attr.g()));
      for (const auto& sub : attr.graphs()) OC_RETURN_IF_ERROR(RejectExternalAttributes(sub));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int> DefaultOpset(const onnx::ModelProto& m) {
  int opset = -1;
  for (const auto& imp : m.opset_import()) {
    if (imp.domain().empty() || imp.domain() == "ai.onnx") opset = static_cast<int>(imp.version());
  }
  if (opset < 0) {
    // ai.onnx.ml (scikit-learn converters), ai.onnx.training, vendor domains.
    std::string others;
    for (const auto& imp : m.opset_import()) {
      absl::StrAppend(&others, others.empty() ? "" : ", ", "'", imp.domain(), "' version ", imp.version());
    }
    return absl::UnimplementedError(absl::StrCat(
        "the model imports no default-domain (ai.onnx) opset",
        others.empty() ? std::string() : absl::StrCat(", only ", others, ", which onnx-to-c does not read")));
  }
  if (opset < kMinOpset || opset > kMaxOpset) {
    return absl::UnimplementedError(absl::StrCat("opset ", opset, " is not supported (supported: ",
                                                 kMinOpset, " to ", kMaxOpset, ")"));
  }
  return opset;
}

// Puts the nodes in a topological order (ONNX requires one, but exporters
// sometimes get it wrong) and reports a cycle by naming a node on it.
absl::Status SortNodesTopologically(onnx::GraphProto& g) {
  const int n = g.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < n; ++i) {
    for (const std::string& out : g.node(i).output()) {
      if (!out.empty()) producer[out] = i;
    }
  }
  std::vector<std::vector<int>> users(n);
  std::vector<int> pending(n, 0);
  for (int i = 0; i < n; ++i) {
    for (const std::string& in : g.node(i).input()) {
      auto it = producer.find(in);
      if (in.empty() || it == producer.end()) continue;
      users[it->second].push_back(i);
      ++pending[i];
    }
  }
  // Kahn's algorithm, taking the lowest index first so sorted graphs keep
  // their file order.
  std::set<int> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.insert(i);
  }
  std::vector<int> order;
  while (!ready.empty()) {
    int i = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(i);
    for (int u : users[i]) {
      if (--pending[u] == 0) ready.insert(u);
    }
  }
  if (static_cast<int>(order.size()) != n) {
    for (int i = 0; i < n; ++i) {
      if (pending[i] > 0) {
        return absl::InvalidArgumentError(absl::StrCat("node '", g.node(i).name(), "' (",
                                                       g.node(i).op_type(),
                                                       "): the graph has a cycle through this node"));
      }
    }
  }
  bool sorted = true;
  for (int i = 0; i < n; ++i) sorted = sorted && order[i] == i;
  if (sorted) return absl::OkStatus();
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int i : order) *nodes.Add() = g.node(i);
  g.mutable_node()->Swap(&nodes);
  return absl::OkStatus();
}

// An exception from the ONNX checker or shape inference as one line that
// starts, as onnx-to-c's own errors do, with the node and op it names.
absl::Status OnnxFailure(const std::string& what_failed, std::string what) {
  // The messages quote the model's names, which may be megabytes long: cut
  // them before the regexes (libstdc++'s recurse per character).
  constexpr size_t kMaxMessage = 2000;
  if (what.size() > kMaxMessage) what = what.substr(0, kMaxMessage) + "...";
  for (char& c : what) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  static const std::regex kInference(R"(\(op_type:([^,]*), node name: (.*?)\): )");
  static const std::regex kChecker(R"( *==> Context: Bad node spec for node\. Name: (.*) OpType: (\S*) *$)");
  static const std::regex kUnsorted(R"(of node: +name: (.*) OpType: (\S*) +is not output)");
  static const std::regex kTag(R"(\[ShapeInferenceError\] )");
  std::smatch m;
  std::string node_prefix;
  if (std::regex_search(what, m, kInference)) {
    node_prefix = absl::StrCat("node '", m[2].str(), "' (", m[1].str(), "): ");
    what = m.prefix().str() + m.suffix().str();
  } else if (std::regex_search(what, m, kChecker)) {
    node_prefix = absl::StrCat("node '", m[1].str(), "' (", m[2].str(), "): ");
    what = m.prefix().str();
  } else if (std::regex_search(what, m, kUnsorted)) {
    node_prefix = absl::StrCat("node '", m[1].str(), "' (", m[2].str(), "): ");
  }
  what = std::regex_replace(what, kTag, "");
  return absl::InvalidArgumentError(absl::StrCat(node_prefix, what_failed, ": ", what));
}

}  // namespace

namespace {

// `model_dir`: the model file's folder, where external data may live (empty:
// the model came as bytes and may have none).
absl::StatusOr<LoadedModel> LoadFromBytes(const std::string& bytes, const DimValues& dims,
                                          const std::string& model_dir) {
  if (bytes.empty()) return absl::InvalidArgumentError("the model file is empty");
  if (static_cast<int64_t>(bytes.size()) > kMaxModelBytes) {
    return absl::InvalidArgumentError("the model file is larger than 1 GiB");
  }
  LoadedModel loaded;
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetRecursionLimit(kMaxNesting);
  coded.SetTotalBytesLimit(static_cast<int>(kMaxModelBytes));
  if (!loaded.model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a valid ONNX model: the protobuf could not be parsed (truncated or "
                     "corrupt file, or messages nested more than ",
                     kMaxNesting, " deep)"));
  }
  if (!loaded.model.has_graph()) return absl::InvalidArgumentError("the model has no graph");
  // Independent checks, all reported in one run.
  ErrorList errors;
  errors.Add(RejectExternalAttributes(loaded.model.graph()));
  errors.Add(LoadExternalInitializers(model_dir, *loaded.model.mutable_graph()));
  errors.Add(AdmitIrVersion(loaded.model));
  absl::StatusOr<int> opset = DefaultOpset(loaded.model);
  if (errors.Add(opset.status())) loaded.opset = *opset;
  errors.Add(PinSymbolicDims(dims, *loaded.model.mutable_graph()));
  OC_RETURN_IF_ERROR(errors.ToStatus());
  OC_RETURN_IF_ERROR(GuardOnnxShapeInference(loaded.model.graph()));
  loaded.defaulted_dims = DefaultBatchDims(*loaded.model.mutable_graph());
  OC_RETURN_IF_ERROR(SortNodesTopologically(*loaded.model.mutable_graph()));
  // libonnx checks and infers what it knows; for opsets above its newest it
  // sees LibOnnxView, and the shapes it infers are copied back.
  onnx::ModelProto checked;
  if (loaded.opset > kLibOnnxMaxOpset) {
    OC_ASSIGN_OR_RETURN(checked, LibOnnxView(loaded.model, loaded.opset));
  } else {
    checked = loaded.model;
  }
  try {
    onnx::checker::check_model(checked);
  } catch (const std::exception& e) {
    return OnnxFailure("the ONNX checker rejects the model", e.what());
  }
  // Old exporters break some type constraints (an int64 Constant at opset
  // 6): when type checking is what fails, shapes are inferred without it (the
  // importer checks the types each lowering needs).
  std::string failure;
  if (loaded.opset > kLibOnnxMaxOpset) HideReadersOfHidden(checked);
  for (bool check_type : {true, false}) {
    onnx::ModelProto attempt = checked;
    try {
      onnx::ShapeInferenceOptions options(check_type, /*strict_mode=*/0, /*data_prop=*/true);
      std::unordered_map<std::string, onnx::TensorShapeProto> generated;
      onnx::shape_inference::InferShapes(attempt, onnx::OpSchemaRegistry::Instance(), options,
                                         &generated);
      if (loaded.opset > kLibOnnxMaxOpset) {
        onnx::GraphProto& g = *loaded.model.mutable_graph();
        *g.mutable_value_info() = attempt.graph().value_info();
        *g.mutable_output() = attempt.graph().output();
      } else {
        loaded.model = std::move(attempt);
      }
      return loaded;
    } catch (const std::exception& e) {
      if (failure.empty()) failure = e.what();
    }
  }
  return OnnxFailure("ONNX shape inference failed", failure);
}

}  // namespace

absl::StatusOr<LoadedModel> LoadOnnxModelFromBytes(const std::string& bytes, const DimValues& dims) {
  return LoadFromBytes(bytes, dims, "");
}

absl::StatusOr<LoadedModel> LoadOnnxModel(const std::string& path, const DimValues& dims) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open model file '", path, "'"));
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) return absl::InvalidArgumentError(absl::StrCat("cannot read '", path, "'"));
  if (size > kMaxModelBytes) {
    return absl::InvalidArgumentError("the model file is larger than 1 GiB");
  }
  in.seekg(0, std::ios::beg);
  std::string bytes(static_cast<size_t>(size), '\0');
  if (size > 0 && !in.read(bytes.data(), size)) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read '", path, "'"));
  }
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return LoadFromBytes(bytes, dims, dir.empty() ? "." : dir);
}

}  // namespace oc
