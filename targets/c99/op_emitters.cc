// Per-op code: each IR statement becomes `static const` kernel parameters and
// one or more runtime kernel calls.
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/printer.h"
#include "compiler/support/status.h"
#include "targets/c99/emit_context.h"

namespace oc {
namespace {

constexpr int kMaxRank = 8;  // OC_MAX_RANK in the runtime

std::string Ints(const std::vector<int64_t>& v) {
  std::vector<std::string> parts;
  for (int64_t x : v) parts.push_back(CInt(x));
  return "{" + (parts.empty() ? std::string("0") : absl::StrJoin(parts, ", ")) + "}";
}

std::vector<int64_t> RowMajorStrides(const Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

// Strides reading `in` broadcast to `out` (0 on broadcast dims).
std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out) {
  std::vector<int64_t> st(out.size(), 0), own = RowMajorStrides(in);
  size_t lead = out.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) st[lead + d] = in[d] == 1 ? 0 : own[d];
  return st;
}

int64_t Prod(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

std::string ActInit(const Statement& s) {
  std::string act = s.Str("act", "none");
  std::string kind = act == "relu"           ? "OC_ACT_RELU"
                     : act == "clip"         ? "OC_ACT_CLIP"
                     : act == "leaky_relu"   ? "OC_ACT_LEAKY_RELU"
                     : act == "hard_sigmoid" ? "OC_ACT_HARD_SIGMOID"
                     : act == "hard_swish"   ? "OC_ACT_HARD_SWISH"
                     : act == "sigmoid"      ? "OC_ACT_SIGMOID"
                     : act == "tanh"         ? "OC_ACT_TANH"
                                             : "OC_ACT_NONE";
  return absl::StrCat("{", kind, ", ", CFloat(s.Float("act_alpha")), ", ",
                      CFloat(s.Float("act_beta")), "}");
}

class StatementEmitter {
 public:
  StatementEmitter(EmitContext& ctx, const Statement& s, CodeWriter& w) : ctx_(ctx), s_(s), w_(w) {}

  absl::Status Run() {
    switch (s_.op) {
      case OpKind::kConv: return Conv(false);
      case OpKind::kConvTranspose: return Conv(true);
      case OpKind::kGemm: return Gemm();
      case OpKind::kMatMul: return MatMul();
      case OpKind::kSoftmax:
      case OpKind::kLogSoftmax: return Softmax();
      case OpKind::kChannelAffine: return ChannelAffine();
      case OpKind::kReduceSum:
      case OpKind::kReduceMean:
      case OpKind::kReduceMax:
      case OpKind::kReduceMin:
      case OpKind::kReduceProd: return Reduce();
      case OpKind::kMaxPool:
      case OpKind::kAveragePool: return Pool();
      case OpKind::kGlobalAveragePool:
      case OpKind::kGlobalMaxPool: return GlobalPool();
      case OpKind::kReshape:
        w_.Comment("a view: shares its operand's bytes, no code");
        return absl::OkStatus();
      case OpKind::kCopy: return Copy();
      case OpKind::kConcat: return Concat();
      case OpKind::kSlice: return Slice();
      case OpKind::kSplit: return Split();
      case OpKind::kTranspose: return Transpose();
      case OpKind::kExpand: return Expand();
      case OpKind::kTile: return Tile();
      case OpKind::kPad: return Pad();
      case OpKind::kGather: return Gather();
      case OpKind::kResize: return Resize();
      case OpKind::kEqual:
      case OpKind::kLess:
      case OpKind::kLessOrEqual:
      case OpKind::kGreater:
      case OpKind::kGreaterOrEqual: return Binary();
      case OpKind::kWhere: return Where();
      case OpKind::kCast: return Cast();
      case OpKind::kIsNaN:
      case OpKind::kIsInf: return Classify();
      case OpKind::kReduceL1:
      case OpKind::kReduceL2:
      case OpKind::kReduceLogSum:
      case OpKind::kReduceLogSumExp:
      case OpKind::kReduceSumSquare: return Reduce();
      case OpKind::kArgMax:
      case OpKind::kArgMin: return ArgMax();
      case OpKind::kHardmax: return Softmax();
      case OpKind::kGatherElements: return GatherElements();
      case OpKind::kTrilu: return Trilu();
      case OpKind::kLayerNorm:
      case OpKind::kInstanceNorm: return Normalize();
      case OpKind::kNllLoss: return NllLoss();
      case OpKind::kLrn: return Lrn();
      case OpKind::kCumSum: return CumSum();
      case OpKind::kEinsum: return Einsum();
      case OpKind::kQuantizeLinear:
      case OpKind::kDequantizeLinear: return Quantize();
      case OpKind::kDynamicQuantizeLinear: return DynamicQuantize();
      case OpKind::kMatMulInteger: return MatMulInteger();
      case OpKind::kConvInteger: return ConvInteger();
      case OpKind::kRequantize: return Requantize();
      default: break;
    }
    switch (GetOpInfo(s_.op).category) {
      case OpCategory::kUnary: return Unary();
      case OpCategory::kBinary: return Binary();
      default: break;
    }
    return Unsupported("no C kernel");
  }

 private:
  const Value& V(ValueId id) const { return ctx_.program.value(id); }
  const Shape& In(int i) const { return V(s_.operands[i]).shape; }
  const Shape& Out(int i = 0) const { return V(s_.results[i]).shape; }
  std::string Read(int i) const { return ctx_.Ptr(s_.operands[i], false); }
  std::string Write(int i = 0) const { return ctx_.Ptr(s_.results[i], true); }
  bool HasOperand(int i) const {
    return static_cast<int>(s_.operands.size()) > i && s_.operands[i] != kNoValue;
  }
  absl::Status Unsupported(absl::string_view why) const {
    return absl::UnimplementedError(absl::StrCat("node '", s_.node_name, "' (", s_.onnx_op,
                                                 "): ", why));
  }
  absl::Status RequireF32(int operand) const {
    if (V(s_.operands[operand]).dtype != DType::kF32) {
      return Unsupported(absl::StrCat("element type ", DTypeName(V(s_.operands[operand]).dtype),
                                      " has no C kernel"));
    }
    return absl::OkStatus();
  }
  void Use(const std::string& kernel) { ctx_.kernels.insert(kernel); }
  void Params(const std::string& type, const std::vector<std::string>& fields, const std::string& name = "p") {
    w_.Open(absl::StrCat("static const ", type, " ", name, " ="));
    for (size_t i = 0; i < fields.size(); ++i) {
      w_.Line(fields[i] + (i + 1 < fields.size() ? "," : ""));
    }
    w_.Close(";");
  }

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
  std::vector<std::string> ConvFields() const {
    const std::vector<int64_t> xs = Spatial3(In(0)), ys = Spatial3(Out());
    const std::vector<int64_t> k = Attr3("kernel", 1), st = Attr3("strides", 1),
                               d = Attr3("dilations", 1), pb = Pads3(false);
    return {absl::StrCat(".n = ", In(0)[0]), absl::StrCat(".c_in = ", In(0)[1]),
            absl::StrCat(".h_in = ", xs[1]), absl::StrCat(".w_in = ", xs[2]),
            absl::StrCat(".c_out = ", Out()[1]), absl::StrCat(".h_out = ", ys[1]),
            absl::StrCat(".w_out = ", ys[2]), absl::StrCat(".k_h = ", k[1]),
            absl::StrCat(".k_w = ", k[2]), absl::StrCat(".stride_h = ", st[1]),
            absl::StrCat(".stride_w = ", st[2]), absl::StrCat(".dil_h = ", d[1]),
            absl::StrCat(".dil_w = ", d[2]), absl::StrCat(".pad_top = ", pb[1]),
            absl::StrCat(".pad_left = ", pb[2]), absl::StrCat(".group = ", s_.Int("group", 1)),
            absl::StrCat(".act = ", ActInit(s_)), absl::StrCat(".d_in = ", xs[0]),
            absl::StrCat(".d_out = ", ys[0]), absl::StrCat(".k_d = ", k[0]),
            absl::StrCat(".stride_d = ", st[0]), absl::StrCat(".dil_d = ", d[0]),
            absl::StrCat(".pad_front = ", pb[0])};
  }

  absl::Status Conv(bool transpose) {
    OC_RETURN_IF_ERROR(RequireF32(0));
    Params(transpose ? "oc_conv_transpose2d_params" : "oc_conv2d_params", ConvFields());
    std::string bias = HasOperand(2) ? Read(2) : "NULL";
    Use(transpose ? "conv_transpose2d.c" : "conv2d.c");
    w_.Line(absl::StrCat(transpose ? "oc_conv_transpose2d_f32" : "oc_conv2d_f32", "(&p, ", Read(0),
                         ", ", Read(1), ", ", bias, ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Gemm() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& a = In(0);
    const Shape& y = Out();
    const int64_t ta = s_.Int("trans_a"), m = y[0], n = y[1], k = ta ? a[0] : a[1];
    int64_t csm = 0, csn = 0;
    if (HasOperand(2)) {
      const Shape& c = In(2);
      if (c.size() == 1) {
        csn = c[0] == 1 ? 0 : 1;
      } else if (c.size() == 2) {
        csm = c[0] == 1 ? 0 : c[1];
        csn = c[1] == 1 ? 0 : 1;
      }
    }
    Params("oc_gemm_params",
           {absl::StrCat(".m = ", m), absl::StrCat(".n = ", n), absl::StrCat(".k = ", k),
            absl::StrCat(".trans_a = ", ta), absl::StrCat(".trans_b = ", s_.Int("trans_b")),
            absl::StrCat(".alpha = ", CFloat(s_.Float("alpha", 1.0f))),
            absl::StrCat(".beta = ", CFloat(s_.Float("beta", 1.0f))),
            absl::StrCat(".c_stride_m = ", csm), absl::StrCat(".c_stride_n = ", csn),
            absl::StrCat(".act = ", ActInit(s_))});
    Use("gemm.c");
    w_.Line(absl::StrCat("oc_gemm_f32(&p, ", Read(0), ", ", Read(1), ", ",
                         HasOperand(2) ? Read(2) : "NULL", ", ", Write(), ");"));
    return absl::OkStatus();
  }

  // The fields of oc_matmul_params for operands a and b (numpy matmul
  // batching and broadcasting; 1-D operands become matrices).
  std::vector<std::string> MatMulFields(Shape a, Shape b) const {
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
    size_t rank = std::max(ab.size(), bb.size());
    while (ab.size() < rank) ab.insert(ab.begin(), 1);
    while (bb.size() < rank) bb.insert(bb.begin(), 1);
    std::vector<int64_t> dims(rank), as(rank), bs(rank);
    int64_t astr = m * k, bstr = k * n;
    for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
      dims[i] = std::max(ab[i], bb[i]);
      as[i] = ab[i] == 1 ? 0 : astr;
      bs[i] = bb[i] == 1 ? 0 : bstr;
      astr *= ab[i];
      bstr *= bb[i];
    }
    return {absl::StrCat(".m = ", m), absl::StrCat(".n = ", n), absl::StrCat(".k = ", k),
            absl::StrCat(".batch_rank = ", rank), ".batch_dims = " + Ints(dims),
            ".a_batch_strides = " + Ints(as), ".b_batch_strides = " + Ints(bs),
            absl::StrCat(".act = ", ActInit(s_))};
  }

  absl::Status MatMul() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    Params("oc_matmul_params", MatMulFields(In(0), In(1)));
    Use("matmul.c");
    w_.Line(absl::StrCat("oc_matmul_f32(&p, ", Read(0), ", ", Read(1), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  // A nested struct initializer from designated fields.
  static std::string Nested(const std::vector<std::string>& fields) {
    return "{" + absl::StrJoin(fields, ", ") + "}";
  }
  bool IsSigned8(int operand) const { return V(s_.operands[operand]).dtype == DType::kI8; }
  std::string OptionalRead(int operand) const { return HasOperand(operand) ? Read(operand) : "NULL"; }

  absl::Status MatMulInteger() {
    Params("oc_matmul_int_params",
           {".mm = " + Nested(MatMulFields(In(0), In(1))),
            absl::StrCat(".a_signed = ", IsSigned8(0) ? 1 : 0),
            absl::StrCat(".b_signed = ", IsSigned8(1) ? 1 : 0),
            absl::StrCat(".a_zp_per_row = ",
                         HasOperand(2) && V(s_.operands[2]).NumElements() > 1 ? 1 : 0),
            absl::StrCat(".b_zp_per_col = ",
                         HasOperand(3) && V(s_.operands[3]).NumElements() > 1 ? 1 : 0)});
    Use("matmul_integer.c");
    w_.Line(absl::StrCat("oc_matmul_integer(&p, ", Read(0), ", ", OptionalRead(2), ", ", Read(1),
                         ", ", OptionalRead(3), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status ConvInteger() {
    Params("oc_conv_int_params",
           {".conv = " + Nested(ConvFields()), absl::StrCat(".x_signed = ", IsSigned8(0) ? 1 : 0),
            absl::StrCat(".w_signed = ", IsSigned8(1) ? 1 : 0),
            absl::StrCat(".w_zp_per_channel = ",
                         HasOperand(3) && V(s_.operands[3]).NumElements() > 1 ? 1 : 0)});
    Use("conv_integer.c");
    w_.Line(absl::StrCat("oc_conv_integer(&p, ", Read(0), ", ", OptionalRead(2), ", ", Read(1),
                         ", ", OptionalRead(3), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  // x viewed as (outer, axis_len, inner) around `axis` (-1: one block).
  std::vector<std::string> QuantFields(const Shape& x, int64_t axis, DType q) const {
    const bool per_axis = axis >= 0;
    const size_t a = per_axis ? static_cast<size_t>(axis) : 0;
    return {absl::StrCat(".outer = ", per_axis ? Prod(x, 0, a) : 1),
            absl::StrCat(".axis_len = ", per_axis ? x[a] : 1),
            absl::StrCat(".inner = ", per_axis ? Prod(x, a + 1, x.size()) : NumElements(x)),
            absl::StrCat(".per_axis = ", per_axis ? 1 : 0), ".q_type = " + DTypeEnum(q)};
  }

  absl::Status Quantize() {
    const bool quantize = s_.op == OpKind::kQuantizeLinear;
    const DType q = quantize ? V(s_.results[0]).dtype : V(s_.operands[0]).dtype;
    Params("oc_quant_params", QuantFields(In(0), s_.Int("axis"), q));
    Use(quantize ? "quantize.c" : "dequantize.c");
    w_.Line(absl::StrCat(quantize ? "oc_quantize_f32(&p, " : "oc_dequantize(&p, ", Read(0), ", ",
                         Read(1), ", ", OptionalRead(2), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status DynamicQuantize() {
    Use("dynamic_quantize.c");
    w_.Line(absl::StrCat("oc_dynamic_quantize_f32(", Read(0), ", ", V(s_.operands[0]).NumElements(),
                         ", ", Write(0), ", ", Write(1), ", ", Write(2), ");"));
    return absl::OkStatus();
  }

  absl::Status Requantize() {
    const Shape& x = In(0);
    const size_t axis = static_cast<size_t>(s_.Int("axis"));
    Params("oc_requant_params",
           {absl::StrCat(".outer = ", Prod(x, 0, axis)), absl::StrCat(".channels = ", x[axis]),
            absl::StrCat(".inner = ", Prod(x, axis + 1, x.size())),
            absl::StrCat(".b_per_channel = ", V(s_.operands[2]).NumElements() > 1 ? 1 : 0),
            ".y_type = " + DTypeEnum(V(s_.results[0]).dtype)});
    Use("requantize.c");
    w_.Line(absl::StrCat("oc_requantize(&p, ", Read(0), ", ", OptionalRead(5), ", ", Read(1), ", ",
                         Read(2), ", ", Read(3), ", ", Read(4), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Unary() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    std::string name(OpName(s_.op));
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Use("unary.c");
    w_.Line(absl::StrCat("oc_unary_f32(OC_UNARY_", name, ", ", CFloat(s_.Float("alpha")), ", ",
                         CFloat(s_.Float("beta")), ", ", Read(0), ", ", Write(), ", ",
                         V(s_.results[0]).NumElements(), ");"));
    return absl::OkStatus();
  }

  // The oc_binary_op of a binary-kernel statement.
  std::string BinaryOpName() const {
    switch (s_.op) {
      case OpKind::kMod: return s_.Int("fmod") ? "OC_BINARY_FMOD" : "OC_BINARY_MOD";
      case OpKind::kBitShift:
        return s_.Str("direction") == "left" ? "OC_BINARY_SHIFT_LEFT" : "OC_BINARY_SHIFT_RIGHT";
      case OpKind::kLessOrEqual: return "OC_BINARY_LESS_EQUAL";
      case OpKind::kGreaterOrEqual: return "OC_BINARY_GREATER_EQUAL";
      default: {
        std::string name(OpName(s_.op));
        for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return "OC_BINARY_" + name;
      }
    }
  }

  // Binary kernels exist per operand type: binary_<type>.c.
  absl::Status Binary() {
    const Shape& y = Out();
    if (y.size() > kMaxRank) return Unsupported("rank above 8");
    const std::string type(DTypeName(V(s_.operands[0]).dtype));
    Params("oc_broadcast_params",
           {absl::StrCat(".rank = ", y.size()), ".dims = " + Ints(y),
            ".a_strides = " + Ints(BroadcastStrides(In(0), y)),
            ".b_strides = " + Ints(BroadcastStrides(In(1), y))});
    Use(absl::StrCat("binary_", type, ".c"));
    w_.Line(absl::StrCat("oc_binary_", type, "(", BinaryOpName(), ", &p, ", Read(0), ", ", Read(1),
                         ", ", Write(), ");"));
    return absl::OkStatus();
  }

  static std::string DTypeEnum(DType t) {
    std::string name(DTypeName(t));
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "OC_" + name;
  }

  absl::Status Where() {
    const Shape& y = Out();
    if (y.size() > kMaxRank) return Unsupported("rank above 8");
    Params("oc_where_params",
           {absl::StrCat(".rank = ", y.size()),
            absl::StrCat(".elem_size = ", DTypeSize(V(s_.results[0]).dtype)), ".dims = " + Ints(y),
            ".c_strides = " + Ints(BroadcastStrides(In(0), y)),
            ".a_strides = " + Ints(BroadcastStrides(In(1), y)),
            ".b_strides = " + Ints(BroadcastStrides(In(2), y))});
    Use("where.c");
    w_.Line(absl::StrCat("oc_where(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ", Write(),
                         ");"));
    return absl::OkStatus();
  }

  // Casts that involve float64 have their own kernel (the others need no
  // double arithmetic).
  absl::Status Cast() {
    const DType from = V(s_.operands[0]).dtype, to = V(s_.results[0]).dtype;
    const bool f64 = from == DType::kF64 || to == DType::kF64;
    Use(f64 ? "cast_f64.c" : "cast.c");
    w_.Line(absl::StrCat(f64 ? "oc_cast_f64(" : "oc_cast(", DTypeEnum(from), ", ", DTypeEnum(to),
                         ", ", Read(0), ", ", Write(), ", ", V(s_.results[0]).NumElements(), ");"));
    return absl::OkStatus();
  }

  absl::Status Classify() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const bool nan = s_.op == OpKind::kIsNaN;
    Use("classify.c");
    w_.Line(absl::StrCat("oc_classify_f32(", Read(0), ", ", Write(), ", ",
                         V(s_.results[0]).NumElements(), ", ", nan ? 1 : 0, ", ",
                         nan ? 0 : s_.Int("detect_positive"), ", ",
                         nan ? 0 : s_.Int("detect_negative"), ");"));
    return absl::OkStatus();
  }

  absl::Status ArgMax() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    const size_t axis = static_cast<size_t>(s_.Int("axis"));
    Use("argmax.c");
    w_.Line(absl::StrCat("oc_argmax_f32(", Read(0), ", ", Write(), ", ", Prod(x, 0, axis), ", ",
                         x[axis], ", ", Prod(x, axis + 1, x.size()), ", ",
                         s_.op == OpKind::kArgMin ? 1 : 0, ", ", s_.Int("select_last_index"),
                         ");"));
    return absl::OkStatus();
  }

  absl::Status Softmax() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    const size_t axis = static_cast<size_t>(s_.Int("axis"));
    int64_t outer = Prod(x, 0, axis), len, inner;
    if (s_.Int("coerce_2d")) {
      len = Prod(x, axis, x.size());
      inner = 1;
    } else {
      len = x[axis];
      inner = Prod(x, axis + 1, x.size());
    }
    if (s_.op == OpKind::kHardmax) {
      Use("hardmax.c");
      w_.Line(absl::StrCat("oc_hardmax_f32(", Read(0), ", ", Write(), ", ", outer, ", ", len, ", ",
                           inner, ");"));
      return absl::OkStatus();
    }
    Use("softmax.c");
    w_.Line(absl::StrCat("oc_softmax_f32(", Read(0), ", ", Write(), ", ", outer, ", ", len, ", ",
                         inner, ", ", s_.op == OpKind::kLogSoftmax ? 1 : 0, ");"));
    return absl::OkStatus();
  }

  absl::Status ChannelAffine() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    Use("channel_affine.c");
    w_.Line(absl::StrCat("oc_channel_affine_f32(", Read(0), ", ", Read(1), ", ", Read(2), ", ",
                         Write(), ", ", x[0], ", ", x[1], ", ", Prod(x, 2, x.size()), ");"));
    return absl::OkStatus();
  }

  absl::Status Reduce() {
    const Shape& x = In(0);
    if (x.size() > kMaxRank) return Unsupported("rank above 8");
    uint32_t mask = 0;
    for (int64_t a : s_.Ints("axes")) mask |= 1u << a;
    std::string op(OpName(s_.op));  // reduce_log_sum_exp -> OC_REDUCE_LOG_SUM_EXP
    for (char& c : op) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    op = "OC_" + op;
    Params("oc_reduce_params", {absl::StrCat(".rank = ", x.size()), ".dims = " + Ints(x),
                                absl::StrCat(".reduce_mask = ", mask, "u")});
    const bool f64 = V(s_.operands[0]).dtype == DType::kF64;
    Use(f64 ? "reduce_f64.c" : "reduce.c");
    w_.Line(absl::StrCat(f64 ? "oc_reduce_f64(" : "oc_reduce_f32(", op, ", &p, ", Read(0), ", ",
                         Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Pool() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const std::vector<int64_t> xs = Spatial3(In(0)), ys = Spatial3(Out());
    const std::vector<int64_t> k = Attr3("kernel", 1), st = Attr3("strides", 1),
                               d = s_.Has("dilations") ? Attr3("dilations", 1)
                                                       : std::vector<int64_t>{1, 1, 1},
                               pb = Pads3(false), pe = Pads3(true);
    Params("oc_pool2d_params",
           {absl::StrCat(".n_c = ", In(0)[0] * In(0)[1]), absl::StrCat(".h_in = ", xs[1]),
            absl::StrCat(".w_in = ", xs[2]), absl::StrCat(".h_out = ", ys[1]),
            absl::StrCat(".w_out = ", ys[2]), absl::StrCat(".k_h = ", k[1]),
            absl::StrCat(".k_w = ", k[2]), absl::StrCat(".stride_h = ", st[1]),
            absl::StrCat(".stride_w = ", st[2]), absl::StrCat(".dil_h = ", d[1]),
            absl::StrCat(".dil_w = ", d[2]), absl::StrCat(".pad_top = ", pb[1]),
            absl::StrCat(".pad_left = ", pb[2]), absl::StrCat(".pad_bottom = ", pe[1]),
            absl::StrCat(".pad_right = ", pe[2]),
            absl::StrCat(".count_include_pad = ", s_.Int("count_include_pad")),
            absl::StrCat(".d_in = ", xs[0]), absl::StrCat(".d_out = ", ys[0]),
            absl::StrCat(".k_d = ", k[0]), absl::StrCat(".stride_d = ", st[0]),
            absl::StrCat(".dil_d = ", d[0]), absl::StrCat(".pad_front = ", pb[0]),
            absl::StrCat(".pad_back = ", pe[0]),
            absl::StrCat(".storage_order = ", s_.Int("storage_order"))});
    if (s_.op == OpKind::kMaxPool) {
      Use("maxpool2d.c");
      w_.Line(absl::StrCat("oc_maxpool2d_f32(&p, ", Read(0), ", ", Write(), ", ",
                           s_.results.size() > 1 ? Write(1) : "NULL", ");"));
    } else {
      Use("avgpool2d.c");
      w_.Line(absl::StrCat("oc_avgpool2d_f32(&p, ", Read(0), ", ", Write(), ");"));
    }
    return absl::OkStatus();
  }

  absl::Status GlobalPool() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    Use("global_pool.c");
    w_.Line(absl::StrCat("oc_global_pool_f32(", Read(0), ", ", Write(), ", ", x[0] * x[1], ", ",
                         Prod(x, 2, x.size()), ", ", s_.op == OpKind::kGlobalMaxPool ? 1 : 0, ");"));
    return absl::OkStatus();
  }

  // A strided copy from operand 0 into result `r`.
  absl::Status StridedCopy(int r, const Shape& dims, int64_t src_offset,
                           const std::vector<int64_t>& src_strides, int64_t dst_offset,
                           const std::vector<int64_t>& dst_strides, const std::string& pname) {
    if (dims.size() > kMaxRank) return Unsupported("rank above 8");
    Params("oc_copy_params",
           {absl::StrCat(".rank = ", dims.size()),
            absl::StrCat(".elem_size = ", DTypeSize(V(s_.results[r]).dtype)), ".dims = " + Ints(dims),
            absl::StrCat(".src_offset = ", src_offset), absl::StrCat(".dst_offset = ", dst_offset),
            ".src_strides = " + Ints(src_strides), ".dst_strides = " + Ints(dst_strides)},
           pname);
    Use("copy.c");
    return absl::OkStatus();
  }

  absl::Status Copy() {
    w_.Line(absl::StrCat("memcpy(", Write(), ", ", Read(0), ", ", V(s_.results[0]).ByteSize(), "u);"));
    return absl::OkStatus();
  }

  absl::Status Concat() {
    const Shape& y = Out();
    const size_t axis = static_cast<size_t>(s_.Int("axis"));
    const int64_t outer = Prod(y, 0, axis), inner = Prod(y, axis + 1, y.size());
    int64_t offset = 0;
    for (size_t i = 0; i < s_.operands.size(); ++i) {
      const int64_t rows = In(static_cast<int>(i))[axis] * inner;
      std::string pname = absl::StrCat("p", i);
      OC_RETURN_IF_ERROR(StridedCopy(0, {outer, rows}, 0, {rows, 1}, offset, {y[axis] * inner, 1}, pname));
      w_.Line(absl::StrCat("oc_copy(&", pname, ", ", Read(static_cast<int>(i)), ", ", Write(), ");"));
      offset += rows;
    }
    return absl::OkStatus();
  }

  absl::Status Slice() {
    const Shape& x = In(0);
    std::vector<int64_t> st = RowMajorStrides(x), starts = s_.Ints("starts"), steps = s_.Ints("steps");
    int64_t offset = 0;
    std::vector<int64_t> src(x.size());
    for (size_t d = 0; d < x.size(); ++d) {
      offset += starts[d] * st[d];
      src[d] = st[d] * steps[d];
    }
    OC_RETURN_IF_ERROR(StridedCopy(0, Out(), offset, src, 0, RowMajorStrides(Out()), "p"));
    w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Split() {
    const Shape& x = In(0);
    const size_t axis = static_cast<size_t>(s_.Int("axis"));
    std::vector<int64_t> st = RowMajorStrides(x);
    int64_t start = 0;
    for (size_t r = 0; r < s_.results.size(); ++r) {
      std::string pname = absl::StrCat("p", r);
      const Shape& y = Out(static_cast<int>(r));
      OC_RETURN_IF_ERROR(StridedCopy(static_cast<int>(r), y, start * st[axis], st, 0, RowMajorStrides(y), pname));
      w_.Line(absl::StrCat("oc_copy(&", pname, ", ", Read(0), ", ", Write(static_cast<int>(r)), ");"));
      start += y[axis];
    }
    return absl::OkStatus();
  }

  absl::Status Transpose() {
    std::vector<int64_t> st = RowMajorStrides(In(0)), src;
    for (int64_t p : s_.Ints("perm")) src.push_back(st[p]);
    OC_RETURN_IF_ERROR(StridedCopy(0, Out(), 0, src, 0, RowMajorStrides(Out()), "p"));
    w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Expand() {
    OC_RETURN_IF_ERROR(StridedCopy(0, Out(), 0, BroadcastStrides(In(0), Out()), 0,
                                   RowMajorStrides(Out()), "p"));
    w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Tile() {
    const Shape& x = In(0);
    const Shape& y = Out();
    std::vector<int64_t> reps = s_.Ints("repeats"), xs = RowMajorStrides(x), ys = RowMajorStrides(y);
    Shape dims;
    std::vector<int64_t> src, dst;
    for (size_t d = 0; d < x.size(); ++d) {
      dims.push_back(reps[d]);  // which repetition
      src.push_back(0);
      dst.push_back(x[d] * ys[d]);
      dims.push_back(x[d]);  // position inside it
      src.push_back(xs[d]);
      dst.push_back(ys[d]);
    }
    OC_RETURN_IF_ERROR(StridedCopy(0, dims, 0, src, 0, dst, "p"));
    w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Pad() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    if (x.size() > kMaxRank) return Unsupported("rank above 8");
    std::vector<int64_t> pads = s_.Ints("pads");
    std::vector<int64_t> begin(pads.begin(), pads.begin() + x.size());
    std::string mode = s_.Str("mode");
    Params("oc_pad_params",
           {absl::StrCat(".rank = ", x.size()),
            absl::StrCat(".mode = ", mode == "reflect" ? "OC_PAD_REFLECT"
                                     : mode == "edge"  ? "OC_PAD_EDGE"
                                                       : "OC_PAD_CONSTANT"),
            absl::StrCat(".value = ", CFloat(s_.Float("value"))), ".in_dims = " + Ints(x),
            ".pads_begin = " + Ints(begin), ".out_dims = " + Ints(Out())});
    Use("pad.c");
    w_.Line(absl::StrCat("oc_pad_f32(&p, ", Read(0), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  bool Is64(int operand) const { return V(s_.operands[operand]).dtype == DType::kI64; }

  // Gather: compile-time indices become an int32 array; run-time ones are
  // operand 1 (int32 or int64).
  absl::Status Gather() {
    const Shape& x = In(0);
    const size_t axis = static_cast<size_t>(s_.Int("axis"));
    const bool runtime = HasOperand(1);
    std::string indices = "indices";
    int64_t n = 0;
    if (runtime) {
      indices = Read(1);
      n = V(s_.operands[1]).NumElements();
    } else {
      std::vector<int64_t> idx = s_.Ints("indices");
      n = static_cast<int64_t>(idx.size());
      w_.Line(absl::StrCat("static const int32_t indices[", idx.size(), "] = ", Ints(idx), ";"));
    }
    Params("oc_gather_params",
           {absl::StrCat(".outer = ", Prod(x, 0, axis)), absl::StrCat(".axis_len = ", x[axis]),
            absl::StrCat(".inner = ", Prod(x, axis + 1, x.size())),
            absl::StrCat(".n_indices = ", n),
            absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
            absl::StrCat(".index_is64 = ", runtime && Is64(1) ? 1 : 0)});
    Use("gather.c");
    w_.Line(absl::StrCat("oc_gather(&p, ", Read(0), ", ", indices, ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status GatherElements() {
    const Shape& x = In(0);
    const Shape& y = Out();
    if (y.size() > kMaxRank) return Unsupported("rank above 8");
    const int64_t axis = s_.Int("axis");
    Params("oc_gather_elements_params",
           {absl::StrCat(".rank = ", y.size()),
            absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
            absl::StrCat(".axis = ", axis), absl::StrCat(".axis_len = ", x[axis]),
            absl::StrCat(".index_is64 = ", Is64(1) ? 1 : 0), ".dims = " + Ints(y),
            ".x_strides = " + Ints(RowMajorStrides(x))});
    Use("gather_elements.c");
    w_.Line(absl::StrCat("oc_gather_elements(&p, ", Read(0), ", ", Read(1), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Trilu() {
    const Shape& x = In(0);
    Params("oc_trilu_params",
           {absl::StrCat(".batch = ", Prod(x, 0, x.size() - 2)),
            absl::StrCat(".rows = ", x[x.size() - 2]), absl::StrCat(".cols = ", x.back()),
            absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
            absl::StrCat(".upper = ", s_.Int("upper")), ".k = " + CInt(s_.Int("k"))});
    Use("trilu.c");
    w_.Line(absl::StrCat("oc_trilu(&p, ", Read(0), ", ", HasOperand(1) ? Read(1) : "NULL", ", ",
                         Write(), ");"));
    return absl::OkStatus();
  }

  // LayerNorm normalizes the dims from `axis` on; InstanceNorm each (n, c)
  // plane with per-channel scale and bias.
  absl::Status Normalize() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    const bool layer = s_.op == OpKind::kLayerNorm;
    const size_t axis = layer ? static_cast<size_t>(s_.Int("axis")) : 2;
    Params("oc_norm_params",
           {absl::StrCat(".rows = ", Prod(x, 0, axis)),
            absl::StrCat(".cols = ", Prod(x, axis, x.size())),
            absl::StrCat(".channels = ", layer ? 0 : x[1]),
            ".epsilon = " + CFloat(s_.Float("epsilon"))});
    Use("normalize.c");
    const bool stats = s_.results.size() == 3;
    w_.Line(absl::StrCat("oc_normalize_f32(&p, ", Read(0), ", ", Read(1), ", ",
                         HasOperand(2) ? Read(2) : "NULL", ", ", Write(0), ", ",
                         stats ? Write(1) : "NULL", ", ", stats ? Write(2) : "NULL", ");"));
    return absl::OkStatus();
  }

  absl::Status CumSum() {
    const Shape& x = In(0);
    const std::string type(DTypeName(V(s_.operands[0]).dtype));
    Params("oc_cumsum_params",
           {absl::StrCat(".rank = ", x.size()), ".dims = " + Ints(x),
            absl::StrCat(".axis = ", s_.Int("axis")),
            absl::StrCat(".axis_is64 = ", HasOperand(1) && Is64(1) ? 1 : 0),
            absl::StrCat(".exclusive = ", s_.Int("exclusive")),
            absl::StrCat(".reverse = ", s_.Int("reverse"))});
    Use(absl::StrCat("cumsum_", type, ".c"));
    w_.Line(absl::StrCat("oc_cumsum_", type, "(&p, ", Read(0), ", ", HasOperand(1) ? Read(1) : "NULL",
                         ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Einsum() {
    const std::string type(DTypeName(V(s_.operands[0]).dtype));
    const bool two = HasOperand(1);
    std::vector<int64_t> dims = s_.Ints("dims");
    Params("oc_einsum_params",
           {absl::StrCat(".n_labels = ", dims.size()), absl::StrCat(".n_operands = ", two ? 2 : 1),
            absl::StrCat(".y_size = ", V(s_.results[0]).NumElements()), ".dims = " + Ints(dims),
            ".y_strides = " + Ints(s_.Ints("y_strides")),
            ".a_strides = " + Ints(s_.Ints("a_strides")),
            ".b_strides = " + Ints(two ? s_.Ints("b_strides") : std::vector<int64_t>{})});
    Use(absl::StrCat("einsum_", type, ".c"));
    w_.Line(absl::StrCat("oc_einsum_", type, "(&p, ", Read(0), ", ", two ? Read(1) : "NULL", ", ",
                         Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Lrn() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    Use("lrn.c");
    w_.Line(absl::StrCat("oc_lrn_f32(", Read(0), ", ", Write(), ", ", x[0], ", ", x[1], ", ",
                         Prod(x, 2, x.size()), ", ", s_.Int("size"), ", ",
                         CFloat(s_.Float("alpha")), ", ", CFloat(s_.Float("beta")), ", ",
                         CFloat(s_.Float("bias")), ");"));
    return absl::OkStatus();
  }

  absl::Status NllLoss() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    const std::string red = s_.Str("reduction");
    Params("oc_nll_loss_params",
           {absl::StrCat(".n = ", x[0]), absl::StrCat(".c = ", x[1]),
            absl::StrCat(".inner = ", Prod(x, 2, x.size())),
            absl::StrCat(".target_is64 = ", Is64(1) ? 1 : 0),
            absl::StrCat(".reduction = ", red == "none"  ? "OC_REDUCTION_NONE"
                                          : red == "sum" ? "OC_REDUCTION_SUM"
                                                         : "OC_REDUCTION_MEAN"),
            absl::StrCat(".has_ignore_index = ", s_.Has("ignore_index") ? 1 : 0),
            ".ignore_index = " + CInt(s_.Int("ignore_index"))});
    Use("nll_loss.c");
    w_.Line(absl::StrCat("oc_nll_loss_f32(&p, ", Read(0), ", ", Read(1), ", ",
                         HasOperand(2) ? Read(2) : "NULL", ", ", Write(), ");"));
    return absl::OkStatus();
  }

  absl::Status Resize() {
    OC_RETURN_IF_ERROR(RequireF32(0));
    const Shape& x = In(0);
    const Shape& y = Out();
    std::vector<float> scales = s_.Floats("scales");
    std::string coord = s_.Str("coord_mode"), nearest = s_.Str("nearest_mode");
    std::string coord_c = coord == "half_pixel"           ? "OC_COORD_HALF_PIXEL"
                          : coord == "asymmetric"         ? "OC_COORD_ASYMMETRIC"
                          : coord == "align_corners"      ? "OC_COORD_ALIGN_CORNERS"
                          : coord == "pytorch_half_pixel" ? "OC_COORD_PYTORCH_HALF_PIXEL"
                                                          : "OC_COORD_TF_HALF_PIXEL_FOR_NN";
    std::string nearest_c = nearest == "round_prefer_ceil" ? "OC_NEAREST_ROUND_PREFER_CEIL"
                            : nearest == "floor"           ? "OC_NEAREST_FLOOR"
                            : nearest == "ceil"            ? "OC_NEAREST_CEIL"
                                                           : "OC_NEAREST_ROUND_PREFER_FLOOR";
    Params("oc_resize2d_params",
           {absl::StrCat(".n_c = ", x[0] * x[1]), absl::StrCat(".h_in = ", x[2]),
            absl::StrCat(".w_in = ", x[3]), absl::StrCat(".h_out = ", y[2]),
            absl::StrCat(".w_out = ", y[3]),
            absl::StrCat(".mode = ", s_.Str("mode") == "linear" ? "OC_RESIZE_LINEAR" : "OC_RESIZE_NEAREST"),
            ".coord_mode = " + coord_c, ".nearest_mode = " + nearest_c,
            ".scale_h = " + CFloat(scales[0]), ".scale_w = " + CFloat(scales[1])});
    Use("resize2d.c");
    w_.Line(absl::StrCat("oc_resize2d_f32(&p, ", Read(0), ", ", Write(), ");"));
    return absl::OkStatus();
  }

  EmitContext& ctx_;
  const Statement& s_;
  CodeWriter& w_;
};

}  // namespace

absl::Status EmitStatementBody(EmitContext& ctx, const Statement& s, CodeWriter& w) {
  return StatementEmitter(ctx, s, w).Run();
}

}  // namespace oc
