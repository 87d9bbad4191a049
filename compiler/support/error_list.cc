#include "compiler/support/error_list.h"

#include "absl/strings/str_cat.h"

namespace oc {
namespace {

// One payload per further error: payloads carry any bytes, so a model's names
// cannot forge a line of their own.
std::string PayloadKey(size_t i) { return absl::StrCat("onnx-to-c/more-errors/", i); }

}  // namespace

bool ErrorList::Add(absl::Status status) {
  if (status.ok()) return true;
  if (!full()) errors_.push_back(std::move(status));
  return false;
}

absl::Status ErrorList::ToStatus() const {
  if (errors_.empty()) return absl::OkStatus();
  absl::Status first = errors_[0];
  for (size_t i = 1; i < errors_.size(); ++i) {
    first.SetPayload(PayloadKey(i - 1), absl::Cord(errors_[i].message()));
  }
  return first;
}

std::vector<std::string> MoreErrors(const absl::Status& status) {
  std::vector<std::string> more;
  for (size_t i = 0;; ++i) {
    absl::optional<absl::Cord> payload = status.GetPayload(PayloadKey(i));
    if (!payload) return more;
    more.push_back(std::string(*payload));
  }
}

}  // namespace oc
