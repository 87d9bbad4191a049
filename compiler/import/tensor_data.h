// Constant tensors during import: decoding ONNX TensorProtos and reading
// their elements.
#ifndef ONNX_TO_C_IMPORT_TENSOR_DATA_H_
#define ONNX_TO_C_IMPORT_TENSOR_DATA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"
#include "onnx/onnx_pb.h"

namespace oc {

// A constant: element type, shape and little-endian element bytes.
struct HostTensor {
  DType dtype = DType::kF32;
  Shape shape;
  std::vector<uint8_t> bytes;
  int element_bits = 8;  // 4: decoded from ONNX INT4/UINT4 (tensor_data_4bit.h)

  int64_t NumElements() const { return oc::NumElements(shape); }
  // Element i converted to double / int64 (any dtype).
  double GetDouble(int64_t i) const;
  int64_t GetInt(int64_t i) const;
  // Stores v converted to this tensor's dtype (float types round once).
  void SetDouble(int64_t i, double v);
  void SetInt(int64_t i, int64_t v);

  static HostTensor Zeros(DType dtype, Shape shape);
};

absl::StatusOr<DType> DTypeFromOnnx(int32_t onnx_type);

// v as an int64, saturating (NaN gives 0) rather than undefined behaviour.
int64_t SaturatingInt(double v);

// Decodes a TensorProto, checking that its data length matches its dims.
absl::StatusOr<HostTensor> DecodeTensorProto(const onnx::TensorProto& t);

// DecodeTensorProto's checks without decoding: a supported element type,
// valid dims, and data of the size the dims need.
absl::Status CheckTensorProtoSize(const onnx::TensorProto& t);

// Validates ONNX dims: static, positive (zero too when `allow_empty`), and
// small enough to address.
absl::Status CheckStaticDims(const Shape& shape, DType dtype, const std::string& what,
                             bool allow_empty = false);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_TENSOR_DATA_H_
