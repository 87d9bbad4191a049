#include "compiler/support/c_names.h"

#include <cstdio>

namespace oc {
namespace {

// C99 keywords plus names the generated code or the C library reserve.
constexpr absl::string_view kReserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex",
    "_Imaginary", "bool", "true", "false", "NULL", "main", "errno", "assert", "offsetof",
    "asm", "fortran", "class", "namespace", "template", "this", "new", "delete", "operator",
    "private", "protected", "public", "virtual", "friend", "catch", "try", "throw"};

bool IsIdentChar(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

bool IsCKeyword(absl::string_view name) {
  for (absl::string_view k : kReserved) {
    if (k == name) return true;
  }
  return false;
}

std::string SanitizeCIdentifier(absl::string_view name, size_t max_length) {
  std::string out;
  out.reserve(name.size() + 1);
  for (unsigned char c : name) out.push_back(IsIdentChar(c) ? static_cast<char>(c) : '_');
  // Collapse runs of '_' so "a/b.c" reads as a_b_c, and trim them at the ends.
  std::string collapsed;
  for (char c : out) {
    if (c == '_' && !collapsed.empty() && collapsed.back() == '_') continue;
    collapsed.push_back(c);
  }
  while (!collapsed.empty() && collapsed.back() == '_') collapsed.pop_back();
  size_t start = 0;
  while (start < collapsed.size() && collapsed[start] == '_') ++start;
  collapsed = collapsed.substr(start);
  if (collapsed.empty()) collapsed = "t";
  if (collapsed[0] >= '0' && collapsed[0] <= '9') collapsed = "t" + collapsed;
  if (collapsed.size() > max_length) collapsed.resize(max_length);
  while (collapsed.size() > 1 && collapsed.back() == '_') collapsed.pop_back();
  if (IsCKeyword(collapsed)) collapsed += "_";
  return collapsed;
}

std::string UniqueNamer::Make(absl::string_view raw_name) {
  std::string base = SanitizeCIdentifier(raw_name);
  if (used_.insert(base).second) return base;
  for (int suffix = 2;; ++suffix) {
    std::string candidate = base + "_" + std::to_string(suffix);
    if (used_.insert(candidate).second) return candidate;
  }
}

std::string EscapeForCComment(absl::string_view text, size_t max_length) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= max_length) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    // Only what could end or open a comment ("*/", "/*", a '*' at the end),
    // start a trigraph ("??"), splice or break the line (a backslash, control
    // bytes) or leave ASCII is escaped; names like "/blocks.0/Conv" stay as is.
    bool plain = c >= 0x20 && c < 0x7f && c != '\\';
    if (c == '*' && (next == '/' || next == '\0')) plain = false;
    if ((c == '/' && next == '*') || (c == '?' && next == '?')) plain = false;
    if (plain) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace oc
