#include "compiler/support/printable.h"

#include "absl/strings/str_format.h"

namespace oc {
namespace {

// Line and paragraph separators, zero-width and bidirectional controls: they
// split lines or make the text read differently from its bytes.
bool IsInvisibleFormatting(unsigned cp) {
  return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

// Length of the well-formed UTF-8 sequence starting at text[i] (RFC 3629:
// no overlong forms, no surrogates, at most U+10FFFF), or 0.
size_t Utf8SequenceLength(absl::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  // C1 control characters (U+0080..U+009F) are not printable either.
  if (n == 2 && b0 == 0xC2 && byte(i + 1) <= 0x9F) return 0;
  if (n == 3 && IsInvisibleFormatting(((b0 & 0x0F) << 12) | ((byte(i + 1) & 0x3F) << 6) |
                                      (byte(i + 2) & 0x3F))) {
    return 0;
  }
  return n;
}

}  // namespace

std::string PrintableLine(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (size_t n = c >= 0x80 ? Utf8SequenceLength(text, i) : 0; n > 0) {
      out.append(text.data() + i, n);
      i += n;
    } else {
      out += absl::StrFormat("\\x%02x", c);
      ++i;
    }
  }
  return out;
}

}  // namespace oc
