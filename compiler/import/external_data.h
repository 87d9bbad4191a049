// Initializers whose bytes live in a file next to the model (ONNX external
// data: what PyTorch's exporter writes for large models, model.onnx.data).
#ifndef ONNX_TO_C_IMPORT_EXTERNAL_DATA_H_
#define ONNX_TO_C_IMPORT_EXTERNAL_DATA_H_

#include <string>

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace oc {

// Reads every external initializer of `graph` into its raw_data. Its
// `location` must be a relative path without '..' that, symbolic links
// resolved, names a regular file inside `model_dir` (the model file's
// folder); `offset` and `length` must lie within that file; all external
// bytes together at most 1 GiB. With an empty `model_dir` (a model given as
// bytes) external data is refused. Errors name the initializer and the
// location.
absl::Status LoadExternalInitializers(const std::string& model_dir, onnx::GraphProto& graph);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_EXTERNAL_DATA_H_
