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

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_PIN_DIMS_H_
