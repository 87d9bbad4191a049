#include "compiler/support/json_reader.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace oc {

const JsonValue& JsonValue::operator[](const std::string& key) const {
  static const JsonValue kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : it->second;
}

namespace {

class Reader {
 public:
  explicit Reader(absl::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> Document() {
    absl::StatusOr<JsonValue> v = Value(0);
    if (!v.ok()) return v;
    Space();
    if (pos_ != text_.size()) return Error("text after the JSON value");
    return v;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("JSON: ", what, " at byte ", pos_));
  }
  void Space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    Space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Word(absl::string_view w) {
    if (text_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return true;
    }
    return false;
  }

  absl::StatusOr<std::string> String() {
    if (!Eat('"')) return Error("expected a string");
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return Error("bad \\u escape");
          std::string hex(text_.substr(pos_, 4));
          char* end = nullptr;
          long code = std::strtol(hex.c_str(), &end, 16);
          if (end != hex.c_str() + 4) return Error("bad \\u escape");
          pos_ += 4;
          if (code < 0x80) {
            out.push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out.push_back(static_cast<char>(0xc0 | (code >> 6)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
          } else {
            out.push_back(static_cast<char>(0xe0 | (code >> 12)));
            out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
          }
          break;
        }
        default: out.push_back(e);
      }
    }
    if (pos_ >= text_.size()) return Error("unterminated string");
    ++pos_;
    return out;
  }

  absl::StatusOr<JsonValue> Value(int depth) {
    if (depth > 64) return Error("nested too deeply");
    Space();
    if (pos_ >= text_.size()) return Error("unexpected end");
    JsonValue v;
    char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = JsonValue::Kind::kObject;
      if (Eat('}')) return v;
      do {
        absl::StatusOr<std::string> key = String();
        if (!key.ok()) return key.status();
        if (!Eat(':')) return Error("expected ':'");
        absl::StatusOr<JsonValue> member = Value(depth + 1);
        if (!member.ok()) return member;
        v.object[*key] = std::move(*member);
      } while (Eat(','));
      if (!Eat('}')) return Error("expected '}'");
      return v;
    }
    if (c == '[') {
      ++pos_;
      v.kind = JsonValue::Kind::kArray;
      if (Eat(']')) return v;
      do {
        absl::StatusOr<JsonValue> element = Value(depth + 1);
        if (!element.ok()) return element;
        v.array.push_back(std::move(*element));
      } while (Eat(','));
      if (!Eat(']')) return Error("expected ']'");
      return v;
    }
    if (c == '"') {
      absl::StatusOr<std::string> s = String();
      if (!s.ok()) return s.status();
      v.kind = JsonValue::Kind::kString;
      v.string = std::move(*s);
      return v;
    }
    if (Word("true") || Word("false")) {
      v.kind = JsonValue::Kind::kBool;
      v.boolean = text_[pos_ - 1] == 'e' && text_[pos_ - 2] == 'u';
      return v;
    }
    if (Word("null")) return v;
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '-' || text_[pos_] == '+' ||
                                   text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
    }
    if (start == pos_) return Error("unexpected character");
    std::string num(text_.substr(start, pos_ - start));
    char* end = nullptr;
    v.kind = JsonValue::Kind::kNumber;
    v.number = std::strtod(num.c_str(), &end);
    if (end != num.c_str() + num.size()) return Error("bad number");
    return v;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<JsonValue> ParseJson(absl::string_view text) { return Reader(text).Document(); }

}  // namespace oc
