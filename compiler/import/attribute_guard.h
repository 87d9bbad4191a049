// Checks that must run before the ONNX checker and shape inference: those
// trust some inputs and crash on a hostile model (a zero stride divides by
// zero in ONNX's Conv and pooling inference, a tensor with less data than its
// dims is read past its end, a rank-1 ConvTranspose weight is indexed as 4-D).
#ifndef ONNX_TO_C_IMPORT_ATTRIBUTE_GUARD_H_
#define ONNX_TO_C_IMPORT_ATTRIBUTE_GUARD_H_

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace oc {

// strides, dilations, kernel_shape and group must be positive; pads (other
// than the Pad op's) non-negative and, for pooling, smaller than the kernel;
// initializers and tensor attributes must hold the data their dims need; a
// convolution weight whose rank is known (graph input, initializer, Constant)
// must have rank 3 or more, matching kernel_shape. Walks subgraphs too.
// Errors name the node and op.
absl::Status GuardOnnxShapeInference(const onnx::GraphProto& graph);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_ATTRIBUTE_GUARD_H_
