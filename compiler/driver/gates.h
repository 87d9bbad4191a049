// CI gates: checks a compilation must pass before any file is written, so a
// firmware build fails when a model no longer fits its RAM budget
// (--max-arena) or its operator order lost its optimality certificate
// (--require-certified).
#ifndef ONNX_TO_C_DRIVER_GATES_H_
#define ONNX_TO_C_DRIVER_GATES_H_

#include "absl/status/status.h"
#include "compiler/driver/compile.h"

namespace oc {

// OK, or an error naming the arena, the bound and the biggest buffers live at
// the peak step.
absl::Status CheckGates(const CompileOptions& options, const CompileResult& result);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_GATES_H_
