// StatementEmitter: the 8-bit channels-last convolution of a small window
// (a stem: a 3x3 kernel over three channels; any window of at most 288
// values without kernel scratch) on SMLAD targets
// (oc_qconv_stem_nhwc, runtime/reference/src/qconv_stem_nhwc.c): each pair
// of output pixels' windows gathered whole, then the pointwise kernel's sums
// over them, so the weights are packed here as for the pointwise kernel over
// the window's K values rounded up to four (the padding's weights 0) and the
// input's zero point folded into the bias.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/target/kernel_facts.h"
#include "targets/c99/statement_emitter.h"

namespace oc {
namespace {

// The most values a window may hold (OC_QSTEM_K_MAX): the kernel's stack
// holds two windows (oc_qconv_stem_nhwc's 128 bytes up to 64 values rounded
// up to four, oc_qconv_stem_nhwc_wide's 576), where the
// convolutions it takes (no kernel scratch found free) would otherwise run
// oc_qconv2d_nhwc's windows, whose frames are deeper (resnet8_tiny_32's
// measured stack: 1,120 -> 968 bytes).
constexpr int64_t kStemWindowMax = 288;
constexpr int64_t kStemSmallWindow = 64;

int64_t ByteAt(const Value& v, int64_t i) {
  return v.dtype == DType::kI8 ? static_cast<int8_t>(v.data[i]) : static_cast<int64_t>(v.data[i]);
}

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

}  // namespace

bool QStemNhwcRuns(const EmitContext& ctx, const Statement& s) {
  const Program& p = ctx.program;
  if (!ctx.dsp_smlad || s.op != OpKind::kQLinearConv || s.results.size() != 1 || s.scratch_bytes > 0 ||
      s.Int("group", 1) != 1 || !QConvFoldsZeroPoints(p, s)) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  const std::vector<int64_t> kernel = s.Ints("kernel");
  if (!Is8Bit(x.dtype) || !Is8Bit(y.dtype) || x.shape.size() != 4 || kernel.size() != 2 ||
      IsUnitWindowConv(p, s)) {
    return false;
  }
  // x channels-last, or one input channel (NCHW is then the same bytes, and
  // OIHW weights OHWI's); a window of at most kStemWindowMax values.
  const int64_t c_in = x.shape[1], k = kernel[0] * kernel[1] * c_in;
  const bool x_last = s.Int("x_channels_last") != 0, y_last = s.Int("y_channels_last") != 0;
  if ((!x_last && c_in != 1) || k > kStemWindowMax) return false;
  // The kernel streams rows as oc_qconv2d_nhwc does: no contract, or rows
  // (with y channels-last).
  const size_t index = &s - p.statements().data();
  const std::vector<int>& of = ctx.model.overlap_of_statement;
  if (index >= of.size() || of[index] < 0) return true;
  const OverlapContract::Kind kind = ctx.model.overlaps[of[index]].kind;
  return y_last && (kind == OverlapContract::Kind::kRows || kind == OverlapContract::Kind::kRowsUp);
}

absl::Status StatementEmitter::QLinearConvStemNhwc() {
  // The weights OHWI (passes/transforms/channels_last.cc; OIHW with one
  // input channel is the same): a channel's K values in the order the
  // kernel gathers a window.
  const Value& wv = V(s_.operands[3]);
  const int64_t c_out = Out()[1], k = wv.NumElements() / c_out, k4 = (k + 3) & ~int64_t{3};
  const uint32_t zx = static_cast<uint32_t>(ByteAt(V(s_.operands[2]), 0));
  Table("int32_t", "bias",
        FoldedBias(c_out, k, zx, [&](int64_t co, int64_t i) { return ByteAt(wv, co * k + i); },
                   [](int64_t) { return int64_t{0}; }));
  QPwNhwcWeights(wv, c_out, k, k4);
  Use("qconv_stem_nhwc.c");
  RowsContractComment(Overlap());
  w_.Line(absl::StrCat(k4 <= kStemSmallWindow ? "oc_qconv_stem_nhwc" : "oc_qconv_stem_nhwc_wide", "(&p, &r, ",
                       Read(0), ", w, bias, ", Write(), ", ",
                       s_.Int("y_channels_last"), ");"));
  return absl::OkStatus();
}

}  // namespace oc
