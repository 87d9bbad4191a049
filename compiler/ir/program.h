// The SSA IR: values, statements and a program order.
//
// A Program owns its values (indexed by ValueId) and its statements. The
// order of `statements` is the program order; passes that reorder permute it.
// Every value is defined exactly once: as a graph input, a constant, or a
// result of one statement.
#ifndef ONNX_TO_C_IR_PROGRAM_H_
#define ONNX_TO_C_IR_PROGRAM_H_

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/constant_data.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/ops.h"

namespace oc {

using ValueId = int32_t;
inline constexpr ValueId kNoValue = -1;

using Shape = std::vector<int64_t>;

int64_t NumElements(const Shape& shape);

// Per-tensor (one scale) or per-channel (one scale per index of `axis`)
// affine quantization: real = scale * (q - zero_point).
struct QuantParams {
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int64_t axis = 0;
  bool operator==(const QuantParams& o) const {
    return scales == o.scales && zero_points == o.zero_points && axis == o.axis;
  }
};

enum class ValueKind : uint8_t { kInput, kConstant, kResult };

struct Value {
  ValueId id = kNoValue;
  ValueKind kind = ValueKind::kResult;
  std::string name;  // the ONNX tensor name, for errors and generated comments
  DType dtype = DType::kF32;
  Shape shape;
  ConstantData data;  // constants only: little-endian element bytes
  std::optional<QuantParams> quant;
  // 4 for a constant imported from ONNX int4/uint4: its values are held one
  // per byte here (i8/u8) and the kernels that read it as a weight keep them
  // two to a byte (qlinear_conv/qlinear_gemm weight_bits).
  int element_bits = 8;

  int64_t NumElements() const { return oc::NumElements(shape); }
  int64_t ByteSize() const { return NumElements() * DTypeSize(dtype); }
  bool IsConstant() const { return kind == ValueKind::kConstant; }
};

using Attribute =
    std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>>;

struct Statement {
  int32_t id = -1;  // stable identity across reorderings
  OpKind op = OpKind::kCopy;
  std::vector<ValueId> operands;  // kNoValue marks an absent optional operand
  std::vector<ValueId> results;
  std::map<std::string, Attribute> attrs;  // ordered: printing is deterministic
  std::string node_name;  // the ONNX node this came from
  std::string onnx_op;    // its ONNX op type
  int64_t macs = 0;
  int64_t scratch_bytes = 0;
  // Selective recompute: this statement re-runs statement `recompute_of` (an
  // id) on the same operands for later readers; -1 for an ordinary statement.
  int32_t recompute_of = -1;

  // Attribute accessors; the importer guarantees presence and type, the
  // verifier checks it for IR read from text.
  bool Has(const std::string& key) const { return attrs.count(key) != 0; }
  int64_t Int(const std::string& key, int64_t fallback = 0) const;
  float Float(const std::string& key, float fallback = 0.0f) const;
  std::string Str(const std::string& key, const std::string& fallback = "") const;
  std::vector<int64_t> Ints(const std::string& key) const;
  std::vector<float> Floats(const std::string& key) const;
};

class Program {
 public:
  std::string name = "model";

  ValueId AddInput(std::string name, DType dtype, Shape shape);
  ValueId AddConstant(std::string name, DType dtype, Shape shape, std::vector<uint8_t> data);
  // Appends a statement at the end of the program order; returns its index.
  Statement& AddStatement(OpKind op, std::vector<ValueId> operands,
                          std::vector<ValueId> results);
  // A fresh result value (not yet attached to a statement).
  ValueId AddResultValue(std::string name, DType dtype, Shape shape);

  Value& value(ValueId id) { return values_[id]; }
  const Value& value(ValueId id) const { return values_[id]; }
  const std::deque<Value>& values() const { return values_; }
  size_t num_values() const { return values_.size(); }

  std::vector<Statement>& statements() { return statements_; }
  const std::vector<Statement>& statements() const { return statements_; }

  std::vector<ValueId>& inputs() { return inputs_; }
  const std::vector<ValueId>& inputs() const { return inputs_; }
  std::vector<ValueId>& outputs() { return outputs_; }
  const std::vector<ValueId>& outputs() const { return outputs_; }

  // Index (in program order) of the statement defining `id`, or -1.
  std::vector<int> DefiningStatementIndex() const;
  // For each value, the program-order indices of the statements reading it.
  std::vector<std::vector<int>> UsersIndex() const;
  int32_t next_statement_id() const { return next_statement_id_; }

  // Drops values that nothing defines or uses any more and renumbers the
  // rest densely (keeping their relative order).
  void CompactValues();

 private:
  // A deque, so references to values stay valid while new ones are added.
  std::deque<Value> values_;
  std::vector<Statement> statements_;
  std::vector<ValueId> inputs_;
  std::vector<ValueId> outputs_;
  int32_t next_statement_id_ = 0;
};

}  // namespace oc

#endif  // ONNX_TO_C_IR_PROGRAM_H_
