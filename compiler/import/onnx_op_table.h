// The importer's op table: everything it knows per ONNX op type, in one
// place. A node is folded when its op has a folding rule that applies (its
// result is then a constant), and lowered into IR statements otherwise. The
// entries come from the registrations in the lower_*.cc files (lowerings)
// and const_eval.cc (folding rules); what the IR knows per IR op is
// compiler/ir/ops.def.
#ifndef ONNX_TO_C_IMPORT_ONNX_OP_TABLE_H_
#define ONNX_TO_C_IMPORT_ONNX_OP_TABLE_H_

#include <string>
#include <unordered_map>

#include "absl/status/statusor.h"
#include "compiler/import/node_context.h"

namespace oc {

struct FoldRule {
  // Binds every output as a constant and returns true, or returns false when
  // it cannot fold this node.
  absl::StatusOr<bool> (*fold)(NodeContext&) = nullptr;
  // Tried only when every input is a constant (else: the static shapes are
  // enough, as for Shape and Size).
  bool needs_constant_inputs = true;
};

struct OnnxOpRules {
  FoldRule fold;
  LowerFn lower = nullptr;
};

const std::unordered_map<std::string, OnnxOpRules>& OnnxOpTable();

// Folds the node or lowers it through the table; an op the table does not
// lower (and could not fold) is unsupported.
absl::Status FoldOrLowerNode(NodeContext& ctx);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_ONNX_OP_TABLE_H_
