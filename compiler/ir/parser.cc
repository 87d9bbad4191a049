#include "compiler/ir/parser.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// The value of one hex digit, or -1.
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

enum class Tok { kEnd, kIdent, kInt, kFloat, kString, kValueRef, kAt, kPunct };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifier, punctuation, or decoded string
  int64_t int_value = 0;
  double float_value = 0;
  int line = 1, col = 1;
};

class Lexer {
 public:
  explicit Lexer(absl::string_view text) : text_(text) {}

  absl::StatusOr<Token> Next() {
    SkipSpaceAndComments();
    Token t;
    t.line = line_;
    t.col = col_;
    if (pos_ >= text_.size()) return t;
    char c = text_[pos_];
    if (c == '%') {
      Advance();
      size_t start = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) Advance();
      if (start == pos_) return Error(t, "expected a number after '%'");
      t.kind = Tok::kValueRef;
      t.int_value = std::strtoll(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr, 10);
      return t;
    }
    if (c == '"') return LexString(t);
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '-' && pos_ + 1 < text_.size() &&
         (std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) || text_[pos_ + 1] == 'i'))) {
      return LexNumber(t);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        Advance();
      }
      t.text = std::string(text_.substr(start, pos_ - start));
      if (t.text == "nan" || t.text == "inf") {
        t.kind = Tok::kFloat;
        t.float_value = t.text == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                        : std::numeric_limits<double>::infinity();
      } else {
        t.kind = t.text == "_" ? Tok::kPunct : Tok::kIdent;
      }
      return t;
    }
    if (c == '@') {
      Advance();
      t.kind = Tok::kAt;
      return t;
    }
    if (absl::string_view("(){}[],=:").find(c) != absl::string_view::npos) {
      Advance();
      t.kind = Tok::kPunct;
      t.text = std::string(1, c);
      return t;
    }
    return Error(t, absl::StrCat("unexpected character '", std::string(1, c), "'"));
  }

  static absl::Status Error(const Token& at, absl::string_view message) {
    return absl::InvalidArgumentError(absl::StrCat(at.line, ":", at.col, ": ", message));
  }

 private:
  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') Advance();
      } else {
        break;
      }
    }
  }

  absl::StatusOr<Token> LexString(Token t) {
    Advance();  // opening quote
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') return Error(t, "unterminated string");
      char c = text_[pos_];
      if (c == '"') {
        Advance();
        break;
      }
      if (c == '\\') {
        if (pos_ + 3 >= text_.size() || text_[pos_ + 1] != 'x') {
          return Error(t, "bad escape in string (only \\xNN is allowed)");
        }
        int hi = HexValue(text_[pos_ + 2]), lo = HexValue(text_[pos_ + 3]);
        if (hi < 0 || lo < 0) return Error(t, "bad \\x escape");
        t.text.push_back(static_cast<char>(hi * 16 + lo));
        for (int i = 0; i < 4; ++i) Advance();
        continue;
      }
      t.text.push_back(c);
      Advance();
    }
    t.kind = Tok::kString;
    return t;
  }

  absl::StatusOr<Token> LexNumber(Token t) {
    size_t start = pos_;
    if (text_[pos_] == '-') Advance();
    if (pos_ + 2 < text_.size() + 0 && text_.substr(pos_, 3) == "inf") {
      for (int i = 0; i < 3; ++i) Advance();
      t.kind = Tok::kFloat;
      t.float_value = -std::numeric_limits<double>::infinity();
      return t;
    }
    bool is_float = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        Advance();
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        Advance();
        if ((c == 'e' || c == 'E') && pos_ < text_.size() &&
            (text_[pos_] == '-' || text_[pos_] == '+')) {
          Advance();
        }
      } else {
        break;
      }
    }
    std::string s(text_.substr(start, pos_ - start));
    errno = 0;
    char* end = nullptr;
    if (is_float) {
      t.kind = Tok::kFloat;
      t.float_value = std::strtod(s.c_str(), &end);
    } else {
      t.kind = Tok::kInt;
      t.int_value = std::strtoll(s.c_str(), &end, 10);
    }
    if (end != s.c_str() + s.size() || errno == ERANGE) {
      return Error(t, absl::StrCat("bad number '", s, "'"));
    }
    return t;
  }

  absl::string_view text_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

class Parser {
 public:
  explicit Parser(absl::string_view text) : lexer_(text) {}

