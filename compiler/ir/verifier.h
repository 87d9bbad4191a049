// Structural checks on a Program: SSA form, operand counts, types and the
// attributes each op needs. Runs after import and after every pass.
#ifndef ONNX_TO_C_IR_VERIFIER_H_
#define ONNX_TO_C_IR_VERIFIER_H_

#include "absl/status/status.h"
#include "compiler/ir/program.h"

namespace oc {

// Largest tensor the generated code can address (int32_t element indices).
inline constexpr int64_t kMaxTensorBytes = (int64_t{1} << 31) - 1;

absl::Status VerifyProgram(const Program& program);

}  // namespace oc

#endif  // ONNX_TO_C_IR_VERIFIER_H_
