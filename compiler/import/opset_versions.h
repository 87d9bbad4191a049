// The ai.onnx operator versions after the newest opset libonnx knows: one
// table of (op, since-version, what changed), so that the next opset is a
// table edit plus tests.
//
// libonnx (the parser, the checker and shape inference) knows opsets up to
// kLibOnnxMaxOpset. A node of a newer model whose operator has not changed
// what it computes since then (most version bumps only add element types:
// bfloat16 at 22, float8 at 19, int4 at 21, ...) is checked and
// shape-inferred by libonnx as its older version. A node whose meaning did
// change (the Reduce family's axes input at 18, Split's num_outputs, a new
// operator such as Mish or Gelu) is hidden from libonnx; the importer's own
// shape rules are authoritative for it, and CheckNodeAgainstTable checks its
// inputs, outputs and attributes.
#ifndef ONNX_TO_C_IMPORT_OPSET_VERSIONS_H_
#define ONNX_TO_C_IMPORT_OPSET_VERSIONS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace oc {

inline constexpr int kLibOnnxMaxOpset = 17;

enum class VersionChange {
  kNewOp,      // the operator first appears at this version
  kSemantics,  // inputs, attributes or results mean something new
  kTypesOnly,  // only new element types (which onnx-to-c rejects by name)
};

struct OpVersion {
  const char* op;
  int since;
  VersionChange change;
  const char* what;  // one line, for the error messages and docs/opsets.md
  // What the version accepts, checked for nodes libonnx cannot check:
  // input and output counts, and "name:type" attributes (type one of int,
  // float, string, ints, floats). Unused for kTypesOnly entries.
  int min_inputs = 0, max_inputs = 0, min_outputs = 1, max_outputs = 1;
  const char* attributes = "";
};

// Every operator version after kLibOnnxMaxOpset, by op then version.
const std::vector<OpVersion>& OpVersionsAfterLibOnnx();

// The entry that fixes what `op` computes at `opset`: the newest kNewOp or
// kSemantics entry with since <= opset, or null when libonnx's own newest
// version of the op is still the one in force.
const OpVersion* SemanticVersionAfterLibOnnx(const std::string& op, int opset);

// The since-version of `op` at `opset` as the table knows it (type-only bumps
// included), or 0 when the op has no entry at or below `opset`.
int TableSinceVersion(const std::string& op, int opset);

// The version of `op` in force at `opset` (the table's, else libonnx's), or
// 0 for an op neither knows.
int OpSinceVersion(const std::string& op, int opset);

// Checks a node hidden from libonnx against its table entry: input and output
// counts, attribute names and types.
absl::Status CheckNodeAgainstTable(const onnx::NodeProto& node, const OpVersion& version);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_OPSET_VERSIONS_H_
