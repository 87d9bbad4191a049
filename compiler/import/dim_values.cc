#include "compiler/import/dim_values.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace oc {
namespace {

constexpr int64_t kMaxDimValue = (int64_t{1} << 31) - 1;

bool IsDimName(absl::string_view name) {
  if (name.empty() || name.size() > 256) return false;
  for (char c : name) {
    // Exporters write identifiers ('batch_size', 'N', 'unk__617') and
    // expressions of them ('s0 + 1'): any printable character but the
    // separators of the option.
    if (c < 0x20 || c > 0x7e || c == ',' || c == '=') return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<DimValues> ParseDimValues(absl::string_view text) {
  DimValues dims;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(item, absl::MaxSplits('=', 1));
    int64_t value = 0;
    if (!IsDimName(kv.first) || !absl::SimpleAtoi(kv.second, &value) || value < 1 ||
        value > kMaxDimValue || kv.second.find_first_not_of("0123456789") != absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--dim takes NAME=N pairs separated by commas, N from 1 to ", kMaxDimValue, " (got '", item, "')"));
    }
    if (!dims.emplace(std::string(kv.first), value).second) {
      return absl::InvalidArgumentError(absl::StrCat("--dim names '", kv.first, "' twice"));
    }
  }
  if (dims.empty()) return absl::InvalidArgumentError("--dim takes NAME=N pairs, e.g. --dim=batch=1");
  return dims;
}

std::string FormatDimValues(const DimValues& dims) {
  return absl::StrJoin(dims, ",", [](std::string* out, const auto& kv) {
    absl::StrAppend(out, kv.first, "=", kv.second);
  });
}

}  // namespace oc
