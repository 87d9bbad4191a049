// The IR's text form (see docs/ir.md): parsing.
#ifndef ONNX_TO_C_IR_PARSER_H_
#define ONNX_TO_C_IR_PARSER_H_

#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"

namespace oc {

// Parses one program. Errors carry "line:column: message".
absl::StatusOr<Program> ParseProgram(absl::string_view text);

}  // namespace oc

#endif  // ONNX_TO_C_IR_PARSER_H_
