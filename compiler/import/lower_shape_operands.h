// Reshape, Squeeze and Unsqueeze whose shape operand (shape, axes) is a graph
// input: the model's declared output shape fixes the static shapes, the
// statement copies its input (a checked_reshape) and the generated run
// function checks the operand passed (targets/c99/emit_operand_checks.cc).
// Internal to import/.
#ifndef ONNX_TO_C_IMPORT_LOWER_SHAPE_OPERANDS_H_
#define ONNX_TO_C_IMPORT_LOWER_SHAPE_OPERANDS_H_

#include "absl/status/status.h"
#include "compiler/import/node_context.h"

namespace oc {

// Whether input i is a shape operand given at run time: not a constant.
inline bool IsRunTimeShapeOperand(const NodeContext& ctx, int i) {
  return ctx.HasInput(i) && !ctx.IsConstantInput(i);
}

absl::Status LowerReshapeWithRunTimeShape(NodeContext& ctx);
// Squeeze (squeeze true) or Unsqueeze with run-time axes (input 1).
absl::Status LowerSqueezeWithRunTimeAxes(NodeContext& ctx, bool squeeze);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_LOWER_SHAPE_OPERANDS_H_
