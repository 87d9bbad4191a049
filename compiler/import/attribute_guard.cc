#include "compiler/import/attribute_guard.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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

}  // namespace

absl::Status CheckSpatialAttributes(const onnx::GraphProto& graph) {
  for (const auto& node : graph.node()) {
    OC_RETURN_IF_ERROR(CheckNode(node));
    // The parser's nesting limit bounds this recursion.
    for (const auto& a : node.attribute()) {
      if (a.has_g()) OC_RETURN_IF_ERROR(CheckSpatialAttributes(a.g()));
      for (const auto& sub : a.graphs()) OC_RETURN_IF_ERROR(CheckSpatialAttributes(sub));
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
