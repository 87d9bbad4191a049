// StatementEmitter: 8-bit layers (qlinear_conv, qlinear_gemm, qlinear_add,
// qlinear_mul, qlinear_average_pool, qlinear_global_average_pool). Scales and
// zero points are constants, so the requantization multipliers are computed
// here once, in float32 in ONNX Runtime's order, and emitted as exact
// literals (float mode) or as Q31 multipliers and shifts (fixed mode).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/target/kernel_facts.h"
#include "targets/c99/statement_emitter.h"

namespace oc {
namespace {

std::vector<float> FloatsOf(const Value& v) {
  std::vector<float> out(v.NumElements());
  std::memcpy(out.data(), v.data.data(), out.size() * sizeof(float));
  return out;
}

int64_t ZeroPointOf(const Value& v) {
  return v.dtype == DType::kI8 ? static_cast<int8_t>(v.data[0]) : static_cast<int64_t>(v.data[0]);
}

int64_t Int8At(const Value& v, int64_t i) {
  return v.dtype == DType::kI8 ? static_cast<int8_t>(v.data[i]) : static_cast<int64_t>(v.data[i]);
}

}  // namespace

bool QGemmFoldsZeroPoints(const Program& p, const Statement& s) {
  if (s.op != OpKind::kQLinearGemm || p.value(s.operands[0]).dtype == DType::kF32) return false;
  if (!p.value(s.operands[3]).IsConstant()) return false;
  return s.operands.size() <= 8 || s.operands[8] == kNoValue || p.value(s.operands[8]).IsConstant();
}

bool QGemmZeroPointsOfBAllZero(const Program& p, const Statement& s) {
  const Value& z = p.value(s.operands[5]);
  return std::all_of(z.data.begin(), z.data.end(), [](uint8_t b) { return b == 0; });
}

bool QGemmRunsPacked(const EmitContext& ctx, const Statement& s) {
  const Program& p = ctx.program;
  return ctx.dsp_smlad && QGemmFoldsZeroPoints(p, s) && !HasFourBitWeights(s) && QGemmZeroPointsOfBAllZero(p, s) &&
         s.Int("trans_b") != 0 && p.value(s.results[0]).dtype != DType::kF32;
}

bool QConvRunsPacked(const EmitContext& ctx, const Statement& s) {
  if (s.op != OpKind::kQLinearConv) return false;
  // the column (compiler/target/kernel_facts.h; channels-last: oc_qconv2d_nhwc_col, not packed)
  if (s.scratch_bytes > 0) return !IsChannelsLastConv(s);
  const size_t index = &s - ctx.program.statements().data();
  const std::vector<int>& of = ctx.model.overlap_of_statement;
  return index < of.size() && of[index] >= 0 &&
         ctx.model.overlaps[of[index]].kind == OverlapContract::Kind::kPixels &&
         QConvFoldsZeroPoints(ctx.program, s);
}

bool QConvRunsPackedTaps(const EmitContext& ctx, const Statement& s) {
  const size_t index = &s - ctx.program.statements().data();
  const std::vector<int>& of = ctx.model.overlap_of_statement;
  const bool contract = index < of.size() && of[index] >= 0;
  return s.scratch_bytes == 0 && !contract && QConvTakesPackedTaps(ctx.program, s);
}

bool OperandFoldedIntoCode(const EmitContext& ctx, const Statement& s, size_t i) {
  const Program& p = ctx.program;
  if (HasFourBitWeights(s)) return i != 0 && i != 8;  // w and w_zp: nibble tables in the code
  switch (s.op) {
    case OpKind::kQLinearGemm:  // the kernel reads a, b, b_zp and the bias, unless folded here
      if (i == 5 || i == 8) {
        return QGemmFoldsZeroPoints(p, s) && (i == 8 || QGemmZeroPointsOfBAllZero(p, s));
      }
      if (i == 3 && QGemmRunsPacked(ctx, s)) return true;  // packed into the statement
      return i != 0 && i != 3;
    case OpKind::kQLinearConv:  // the kernels read x, w, w_zp and the bias (the column kernel: x, w)
      if ((i == 3 || i == 5 || i == 8) && (QConvRunsPacked(ctx, s) || QPwNhwcRuns(ctx, s) || QStemNhwcRuns(ctx, s))) return true;
      if ((i == 3 || i == 5) && QConvRunsPackedTaps(ctx, s)) return true;
      // the channels-last column products on M4/M7: x, w and the bias (the zero points are 0)
      if (i == 5 && s.scratch_bytes > 0 && ctx.dsp_smlad && IsChannelsLastConv(s)) return true;
      return i != 0 && i != 3 && i != 5 && i != 8;
    case OpKind::kQLinearAdd:
    case OpKind::kQLinearMul:
      return i != 0 && i != 3;
    case OpKind::kQLinearAveragePool:
    case OpKind::kQLinearGlobalAveragePool:
    case OpKind::kQLinearMaxPool:
      return i != 0;
    case OpKind::kQLinearConcat:  // the inputs, then y_scale and y_zp
      return i % 3 != 0 || i + 2 >= s.operands.size();
    default:
      return false;
  }
}

// m = q * 2^shift with q in [0.5, 1) as a Q31 integer (0 for m <= 0 or tiny).
void StatementEmitter::ToQ31(float m, int64_t* mult, int64_t* shift) {
  *mult = 0;
  *shift = 0;
  if (!(m > 0.0f) || !std::isfinite(m)) return;
  int e = 0;
  const double q = std::frexp(static_cast<double>(m), &e);
  int64_t qm = std::llround(q * 2147483648.0);
  if (qm == (int64_t{1} << 31)) {
    qm /= 2;
    ++e;
  }
  if (e < -31) return;
  *mult = qm;
  *shift = std::min(e, 30);
}

// The oc_requant8 `r` for multipliers `mult` (one, or one per channel), the
// result's zero point (operand yz_operand) and saturation bounds.
void StatementEmitter::RequantParams(const std::vector<float>& mult, int yz_operand) {
  const Value& yz = V(s_.operands[yz_operand]);
  const bool is_signed = yz.dtype == DType::kI8;
  std::string tables;
  if (ctx_.requant_fixed) {
    std::vector<std::string> qm, qs;
    for (float m : mult) {
      int64_t a = 0, b = 0;
      ToQ31(m, &a, &b);
      qm.push_back(CInt(a));
      qs.push_back(CInt(b));
    }
    Table("int32_t", "qm", qm);
    Table("int32_t", "qs", qs);
    tables = ".mult = NULL, .q_mult = qm, .q_shift = qs";
  } else {
    std::vector<std::string> m;
    for (float f : mult) m.push_back(CFloat(f));
    Table("float", "m", m);
    tables = ".mult = m, .q_mult = NULL, .q_shift = NULL";
  }
  Params("oc_requant8",
         {tables, absl::StrCat(".per_channel = ", mult.size() > 1 ? 1 : 0),
          absl::StrCat(".zp = ", ZeroPointOf(yz)),
          absl::StrCat(".lo = ", s_.Int("qmin", is_signed ? -128 : 0)),
          absl::StrCat(".hi = ", s_.Int("qmax", is_signed ? 127 : 255))},
         "r");
}

// (x_scale * w_scale[c]) / y_scale for each channel (operands 1, 4, 6).
std::vector<float> StatementEmitter::ProductMultipliers() const {
  const float xs = FloatsOf(V(s_.operands[1]))[0], ys = FloatsOf(V(s_.operands[6]))[0];
  std::vector<float> mult;
  for (float ws : FloatsOf(V(s_.operands[4]))) mult.push_back((xs * ws) / ys);
  return mult;
}

std::string StatementEmitter::Signed(const std::string& field, ValueId v) const {
  return absl::StrCat(".", field, " = ", V(v).dtype == DType::kI8 ? 1 : 0);
}

// The bias (operand 8, or 0) with the zero points' constant terms folded in,
// as C literals: bias[j] + kk za zb(j) - za sum_k weight(j, k), mod 2^32.
std::vector<std::string> StatementEmitter::FoldedBias(
    int64_t channels, int64_t kk, uint32_t za, const std::function<int64_t(int64_t, int64_t)>& weight,
    const std::function<int64_t(int64_t)>& zb) const {
  std::vector<std::string> folded;
  for (int64_t j = 0; j < channels; ++j) {
    uint32_t sum = 0;
    for (int64_t k = 0; k < kk; ++k) sum += static_cast<uint32_t>(weight(j, k));
    uint32_t f = static_cast<uint32_t>(kk) * za * static_cast<uint32_t>(zb(j)) - za * sum;
    if (HasOperand(8)) {
      int32_t b = 0;
      std::memcpy(&b, V(s_.operands[8]).data.data() + j * sizeof(int32_t), sizeof b);
      f += static_cast<uint32_t>(b);
    }
    const int32_t fs = static_cast<int32_t>(f);
    folded.push_back(fs == INT32_MIN ? "INT32_MIN" : absl::StrCat(fs));
  }
  return folded;
}

// Writes `w`, the weights packed for oc_qcol.h: per group, blocks of four
// channels with k in runs of four, then each block's kk % 4 last k, the last
// cog % 4 channels as rows.
void StatementEmitter::PackedWeights(const Value& wv, int64_t c_out, int64_t group, int64_t kk) {
  const int64_t cog = c_out / group, tail = kk % 4;
  std::vector<std::string> packed;
  auto put = [&](int64_t co, int64_t k) { packed.push_back(absl::StrCat(Int8At(wv, co * kk + k))); };
  for (int64_t g = 0; g < group; ++g) {
    int64_t j = 0;
    for (; j + 4 <= cog; j += 4) {
      for (int64_t k = 0; k + 4 <= kk; k += 4) {
        for (int64_t ch = 0; ch < 4; ++ch) {
          for (int64_t t = 0; t < 4; ++t) put(g * cog + j + ch, k + t);
        }
      }
      for (int64_t ch = 0; ch < 4; ++ch) {
        for (int64_t t = 0; t < tail; ++t) put(g * cog + j + ch, kk - tail + t);
      }
    }
    for (; j < cog; ++j) {
      for (int64_t k = 0; k < kk; ++k) put(g * cog + j, k);
    }
  }
  WeightTable(wv.dtype, packed);
}

// `w`, a weight like the others: in the weights' section when one is given.
void StatementEmitter::WeightTable(DType dtype, const std::vector<std::string>& values) {
  w_.Line(absl::StrCat("static const ", dtype == DType::kI8 ? "int8_t" : "uint8_t", " w[", values.size(),
                       "] OC_WORD_ALIGNED", ctx_.weights_attribute.empty() ? "" : " " + ctx_.weights_attribute, " = {",
                       absl::StrJoin(values, ", "), "};"));
}

// Writes `w`, the weights packed for oc_qconv2d_packed: per group, blocks of
// four channels (the last padded with zeros), tap by tap the four channels.
void StatementEmitter::PackedTaps() {
  const Value& wv = V(s_.operands[3]);
  const int64_t c_out = Out()[1], kk = wv.NumElements() / c_out, group = s_.Int("group", 1);
  const int64_t cog = c_out / group, blocks = (cog + 3) / 4;
  std::vector<std::string> packed;
  for (int64_t g = 0; g < group; ++g) {
    for (int64_t j = 0; j < blocks; ++j) {
      for (int64_t t = 0; t < kk; ++t) {
        for (int64_t ch = 4 * j; ch < 4 * j + 4; ++ch) {
          packed.push_back(ch < cog ? absl::StrCat(Int8At(wv, (g * cog + ch) * kk + t)) : "0");
        }
      }
    }
  }
  WeightTable(wv.dtype, packed);
}

// The kernels with packed weights (QConvRunsPacked): the column convolution,
// its column the statement's scratch (compiler/target/kernel_facts.h), or the
// pointwise overlap kernel. The weights' zero points are 0, the weights are
// packed in blocks of four channels and the input's zero point goes into the
// bias, bias[co] - zx sum_k w[co][k] (runtime/reference/include/onnx_to_c/oc_qcol.h).
absl::Status StatementEmitter::QLinearConvPacked() {
  const Value& wv = V(s_.operands[3]);
  const int64_t c_out = Out()[1], kk = wv.NumElements() / c_out;
  const uint32_t zx = static_cast<uint32_t>(ZeroPointOf(V(s_.operands[2])));
  Table("int32_t", "bias",
        FoldedBias(c_out, kk, zx, [&](int64_t co, int64_t k) { return Int8At(wv, co * kk + k); },
                   [](int64_t) { return int64_t{0}; }));
  // The pointwise overlap kernel two pixels at a time on SMLAD targets, where
  // the channels-last passes can serve it (runtime/arm/.../oc_qpw_nhwc_pass.h).
  const bool pairs = s_.scratch_bytes == 0 && ctx_.dsp_smlad && s_.Int("group", 1) == 1 && kk % 4 == 0 &&
                     c_out % 2 == 0;
  if (pairs) {
    QPwNhwcWeights(wv, c_out, kk);
  } else {
    PackedWeights(wv, c_out, s_.Int("group", 1), kk);
  }
  if (s_.scratch_bytes > 0) {
    Use("qconv_column.c");
    w_.Line(absl::StrCat("oc_qconv_column(&p, &r, ", Read(0), ", w, bias, ", Scratch("uint8_t"), ", ",
                         Write(), ");"));
    return absl::OkStatus();
  }
  // A pixels contract: each pixel's input channels go to the contract's
  // scratch, then its output channels over them.
  Use(pairs ? "qconv1x1_overlap_pairs.c" : "qconv1x1_overlap_packed.c");
  w_.Comment(absl::StrCat("overlap contract: the output starts at the input; each ",
                          pairs ? "two pixels'" : "pixel's", " input channels"));
  w_.Comment("are copied to scratch, then their output channels written over them");
  w_.Line(absl::StrCat(pairs ? "oc_qconv1x1_overlap_pairs" : "oc_qconv1x1_overlap_packed", "(&p, &r, ", Read(0),
                       ", w, bias, ", Write(), ", ", ctx_.ArenaAt(ContractScratchOffset()), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::QLinearConv() {
  if (HasFourBitWeights(s_)) return QLinearConvW4();
  const std::vector<float> mult = ProductMultipliers();
  RequantParams(mult, 7);
  const OverlapContract* c = Overlap();
  std::vector<std::string> conv = ConvFields();
  if (c && c->kind == OverlapContract::Kind::kPlanes) {
    for (const char* field : {".n", ".c_in", ".c_out", ".group"}) conv = WithField(conv, field, 1);
  }
  if (c && c->kind == OverlapContract::Kind::kRowsUp) conv.push_back(".reverse_rows = 1");
  const bool zp_per_channel = V(s_.operands[5]).NumElements() > 1;
  Params("oc_qconv_params", {".conv = " + Nested(conv), Signed("x_signed", s_.operands[0]),
                             Signed("w_signed", s_.operands[3]), Signed("y_signed", s_.results[0]),
                             absl::StrCat(".x_zp = ", ZeroPointOf(V(s_.operands[2]))),
                             absl::StrCat(".w_zp_per_channel = ", zp_per_channel ? 1 : 0)});
  if (QPwNhwcRuns(ctx_, s_)) return QLinearConvPwNhwc();
  if (QStemNhwcRuns(ctx_, s_)) return QLinearConvStemNhwc();
  if (IsChannelsLastConv(s_)) {
    // Weights per output channel [kh][kw][ic] (passes/transforms/channels_last.cc).
    Use("qconv2d_nhwc.c");
    RowsContractComment(c);
    if (s_.scratch_bytes > 0 && ctx_.dsp_smlad) {
      // The column products in the kernel scratch (compiler/target/kernel_facts.h: x NHWC, the
      // weights' zero points 0, one group, kernel rows of whole groups of four, as the kernel
      // asks; built elsewhere than M4/M7 it runs the windows).
      w_.Line(absl::StrCat("oc_qconv2d_nhwc_col(&p, &r, ", Read(0), ", ", Read(3), ", ", OptionalRead(8), ", ",
                           Write(), ", ", s_.Int("y_channels_last"), ", ", Scratch("void"), ");"));
      return absl::OkStatus();
    }
    w_.Line(absl::StrCat("oc_qconv2d_nhwc(&p, &r, ", Read(0), ", ", Read(3), ", ", Read(5), ", ", OptionalRead(8),
                         ", ", Write(), ", ", s_.Int("x_channels_last"), ", ", s_.Int("y_channels_last"), ");"));
    return absl::OkStatus();
  }
  if (QConvRunsPacked(ctx_, s_)) return QLinearConvPacked();
  if (c && c->kind == OverlapContract::Kind::kPixels) {
    Use("qconv1x1_overlap.c");
    w_.Comment("overlap contract: the output starts at the input; each pixel's input channels");
    w_.Comment("are copied to scratch, then its output channels written over them");
    w_.Line(absl::StrCat("oc_qconv1x1_overlap(&p, &r, ", Read(0), ", ", Read(3), ", ", Read(5),
                         ", ", OptionalRead(8), ", ", Write(), ", (int16_t *)(",
                         ctx_.ArenaAt(ContractScratchOffset()), "));"));
    return absl::OkStatus();
  }
  if (QConvRunsPackedTaps(ctx_, s_)) {
    // Kernel rows of four taps have an unrolled instance of their own.
    const std::vector<int64_t> kernel = s_.Ints("kernel"), dilations = s_.Ints("dilations");
    const bool rows4 = !kernel.empty() && kernel.back() == 4 && (dilations.empty() || dilations.back() == 1);
    PackedTaps();
    Use(rows4 ? "qconv2d_packed4.c" : "qconv2d_packed.c");
    w_.Line(absl::StrCat(rows4 ? "oc_qconv2d_packed4" : "oc_qconv2d_packed", "(&p, &r, ", Read(0), ", w, ",
                         OptionalRead(8), ", ", Write(), ");"));
    return absl::OkStatus();
  }
  // The kernel: 2-D and pointwise convolutions have loop nests of their own.
  const std::vector<int64_t> kernel3 = Attr3("kernel", 1), strides3 = Attr3("strides", 1);
  const bool two_d = Spatial3(In(0))[0] == 1 && Spatial3(Out())[0] == 1 && kernel3[0] == 1;
  bool pointwise = s_.Int("group", 1) == 1 && Spatial3(In(0)) == Spatial3(Out());
  for (size_t d = 0; d < 3; ++d) pointwise = pointwise && kernel3[d] == 1 && strides3[d] == 1;
  for (int64_t pad : s_.Ints("pads")) pointwise = pointwise && pad == 0;
  const std::vector<int64_t> dilations3 = Attr3("dilations", 1);
  const bool depthwise3x3 = two_d && kernel3[1] == 3 && kernel3[2] == 3 && dilations3[1] == 1 &&
                            dilations3[2] == 1 && s_.Int("group", 1) == In(0)[1] &&
                            s_.Int("group", 1) == Out()[1];
  const char* kernel_file = pointwise      ? "qconv_pointwise.c"
                            : depthwise3x3 ? "qconv_dw3x3.c"
                            : two_d        ? "qconv2d.c"
                                           : "qconv.c";
  const char* kernel_fn = pointwise      ? "oc_qconv_pointwise"
                          : depthwise3x3 ? "oc_qconv_dw3x3"
                          : two_d        ? "oc_qconv2d"
                                         : "oc_qconv";
  Use(kernel_file);
  if (c) {  // depthwise, one plane (channel k % C of image k / C) at a time
    const int64_t channels = In(0)[1], kernel = Prod(In(3), 1, In(3).size());
    const int64_t in_plane = c->in_plane_bytes, out_plane = c->out_plane_bytes;
    w_.Comment(absl::StrCat("overlap contract: the output starts ", c->displacement,
                            " bytes below the input; each plane is computed into scratch, then"));
    w_.Comment("copied over input planes that are dead");
    w_.Line(absl::StrCat("const unsigned char *x = (const unsigned char *)", Read(0), ";"));
    w_.Line(absl::StrCat("unsigned char *y = (unsigned char *)", Write(), ";"));
    w_.Line(absl::StrCat("unsigned char *plane = ", ctx_.ArenaAt(ContractScratchOffset()), ";"));
    w_.Line("oc_requant8 rk = r;");
    w_.Line("size_t k;");
    w_.Open(absl::StrCat("for (k = 0; k < ", c->planes, "u; ++k)"));
    const std::string ch = absl::StrCat("k % ", channels, "u");
    if (mult.size() > 1) {
      w_.Line(ctx_.requant_fixed ? absl::StrCat("rk.q_mult = r.q_mult + ", ch,
                                                "; rk.q_shift = r.q_shift + ", ch, ";")
                                 : absl::StrCat("rk.mult = r.mult + ", ch, ";"));
    }
    w_.Line(absl::StrCat(kernel_fn, "(&p, &rk, x + k * ", in_plane, "u, ", Read(3), " + (", ch, ") * ",
                         kernel, "u, ", zp_per_channel ? absl::StrCat(Read(5), " + ", ch) : Read(5),
                         ", ", HasOperand(8) ? absl::StrCat(Read(8), " + ", ch) : "NULL",
                         ", plane);"));
    w_.Line(absl::StrCat("memcpy(y + k * ", out_plane, "u, plane, ", out_plane, "u);"));
    w_.Close();
    return absl::OkStatus();
  }
  w_.Line(absl::StrCat(kernel_fn, "(&p, &r, ", Read(0), ", ", Read(3), ", ", Read(5), ", ",
                       OptionalRead(8), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::QLinearGemm() {
  if (HasFourBitWeights(s_)) return QLinearGemmW4();
  const bool trans_b = s_.Int("trans_b") != 0;
  const Shape& b = In(3);
  const int64_t k = In(0).back(), n = trans_b ? b[0] : b[1];
  RequantParams(ProductMultipliers(), 7);
  Params(
      "oc_qgemm_params",
      {absl::StrCat(".m = ", NumElements(In(0)) / k), absl::StrCat(".n = ", n),
       absl::StrCat(".k = ", k), absl::StrCat(".trans_b = ", trans_b ? 1 : 0),
       Signed("a_signed", s_.operands[2]), Signed("b_signed", s_.operands[3]),
       Signed("y_signed", s_.operands[7]), absl::StrCat(".a_zp = ", ZeroPointOf(V(s_.operands[2]))),
       absl::StrCat(".b_zp_per_col = ", V(s_.operands[5]).NumElements() > 1 ? 1 : 0),
       absl::StrCat(".a_float = ", V(s_.operands[0]).dtype == DType::kF32 ? 1 : 0),
       absl::StrCat(".y_float = ", V(s_.results[0]).dtype == DType::kF32 ? 1 : 0),
       ".a_scale = " + CFloat(FloatsOf(V(s_.operands[1]))[0]),
       ".y_scale = " + CFloat(FloatsOf(V(s_.operands[6]))[0]),
       absl::StrCat(".zp_folded = ", QGemmFoldsZeroPoints(ctx_.program, s_) ? 1 : 0)});
  std::string bias = OptionalRead(8), b_zp = Read(5);
  if (QGemmFoldsZeroPoints(ctx_.program, s_)) {
    // bias[j] + k za zb[j] - za sum_k b[k, j], mod 2^32 (oc_qgemm_params).
    const Value& bv = V(s_.operands[3]);
    const Value& zv = V(s_.operands[5]);
    const uint32_t za = static_cast<uint32_t>(ZeroPointOf(V(s_.operands[2])));
    Table("int32_t", "bias",
          FoldedBias(n, k, za, [&](int64_t j, int64_t i) { return Int8At(bv, trans_b ? j * k + i : i * n + j); },
                     [&](int64_t j) { return Int8At(zv, zv.NumElements() > 1 ? j : 0); }));
    bias = "bias";
    if (QGemmZeroPointsOfBAllZero(ctx_.program, s_)) b_zp = "NULL";
  }
  if (QGemmRunsPacked(ctx_, s_)) {  // four outputs per pass over a row (qgemm_packed.c)
    PackedWeights(V(s_.operands[3]), n, 1, k);
    Use("qgemm_packed.c");
    w_.Line(absl::StrCat("oc_qgemm_packed(&p, &r, ", Read(0), ", w, bias, ", Write(), ");"));
    return absl::OkStatus();
  }
  Use("qgemm.c");
  w_.Line(absl::StrCat("oc_qgemm(&p, &r, ", Read(0), ", ", Read(3), ", ", b_zp, ", ", bias, ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::QLinearBinary() {
  const bool is_mul = s_.op == OpKind::kQLinearMul;
  const float as = FloatsOf(V(s_.operands[1]))[0], bs = FloatsOf(V(s_.operands[4]))[0],
              ys = FloatsOf(V(s_.operands[6]))[0];
  // Add, fixed mode: both inputs go to the common scale 2 * max / 2^20.
  const float twice_max = 2.0f * std::max(as, bs);
  int64_t am = 0, ash = 0, bm = 0, bsh = 0;
  ToQ31(as / twice_max, &am, &ash);
  ToQ31(bs / twice_max, &bm, &bsh);
  RequantParams({is_mul ? (as * bs) / ys : twice_max / (1048576.0f * ys)}, 7);
  Params(
      "oc_qbinary_params",
      {absl::StrCat(".count = ", NumElements(Out())), absl::StrCat(".is_mul = ", is_mul ? 1 : 0),
       Signed("a_signed", s_.operands[0]), Signed("b_signed", s_.operands[3]),
       Signed("y_signed", s_.results[0]), absl::StrCat(".a_zp = ", ZeroPointOf(V(s_.operands[2]))),
       absl::StrCat(".b_zp = ", ZeroPointOf(V(s_.operands[5]))), ".a_scale = " + CFloat(as),
       ".b_scale = " + CFloat(bs), ".y_scale = " + CFloat(ys), absl::StrCat(".a_mult = ", am),
       absl::StrCat(".a_shift = ", ash), absl::StrCat(".b_mult = ", bm),
       absl::StrCat(".b_shift = ", bsh)});
  Use("qbinary.c");
  w_.Line(absl::StrCat("oc_qbinary(&p, &r, ", Read(0), ", ", Read(3), ", ", Write(), ");"));
  return absl::OkStatus();
}

// The fields of oc_qpool_params: the window (the whole input when global),
// the types and the input's zero point and scale, and y_scale.
std::vector<std::string> StatementEmitter::PoolFields(bool global) const {
  const float xs = FloatsOf(V(s_.operands[1]))[0], ys = FloatsOf(V(s_.operands[3]))[0];
  const std::vector<int64_t> x3 = Spatial3(In(0)), y3 = Spatial3(Out());
  const std::vector<int64_t> k = global ? x3 : Attr3("kernel", 1),
                             st = global ? std::vector<int64_t>{1, 1, 1} : Attr3("strides", 1),
                             pb = global ? std::vector<int64_t>{0, 0, 0} : Pads3(false);
  return {absl::StrCat(".n = ", In(0)[0]),
          absl::StrCat(".c = ", In(0)[1]),
          absl::StrCat(".d_in = ", x3[0]),
          absl::StrCat(".h_in = ", x3[1]),
          absl::StrCat(".w_in = ", x3[2]),
          absl::StrCat(".d_out = ", y3[0]),
          absl::StrCat(".h_out = ", y3[1]),
          absl::StrCat(".w_out = ", y3[2]),
          absl::StrCat(".k_d = ", k[0]),
          absl::StrCat(".k_h = ", k[1]),
          absl::StrCat(".k_w = ", k[2]),
          absl::StrCat(".stride_d = ", st[0]),
          absl::StrCat(".stride_h = ", st[1]),
          absl::StrCat(".stride_w = ", st[2]),
          absl::StrCat(".pad_front = ", pb[0]),
          absl::StrCat(".pad_top = ", pb[1]),
          absl::StrCat(".pad_left = ", pb[2]),
          absl::StrCat(".count_include_pad = ", s_.Int("count_include_pad")),
          Signed("x_signed", s_.operands[0]),
          Signed("y_signed", s_.results[0]),
          absl::StrCat(".x_zp = ", ZeroPointOf(V(s_.operands[2]))),
          ".x_scale = " + CFloat(xs),
          ".y_scale = " + CFloat(ys)};
}

absl::Status StatementEmitter::QLinearPool() {
  const bool global = s_.op == OpKind::kQLinearGlobalAveragePool;
  const float xs = FloatsOf(V(s_.operands[1]))[0], ys = FloatsOf(V(s_.operands[3]))[0];
  // Global: the integer sum times (x_scale / size) / y_scale; otherwise
  // x_scale / y_scale (fixed mode; float mode divides in float32).
  const float size = static_cast<float>(NumElements(Spatial3(In(0))));
  RequantParams({global ? (xs / size) / ys : xs / ys}, 4);
  Params("oc_qpool_params", PoolFields(global));
  Use(global ? "qglobal_avgpool.c" : "qavgpool.c");
  w_.Line(absl::StrCat(global ? "oc_qglobal_avgpool" : "oc_qavgpool", "(&p, &r, ", Read(0), ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

// oc_qconvert_params from x (operand `x`, scale and zero point after it) to
// the result (scale and zero point operands ys, ys + 1), and its `r`.
std::string StatementEmitter::ConvertParams(int x, int ys) {
  const Value& xs = V(s_.operands[x + 1]);
  const Value& xz = V(s_.operands[x + 2]);
  const Value& yz = V(s_.operands[ys + 1]);
  const bool same = xs.data == V(s_.operands[ys]).data && xz.dtype == yz.dtype &&
                    xz.data == yz.data;
  const float xsf = FloatsOf(xs)[0], ysf = FloatsOf(V(s_.operands[ys]))[0];
  RequantParams({xsf / ysf}, ys + 1);
  return Nested({absl::StrCat(".same = ", same ? 1 : 0), Signed("x_signed", s_.operands[x]),
                 Signed("y_signed", s_.results[0]),
                 absl::StrCat(".x_zp = ", ZeroPointOf(xz)), ".x_scale = " + CFloat(xsf),
                 ".y_scale = " + CFloat(ysf)});
}

absl::Status StatementEmitter::QLinearMaxPool() {
  const std::vector<int64_t> d =
      s_.Has("dilations") ? Attr3("dilations", 1) : std::vector<int64_t>{1, 1, 1};
  const std::string convert = ConvertParams(0, 3);
  Params("oc_qmaxpool_params",
         {".pool = " + Nested(PoolFields(false)), absl::StrCat(".dil_d = ", d[0]),
          absl::StrCat(".dil_h = ", d[1]), absl::StrCat(".dil_w = ", d[2]),
          ".convert = " + convert});
  Use("qmaxpool.c");
  w_.Line(absl::StrCat("oc_qmaxpool(&p, &r, ", Read(0), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::QLinearConcat() {
  const int inputs = static_cast<int>(s_.operands.size() - 2) / 3;
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  const Shape& y = Out();
  const int64_t outer = Prod(y, 0, axis), y_row = Prod(y, axis, y.size());
  int64_t offset = 0;
  Use("qconcat.c");
  for (int i = 0; i < inputs; ++i) {
    const Shape& x = In(3 * i);
    const int64_t row = Prod(x, axis, x.size());
    w_.Open(absl::StrCat("/* input ", i, " */"));
    const std::string convert = ConvertParams(3 * i, 3 * inputs);
    Params("oc_qconcat_params", {absl::StrCat(".outer = ", outer), absl::StrCat(".row = ", row),
                                 absl::StrCat(".y_row = ", y_row),
                                 absl::StrCat(".offset = ", offset), ".convert = " + convert});
    w_.Line(absl::StrCat("oc_qconcat_part(&p, &r, ", Read(3 * i), ", ", Write(), ");"));
    w_.Close();
    offset += row;
  }
  return absl::OkStatus();
}

}  // namespace oc
