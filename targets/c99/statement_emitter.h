// The per-statement C emitter (internal to targets/c99): each IR statement
// becomes `static const` kernel parameters and runtime kernel calls. The
// methods live in op_emitters.cc (dispatch, convolutions, matrix products,
// elementwise ops, pooling, reductions, resize), emit_tensor.cc (data
// movement and indexing), emit_quant.cc (quantization) and emit_layers.cc
// (normalization, recurrent, signal, text and loss layers).
#ifndef ONNX_TO_C_TARGETS_C99_STATEMENT_EMITTER_H_
#define ONNX_TO_C_TARGETS_C99_STATEMENT_EMITTER_H_

#include <cctype>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "targets/c99/emit_context.h"

namespace oc {

class StatementEmitter {
 public:
  StatementEmitter(EmitContext& ctx, const Statement& s, CodeWriter& w) : ctx_(ctx), s_(s), w_(w) {}

  absl::Status Run();

 private:
  static constexpr int kMaxRank = 8;  // OC_MAX_RANK in the runtime

  // Numbers and shapes as C initializers.
  static std::string Ints(const std::vector<int64_t>& v);
  static std::vector<int64_t> RowMajorStrides(const Shape& s);
  // Strides reading `in` broadcast to `out` (0 on broadcast dims).
  static std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out);
  static int64_t Prod(const Shape& s, size_t from, size_t to);
  static std::string ActInit(const Statement& s);
  // oc_dtype's name for t (OC_F32, OC_I64, ...).
  static std::string DTypeEnum(DType t) {
    std::string name(DTypeName(t));
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "OC_" + name;
  }
  // An integer constant of type t as a C literal.
  static std::string IntLiteral(DType t, int64_t v);
  // A nested struct initializer from designated fields.
  static std::string Nested(const std::vector<std::string>& fields) {
    return "{" + absl::StrJoin(fields, ", ") + "}";
  }

  // The statement's operands and results.
  const Value& V(ValueId id) const { return ctx_.program.value(id); }
  const Shape& In(int i) const { return V(s_.operands[i]).shape; }
  const Shape& Out(int i = 0) const { return V(s_.results[i]).shape; }
  std::string Read(int i) const { return ctx_.Ptr(s_.operands[i], false); }
  std::string Write(int i = 0) const { return ctx_.Ptr(s_.results[i], true); }
  bool HasOperand(int i) const {
    return static_cast<int>(s_.operands.size()) > i && s_.operands[i] != kNoValue;
  }
  std::string OptionalRead(int operand) const {
    return HasOperand(operand) ? Read(operand) : "NULL";
  }
  bool Is64(int operand) const { return V(s_.operands[operand]).dtype == DType::kI64; }
  bool IsSigned8(int operand) const { return V(s_.operands[operand]).dtype == DType::kI8; }
  absl::Status Unsupported(absl::string_view why) const {
    return absl::UnimplementedError(
        absl::StrCat("node '", s_.node_name, "' (", s_.onnx_op, "): ", why));
  }
  absl::Status RequireF32(int operand) const {
    if (V(s_.operands[operand]).dtype != DType::kF32) {
      return Unsupported(absl::StrCat("element type ", DTypeName(V(s_.operands[operand]).dtype),
                                      " has no C kernel"));
    }
    return absl::OkStatus();
  }

  // Output: a runtime file to embed, a parameter struct, a constant table,
  // the statement's scratch buffer in the arena (as `type *`).
  void Use(const std::string& kernel) { ctx_.kernels.insert(kernel); }
  void Params(const std::string& type, const std::vector<std::string>& fields,
              const std::string& name = "p") {
    w_.Open(absl::StrCat("static const ", type, " ", name, " ="));
    for (size_t i = 0; i < fields.size(); ++i) {
      w_.Line(fields[i] + (i + 1 < fields.size() ? "," : ""));
    }
    w_.Close(";");
  }
  void Table(const std::string& type, const std::string& name, const std::vector<std::string>& v);
  std::string Scratch(const std::string& type) const;

  // Overlap contracts (see OverlapContract): the statement's contract or
  // null, and the loop that runs a kernel call one plane at a time into the
  // plane scratch and copies each plane to its place. `call` uses @X (the
  // input plane), @W and @B (the plane's weights and bias, 3-D convolutions
  // only: the 2-D ones call oc_conv2d_dw_planes_f32) and @Y (the output
  // plane) as placeholders.
  const OverlapContract* Overlap() const;
  // The C comment of a rows or rows_up contract (none for others).
  void RowsContractComment(const OverlapContract* c);
  std::string ContractScratchOffset() const;  // offset macro of the contract's scratch
  // The comment of a planes overlap contract.
  void PlanesContractComment(const OverlapContract& c);
  void PlaneByPlane(const OverlapContract& c, const std::string& call);
  // `fields` with the value of every field starting with `name` replaced.
  static std::vector<std::string> WithField(std::vector<std::string> fields,
                                            const std::string& name, int64_t value);

