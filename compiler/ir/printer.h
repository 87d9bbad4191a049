// The IR's text form (see docs/ir.md): printing.
#ifndef ONNX_TO_C_IR_PRINTER_H_
#define ONNX_TO_C_IR_PRINTER_H_

#include <string>

#include "compiler/ir/program.h"

namespace oc {

struct PrintOptions {
  // Constants larger than this many bytes print as `elided` (the text then no
  // longer round-trips; the CLI uses it for readable dumps of real models).
  int64_t max_constant_bytes = -1;  // -1: print everything
};

std::string PrintProgram(const Program& program, const PrintOptions& options = {});

// Helpers shared with the parser's tests and error messages.
std::string FormatFloat(float v);
std::string QuoteString(const std::string& s);
std::string FormatShape(const Shape& shape);  // "1x3x32x32" style for messages

}  // namespace oc

#endif  // ONNX_TO_C_IR_PRINTER_H_
