// Operation kinds and their static properties (from ops.def).
#ifndef ONNX_TO_C_IR_OPS_H_
#define ONNX_TO_C_IR_OPS_H_

#include <cstdint>
#include <optional>
#include "absl/strings/string_view.h"

namespace oc {

enum class OpKind : uint16_t {
#define OC_OP(Enum, Name, Category, MinOps, MaxOps, Effect, Results, Attrs, Emit) Enum,
#include "compiler/ir/ops.def"
};

enum class OpCategory { kCompute, kUnary, kBinary, kView, kCopy };

// How a statement's result uses memory (see ops.def).
enum class MemoryEffect { kWrites, kView, kInPlace };

// How many results a statement of the op may have.
enum class ResultCount { kOne, kSeveral };

struct OpInfo {
  OpKind kind;
  absl::string_view name;
  OpCategory category;
  int min_operands;
  int max_operands;
  MemoryEffect effect;
  ResultCount results;
  absl::string_view required_attributes;  // space-separated
};

const OpInfo& GetOpInfo(OpKind kind);
std::optional<OpKind> ParseOpName(absl::string_view name);
inline absl::string_view OpName(OpKind kind) { return GetOpInfo(kind).name; }

}  // namespace oc

#endif  // ONNX_TO_C_IR_OPS_H_
