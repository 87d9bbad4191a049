// Several independent problems of one model in one status, so that one run
// reports all of them: the first is the status's message, the others ride
// along as notes (one line each when printed).
#ifndef ONNX_TO_C_SUPPORT_ERROR_LIST_H_
#define ONNX_TO_C_SUPPORT_ERROR_LIST_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace oc {

// Collects the errors of independent checks, at most kMaxErrors of them.
class ErrorList {
 public:
  static constexpr int kMaxErrors = 20;
  // Keeps `status` when it is an error; returns whether it was OK.
  bool Add(absl::Status status);
  bool empty() const { return errors_.empty(); }
  bool full() const { return static_cast<int>(errors_.size()) >= kMaxErrors; }
  // OK when nothing was added; else the first error carrying the others.
  absl::Status ToStatus() const;

 private:
  std::vector<absl::Status> errors_;
};

// The messages of the other errors a status carries (ErrorList::ToStatus).
std::vector<std::string> MoreErrors(const absl::Status& status);

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_ERROR_LIST_H_
