// Pinning the symbolic dimensions of an ONNX graph (--dim).
#ifndef ONNX_TO_C_IMPORT_PIN_DIMS_H_
#define ONNX_TO_C_IMPORT_PIN_DIMS_H_

#include "absl/status/status.h"
#include "compiler/import/dim_values.h"
#include "onnx/onnx_pb.h"

namespace oc {

// Replaces every dim_param named in `dims` by its value in the graph's
// inputs, outputs and value_info, before the checker and shape inference see
// them. A name that no dimension of the graph carries is an error that lists
// the names it does carry.
absl::Status PinSymbolicDims(const DimValues& dims, onnx::GraphProto& graph);

// Pins the symbolic leading (batch) dimension of each graph input that is not
// an initializer to 1, wherever its name appears, as exporters mean it (a
// Keras or PyTorch dynamic batch). Returns what it pinned: dim_param name (or
// "INPUT[0]" for an unnamed one) -> 1. Run after PinSymbolicDims, so --dim
// takes precedence.
DimValues DefaultBatchDims(onnx::GraphProto& graph);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_PIN_DIMS_H_
