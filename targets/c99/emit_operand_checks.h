// Run-time checks of shape operands passed as graph inputs (internal to
// targets/c99). A statement whose shape-fixing operand (Reduce* axes,
// Reshape's shape, Squeeze/Unsqueeze axes) is a graph input was compiled for
// the model's declared shapes; the run function checks the value passed
// before any statement runs and returns NAME_ERROR_SHAPE_OPERAND when it
// would give other shapes.
#ifndef ONNX_TO_C_TARGETS_C99_EMIT_OPERAND_CHECKS_H_
#define ONNX_TO_C_TARGETS_C99_EMIT_OPERAND_CHECKS_H_

#include <string>

#include "compiler/ir/program.h"
#include "targets/c99/emit_context.h"

namespace oc {

// Whether any statement reads a shape operand at run time (the header then
// defines NAME_ERROR_SHAPE_OPERAND; other programs' C is unchanged).
bool HasShapeOperandChecks(const Program& p);

// `static int NAME_shape_operands_ok(const struct NAME_ctx *c)`: 1 when every
// such operand gives the compiled shapes, 0 otherwise; it reads no element
// past an operand's declared size.
void EmitShapeOperandChecks(const EmitContext& ctx, const std::string& name, CodeWriter& w);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_EMIT_OPERAND_CHECKS_H_
