// Status helpers shared by every compiler layer.
//
// The Debian 2022 abseil LTS has no RETURN_IF_ERROR / ASSIGN_OR_RETURN, so they
// are defined here once.
#ifndef ONNX_TO_C_SUPPORT_STATUS_H_
#define ONNX_TO_C_SUPPORT_STATUS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define OC_CONCAT_INNER_(a, b) a##b
#define OC_CONCAT_(a, b) OC_CONCAT_INNER_(a, b)

// Returns from the enclosing function when `expr` is not OK.
#define OC_RETURN_IF_ERROR(expr)                 \
  do {                                           \
    ::absl::Status oc_status_ = (expr);          \
    if (!oc_status_.ok()) return oc_status_;     \
  } while (0)

#define OC_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(*tmp)

// `OC_ASSIGN_OR_RETURN(auto x, F());` declares x from an absl::StatusOr or
// returns its error.
#define OC_ASSIGN_OR_RETURN(lhs, expr) \
  OC_ASSIGN_OR_RETURN_IMPL_(OC_CONCAT_(oc_statusor_, __LINE__), lhs, expr)

#endif  // ONNX_TO_C_SUPPORT_STATUS_H_
