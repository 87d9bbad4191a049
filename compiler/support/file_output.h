// Writing generated files so that a failure never leaves a partial output:
// every file goes to a temporary name first and is renamed into place only
// when all of them were written.
#ifndef ONNX_TO_C_SUPPORT_FILE_OUTPUT_H_
#define ONNX_TO_C_SUPPORT_FILE_OUTPUT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace oc {

// (file name inside `dir`, contents). Names must be plain file names.
using OutputFiles = std::vector<std::pair<std::string, std::string>>;

// Creates `dir` (and its parents) when missing; refuses a `dir` that exists
// but is not a directory.
absl::Status WriteFilesAtomically(const std::string& dir, const OutputFiles& files);

// One file at an explicit path (reports), written the same way.
absl::Status WriteFileAtomically(const std::string& path, const std::string& contents);

}  // namespace oc

#endif  // ONNX_TO_C_SUPPORT_FILE_OUTPUT_H_
