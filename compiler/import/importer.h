// The one entry point of the ONNX importer.
#ifndef ONNX_TO_C_IMPORT_IMPORTER_H_
#define ONNX_TO_C_IMPORT_IMPORTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "compiler/import/dim_values.h"
#include "compiler/ir/program.h"

namespace oc {

struct ImportOptions {
  std::string program_name = "model";
  DimValues dim_values;  // --dim: symbolic dimensions pinned to values
  // Out: the symbolic batch dimensions the import pinned to 1 (not set when null).
  DimValues* defaulted_dims = nullptr;
};

// Loads, checks and shape-infers an ONNX file and lowers it to IR: constant
// subgraphs folded, Identity/Dropout removed, Reshape-like ops as views, and
// every graph output produced by a statement of its own. Errors name the node
// and op: InvalidArgument for a bad model, Unimplemented for what onnx-to-c
// does not support.
absl::StatusOr<Program> ImportOnnxFile(const std::string& path, const ImportOptions& options);
absl::StatusOr<Program> ImportOnnxBytes(const std::string& bytes, const ImportOptions& options);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_IMPORTER_H_
