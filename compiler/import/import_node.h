// Importing one ONNX node into the program (internal to import/): shared by
// the graph walk (importer.cc) and the unrolling of Loop bodies
// (unroll_loop.cc).
#ifndef ONNX_TO_C_IMPORT_IMPORT_NODE_H_
#define ONNX_TO_C_IMPORT_IMPORT_NODE_H_

#include <string>
#include <unordered_map>

#include "absl/status/status.h"
#include "compiler/ir/program.h"
#include "onnx/onnx_pb.h"

namespace oc {

// What a node is imported into: the program, the ONNX names in scope, the
// shapes ONNX shape inference gave them, and the running totals of folded
// constant bytes and of nodes imported from unrolled bodies (nested loops
// included).
struct ImportScope {
  Program& program;
  std::unordered_map<std::string, ValueId>& names;
  const std::unordered_map<std::string, const onnx::ValueInfoProto*>& inferred;
  int opset;
  int64_t& folded_bytes;
  int64_t& unrolled_nodes;
};

// Folds or lowers `node` (a Loop is unrolled), checks the values it made and
// binds its outputs in scope.names. Errors name the node and op.
absl::Status ImportNode(const onnx::NodeProto& node, ImportScope& scope);

// Loop whose trip count and condition are compile-time constants: the body's
// nodes imported once per iteration (unroll_loop.cc).
absl::Status UnrollLoop(const onnx::NodeProto& node, ImportScope& scope);
// Scan (opset 9 and later): the body once per element of the scan inputs.
absl::Status UnrollScan(const onnx::NodeProto& node, ImportScope& scope);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_IMPORT_NODE_H_
