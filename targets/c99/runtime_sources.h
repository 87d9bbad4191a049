// The runtime's sources, embedded into the compiler at build time.
#ifndef ONNX_TO_C_TARGETS_C99_RUNTIME_SOURCES_H_
#define ONNX_TO_C_TARGETS_C99_RUNTIME_SOURCES_H_

#include "absl/strings/string_view.h"
#include <vector>

namespace oc {

struct EmbeddedRuntimeFile {
  // "include" for the interface every kernel shares (runtime/include), else
  // the kernel folder: "reference" or an optimized one such as "arm", "x86"
  absl::string_view folder;
  absl::string_view name;  // file name, e.g. "conv2d.c" or "oc_common.h"
  absl::string_view text;
};

const std::vector<EmbeddedRuntimeFile>& EmbeddedRuntimeFiles();

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_RUNTIME_SOURCES_H_
