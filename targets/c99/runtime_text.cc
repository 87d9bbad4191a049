#include "targets/c99/runtime_text.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "targets/c99/runtime_sources.h"

namespace oc {
namespace {

// The file's text as `folder/name` names it, its `#include "..."` lines
// dropped.
std::string EmbedFile(const std::vector<std::string>& folders, absl::string_view name) {
  const EmbeddedRuntimeFile* f = FindRuntimeFile(folders, name);
  if (f == nullptr) return absl::StrCat("/* ---- runtime: ", name, " (missing) ---- */\n");
  std::string out = absl::StrCat("/* ---- runtime: ", f->folder, "/", name, " ---- */\n");
  for (absl::string_view line : absl::StrSplit(f->text, '\n')) {
    if (line.rfind("#include \"", 0) == 0) continue;
    absl::StrAppend(&out, line, "\n");
  }
  if (!f->text.empty() && f->text.back() == '\n') out.pop_back();
  return out;
}

// Runtime headers that `name` includes (#include "onnx_to_c/X.h"), after
// their own includes, each once; oc_common.h and oc_math.h are always there.
void AddIncludedHeaders(const std::vector<std::string>& folders, absl::string_view name,
                        std::vector<std::string>& ordered) {
  const EmbeddedRuntimeFile* f = FindRuntimeFile(folders, name);
  if (f == nullptr) return;
  for (absl::string_view line : absl::StrSplit(f->text, '\n')) {
    constexpr absl::string_view kPrefix = "#include \"onnx_to_c/";
    if (line.rfind(kPrefix, 0) != 0) continue;
    std::string header(line.substr(kPrefix.size(), line.find('"', kPrefix.size()) - kPrefix.size()));
    if (header == "oc_common.h" || header == "oc_math.h") continue;
    if (std::find(ordered.begin(), ordered.end(), header) != ordered.end()) continue;
    AddIncludedHeaders(folders, header, ordered);
    ordered.push_back(header);
  }
}

}  // namespace

std::vector<std::string> RuntimeFolders(const Target& target) {
  std::vector<std::string> folders = target.kernel_folders;
  folders.push_back("reference");
  folders.push_back("include");
  return folders;
}

const EmbeddedRuntimeFile* FindRuntimeFile(const std::vector<std::string>& folders,
                                           absl::string_view name) {
  for (const std::string& folder : folders) {
    for (const EmbeddedRuntimeFile& f : EmbeddedRuntimeFiles()) {
      if (f.folder == folder && f.name == name) return &f;
    }
  }
  return nullptr;
}

std::string EmbeddedRuntime(const Target& target, const std::set<std::string>& kernels) {
  const std::vector<std::string> folders = RuntimeFolders(target);
  std::string runtime = EmbedFile(folders, "oc_common.h") + EmbedFile(folders, "oc_math.h");
  std::vector<std::string> headers;
  for (const std::string& k : kernels) AddIncludedHeaders(folders, k, headers);
  for (const std::string& h : headers) runtime += EmbedFile(folders, h);
  for (const std::string& k : kernels) runtime += EmbedFile(folders, k);
  return runtime;
}

}  // namespace oc
