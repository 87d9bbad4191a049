// What libonnx (which knows opsets up to kLibOnnxMaxOpset) may check and
// shape-infer of a newer model.
#ifndef ONNX_TO_C_IMPORT_LIBONNX_VIEW_H_
#define ONNX_TO_C_IMPORT_LIBONNX_VIEW_H_

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"

namespace oc {

// A copy of `model` (default-domain opset `opset` > kLibOnnxMaxOpset) for
// onnx::checker and ONNX shape inference: the opset is relabelled
// kLibOnnxMaxOpset; a node whose operator changed meaning since then is
// written in its older form when it uses none of the new features (a Reduce
// whose axes input is a constant, a Cast whose saturate attribute only
// matters for float8), and otherwise moved to a private domain, which the
// checker accepts and shape inference skips. Such hidden nodes are checked
// here against the version table (opset_versions.h); the importer's own
// shape rules are authoritative for them.
absl::StatusOr<onnx::ModelProto> LibOnnxView(const onnx::ModelProto& model, int opset);

// For shape inference of a LibOnnxView: also hides every node that reads a
// hidden node's result, directly or not. (libonnx 1.12's inference and data
// propagation of some ops, Shape among them, read input types without
// checking that they exist.)
void HideReadersOfHidden(onnx::ModelProto& view);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_LIBONNX_VIEW_H_
