// The runtime text a generated file embeds. Each kernel (.c) and header is
// taken from the first of the target's kernel folders that has it
// (Target::kernel_folders, e.g. arm or x86), else from runtime/reference,
// else from the interface every kernel shares (runtime/include): an optimized
// folder replaces reference files of the same name and interface.
#ifndef ONNX_TO_C_TARGETS_C99_RUNTIME_TEXT_H_
#define ONNX_TO_C_TARGETS_C99_RUNTIME_TEXT_H_

#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/target/target.h"

namespace oc {

// The folders searched for the target's runtime files, first match first.
std::vector<std::string> RuntimeFolders(const Target& target);

// The file `name` as the target takes it, or nullptr.
const struct EmbeddedRuntimeFile* FindRuntimeFile(const std::vector<std::string>& folders,
                                                  absl::string_view name);

// oc_common.h and oc_math.h, the headers the kernels include (each after the
// headers it includes, once), then the kernels, each as its text without its
// own `#include "..."` lines: the generated file provides everything once.
std::string EmbeddedRuntime(const Target& target, const std::set<std::string>& kernels);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_RUNTIME_TEXT_H_
