// Compile-time evaluation of ONNX nodes whose inputs are all constants
// (shape arithmetic such as Shape -> Gather -> Concat -> Reshape, Constant
// nodes, and weight preprocessing such as Transpose of an initializer).
#ifndef ONNX_TO_C_IMPORT_CONST_EVAL_H_
#define ONNX_TO_C_IMPORT_CONST_EVAL_H_

#include <string>
#include <unordered_map>

#include "compiler/import/node_context.h"
#include "compiler/import/onnx_op_table.h"

namespace oc {

// Adds the folding rules to the importer's op table (onnx_op_table.h).
void RegisterFoldingRules(std::unordered_map<std::string, OnnxOpRules>& table);

// True when the node has inputs and every one present is a constant.
bool AllInputsConstant(const NodeContext& ctx);

// The value of a Constant node's attribute.
absl::StatusOr<HostTensor> ConstantNodeValue(const NodeContext& ctx);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_CONST_EVAL_H_
