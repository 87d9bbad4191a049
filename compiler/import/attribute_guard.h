// Attribute checks that must run before the ONNX checker and shape inference:
// those trust some attributes (a zero stride divides by zero inside ONNX's
// Conv and pooling shape inference) and would crash on a hostile model.
#ifndef ONNX_TO_C_IMPORT_ATTRIBUTE_GUARD_H_
#define ONNX_TO_C_IMPORT_ATTRIBUTE_GUARD_H_

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace oc {

// strides, dilations, kernel_shape and group must be positive; pads (other
// than the Pad op's) non-negative and, for pooling, smaller than the kernel.
// Walks subgraphs too. Errors name the node and op.
absl::Status CheckSpatialAttributes(const onnx::GraphProto& graph);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_ATTRIBUTE_GUARD_H_
