#include "compiler/import/attribute_guard.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/import/tensor_data.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

absl::Status Refuse(const onnx::NodeProto& node, const std::string& message) {
  return absl::InvalidArgumentError(
      absl::StrCat("node '", node.name(), "' (", node.op_type(), "): ", message));
}

const onnx::AttributeProto* Find(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

bool IsPooling(const std::string& op) {
  return op == "MaxPool" || op == "AveragePool" || op == "LpPool";
}

absl::Status CheckNode(const onnx::NodeProto& node) {
  for (const char* name : {"strides", "dilations", "kernel_shape"}) {
    const onnx::AttributeProto* a = Find(node, name);
    if (!a) continue;
    for (int64_t v : a->ints()) {
      if (v <= 0) {
        return Refuse(node, absl::StrCat(name, " [", absl::StrJoin(a->ints(), ", "),
                                         "] must be positive"));
      }
    }
  }
  if (const onnx::AttributeProto* g = Find(node, "group"); g && g->has_i() && g->i() <= 0) {
    return Refuse(node, absl::StrCat("group ", g->i(), " must be positive"));
  }
  // The Pad op (opsets 1 and 2) takes negative pads as cropping.
  const onnx::AttributeProto* pads = Find(node, "pads");
  if (pads && node.op_type() != "Pad") {
    const onnx::AttributeProto* kernel = Find(node, "kernel_shape");
    const int k = kernel ? kernel->ints_size() : 0;
    for (int i = 0; i < pads->ints_size(); ++i) {
      const int64_t p = pads->ints(i);
      if (p < 0) return Refuse(node, absl::StrCat("pad ", p, " is negative"));
      // As ONNX Runtime does: a window entirely in the padding has no input.
      if (IsPooling(node.op_type()) && k > 0 && p >= kernel->ints(i % k)) {
        return Refuse(node, absl::StrCat("pad ", p, " is not smaller than the kernel (",
                                         kernel->ints(i % k), ")"));
      }
    }
  }
  return absl::OkStatus();
}

// Tensor attributes (Constant's value, ConstantOfShape's, ...) of a type
// onnx-to-c reads must hold the data their dims need.
absl::Status CheckTensorAttributes(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    std::vector<const onnx::TensorProto*> tensors;
    if (a.has_t()) tensors.push_back(&a.t());
    for (const auto& t : a.tensors()) tensors.push_back(&t);
    for (const onnx::TensorProto* t : tensors) {
      if (!DTypeFromOnnx(t->data_type()).ok()) continue;  // refused where it is used
      absl::Status st = CheckTensorProtoSize(*t);
      if (!st.ok()) return Refuse(node, absl::StrCat("attribute '", a.name(), "': ", st.message()));
    }
  }
  return absl::OkStatus();
}

// Ranks known before shape inference: graph inputs, initializers, Constants.
using KnownRanks = std::unordered_map<std::string, int>;

KnownRanks RanksOf(const onnx::GraphProto& graph) {
  KnownRanks ranks;
  for (const auto& in : graph.input()) {
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      ranks[in.name()] = in.type().tensor_type().shape().dim_size();
    }
  }
  for (const auto& init : graph.initializer()) ranks[init.name()] = init.dims_size();
  for (const auto& node : graph.node()) {
    const onnx::AttributeProto* value = Find(node, "value");
    if (node.op_type() == "Constant" && value && value->has_t() && node.output_size() > 0) {
      ranks[node.output(0)] = value->t().dims_size();
    }
  }
  return ranks;
}

absl::Status CheckConvolutionWeight(const onnx::NodeProto& node, const KnownRanks& ranks) {
  const std::string& op = node.op_type();
  const int w = op == "QLinearConv" ? 3 : 1;
  if ((op != "Conv" && op != "ConvTranspose" && op != "ConvInteger" && op != "QLinearConv") ||
      node.input_size() <= w) {
    return absl::OkStatus();
  }
  auto rank = ranks.find(node.input(w));
  if (rank == ranks.end()) return absl::OkStatus();
  if (rank->second < 3) {
    return Refuse(node, absl::StrCat("weight '", node.input(w), "' has rank ", rank->second,
                                     "; a convolution weight has rank 3 or more"));
  }
  auto x = ranks.find(node.input(0));
  if (x != ranks.end() && x->second != rank->second) {
    return Refuse(node, absl::StrCat("weight '", node.input(w), "' has rank ", rank->second,
                                     " but input '", node.input(0), "' has rank ", x->second));
  }
  const onnx::AttributeProto* kernel = Find(node, "kernel_shape");
  if (kernel && kernel->ints_size() != rank->second - 2) {
    return Refuse(node, absl::StrCat("kernel_shape has ", kernel->ints_size(),
                                     " values for a weight of rank ", rank->second));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status GuardOnnxShapeInference(const onnx::GraphProto& graph) {
  for (const auto& init : graph.initializer()) {
    absl::Status st = CheckTensorProtoSize(init);
    if (!st.ok()) return absl::Status(st.code(), absl::StrCat("initializer: ", st.message()));
  }
  const KnownRanks ranks = RanksOf(graph);
  for (const auto& node : graph.node()) {
    OC_RETURN_IF_ERROR(CheckNode(node));
    OC_RETURN_IF_ERROR(CheckTensorAttributes(node));
    OC_RETURN_IF_ERROR(CheckConvolutionWeight(node, ranks));
    // The parser's nesting limit bounds this recursion.
    for (const auto& a : node.attribute()) {
      if (a.has_g()) OC_RETURN_IF_ERROR(GuardOnnxShapeInference(a.g()));
      for (const auto& sub : a.graphs()) OC_RETURN_IF_ERROR(GuardOnnxShapeInference(sub));
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
