#include "compiler/import/tensor_data.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/import/tensor_data_4bit.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

template <typename T>
T Load(const std::vector<uint8_t>& b, int64_t i) {
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void Store(std::vector<uint8_t>& b, int64_t i, T v) {
  std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
}

// IEEE half to float, exact.
float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign << 31;
    } else {  // subnormal: normalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = (sign << 31) | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = (sign << 31) | 0x7f800000u | (mant << 13);
  } else {
    bits = (sign << 31) | ((exp + 112u) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Float to IEEE half bits, rounding to nearest even (from the double, so
// that one rounding happens).
uint16_t HalfFromDouble(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  const double a = std::fabs(v);
  if (std::isnan(v)) return sign | 0x7E00u;
  if (a >= 65520.0) return sign | 0x7C00u;  // rounds to inf
  if (a < 6.103515625e-05) {                 // subnormal: units of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0));
  }
  int e = 0;
  double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  // 11 significant bits: round m * 2^11 to an integer (may carry to 2^11)
  auto q = static_cast<uint32_t>(std::nearbyint(std::ldexp(m, 11)));
  if (q == 2048u) {
    q = 1024u;
    ++e;
  }
  return sign | static_cast<uint16_t>(((e + 14) << 10) | (q & 0x3FFu));
}

}  // namespace

int64_t SaturatingInt(double v) {
  if (std::isnan(v)) return 0;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  if (v >= 9223372036854775808.0) return INT64_MAX;
  return static_cast<int64_t>(v);
}

double HostTensor::GetDouble(int64_t i) const {
  switch (dtype) {
    case DType::kF32: return Load<float>(bytes, i);
    case DType::kF64: return Load<double>(bytes, i);
    case DType::kF16: return HalfToFloat(Load<uint16_t>(bytes, i));
    default: return static_cast<double>(GetInt(i));
  }
}

int64_t HostTensor::GetInt(int64_t i) const {
  switch (dtype) {
    case DType::kI8: return Load<int8_t>(bytes, i);
    case DType::kU8: return Load<uint8_t>(bytes, i);
    case DType::kBool: return Load<uint8_t>(bytes, i) != 0;
    case DType::kI16: return Load<int16_t>(bytes, i);
    case DType::kU16: return Load<uint16_t>(bytes, i);
    case DType::kI32: return Load<int32_t>(bytes, i);
    case DType::kU32: return Load<uint32_t>(bytes, i);
    case DType::kI64: return Load<int64_t>(bytes, i);
    case DType::kU64: return static_cast<int64_t>(Load<uint64_t>(bytes, i));
    default: return SaturatingInt(GetDouble(i));
  }
}

void HostTensor::SetDouble(int64_t i, double v) {
  switch (dtype) {
    case DType::kF32: Store<float>(bytes, i, static_cast<float>(v)); return;
    case DType::kF64: Store<double>(bytes, i, v); return;
    case DType::kF16: Store<uint16_t>(bytes, i, HalfFromDouble(v)); return;
    case DType::kBool: Store<uint8_t>(bytes, i, v != 0.0); return;
    case DType::kU64:
      Store<uint64_t>(bytes, i, v >= 18446744073709551616.0 ? UINT64_MAX
                                : v > 0.0                    ? static_cast<uint64_t>(v)
                                                             : 0u);
      return;
    default: SetInt(i, SaturatingInt(v)); return;
  }
}

void HostTensor::SetInt(int64_t i, int64_t v) {
  switch (dtype) {
    case DType::kI8: Store<int8_t>(bytes, i, static_cast<int8_t>(v)); return;
    case DType::kU8: Store<uint8_t>(bytes, i, static_cast<uint8_t>(v)); return;
    case DType::kBool: Store<uint8_t>(bytes, i, v != 0); return;
    case DType::kI16: Store<int16_t>(bytes, i, static_cast<int16_t>(v)); return;
    case DType::kU16: Store<uint16_t>(bytes, i, static_cast<uint16_t>(v)); return;
    case DType::kI32: Store<int32_t>(bytes, i, static_cast<int32_t>(v)); return;
    case DType::kU32: Store<uint32_t>(bytes, i, static_cast<uint32_t>(v)); return;
    case DType::kI64: Store<int64_t>(bytes, i, v); return;
    case DType::kU64: Store<uint64_t>(bytes, i, static_cast<uint64_t>(v)); return;
    default: SetDouble(i, static_cast<double>(v)); return;
  }
}

HostTensor HostTensor::Zeros(DType dtype, Shape shape) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.bytes.assign(static_cast<size_t>(t.NumElements() * DTypeSize(dtype)), 0);
  return t;
}

absl::StatusOr<DType> DTypeFromOnnx(int32_t onnx_type) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT: return DType::kF32;
    case onnx::TensorProto::DOUBLE: return DType::kF64;
    case onnx::TensorProto::FLOAT16: return DType::kF16;
    case onnx::TensorProto::INT8: return DType::kI8;
    case onnx::TensorProto::UINT8: return DType::kU8;
    case onnx::TensorProto::INT16: return DType::kI16;
    case onnx::TensorProto::UINT16: return DType::kU16;
    case onnx::TensorProto::INT32: return DType::kI32;
    case onnx::TensorProto::UINT32: return DType::kU32;
    case onnx::TensorProto::INT64: return DType::kI64;
    case onnx::TensorProto::UINT64: return DType::kU64;
    case onnx::TensorProto::BOOL: return DType::kBool;
    default: {
      const std::string& name = onnx::TensorProto::DataType_Name(
          static_cast<onnx::TensorProto::DataType>(onnx_type));
      return absl::UnimplementedError(absl::StrCat(
          "element type ", name.empty() ? std::to_string(onnx_type) : name, " is not supported"));
    }
  }
}

