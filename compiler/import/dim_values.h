// Symbolic dimensions pinned on the command line (--dim batch=1,seq=49):
// exporters write a named dimension (dim_param) where the batch or a sequence
// length may vary, and onnx-to-c needs every shape static.
#ifndef ONNX_TO_C_IMPORT_DIM_VALUES_H_
#define ONNX_TO_C_IMPORT_DIM_VALUES_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace oc {

// dim_param name -> the value it takes. Ordered, so reports and provenance
// lines list them the same way every time.
using DimValues = std::map<std::string, int64_t>;

// Parses "NAME=N,NAME=N" (N from 1 to 2^31-1, each name once).
absl::StatusOr<DimValues> ParseDimValues(absl::string_view text);

// "batch=1,seq=49": the text ParseDimValues reads back.
std::string FormatDimValues(const DimValues& dims);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_DIM_VALUES_H_
