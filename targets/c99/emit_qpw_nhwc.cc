// StatementEmitter: the 8-bit channels-last pointwise convolution on SMLAD
// targets, one matrix product per statement (oc_qconv_pw_nhwc,
// runtime/reference/src/qconv_pw_nhwc.c): its weights packed here in the
// order its inner loop reads them and the input's zero point folded into its
// bias.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/target/kernel_facts.h"
#include "targets/c99/statement_emitter.h"

namespace oc {
namespace {

int64_t ByteAt(const Value& v, int64_t i) {
  return v.dtype == DType::kI8 ? static_cast<int8_t>(v.data[i]) : static_cast<int64_t>(v.data[i]);
}

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

}  // namespace

bool QPwNhwcRuns(const EmitContext& ctx, const Statement& s) {
  const Program& p = ctx.program;
  if (!ctx.dsp_smlad || s.op != OpKind::kQLinearConv || s.results.size() != 1 ||
      s.Int("x_channels_last") == 0 || s.Int("y_channels_last") == 0 || !QConvFoldsZeroPoints(p, s)) {
    return false;
  }
  const Value& x = p.value(s.operands[0]);
  const Value& y = p.value(s.results[0]);
  if (!Is8Bit(x.dtype) || !Is8Bit(y.dtype) || !IsUnitWindowConv(p, s)) return false;
  // The kernel streams rows as oc_qconv2d_nhwc does: no contract, or rows.
  const size_t index = &s - p.statements().data();
  const std::vector<int>& of = ctx.model.overlap_of_statement;
  if (index >= of.size() || of[index] < 0) return true;
  const OverlapContract::Kind kind = ctx.model.overlaps[of[index]].kind;
  return kind == OverlapContract::Kind::kRows || kind == OverlapContract::Kind::kRowsUp;
}

// Writes `w` packed for oc_qconv_pw_nhwc: per pair of output channels, the
// input channels in runs of four (the first channel's four bytes, then the
// second's), then each one's c_in % 4 last; an odd last channel in order.
// Each channel holds c_in values of wv, then zeros up to `padded` (a stem's
// window rounded up to four, oc_qconv_stem_nhwc).
void StatementEmitter::QPwNhwcWeights(const Value& wv, int64_t c_out, int64_t c_in, int64_t padded) {
  const int64_t width = std::max(c_in, padded), c4 = width & ~int64_t{3};
  std::vector<std::string> packed;
  auto put = [&](int64_t co, int64_t k) { packed.push_back(absl::StrCat(k < c_in ? ByteAt(wv, co * c_in + k) : 0)); };
  int64_t c = 0;
  for (; c + 2 <= c_out; c += 2) {
    for (int64_t k = 0; k < c4; k += 4) {
      for (int64_t ch = c; ch < c + 2; ++ch) {
        for (int64_t t = 0; t < 4; ++t) put(ch, k + t);
      }
    }
    for (int64_t ch = c; ch < c + 2; ++ch) {
      for (int64_t k = c4; k < width; ++k) put(ch, k);
    }
  }
  for (; c < c_out; ++c) {
    for (int64_t k = 0; k < width; ++k) put(c, k);
  }
  WeightTable(wv.dtype, packed);
}

absl::Status StatementEmitter::QLinearConvPwNhwc() {
  const Value& wv = V(s_.operands[3]);
  const int64_t c_out = Out()[1], c_in = In(0)[1];
  const uint32_t zx = static_cast<uint32_t>(ByteAt(V(s_.operands[2]), 0));
  Table("int32_t", "bias",
        FoldedBias(c_out, c_in, zx, [&](int64_t co, int64_t k) { return ByteAt(wv, co * c_in + k); },
                   [](int64_t) { return int64_t{0}; }));
  QPwNhwcWeights(wv, c_out, c_in);
  Use("qconv_pw_nhwc.c");
  RowsContractComment(Overlap());
  w_.Line(absl::StrCat("oc_qconv_pw_nhwc(&p, &r, ", Read(0), ", w, bias, ", Write(), ");"));
  return absl::OkStatus();
}

}  // namespace oc
