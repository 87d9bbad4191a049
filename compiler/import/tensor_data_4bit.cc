#include "compiler/import/tensor_data_4bit.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

constexpr int32_t kOnnxUint4 = 21;
constexpr int32_t kOnnxInt4 = 22;

DType Unpacked(int32_t onnx_type) { return onnx_type == kOnnxInt4 ? DType::kI8 : DType::kU8; }

}  // namespace

bool IsOnnx4Bit(int32_t onnx_type) { return onnx_type == kOnnxUint4 || onnx_type == kOnnxInt4; }

absl::Status Check4BitTensorSize(const onnx::TensorProto& t) {
  const std::string what = absl::StrCat("tensor '", t.name(), "'");
  Shape shape(t.dims().begin(), t.dims().end());
  OC_RETURN_IF_ERROR(CheckStaticDims(shape, Unpacked(t.data_type()), what, /*allow_empty=*/true));
  const int64_t need = (NumElements(shape) + 1) / 2;
  const int64_t have = t.has_raw_data() ? static_cast<int64_t>(t.raw_data().size()) : t.int32_data_size();
  if (have != need) {
    return absl::InvalidArgumentError(absl::StrCat(what, " has ", have, " bytes of 4-bit data but its dims (",
                                                   FormatShape(shape), ") need ", need));
  }
  return absl::OkStatus();
}

absl::StatusOr<HostTensor> Decode4BitTensor(const onnx::TensorProto& t) {
  OC_RETURN_IF_ERROR(Check4BitTensorSize(t));
  const bool is_signed = t.data_type() == kOnnxInt4;
  HostTensor out = HostTensor::Zeros(Unpacked(t.data_type()), Shape(t.dims().begin(), t.dims().end()));
  out.element_bits = 4;
  const int64_t n = out.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t byte = t.has_raw_data() ? static_cast<uint8_t>(t.raw_data()[static_cast<size_t>(i / 2)])
                                          : static_cast<uint8_t>(t.int32_data(static_cast<int>(i / 2)));
    const int nibble = (i % 2 == 0) ? (byte & 15) : (byte >> 4);
    out.SetInt(i, is_signed && nibble >= 8 ? nibble - 16 : nibble);
  }
  return out;
}

}  // namespace oc
