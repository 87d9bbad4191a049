// What a lowering function sees of the node it lowers (internal to import/).
#ifndef ONNX_TO_C_IMPORT_NODE_CONTEXT_H_
#define ONNX_TO_C_IMPORT_NODE_CONTEXT_H_

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/import/tensor_data.h"
#include "compiler/ir/program.h"
#include "onnx/onnx_pb.h"

namespace oc {

class NodeContext {
 public:
  NodeContext(const onnx::NodeProto& node, int opset, Program& program,
              std::unordered_map<std::string, ValueId>& names)
      : node_(node), opset_(opset), program_(program), names_(names) {}

  const onnx::NodeProto& node() const { return node_; }
  const std::string& op_type() const { return node_.op_type(); }
  int opset() const { return opset_; }
  Program& program() { return program_; }

  // Inputs. An input is present when its name is not empty.
  int num_inputs() const { return node_.input_size(); }
  bool HasInput(int i) const {
    return i >= 0 && i < node_.input_size() && !node_.input(i).empty();
  }
  ValueId Input(int i) const { return names_.at(node_.input(i)); }
  const Value& InputValue(int i) const { return program_.value(Input(i)); }
  bool IsConstantInput(int i) const { return HasInput(i) && InputValue(i).IsConstant(); }
  HostTensor ConstantInput(int i) const;
  // A constant integer input (shape, axes, pads ...), rejected with a clear
  // error when it is computed at run time.
  absl::StatusOr<std::vector<int64_t>> ConstantInts(int i, const char* what) const;
  absl::StatusOr<std::vector<float>> ConstantFloats(int i, const char* what) const;

  // Attributes, with type checks.
  bool HasAttr(const std::string& name) const { return FindAttr(name) != nullptr; }
  absl::StatusOr<int64_t> AttrInt(const std::string& name, std::optional<int64_t> fallback) const;
  absl::StatusOr<float> AttrFloat(const std::string& name, std::optional<float> fallback) const;
  absl::StatusOr<std::string> AttrString(const std::string& name,
                                         std::optional<std::string> fallback) const;
  absl::StatusOr<std::vector<int64_t>> AttrInts(const std::string& name,
                                                std::optional<std::vector<int64_t>> fallback) const;
  absl::StatusOr<std::vector<float>> AttrFloats(const std::string& name,
                                                std::optional<std::vector<float>> fallback) const;
  const onnx::AttributeProto* FindAttr(const std::string& name) const;

  // The shape the model declares for output i (graph outputs, value_info and
  // ONNX shape inference), when every dim is static.
  std::optional<Shape> DeclaredOutputShape(int i) const;
  void SetDeclaredShapes(const std::unordered_map<std::string, const onnx::ValueInfoProto*>* d) {
    declared_ = d;
  }

  // Outputs.
  int num_outputs() const { return node_.output_size(); }
  bool HasOutput(int i) const {
    return i >= 0 && i < node_.output_size() && !node_.output(i).empty();
  }
  // A new result value named after output i.
  ValueId NewResult(int i, DType dtype, Shape shape);
  // Appends a statement that carries this node's name and op type.
  Statement& Emit(OpKind op, std::vector<ValueId> operands, std::vector<ValueId> results);
  // Output i is `existing` (Identity, Dropout, folded no-ops).
  void BindOutput(int i, ValueId existing);
  // Output i is a compile-time constant.
  void BindConstantOutput(int i, HostTensor t);

  // Helpers that build extra IR for a lowering; their values are named after
  // this node's output 0 plus `suffix`.
  // `v` under another shape of the same size: a view (or a new constant).
  ValueId Reshaped(ValueId v, const Shape& shape, const std::string& suffix);
  // `v` converted to `dtype`: a Cast statement (or a folded constant).
  ValueId CastTo(ValueId v, DType dtype, const std::string& suffix);
  // A scalar constant.
  ValueId ScalarConstant(DType dtype, double value, const std::string& suffix);
  // A fresh (unbound) result value.
  ValueId Temp(DType dtype, Shape shape, const std::string& suffix);

  // Errors that name the node and its op.
  absl::Status Invalid(absl::string_view message) const;
  absl::Status Unsupported(absl::string_view message) const;
  std::string Where() const;

 private:
  const onnx::NodeProto& node_;
  int opset_;
  Program& program_;
  std::unordered_map<std::string, ValueId>& names_;
  const std::unordered_map<std::string, const onnx::ValueInfoProto*>* declared_ = nullptr;
};

// A lowering function turns one ONNX node into IR statements.
using LowerFn = absl::Status (*)(NodeContext&);

// Tables of lowering functions, one per file (lower_nn.cc, ...).
void RegisterNnLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterElementwiseLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterTensorLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterIndexingLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterNormalizationLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterLossLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterEinsumLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterQuantLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterRecurrentLowerings(std::unordered_map<std::string, LowerFn>& table);
void RegisterAttentionLowerings(std::unordered_map<std::string, LowerFn>& table);

// Normalizes a possibly negative axis against `rank`.
absl::StatusOr<int64_t> NormalizeAxis(const NodeContext& ctx, int64_t axis, int64_t rank);
// Numpy broadcast of two shapes.
absl::StatusOr<Shape> BroadcastShapes(const NodeContext& ctx, const Shape& a, const Shape& b);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_NODE_CONTEXT_H_