absl::Status CheckStaticDims(const Shape& shape, DType dtype, const std::string& what,
                             bool allow_empty) {
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d == 0 && allow_empty) return absl::OkStatus();
    if (d == 0) {
      return absl::UnimplementedError(
          absl::StrCat(what, " has a zero dimension (empty tensors are not supported)"));
    }
    if (d < 0) return absl::InvalidArgumentError(absl::StrCat(what, " has a negative dimension"));
    if (elements > kMaxTensorBytes / d) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, " is too large: its size overflows the 2 GiB tensor limit (dims ",
          FormatShape(shape), ")"));
    }
    elements *= d;
  }
  if (elements > kMaxTensorBytes / DTypeSize(dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is too large: its size overflows the 2 GiB tensor limit"));
  }
  return absl::OkStatus();
}

namespace {

// How many elements `t` stores in the typed field its dtype uses.
int64_t TypedElementCount(const onnx::TensorProto& t, DType dtype) {
  switch (dtype) {
    case DType::kF32: return t.float_data_size();
    case DType::kF64: return t.double_data_size();
    case DType::kI64: return t.int64_data_size();
    case DType::kU32:
    case DType::kU64: return t.uint64_data_size();
    default: return t.int32_data_size();  // f16, int32, int16, int8, uint16, uint8, bool
  }
}

}  // namespace

absl::Status CheckTensorProtoSize(const onnx::TensorProto& t) {
  if (IsOnnx4Bit(t.data_type())) return Check4BitTensorSize(t);
  const std::string what = absl::StrCat("tensor '", t.name(), "'");
  OC_ASSIGN_OR_RETURN(DType dtype, DTypeFromOnnx(t.data_type()));
  Shape shape(t.dims().begin(), t.dims().end());
  // Constants may be empty (an unused roi, say); activations may not.
  OC_RETURN_IF_ERROR(CheckStaticDims(shape, dtype, what, /*allow_empty=*/true));
  const int64_t n = NumElements(shape);
  const int64_t elem = DTypeSize(dtype);
  if (t.has_raw_data()) {
    if (static_cast<int64_t>(t.raw_data().size()) != n * elem) {
      return absl::InvalidArgumentError(absl::StrCat(what, " has ", t.raw_data().size(),
                                                     " bytes of raw data but its dims (",
                                                     FormatShape(shape), ") need ", n * elem));
    }
  } else if (const int64_t have = TypedElementCount(t, dtype); have != n) {
    return absl::InvalidArgumentError(absl::StrCat(what, " holds ", have,
                                                   " elements of data but its dims (",
                                                   FormatShape(shape), ") need ", n));
  }
  return absl::OkStatus();
}

absl::StatusOr<HostTensor> DecodeTensorProto(const onnx::TensorProto& t) {
  // The data's size is checked before the buffer is allocated: a tensor that
  // claims a gigabyte with a few bytes of data costs nothing.
  if (IsOnnx4Bit(t.data_type())) return Decode4BitTensor(t);
  OC_RETURN_IF_ERROR(CheckTensorProtoSize(t));
  HostTensor out;
  out.dtype = *DTypeFromOnnx(t.data_type());
  out.shape.assign(t.dims().begin(), t.dims().end());
  const int64_t n = out.NumElements();
  const int64_t elem = DTypeSize(out.dtype);
  const DType dtype = out.dtype;
  if (t.has_raw_data()) {
    // An empty tensor's buffer may be null, which memcpy must not be given.
    out.bytes.assign(static_cast<size_t>(n * elem), 0);
    if (n > 0) std::memcpy(out.bytes.data(), t.raw_data().data(), t.raw_data().size());
    return out;
  }
  out.bytes.assign(static_cast<size_t>(n * elem), 0);
  switch (dtype) {
    case DType::kF32:
      for (int64_t i = 0; i < n; ++i) Store<float>(out.bytes, i, t.float_data(i));
      break;
    case DType::kF64:
      for (int64_t i = 0; i < n; ++i) Store<double>(out.bytes, i, t.double_data(i));
      break;
    case DType::kI64:
      for (int64_t i = 0; i < n; ++i) Store<int64_t>(out.bytes, i, t.int64_data(i));
      break;
    case DType::kU32:
    case DType::kU64:
      for (int64_t i = 0; i < n; ++i) out.SetInt(i, static_cast<int64_t>(t.uint64_data(i)));
      break;
    case DType::kF16:
      for (int64_t i = 0; i < n; ++i) Store<uint16_t>(out.bytes, i, static_cast<uint16_t>(t.int32_data(i)));
      break;
    default:  // int32, int16, int8, uint16, uint8, bool live in int32_data
      for (int64_t i = 0; i < n; ++i) out.SetInt(i, t.int32_data(i));
      break;
  }
  return out;
}

}  // namespace oc
