#include "compiler/import/pin_dims.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace oc {
namespace {

void PinIn(onnx::ValueInfoProto& vi, const DimValues& dims, std::set<std::string>& used,
           std::set<std::string>& seen) {
  if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) return;
  for (auto& d : *vi.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
    if (d.has_dim_value() || d.dim_param().empty()) continue;
    seen.insert(d.dim_param());
    auto it = dims.find(d.dim_param());
    if (it == dims.end()) continue;
    used.insert(it->first);
    d.set_dim_value(it->second);  // clears dim_param (a oneof)
  }
}

}  // namespace

absl::Status PinSymbolicDims(const DimValues& dims, onnx::GraphProto& graph) {
  if (dims.empty()) return absl::OkStatus();
  std::set<std::string> used, seen;
  for (auto& vi : *graph.mutable_input()) PinIn(vi, dims, used, seen);
  for (auto& vi : *graph.mutable_output()) PinIn(vi, dims, used, seen);
  for (auto& vi : *graph.mutable_value_info()) PinIn(vi, dims, used, seen);
  for (const auto& [name, value] : dims) {
    if (used.count(name)) continue;
    std::set<std::string> others;
    for (const std::string& s : seen) {
      if (!used.count(s)) others.insert(s);
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "--dim ", name, "=", value, ": no dimension of the model's graph is named '", name, "' (",
        others.empty() ? std::string("it has no other symbolic dimension")
                       : absl::StrCat("its other symbolic dimensions: ", absl::StrJoin(others, ", ")),
        ")"));
  }
  return absl::OkStatus();
}

DimValues DefaultBatchDims(onnx::GraphProto& graph) {
  std::set<std::string> initializers;
  for (const auto& t : graph.initializer()) initializers.insert(t.name());
  DimValues named, defaulted;
  for (auto& vi : *graph.mutable_input()) {
    if (initializers.count(vi.name()) || !vi.type().has_tensor_type() ||
        !vi.type().tensor_type().has_shape() || vi.type().tensor_type().shape().dim_size() == 0) {
      continue;
    }
    auto* lead = vi.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0);
    if (lead->has_dim_value()) continue;
    if (lead->dim_param().empty()) {
      lead->set_dim_value(1);
      defaulted[absl::StrCat(vi.name(), "[0]")] = 1;
    } else {
      named[lead->dim_param()] = 1;
    }
  }
  if (!named.empty()) {
    std::set<std::string> used, seen;
    for (auto& vi : *graph.mutable_input()) PinIn(vi, named, used, seen);
    for (auto& vi : *graph.mutable_output()) PinIn(vi, named, used, seen);
    for (auto& vi : *graph.mutable_value_info()) PinIn(vi, named, used, seen);
    defaulted.insert(named.begin(), named.end());
  }
  return defaulted;
}

}  // namespace oc
