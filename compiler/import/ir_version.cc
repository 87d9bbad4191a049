#include "compiler/import/ir_version.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/import/tensor_data_4bit.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// Element types after BFLOAT16 (16), the last one IR version 8 has.
const char* NewerElementTypeName(int32_t type) {
  switch (type) {
    case 17: return "FLOAT8E4M3FN";
    case 18: return "FLOAT8E4M3FNUZ";
    case 19: return "FLOAT8E5M2";
    case 20: return "FLOAT8E5M2FNUZ";
    case 21: return "UINT4";
    case 22: return "INT4";
    case 23: return "FLOAT4E2M1";
    case 24: return "FLOAT8E8M0";
    default: return nullptr;
  }
}

// `constant`: a tensor's data, which may also be 4-bit (tensor_data_4bit.h).
absl::Status CheckElementType(int32_t type, const std::string& what, bool constant = false) {
  if (type <= onnx::TensorProto::BFLOAT16) return absl::OkStatus();
  if (constant && IsOnnx4Bit(type)) return absl::OkStatus();
  const char* name = NewerElementTypeName(type);
  return absl::UnimplementedError(absl::StrCat(what, " has element type ",
                                               name ? absl::StrCat(name, " (", type, ")") : std::to_string(type),
                                               ", which onnx-to-c does not support"));
}

absl::Status CheckValueInfos(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos) {
  for (const auto& vi : infos) {
    if (vi.type().has_tensor_type()) {
      OC_RETURN_IF_ERROR(CheckElementType(vi.type().tensor_type().elem_type(), absl::StrCat("value '", vi.name(), "'")));
    }
  }
  return absl::OkStatus();
}

// Every place an element type is written: value types, tensors (initializers
// and attributes) and the type attributes of Cast-like nodes, in subgraphs too
// (the parser's nesting limit bounds the recursion).
absl::Status CheckGraph(const onnx::GraphProto& g) {
  OC_RETURN_IF_ERROR(CheckValueInfos(g.input()));
  OC_RETURN_IF_ERROR(CheckValueInfos(g.output()));
  OC_RETURN_IF_ERROR(CheckValueInfos(g.value_info()));
  for (const auto& t : g.initializer()) {
    OC_RETURN_IF_ERROR(CheckElementType(t.data_type(), absl::StrCat("initializer '", t.name(), "'"), true));
  }
  for (const auto& node : g.node()) {
    const std::string where = absl::StrCat("node '", node.name(), "' (", node.op_type(), "): attribute '");
    for (const auto& attr : node.attribute()) {
      if (attr.has_t()) OC_RETURN_IF_ERROR(CheckElementType(attr.t().data_type(), where + attr.name() + "'", true));
      for (const auto& t : attr.tensors()) {
        OC_RETURN_IF_ERROR(CheckElementType(t.data_type(), where + attr.name() + "'", true));
      }
      if (attr.type() == onnx::AttributeProto::INT && (attr.name() == "to" || attr.name() == "output_dtype")) {
        OC_RETURN_IF_ERROR(CheckElementType(static_cast<int32_t>(attr.i()), where + attr.name() + "'"));
      }
      if (attr.has_g()) OC_RETURN_IF_ERROR(CheckGraph(attr.g()));
      for (const auto& sub : attr.graphs()) OC_RETURN_IF_ERROR(CheckGraph(sub));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AdmitIrVersion(onnx::ModelProto& model) {
  const int64_t checker_version = onnx::IR_VERSION;
  if (model.ir_version() <= checker_version) return absl::OkStatus();
  if (model.ir_version() > kMaxIrVersion) {
    return absl::UnimplementedError(absl::StrCat(
        "the model's ir_version ", model.ir_version(), " is newer than onnx-to-c reads (IR versions up to ",
        kMaxIrVersion, ")"));
  }
  OC_RETURN_IF_ERROR(CheckGraph(model.graph()));
  if (model.functions_size() > 0) {
    return absl::UnimplementedError(absl::StrCat(
        "the model (ir_version ", model.ir_version(), ") defines local functions ('",
        model.functions(0).name(), "'), which onnx-to-c does not support at IR versions above ",
        checker_version));
  }
  model.set_ir_version(checker_version);
  return absl::OkStatus();
}

}  // namespace oc
