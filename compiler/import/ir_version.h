// IR versions newer than the ONNX library's checker: exporters write the
// newest IR version they know (ONNX 1.16 and later: 10) whatever the opset,
// and the checker of the libonnx onnx-to-c builds against refuses any IR
// version above its own.
#ifndef ONNX_TO_C_IMPORT_IR_VERSION_H_
#define ONNX_TO_C_IMPORT_IR_VERSION_H_

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace oc {

// The newest IR version whose additions onnx-to-c knows: IR 9 added the
// float8 element types, IR 10 uint4, int4 and overloaded local functions,
// IR 11 float4e2m1 (and multi-device placement hints, which change no
// result), IR 12 float8e8m0 (ONNX 1.19, opset 24).
inline constexpr int64_t kMaxIrVersion = 12;

// A model of IR version 9 to 12 that uses none of those additions is what an
// IR 8 model can express: its ir_version is lowered to the checker's so the
// checker and shape inference run as for any other model. A model that uses
// a newer element type is refused naming the tensor and the type; an IR
// version above kMaxIrVersion is refused naming both versions.
absl::Status AdmitIrVersion(onnx::ModelProto& model);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_IR_VERSION_H_
