#include "compiler/support/file_output.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace oc {
namespace fs = std::filesystem;

namespace {

absl::Status WriteTemp(const fs::path& tmp, const std::string& contents) {
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot write '", tmp.string(), "'"));
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return absl::DataLossError(absl::StrCat("writing '", tmp.string(), "' failed"));
  }
  return absl::OkStatus();
}

fs::path TempNameFor(const fs::path& target) {
  return target.parent_path() / (".onnx-to-c." + target.filename().string() + ".tmp");
}

}  // namespace

absl::Status WriteFilesAtomically(const std::string& dir, const OutputFiles& files) {
  std::error_code ec;
  fs::path d(dir);
  if (fs::exists(d, ec) && !fs::is_directory(d, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("output '", dir, "' exists and is not a directory"));
  }
  fs::create_directories(d, ec);
  if (ec) return absl::PermissionDeniedError(absl::StrCat("cannot create '", dir, "': ", ec.message()));
  for (const auto& file : files) {
    if (fs::is_directory(d / file.first, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot create '", (d / file.first).string(), "': it is a directory"));
    }
  }
  std::vector<fs::path> temps;
  auto cleanup = [&]() {
    for (const fs::path& t : temps) fs::remove(t, ec);
  };
  for (const auto& [name, contents] : files) {
    fs::path target = d / name;
    fs::path tmp = TempNameFor(target);
    absl::Status st = WriteTemp(tmp, contents);
    if (!st.ok()) {
      cleanup();
      return st;
    }
    temps.push_back(tmp);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    fs::rename(temps[i], d / files[i].first, ec);
    if (ec) {
      cleanup();
      for (size_t j = 0; j < i; ++j) fs::remove(d / files[j].first, ec);
      return absl::PermissionDeniedError(absl::StrCat("cannot create '", (d / files[i].first).string(),
                                                      "': ", ec.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is a directory"));
  }
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  fs::path tmp = TempNameFor(target);
  absl::Status st = WriteTemp(tmp, contents);
  if (!st.ok()) return st;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return absl::PermissionDeniedError(absl::StrCat("cannot create '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace oc
