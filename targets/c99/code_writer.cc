#include "targets/c99/code_writer.h"

namespace oc {

void CodeWriter::Line(absl::string_view text) {
  if (!text.empty()) out_.append(static_cast<size_t>(indent_) * 2, ' ');
  out_.append(text.data(), text.size());
  out_.push_back('\n');
}

void CodeWriter::Open(absl::string_view head) {
  std::string line(head);
  line += head.empty() ? "{" : " {";
  Line(line);
  ++indent_;
}

void CodeWriter::Close(absl::string_view suffix) {
  --indent_;
  std::string line = "}";
  line.append(suffix.data(), suffix.size());
  Line(line);
}

void CodeWriter::Raw(absl::string_view text) {
  out_.append(text.data(), text.size());
  if (!text.empty() && text.back() != '\n') out_.push_back('\n');
}

void CodeWriter::Comment(absl::string_view text) {
  std::string line = "/* ";
  line.append(text.data(), text.size());
  line += " */";
  Line(line);
}

}  // namespace oc
