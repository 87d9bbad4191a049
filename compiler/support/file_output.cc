#include "compiler/support/file_output.h"

#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"

namespace oc {
namespace fs = std::filesystem;

namespace {

// Temporary files being written, for the signal handler: a fixed table of C
// strings, as a handler may only call async-signal-safe functions (unlink).
constexpr int kMaxTemps = 64;
constexpr size_t kMaxTempPath = 4096;
char g_temps[kMaxTemps][kMaxTempPath];
volatile std::sig_atomic_t g_temp_count = 0;
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void RemoveTempsAndDie(int sig) {
  for (int i = 0; i < g_temp_count; ++i) unlink(g_temps[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Ctrl-C, kill or a closed terminal while the temporaries are being written
// removes them (SIGKILL cannot be caught: it leaves a hidden
// .onnx-to-c.*.tmp, never a half-written file under a real name). Signals
// that were ignored stay ignored.
void InstallCleanupHandlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : kCleanupSignals) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) {
      std::signal(sig, RemoveTempsAndDie);
    }
  }
}

void RegisterTemp(const fs::path& tmp) {
  const std::string s = tmp.string();
  if (g_temp_count >= kMaxTemps || s.size() >= kMaxTempPath) return;
  std::memcpy(g_temps[g_temp_count], s.c_str(), s.size() + 1);
  g_temp_count = g_temp_count + 1;  // published only once the path is complete
}

// The renames run with the cleanup signals held back, so an interrupted run
// leaves either none or all of its files in place; a held signal is
// delivered (and ends the run) when they are released.
class HoldSignals {
 public:
  HoldSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kCleanupSignals) sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~HoldSignals() {
    g_temp_count = 0;
    sigprocmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t old_;
};

absl::Status CheckPlainFileName(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("refusing to write '", name, "': not a plain file name"));
  }
  return absl::OkStatus();
}

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
  for (const auto& file : files) OC_RETURN_IF_ERROR(CheckPlainFileName(file.first));
  fs::create_directories(d, ec);
  if (ec) return absl::PermissionDeniedError(absl::StrCat("cannot create '", dir, "': ", ec.message()));
  for (const auto& file : files) {
    if (fs::is_directory(d / file.first, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot create '", (d / file.first).string(), "': it is a directory"));
    }
  }
  InstallCleanupHandlers();
  std::vector<fs::path> temps;
  std::vector<fs::path> targets;
  auto cleanup = [&]() {
    for (const fs::path& t : temps) fs::remove(t, ec);
    g_temp_count = 0;
  };
  for (const auto& [name, contents] : files) {
    fs::path target = d / name;
    if (AlreadyHolds(target, contents)) continue;
    fs::path tmp = TempNameFor(target);
    RegisterTemp(tmp);
    absl::Status st = WriteTemp(tmp, contents);
    if (!st.ok()) {
      cleanup();
      return st;
    }
    temps.push_back(tmp);
    targets.push_back(target);
  }
  HoldSignals hold;
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
  InstallCleanupHandlers();
  RegisterTemp(tmp);
  absl::Status st = WriteTemp(tmp, contents);
  if (!st.ok()) {
    g_temp_count = 0;
    return st;
  }
  HoldSignals hold;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return absl::PermissionDeniedError(absl::StrCat("cannot create '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace oc
