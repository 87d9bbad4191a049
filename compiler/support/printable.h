// Making text from an untrusted model safe to print on one terminal line.
#ifndef ONNX_TO_C_SUPPORT_PRINTABLE_H_
#define ONNX_TO_C_SUPPORT_PRINTABLE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace oc {

// Keeps printable ASCII and well-formed UTF-8 sequences of printable
// characters; writes every other byte (control characters such as newline or
// ESC, invalid UTF-8) as \xNN, so that a model's names can neither break the
// one-line error convention nor send escape sequences to a terminal.
std::string PrintableLine(absl::string_view text);

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_PRINTABLE_H_
