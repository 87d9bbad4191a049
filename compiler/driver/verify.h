// `onnx-to-c verify REPORT.json MODEL.onnx`: re-checks a report's order, peak,
// lower bound and arena plan with code of its own (its own liveness rule and
// its own max-flow), trusting none of the scheduling, bound or planning
// passes that produced the report.
#ifndef ONNX_TO_C_DRIVER_VERIFY_H_
#define ONNX_TO_C_DRIVER_VERIFY_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"

namespace oc {

absl::Status VerifyReport(const std::string& report_path, const std::string& model_path,
                          std::ostream& log);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_VERIFY_H_
