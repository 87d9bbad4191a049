// Reading, checking and shape-inferring an ONNX model file.
#ifndef ONNX_TO_C_IMPORT_MODEL_LOADER_H_
#define ONNX_TO_C_IMPORT_MODEL_LOADER_H_

#include <string>

#include "absl/status/statusor.h"
#include "compiler/import/dim_values.h"
#include "onnx/onnx_pb.h"

namespace oc {

inline constexpr int kMinOpset = 1;
inline constexpr int kMaxOpset = 24;  // above opset_versions.h's kLibOnnxMaxOpset: LibOnnxView

// Parses `path` with bounded size and nesting, reads external initializers
// next to it (external_data.h), pins the symbolic dimensions named in `dims`,
// runs onnx::checker and ONNX shape inference (on LibOnnxView for opsets
// libonnx does not know). Returns the default-domain opset.
struct LoadedModel {
  onnx::ModelProto model;
  int opset = 0;
  DimValues defaulted_dims;  // symbolic batch dimensions pinned to 1 (DefaultBatchDims)
};
absl::StatusOr<LoadedModel> LoadOnnxModel(const std::string& path, const DimValues& dims = {});

// The same on bytes already in memory (fuzzing, tests): no external data.
absl::StatusOr<LoadedModel> LoadOnnxModelFromBytes(const std::string& bytes, const DimValues& dims = {});

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_MODEL_LOADER_H_
