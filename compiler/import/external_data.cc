#include "compiler/import/external_data.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxExternalBytes = uint64_t{1} << 30;

bool IsExternal(const onnx::TensorProto& t) {
  return t.data_location() == onnx::TensorProto::EXTERNAL || t.external_data_size() > 0;
}

struct ExternalRef {
  std::string location;
  uint64_t offset = 0;
  bool has_length = false;
  uint64_t length = 0;
};

absl::StatusOr<ExternalRef> ParseRef(const onnx::TensorProto& t, const std::string& what) {
  ExternalRef ref;
  for (const auto& entry : t.external_data()) {
    if (entry.key() == "location") {
      ref.location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      uint64_t v = 0;
      if (!absl::SimpleAtoi(entry.value(), &v)) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, ": external data ", entry.key(), " '", entry.value(), "' is not a byte count"));
      }
      if (entry.key() == "offset") {
        ref.offset = v;
      } else {
        ref.has_length = true;
        ref.length = v;
      }
    }
  }
  if (ref.location.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(what, " uses external data without a location"));
  }
  return ref;
}

// The file `location` names inside `dir`, or an error: never a path that
// leaves the model's folder, however it is spelled or linked.
absl::StatusOr<fs::path> ResolveInside(const fs::path& dir, const std::string& location,
                                       const std::string& what) {
  const std::string quoted = absl::StrCat(what, ": external data '", location, "'");
  const fs::path rel(location);
  if (location.find('\0') != std::string::npos || rel.is_absolute() || rel.has_root_name() ||
      rel.has_root_directory()) {
    return absl::InvalidArgumentError(absl::StrCat(quoted, " is not a relative path inside the model's folder"));
  }
  for (const fs::path& part : rel) {
    if (part == "..") {
      return absl::InvalidArgumentError(absl::StrCat(quoted, " leaves the model's folder ('..')"));
    }
  }
  std::error_code ec;
  const fs::path base = fs::canonical(dir, ec);
  if (ec) return absl::NotFoundError(absl::StrCat(quoted, ": cannot resolve the model's folder"));
  const fs::path file = fs::canonical(base / rel, ec);
  if (ec) return absl::NotFoundError(absl::StrCat(quoted, " cannot be opened next to the model"));
  auto mismatch = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (mismatch.first != base.end()) {
    return absl::InvalidArgumentError(absl::StrCat(quoted, " links outside the model's folder"));
  }
  if (!fs::is_regular_file(file, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(quoted, " is not a regular file"));
  }
  return file;
}

}  // namespace

absl::Status LoadExternalInitializers(const std::string& model_dir, onnx::GraphProto& graph) {
  uint64_t total = 0;
  for (auto& init : *graph.mutable_initializer()) {
    if (!IsExternal(init)) continue;
    const std::string what = absl::StrCat("initializer '", init.name(), "'");
    if (model_dir.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " uses external data, which a model read from memory cannot have"));
    }
    OC_ASSIGN_OR_RETURN(ExternalRef ref, ParseRef(init, what));
    OC_ASSIGN_OR_RETURN(fs::path file, ResolveInside(model_dir, ref.location, what));
    std::error_code ec;
    const uint64_t size = fs::file_size(file, ec);
    if (ec) return absl::NotFoundError(absl::StrCat(what, ": cannot read external data '", ref.location, "'"));
    if (ref.offset > size || (ref.has_length && ref.length > size - ref.offset)) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": external data '", ref.location, "' at offset ", ref.offset,
          ref.has_length ? absl::StrCat(", length ", ref.length) : std::string(), " lies beyond its ",
          size, " bytes"));
    }
    const uint64_t length = ref.has_length ? ref.length : size - ref.offset;
    total += length;
    if (total > kMaxExternalBytes) {
      return absl::InvalidArgumentError("the model's external data is larger than 1 GiB");
    }
    std::string bytes(static_cast<size_t>(length), '\0');
    std::ifstream in(file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(ref.offset));
    if (!in || (length > 0 && !in.read(bytes.data(), static_cast<std::streamsize>(length)))) {
      return absl::NotFoundError(absl::StrCat(what, ": cannot read external data '", ref.location, "'"));
    }
    init.clear_external_data();
    init.set_data_location(onnx::TensorProto::DEFAULT);
    *init.mutable_raw_data() = std::move(bytes);
  }
  return absl::OkStatus();
}

}  // namespace oc