  // Convolutions and pools run as 3-D (d, h, w): 1-D and 2-D ones get 1 for
  // the missing leading spatial dims (kernel, strides, dilations) or 0 (pads).
  static std::vector<int64_t> Spatial3(const Shape& s) {
    std::vector<int64_t> v(s.begin() + 2, s.end());
    while (v.size() < 3) v.insert(v.begin(), 1);
    return v;
  }
  std::vector<int64_t> Attr3(const char* key, int64_t fill) const {
    std::vector<int64_t> v = s_.Ints(key);
    while (v.size() < 3) v.insert(v.begin(), fill);
    return v;
  }
  // Begin (end == false) or end pads as (d, h, w).
  std::vector<int64_t> Pads3(bool end) const {
    std::vector<int64_t> pads = s_.Ints("pads");
    const size_t n = pads.size() / 2;
    std::vector<int64_t> v(pads.begin() + (end ? n : 0), pads.begin() + (end ? 2 * n : n));
    while (v.size() < 3) v.insert(v.begin(), 0);
    return v;
  }
  // The fields of oc_conv2d_params (3-D view) for this statement.
  std::vector<std::string> ConvFields() const;
  // The fields of oc_matmul_params for operands a and b (numpy matmul
  // batching and broadcasting; 1-D operands become matrices).
  std::vector<std::string> MatMulFields(Shape a, Shape b) const;
  // The oc_binary_op of a binary-kernel statement.
  std::string BinaryOpName() const;

  // op_emitters.cc
  absl::Status Conv(bool transpose);
  absl::Status ConvForward() { return Conv(false); }
  absl::Status ConvTransposed() { return Conv(true); }
  absl::Status View();  // a Reshape: no code
  absl::Status Gemm();
  absl::Status MatMul();
  absl::Status Unary();
  absl::Status Binary();
  absl::Status Where();
  absl::Status Cast();
  absl::Status Classify();
  absl::Status ArgMax();
  absl::Status Softmax();
  absl::Status ChannelAffine();
  absl::Status ToChannelsLast();
  absl::Status ReduceEmpty();
  absl::Status Reduce();
  absl::Status Pool();
  absl::Status GlobalPool();
  absl::Status Resize();

  // emit_tensor.cc
  // A strided copy from operand 0 into result `r`.
  absl::Status StridedCopy(int r, const Shape& dims, int64_t src_offset,
                           const std::vector<int64_t>& src_strides, int64_t dst_offset,
                           const std::vector<int64_t>& dst_strides, const std::string& pname);
  absl::Status Copy();
  absl::Status Concat();
  absl::Status Slice();
  absl::Status Split();
  absl::Status Transpose();
  absl::Status Expand();
  absl::Status Tile();
  absl::Status Pad();
  absl::Status Gather();
  absl::Status GatherElements();
  absl::Status ScatterElements();
  absl::Status GatherScatterND();
  absl::Status ReverseSequence();
  absl::Status OneHot();
  absl::Status MaxUnpool();
  absl::Status TopK();
  absl::Status Trilu();

  // emit_quant.cc
  // x viewed as (outer, axis_len, inner) around `axis` (-1: one block).
  std::vector<std::string> QuantFields(const Shape& x, int64_t axis, DType q) const;
  absl::Status MatMulInteger();
  absl::Status ConvInteger();
  absl::Status Quantize();
  absl::Status DynamicQuantize();
  absl::Status Requantize();

  // emit_qlinear.cc
  static void ToQ31(float m, int64_t* mult, int64_t* shift);
  void RequantParams(const std::vector<float>& mult, int yz_operand);
  std::vector<std::string> PoolFields(bool global) const;
  std::string ConvertParams(int x, int ys);
  std::vector<float> ProductMultipliers() const;
  std::string Signed(const std::string& field, ValueId v) const;
  std::vector<std::string> FoldedBias(int64_t channels, int64_t kk, uint32_t za,
                                      const std::function<int64_t(int64_t, int64_t)>& weight,
                                      const std::function<int64_t(int64_t)>& zb) const;
  absl::Status QLinearConv();
  absl::Status QLinearConvPacked();
  void PackedWeights(const Value& wv, int64_t c_out, int64_t group, int64_t kk);
  void PackedTaps();
  void WeightTable(DType dtype, const std::vector<std::string>& values);
  // emit_qpw_nhwc.cc: the channels-last pointwise matrix product (QPwNhwcRuns).
  absl::Status QLinearConvPwNhwc();
  void QPwNhwcWeights(const Value& wv, int64_t c_out, int64_t c_in, int64_t padded = 0);
  // emit_qstem_nhwc.cc: a small window's convolution as the pointwise kernel's sums (QStemNhwcRuns).
  absl::Status QLinearConvStemNhwc();
  absl::Status QLinearGemm();
  // emit_qlinear_w4.cc: 4-bit weights (HasFourBitWeights).
  void FourBitTables(int64_t channels, int64_t kk, const std::function<int64_t(int64_t, int64_t)>& nibble,
                     const Value& zp);
  absl::Status QLinearConvW4();
  absl::Status QLinearGemmW4();
  absl::Status QLinearBinary();
  absl::Status QLinearPool();
  absl::Status QLinearMaxPool();
  absl::Status QLinearConcat();

  // emit_layers.cc
  absl::Status Normalize();
  absl::Status Lrn();
  absl::Status Recurrent();
  absl::Status CumSum();
  absl::Status Einsum();
  absl::Status Det();
  absl::Status Dft();
  absl::Status GridSample();
  absl::Status DeformConv();
  absl::Status RoiAlign();
  absl::Status TfIdf();
  absl::Status NllLoss();

  EmitContext& ctx_;
  const Statement& s_;
  CodeWriter& w_;
};

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_STATEMENT_EMITTER_H_
