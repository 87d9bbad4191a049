// The 8-bit products with 4-bit weights (weight_bits 4: ONNX int4/uint4
// weights, passes/transforms/fuse_qdq.cc): the weights and their zero points
// become tables of nibbles in the blocks of oc_w4_at (runtime/reference/include/onnx_to_c/oc_qw4_run.h), read by
// oc_qconv2d_w4 and oc_qgemm_w4. An int4 weight w is stored as w + 8 and its
// zero point z as z + 8, so every difference w - z is the same.
#include "absl/strings/str_cat.h"
#include "compiler/target/kernel_facts.h"
#include "targets/c99/statement_emitter.h"

namespace oc {
namespace {

// Weight element i (or zero point) as a nibble, 0..15.
int64_t Nibble(const Value& v, int64_t i) {
  return v.dtype == DType::kI8 ? static_cast<int8_t>(v.data[i]) + 8 : static_cast<int64_t>(v.data[i]);
}

// An 8-bit activation's zero point.
int64_t ZeroPoint8(const Value& v) {
  return v.dtype == DType::kI8 ? static_cast<int8_t>(v.data[0]) : static_cast<int64_t>(v.data[0]);
}

}  // namespace

// `w`: channels in blocks of four, k in chunks of four, per chunk the bytes
// (channel 0 | channel 1 << 4) then (channel 2 | channel 3 << 4) for its four
// k (oc_w4_at); `w_zp`: one nibble per channel. nibble(co, k) reads the
// weights; channels and k past the ends are 0.
void StatementEmitter::FourBitTables(int64_t channels, int64_t kk,
                                     const std::function<int64_t(int64_t, int64_t)>& nibble,
                                     const Value& zp) {
  std::vector<std::string> bytes, zps;
  auto at = [&](int64_t co, int64_t k) { return co < channels && k < kk ? nibble(co, k) : 0; };
  for (int64_t co = 0; co < channels; co += 4) {
    for (int64_t k = 0; k < kk; k += 4) {
      for (int64_t pair = 0; pair < 4; pair += 2) {
        for (int64_t t = 0; t < 4; ++t) {
          bytes.push_back(absl::StrCat(at(co + pair, k + t) | at(co + pair + 1, k + t) << 4));
        }
      }
    }
  }
  for (int64_t co = 0; co < channels; ++co) zps.push_back(absl::StrCat(Nibble(zp, zp.NumElements() > 1 ? co : 0)));
  WeightTable(DType::kU8, bytes);
  Table("uint8_t", "w_zp", zps);
}

absl::Status StatementEmitter::QLinearConvW4() {
  const Value& wv = V(s_.operands[3]);
  const int64_t c_out = Out()[1], kk = wv.NumElements() / c_out;
  const int64_t k_w = wv.shape.back(), k_h = wv.shape.size() == 4 ? wv.shape[2] : 1, cig = kk / (k_h * k_w);
  const bool ohwi = IsChannelsLastConv(s_);  // [co][kh][kw][ic] (channels_last.cc), else [co][ic][kh][kw]
  RequantParams(ProductMultipliers(), 7);
  const OverlapContract* c = Overlap();
  const bool pixels = c && c->kind == OverlapContract::Kind::kPixels;
  if (c && !pixels && c->kind != OverlapContract::Kind::kRows && c->kind != OverlapContract::Kind::kRowsUp) {
    return Unsupported("4-bit weights take rows and pixels overlap contracts only");
  }
  std::vector<std::string> conv = ConvFields();
  if (c && c->kind == OverlapContract::Kind::kRowsUp) conv.push_back(".reverse_rows = 1");
  Params("oc_qconv_params", {".conv = " + Nested(conv), Signed("x_signed", s_.operands[0]),
                             Signed("w_signed", s_.operands[3]), Signed("y_signed", s_.results[0]),
                             absl::StrCat(".x_zp = ", ZeroPoint8(V(s_.operands[2]))),
                             ".w_zp_per_channel = 1"});
  FourBitTables(c_out, kk,
                [&](int64_t co, int64_t k) {  // k = (kh k_w + kw) cig + ic
                  const int64_t ic = k % cig, tap = k / cig;
                  return Nibble(wv, co * kk + (ohwi ? k : ic * k_h * k_w + tap));
                },
                V(s_.operands[5]));
  if (pixels) {
    Use("qconv1x1_w4_pixels.c");
    w_.Comment("overlap contract: the output starts at the input; each pixel's input channels");
    w_.Comment("are copied to scratch, then its output channels written over them");
    w_.Line(absl::StrCat("oc_qconv1x1_w4_pixels(&p, &r, ", Read(0), ", w, w_zp, ", OptionalRead(8), ", ", Write(),
                         ", ", ctx_.ArenaAt(ContractScratchOffset()), ");"));
    return absl::OkStatus();
  }
  Use("qconv_w4.c");
  RowsContractComment(c);
  if (s_.scratch_bytes > 0 && ctx_.dsp_smlad) {
    // The column products in the kernel scratch (compiler/target/kernel_facts.h: x NHWC, one group,
    // kernel rows of whole groups of four, as the kernel asks; built elsewhere than M4/M7 it runs
    // the windows).
    w_.Line(absl::StrCat("oc_qconv2d_w4_col(&p, &r, ", Read(0), ", w, w_zp, ", OptionalRead(8), ", ", Write(), ", ",
                         s_.Int("y_channels_last"), ", ", Scratch("void"), ");"));
    return absl::OkStatus();
  }
  w_.Line(absl::StrCat("oc_qconv2d_w4(&p, &r, ", Read(0), ", w, w_zp, ", OptionalRead(8), ", ", Write(), ", ",
                       s_.Int("x_channels_last"), ", ", s_.Int("y_channels_last"), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::QLinearGemmW4() {
  const bool trans_b = s_.Int("trans_b") != 0;
  const Value& bv = V(s_.operands[3]);
  const int64_t k = In(0).back(), n = trans_b ? bv.shape[0] : bv.shape[1];
  RequantParams(ProductMultipliers(), 7);
  Params("oc_qgemm_params",
         {absl::StrCat(".m = ", NumElements(In(0)) / k), absl::StrCat(".n = ", n), absl::StrCat(".k = ", k),
          Signed("a_signed", s_.operands[2]), Signed("b_signed", s_.operands[3]),
          Signed("y_signed", s_.operands[7]),
          absl::StrCat(".a_zp = ", ZeroPoint8(V(s_.operands[2]))),
          ".b_zp_per_col = 1"});
  FourBitTables(n, k, [&](int64_t j, int64_t i) { return Nibble(bv, trans_b ? j * k + i : i * n + j); },
                V(s_.operands[5]));
  Use("qgemm_w4.c");
  w_.Line(absl::StrCat("oc_qgemm_w4(&p, &r, ", Read(0), ", w, w_zp, ", OptionalRead(8), ", ", Write(), ");"));
  return absl::OkStatus();
}

}  // namespace oc
