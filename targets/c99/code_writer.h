// A small writer for generated C: indentation, blocks and line helpers, so
// emitters never count spaces or concatenate braces by hand.
#ifndef ONNX_TO_C_TARGETS_C99_CODE_WRITER_H_
#define ONNX_TO_C_TARGETS_C99_CODE_WRITER_H_

#include <string>
#include "absl/strings/string_view.h"

namespace oc {

class CodeWriter {
 public:
  // Writes one line at the current indentation.
  void Line(absl::string_view text = "");
  // Writes `head {` and indents; Close() writes the matching `}` + suffix.
  void Open(absl::string_view head);
  void Close(absl::string_view suffix = "");
  // Appends text verbatim (already formatted blocks such as runtime sources).
  void Raw(absl::string_view text);
  // A `/* ... */` comment line; the text must already be comment-safe.
  void Comment(absl::string_view text);

  const std::string& str() const { return out_; }

 private:
  std::string out_;
  int indent_ = 0;
};

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_CODE_WRITER_H_