  absl::StatusOr<Program> Parse() {
    OC_RETURN_IF_ERROR(Advance());
    OC_RETURN_IF_ERROR(ExpectIdent("program"));
    if (tok_.kind != Tok::kAt) return Error("expected '@' and the program name");
    OC_RETURN_IF_ERROR(Advance());
    if (tok_.kind != Tok::kIdent && tok_.kind != Tok::kString) {
      return Error("expected the program name");
    }
    program_.name = tok_.text;
    OC_RETURN_IF_ERROR(Advance());
    OC_RETURN_IF_ERROR(ExpectPunct("{"));
    while (!IsPunct("}")) {
      if (tok_.kind == Tok::kEnd) return Error("unexpected end of input, expected '}'");
      OC_RETURN_IF_ERROR(ParseItem());
    }
    OC_RETURN_IF_ERROR(Advance());
    if (tok_.kind != Tok::kEnd) return Error("unexpected text after the program");
    return std::move(program_);
  }

 private:
  absl::Status Advance() {
    OC_ASSIGN_OR_RETURN(tok_, lexer_.Next());
    return absl::OkStatus();
  }
  absl::Status Error(absl::string_view message) const { return Lexer::Error(tok_, message); }
  bool IsPunct(absl::string_view p) const { return tok_.kind == Tok::kPunct && tok_.text == p; }
  bool IsIdent(absl::string_view p) const { return tok_.kind == Tok::kIdent && tok_.text == p; }
  absl::Status ExpectPunct(absl::string_view p) {
    if (!IsPunct(p)) return Error(absl::StrCat("expected '", p, "'"));
    return Advance();
  }
  absl::Status ExpectIdent(absl::string_view p) {
    if (!IsIdent(p)) return Error(absl::StrCat("expected '", p, "'"));
    return Advance();
  }

  absl::StatusOr<ValueId> Lookup(int64_t text_id) {
    auto it = ids_.find(text_id);
    if (it == ids_.end()) return Error(absl::StrCat("use of undefined value %", text_id));
    return it->second;
  }

