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

// True when `target` already holds exactly `contents`: such a file is left
// alone, timestamp included, so build tools do not rebuild what depends on it.
bool AlreadyHolds(const fs::path& target, const std::string& contents) {
  std::error_code ec;
  if (!fs::is_regular_file(target, ec) || fs::file_size(target, ec) != contents.size() || ec) {
    return false;
  }
  std::ifstream in(target, std::ios::binary);
  std::string current(contents.size(), '\0');
  in.read(current.data(), static_cast<std::streamsize>(current.size()));
  return in && current == contents;
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
  std::vector<fs::path> targets;
  auto cleanup = [&]() {
    for (const fs::path& t : temps) fs::remove(t, ec);
  };
  for (const auto& [name, contents] : files) {
    fs::path target = d / name;
    if (AlreadyHolds(target, contents)) continue;
    fs::path tmp = TempNameFor(target);
    absl::Status st = WriteTemp(tmp, contents);
    if (!st.ok()) {
      cleanup();
      return st;
    }
    temps.push_back(tmp);
    targets.push_back(target);
  }
  for (size_t i = 0; i < temps.size(); ++i) {
    fs::rename(temps[i], targets[i], ec);
    if (ec) {
      cleanup();
      for (size_t j = 0; j < i; ++j) fs::remove(targets[j], ec);
      return absl::PermissionDeniedError(
          absl::StrCat("cannot create '", targets[i].string(), "': ", ec.message()));
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
  if (AlreadyHolds(target, contents)) return absl::OkStatus();
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
