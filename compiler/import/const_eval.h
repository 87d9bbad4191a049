// Compile-time evaluation of ONNX nodes whose inputs are all constants
// (shape arithmetic such as Shape -> Gather -> Concat -> Reshape, Constant
// nodes, and weight preprocessing such as Transpose of an initializer).
#ifndef ONNX_TO_C_IMPORT_CONST_EVAL_H_
#define ONNX_TO_C_IMPORT_CONST_EVAL_H_

#include "compiler/import/node_context.h"

namespace oc {

// Folds the node when it can: returns true after binding every output as a
// constant, false when the op is not foldable here (the caller lowers it).
absl::StatusOr<bool> TryFoldNode(NodeContext& ctx);

// The value of a Constant node's attribute.
absl::StatusOr<HostTensor> ConstantNodeValue(const NodeContext& ctx);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_CONST_EVAL_H_
