// Element types of IR values.
#ifndef ONNX_TO_C_IR_DTYPE_H_
#define ONNX_TO_C_IR_DTYPE_H_

#include <cstdint>
#include <optional>
#include "absl/strings/string_view.h"

namespace oc {

enum class DType : uint8_t {
  kF32,
  kF64,
  kF16,
  kI8,
  kU8,
  kI16,
  kU16,
  kI32,
  kU32,
  kI64,
  kU64,
  kBool,
};

// Bytes per element.
int DTypeSize(DType t);
// IR spelling: "f32", "i8", "bool", ...
absl::string_view DTypeName(DType t);
std::optional<DType> ParseDTypeName(absl::string_view name);
// The C99 type the generated code uses ("float", "int8_t", "uint8_t" for bool).
absl::string_view DTypeCType(DType t);
bool IsFloat(DType t);

}  // namespace oc

#endif  // ONNX_TO_C_IR_DTYPE_H_
