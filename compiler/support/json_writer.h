// A minimal streaming JSON writer (objects, arrays, strings, numbers) with
// deterministic output, for reports.
#ifndef ONNX_TO_C_SUPPORT_JSON_WRITER_H_
#define ONNX_TO_C_SUPPORT_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

namespace oc {

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // Inside an object: the next value's key.
  void Key(absl::string_view key);
  void String(absl::string_view s);
  void Int(int64_t v);
  void Double(double v);
  void Bool(bool v);

  const std::string& str() const { return out_; }

 private:
  void BeforeValue();
  void Newline();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

std::string JsonEscape(absl::string_view s);

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_JSON_WRITER_H_
