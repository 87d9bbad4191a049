#include "compiler/ir/dtype.h"

namespace oc {
namespace {

struct DTypeInfo {
  DType type;
  int size;
  absl::string_view name;
  absl::string_view c_type;
};

constexpr DTypeInfo kInfos[] = {
    {DType::kF32, 4, "f32", "float"},     {DType::kF64, 8, "f64", "double"},
    {DType::kF16, 2, "f16", "uint16_t"},  {DType::kI8, 1, "i8", "int8_t"},
    {DType::kU8, 1, "u8", "uint8_t"},     {DType::kI16, 2, "i16", "int16_t"},
    {DType::kU16, 2, "u16", "uint16_t"},  {DType::kI32, 4, "i32", "int32_t"},
    {DType::kU32, 4, "u32", "uint32_t"},  {DType::kI64, 8, "i64", "int64_t"},
    {DType::kU64, 8, "u64", "uint64_t"},  {DType::kBool, 1, "bool", "uint8_t"},
};

const DTypeInfo& Info(DType t) { return kInfos[static_cast<int>(t)]; }

}  // namespace

int DTypeSize(DType t) { return Info(t).size; }
absl::string_view DTypeName(DType t) { return Info(t).name; }
absl::string_view DTypeCType(DType t) { return Info(t).c_type; }
bool IsFloat(DType t) { return t == DType::kF32 || t == DType::kF64 || t == DType::kF16; }

std::optional<DType> ParseDTypeName(absl::string_view name) {
  for (const DTypeInfo& info : kInfos) {
    if (info.name == name) return info.type;
  }
  return std::nullopt;
}

}  // namespace oc