  absl::Status Define(int64_t text_id, ValueId id, const Token& at) {
    if (!ids_.emplace(text_id, id).second) {
      return Lexer::Error(at, absl::StrCat("value %", text_id, " is defined twice"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<int64_t> ParseInt() {
    if (tok_.kind != Tok::kInt) return Error("expected an integer");
    int64_t v = tok_.int_value;
    OC_RETURN_IF_ERROR(Advance());
    return v;
  }

  absl::StatusOr<double> ParseNumber() {
    double v;
    if (tok_.kind == Tok::kInt) {
      v = static_cast<double>(tok_.int_value);
    } else if (tok_.kind == Tok::kFloat) {
      v = tok_.float_value;
    } else {
      return Error("expected a number");
    }
    OC_RETURN_IF_ERROR(Advance());
    return v;
  }

  // type := dtype '[' dims ']' quant?
  absl::Status ParseType(Value& v) {
    if (tok_.kind != Tok::kIdent) return Error("expected an element type such as f32");
    auto dtype = ParseDTypeName(tok_.text);
    if (!dtype) return Error(absl::StrCat("unknown element type '", tok_.text, "'"));
    v.dtype = *dtype;
    OC_RETURN_IF_ERROR(Advance());
    OC_RETURN_IF_ERROR(ExpectPunct("["));
    v.shape.clear();
    while (!IsPunct("]")) {
      if (!v.shape.empty()) OC_RETURN_IF_ERROR(ExpectPunct(","));
      OC_ASSIGN_OR_RETURN(int64_t d, ParseInt());
      v.shape.push_back(d);
    }
    OC_RETURN_IF_ERROR(Advance());
    if (IsIdent("quant")) {
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct("("));
      QuantParams q;
      OC_ASSIGN_OR_RETURN(q.axis, ParseInt());
      OC_RETURN_IF_ERROR(ExpectPunct(","));
      OC_RETURN_IF_ERROR(ExpectPunct("["));
      while (!IsPunct("]")) {
        if (!q.scales.empty()) OC_RETURN_IF_ERROR(ExpectPunct(","));
        OC_ASSIGN_OR_RETURN(double s, ParseNumber());
        q.scales.push_back(static_cast<float>(s));
      }
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct(","));
      OC_RETURN_IF_ERROR(ExpectPunct("["));
      while (!IsPunct("]")) {
        if (!q.zero_points.empty()) OC_RETURN_IF_ERROR(ExpectPunct(","));
        OC_ASSIGN_OR_RETURN(int64_t z, ParseInt());
        q.zero_points.push_back(z);
      }
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct(")"));
      v.quant = std::move(q);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Attribute> ParseAttribute() {
    if (tok_.kind == Tok::kInt) {
      int64_t v = tok_.int_value;
      OC_RETURN_IF_ERROR(Advance());
      return Attribute(v);
    }
    if (tok_.kind == Tok::kFloat) {
      float v = static_cast<float>(tok_.float_value);
      OC_RETURN_IF_ERROR(Advance());
      return Attribute(v);
    }
    if (tok_.kind == Tok::kString) {
      std::string v = tok_.text;
      OC_RETURN_IF_ERROR(Advance());
      return Attribute(v);
    }
    if (IsPunct("[")) {
      OC_RETURN_IF_ERROR(Advance());
      std::vector<int64_t> ints;
      std::vector<float> floats;
      bool any_float = false;
      while (!IsPunct("]")) {
        if (!ints.empty()) OC_RETURN_IF_ERROR(ExpectPunct(","));
        if (tok_.kind == Tok::kFloat) any_float = true;
        bool was_int = tok_.kind == Tok::kInt;
        int64_t iv = tok_.int_value;
        OC_ASSIGN_OR_RETURN(double d, ParseNumber());
        ints.push_back(was_int ? iv : 0);
        floats.push_back(static_cast<float>(d));
      }
      OC_RETURN_IF_ERROR(Advance());
      if (any_float) return Attribute(floats);
      return Attribute(ints);
    }
    return Error("expected an attribute value");
  }

  absl::Status ParseItem() {
    if (IsIdent("output")) return ParseOutputs();
    // results '=' ...
    std::vector<std::pair<int64_t, std::string>> results;
    std::vector<Token> result_tokens;
    OC_RETURN_IF_ERROR(ParseResults(results, result_tokens));
    OC_RETURN_IF_ERROR(ExpectPunct("="));
    if (tok_.kind != Tok::kIdent) return Error("expected 'input', 'const' or an op name");
    std::string head = tok_.text;
    if (head == "input" || head == "const") return ParseInputOrConstant(head, results, result_tokens);
    auto op = ParseOpName(head);
    if (!op) return Error(absl::StrCat("unknown op '", head, "'"));
    OC_RETURN_IF_ERROR(Advance());
    std::vector<ValueId> operands;
    OC_RETURN_IF_ERROR(ParseOperands(operands));
    std::map<std::string, Attribute> attrs;
    OC_RETURN_IF_ERROR(ParseAttributes(attrs));
    OC_RETURN_IF_ERROR(ExpectPunct(":"));
    std::vector<ValueId> result_ids;
    for (size_t i = 0; i < results.size(); ++i) {
      if (i) OC_RETURN_IF_ERROR(ExpectPunct(","));
      Value v;
      OC_RETURN_IF_ERROR(ParseType(v));
      ValueId id = program_.AddResultValue(results[i].second, v.dtype, v.shape);
      program_.value(id).quant = v.quant;
      OC_RETURN_IF_ERROR(Define(results[i].first, id, result_tokens[i]));
      result_ids.push_back(id);
    }
    Statement& s = program_.AddStatement(*op, std::move(operands), std::move(result_ids));
    s.attrs = std::move(attrs);
    return ParseStatementTail(s);
  }

  // 'output' %a, %b, ...
  absl::Status ParseOutputs() {
    OC_RETURN_IF_ERROR(Advance());
    while (true) {
      if (tok_.kind != Tok::kValueRef) return Error("expected a value after 'output'");
      OC_ASSIGN_OR_RETURN(ValueId id, Lookup(tok_.int_value));
      program_.outputs().push_back(id);
      OC_RETURN_IF_ERROR(Advance());
      if (!IsPunct(",")) break;
      OC_RETURN_IF_ERROR(Advance());
    }
    return absl::OkStatus();
  }

  // %0 "name"?, %1 "name"?, ...: each result's text id and tensor name.
  absl::Status ParseResults(std::vector<std::pair<int64_t, std::string>>& results,
                            std::vector<Token>& result_tokens) {
    while (true) {
      if (tok_.kind != Tok::kValueRef) return Error("expected a value definition like %0");
      int64_t text_id = tok_.int_value;
      result_tokens.push_back(tok_);
      OC_RETURN_IF_ERROR(Advance());
      std::string name;
      if (tok_.kind == Tok::kString) {
        name = tok_.text;
        OC_RETURN_IF_ERROR(Advance());
      }
      results.emplace_back(text_id, name);
      if (!IsPunct(",")) break;
      OC_RETURN_IF_ERROR(Advance());
    }
    return absl::OkStatus();
  }

  // ('input' | 'const') "name" ':' type ('hex' "bytes")?: one graph input
  // or constant.
  absl::Status ParseInputOrConstant(const std::string& head,
                                    const std::vector<std::pair<int64_t, std::string>>& results,
                                    const std::vector<Token>& result_tokens) {
    if (results.size() != 1) return Error("an input or constant defines one value");
    OC_RETURN_IF_ERROR(Advance());
    if (tok_.kind != Tok::kString) return Error("expected the tensor name as a string");
    Value v;
    v.name = tok_.text;
    OC_RETURN_IF_ERROR(Advance());
    OC_RETURN_IF_ERROR(ExpectPunct(":"));
    OC_RETURN_IF_ERROR(ParseType(v));
    ValueId id;
    if (head == "input") {
      id = program_.AddInput(v.name, v.dtype, v.shape);
    } else {
      if (!IsIdent("hex")) return Error("expected 'hex' and the constant's bytes");
      OC_RETURN_IF_ERROR(Advance());
      if (tok_.kind != Tok::kString) return Error("expected a hex string");
      std::vector<uint8_t> bytes;
      const std::string& hex = tok_.text;
      if (hex.size() % 2 != 0) return Error("odd number of hex digits");
      for (size_t i = 0; i < hex.size(); i += 2) {
        int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
        if (hi < 0 || lo < 0) return Error("bad hex digit");
        bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
      }
      OC_RETURN_IF_ERROR(Advance());
      id = program_.AddConstant(v.name, v.dtype, v.shape, std::move(bytes));
    }
    program_.value(id).quant = v.quant;
    return Define(results[0].first, id, result_tokens[0]);
  }

  // '(' (%a | '_'), ... ')'
  absl::Status ParseOperands(std::vector<ValueId>& operands) {
    OC_RETURN_IF_ERROR(ExpectPunct("("));
    while (!IsPunct(")")) {
      if (!operands.empty()) OC_RETURN_IF_ERROR(ExpectPunct(","));
      if (IsPunct("_")) {
        operands.push_back(kNoValue);
        OC_RETURN_IF_ERROR(Advance());
        continue;
      }
      if (tok_.kind != Tok::kValueRef) return Error("expected an operand");
      OC_ASSIGN_OR_RETURN(ValueId id, Lookup(tok_.int_value));
      operands.push_back(id);
      OC_RETURN_IF_ERROR(Advance());
    }
    return Advance();
  }

  // ('{' name '=' value, ... '}')?
  absl::Status ParseAttributes(std::map<std::string, Attribute>& attrs) {
    if (!IsPunct("{")) return absl::OkStatus();
    OC_RETURN_IF_ERROR(Advance());
    while (!IsPunct("}")) {
      if (!attrs.empty()) OC_RETURN_IF_ERROR(ExpectPunct(","));
      if (tok_.kind != Tok::kIdent) return Error("expected an attribute name");
      std::string key = tok_.text;
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct("="));
      OC_ASSIGN_OR_RETURN(Attribute a, ParseAttribute());
      if (!attrs.emplace(key, std::move(a)).second) {
        return Error(absl::StrCat("attribute '", key, "' given twice"));
      }
    }
    return Advance();
  }

  // loc("node", "OnnxOp")? macs N? scratch N?
  absl::Status ParseStatementTail(Statement& s) {
    if (IsIdent("loc")) {
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct("("));
      if (tok_.kind != Tok::kString) return Error("expected the node name");
      s.node_name = tok_.text;
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct(","));
      if (tok_.kind != Tok::kString) return Error("expected the ONNX op type");
      s.onnx_op = tok_.text;
      OC_RETURN_IF_ERROR(Advance());
      OC_RETURN_IF_ERROR(ExpectPunct(")"));
    }
    if (IsIdent("macs")) {
      OC_RETURN_IF_ERROR(Advance());
      OC_ASSIGN_OR_RETURN(s.macs, ParseInt());
    }
    if (IsIdent("scratch")) {
      OC_RETURN_IF_ERROR(Advance());
      OC_ASSIGN_OR_RETURN(s.scratch_bytes, ParseInt());
    }
    return absl::OkStatus();
  }

  Lexer lexer_;
  Token tok_;
  Program program_;
  std::unordered_map<int64_t, ValueId> ids_;
};

}  // namespace

absl::StatusOr<Program> ParseProgram(absl::string_view text) { return Parser(text).Parse(); }

}  // namespace oc
