// Turning arbitrary ONNX names into safe, unique C identifiers.
#ifndef ONNX_TO_C_SUPPORT_C_NAMES_H_
#define ONNX_TO_C_SUPPORT_C_NAMES_H_

#include <string>
#include "absl/strings/string_view.h"

#include "absl/container/flat_hash_set.h"

namespace oc {

// Maps any byte string to a C identifier: [A-Za-z0-9_] are kept, every other
// byte becomes '_', a leading digit gets a 't' prefix, C keywords and reserved
// names get a trailing '_', an empty result becomes "t", and the result is
// truncated to `max_length` bytes.
std::string SanitizeCIdentifier(absl::string_view name, size_t max_length = 48);

bool IsCKeyword(absl::string_view name);

// Hands out identifiers that are unique within one scope: the first request
// for a base name gets it as is, later ones get "_2", "_3", ...
class UniqueNamer {
 public:
  std::string Make(absl::string_view raw_name);
  // Reserves a name so that Make never returns it.
  void Reserve(absl::string_view name) { used_.insert(std::string(name)); }

 private:
  absl::flat_hash_set<std::string> used_;
};

// Escapes bytes for the inside of a C comment, keeping names readable:
// printable ASCII is kept except a backslash, the '*' of "*/" (or a trailing
// '*'), the '/' of "/*" and the first '?' of "??" (a trigraph); every other
// byte becomes \xNN, so the output is one line of ASCII. Not for string
// literals or identifiers.
std::string EscapeForCComment(absl::string_view text, size_t max_length = 120);

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_C_NAMES_H_
