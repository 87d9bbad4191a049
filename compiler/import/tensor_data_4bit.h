// ONNX INT4 and UINT4 tensors (IR version 10, opset 21): two elements to a
// byte, the first in the low nibble. Decoded one element per byte (i8/u8),
// marked 4-bit (HostTensor::element_bits), for the kernels that keep 4-bit
// weights packed.
#ifndef ONNX_TO_C_IMPORT_TENSOR_DATA_4BIT_H_
#define ONNX_TO_C_IMPORT_TENSOR_DATA_4BIT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/import/tensor_data.h"
#include "onnx/onnx_pb.h"

namespace oc {

// ONNX's UINT4 (21) and INT4 (22) element types.
bool IsOnnx4Bit(int32_t onnx_type);

// For a 4-bit tensor: valid dims and (n + 1) / 2 bytes of data, in raw_data
// or one byte per int32_data element.
absl::Status Check4BitTensorSize(const onnx::TensorProto& t);

// A 4-bit tensor as i8 (INT4, sign-extended) or u8 (UINT4), element_bits 4.
absl::StatusOr<HostTensor> Decode4BitTensor(const onnx::TensorProto& t);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_TENSOR_DATA_4BIT_H_
