// A small JSON parser (RFC 8259 subset: no \u surrogate pairs beyond the
// BMP), for reading reports back in `onnx-to-c verify`.
#ifndef ONNX_TO_C_SUPPORT_JSON_READER_H_
#define ONNX_TO_C_SUPPORT_JSON_READER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace oc {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;

  // Member access; a missing key yields a null value.
  const JsonValue& operator[](const std::string& key) const;
  bool IsNull() const { return kind == Kind::kNull; }
  int64_t Int() const { return static_cast<int64_t>(number); }
};

absl::StatusOr<JsonValue> ParseJson(absl::string_view text);

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_JSON_READER_H_
