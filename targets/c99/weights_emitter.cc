// Weights as `static const` arrays: float32 as packed IEEE words (exact and
// compact), other types as typed integer lists.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "targets/c99/emit_context.h"

namespace oc {
namespace {

constexpr int kWordsPerLine = 8;

template <typename T>
T LoadAt(const std::vector<uint8_t>& bytes, int64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

// "0x%08xu" without printf: a model's float words are most of a compile's
// output, and snprintf was a third of the emitter's time.
void AppendHexWord(std::string& out, uint32_t word) {
  static const char kHex[] = "0123456789abcdef";
  char buf[11] = {'0', 'x'};
  for (int k = 0; k < 8; ++k) buf[2 + k] = kHex[(word >> (28 - 4 * k)) & 15u];
  buf[10] = 'u';
  out.append(buf, sizeof buf);
}

std::string IntLiteral(DType t, const std::vector<uint8_t>& bytes, int64_t i) {
  switch (t) {
    case DType::kI8: return std::to_string(LoadAt<int8_t>(bytes, i));
    case DType::kU8:
    case DType::kBool: return std::to_string(LoadAt<uint8_t>(bytes, i)) + "u";
    case DType::kI16: return std::to_string(LoadAt<int16_t>(bytes, i));
    case DType::kU16:
    case DType::kF16: return std::to_string(LoadAt<uint16_t>(bytes, i)) + "u";
    case DType::kI32: {
      int32_t v = LoadAt<int32_t>(bytes, i);
      return v == INT32_MIN ? "(-2147483647 - 1)" : std::to_string(v);
    }
    case DType::kU32: return std::to_string(LoadAt<uint32_t>(bytes, i)) + "u";
    case DType::kI64: {
      int64_t v = LoadAt<int64_t>(bytes, i);
      return v == INT64_MIN ? "(-INT64_C(9223372036854775807) - 1)"
                            : "INT64_C(" + std::to_string(v) + ")";
    }
    case DType::kU64: return "UINT64_C(" + std::to_string(LoadAt<uint64_t>(bytes, i)) + ")";
    default: return "0";
  }
}

}  // namespace

void EmitWeights(EmitContext& ctx, CodeWriter& w) {
  const Program& p = ctx.program;
  const std::string attr = ctx.weights_attribute.empty() ? "" : " " + ctx.weights_attribute;
  ctx.weight_name.assign(p.num_values(), "");
  std::vector<bool> read(p.num_values(), false);
  for (ValueId out : p.outputs()) read[out] = true;
  for (const Statement& s : p.statements()) {
    for (size_t i = 0; i < s.operands.size(); ++i) {
      if (s.operands[i] != kNoValue && !OperandFoldedIntoCode(ctx, s, i)) read[s.operands[i]] = true;
    }
  }
  for (const Value& v : p.values()) {
    if (!v.IsConstant() || !read[v.id]) continue;
    const std::string name = ctx.names.Make("w_" + v.name);
    // C has no empty arrays: an empty constant gets one unused element.
    const int64_t n = std::max<int64_t>(v.NumElements(), 1);
    w.Comment(absl::StrCat(DTypeName(v.dtype), " x ", n, ": '", EscapeForCComment(v.name, 80), "'"));
    std::string body;
    if (v.dtype == DType::kF32 || v.dtype == DType::kF64) {
      const bool f32 = v.dtype == DType::kF32;
      const char* word = f32 ? "uint32_t" : "uint64_t";
      w.Line(absl::StrCat("static const union { ", word, " u[", n, "]; ", f32 ? "float" : "double",
                          " f[", n, "]; } ", name, attr, " = {{"));
      for (int64_t i = 0; i < n; i += kWordsPerLine) {
        std::string line = "  ";
        for (int64_t j = i; j < n && j < i + kWordsPerLine; ++j) {
          if (v.data.empty()) {
            line += "0u";
          } else if (f32) {
            AppendHexWord(line, LoadAt<uint32_t>(v.data, j));
          } else {
            char buf[32];
            std::snprintf(buf, sizeof(buf), "UINT64_C(0x%016llx)",
                          static_cast<unsigned long long>(LoadAt<uint64_t>(v.data, j)));
            line += buf;
          }
          if (j + 1 < n) line += ",";
        }
        w.Line(line);
      }
      w.Line("}};");
      ctx.weight_name[v.id] = name + ".f";
      continue;
    }
    w.Line(absl::StrCat("static const ", DTypeCType(v.dtype), " ", name, "[", n, "]", attr, " = {"));
    for (int64_t i = 0; i < n; i += 16) {
      std::string line = "  ";
      for (int64_t j = i; j < n && j < i + 16; ++j) {
        line += v.data.empty() ? "0" : IntLiteral(v.dtype, v.data, j);
        if (j + 1 < n) line += ", ";
      }
      w.Line(line);
    }
    w.Line("};");
    ctx.weight_name[v.id] = name;
  }
}

}  // namespace oc
