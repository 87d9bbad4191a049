// StatementEmitter: normalization (LayerNorm, InstanceNorm, LRN), recurrent
// layers, CumSum, Einsum, Det, DFT, GridSample, DeformConv, RoiAlign, TfIdfVectorizer
// and NegativeLogLikelihoodLoss.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/support/status.h"
#include "targets/c99/statement_emitter.h"

namespace oc {

// A `static const` array named `name` of C type `type`.
void StatementEmitter::Table(const std::string& type, const std::string& name,
                             const std::vector<std::string>& v) {
  w_.Line(absl::StrCat("static const ", type, " ", name, "[", std::max<size_t>(v.size(), 1),
                       "] = {", v.empty() ? "0" : absl::StrJoin(v, ", "), "};"));
}

// The statement's scratch buffer in the arena, as `type *`.
std::string StatementEmitter::Scratch(const std::string& type) const {
  const size_t index = &s_ - ctx_.program.statements().data();
  return absl::StrCat("(", type, " *)(", ctx_.ArenaAt(ctx_.scratch_name[index]), ")");
}

// LayerNorm normalizes the dims from `axis` on; InstanceNorm each (n, c)
// plane with per-channel scale and bias.
absl::Status StatementEmitter::Normalize() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  const bool layer = s_.op == OpKind::kLayerNorm;
  const size_t axis = layer ? static_cast<size_t>(s_.Int("axis")) : 2;
  Params("oc_norm_params", {absl::StrCat(".rows = ", Prod(x, 0, axis)),
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

absl::Status StatementEmitter::Lrn() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  Use("lrn.c");
  w_.Line(absl::StrCat("oc_lrn_f32(", Read(0), ", ", Write(), ", ", x[0], ", ", x[1], ", ",
                       Prod(x, 2, x.size()), ", ", s_.Int("size"), ", ", CFloat(s_.Float("alpha")),
                       ", ", CFloat(s_.Float("beta")), ", ", CFloat(s_.Float("bias")), ");"));
  return absl::OkStatus();
}

// RNN / GRU / LSTM: present outputs are results in ONNX order, absent
// ones NULL.
absl::Status StatementEmitter::Recurrent() {
  const Shape& x = In(0);
  const int64_t layout = s_.Int("layout"), hidden = s_.Int("hidden");
  const int64_t dirs = In(1)[0];
  std::vector<int64_t> kinds = s_.Ints("activations");
  std::vector<float> alpha = s_.Floats("activation_alpha"), beta = s_.Floats("activation_beta");
  const size_t per_dir = kinds.size() / static_cast<size_t>(dirs);
  std::vector<std::string> acts;
  for (int64_t d = 0; d < 2; ++d) {
    std::vector<std::string> row;
    for (size_t i = 0; i < 3; ++i) {
      const size_t k = static_cast<size_t>(d < dirs ? d : 0) * per_dir + i;
      row.push_back(i < per_dir ? absl::StrCat("{", kinds[k], ", ", CFloat(alpha[k]), ", ",
                                               CFloat(beta[k]), "}")
                                : "{0, 0.0f, 0.0f}");
    }
    acts.push_back("{" + absl::StrJoin(row, ", ") + "}");
  }
  Params(
      "oc_rnn_params",
      {absl::StrCat(".seq = ", layout ? x[1] : x[0]),
       absl::StrCat(".batch = ", layout ? x[0] : x[1]), absl::StrCat(".input = ", x[2]),
       absl::StrCat(".hidden = ", hidden), absl::StrCat(".num_dir = ", dirs),
       absl::StrCat(".reverse = ", s_.Int("reverse")), absl::StrCat(".layout = ", layout),
       absl::StrCat(".has_clip = ", s_.Has("clip") ? 1 : 0), ".clip = " + CFloat(s_.Float("clip")),
       absl::StrCat(".linear_before_reset = ", s_.Int("linear_before_reset")),
       absl::StrCat(".input_forget = ", s_.Int("input_forget")),
       ".acts = {" + absl::StrJoin(acts, ", ") + "}"});
  std::vector<std::string> outs = {"NULL", "NULL", "NULL"};
  std::vector<int64_t> present = s_.Ints("outputs");
  for (size_t i = 0; i < present.size(); ++i) outs[present[i]] = Write(static_cast<int>(i));
  std::string args = absl::StrCat("(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ",
                                  OptionalRead(3), ", ", OptionalRead(4), ", ", OptionalRead(5));
  if (s_.op == OpKind::kLstm) {
    Use("lstm.c");
    w_.Line(absl::StrCat("oc_lstm_f32", args, ", ", OptionalRead(6), ", ", OptionalRead(7), ", ",
                         outs[0], ", ", outs[1], ", ", outs[2], ", ", Scratch("float"), ");"));
  } else {
    const bool gru = s_.op == OpKind::kGru;
    Use(gru ? "gru.c" : "rnn.c");
    w_.Line(absl::StrCat(gru ? "oc_gru_f32" : "oc_rnn_f32", args, ", ", outs[0], ", ", outs[1],
                         ", ", Scratch("float"), ");"));
  }
  return absl::OkStatus();
}

absl::Status StatementEmitter::CumSum() {
  const Shape& x = In(0);
  const std::string type(DTypeName(V(s_.operands[0]).dtype));
  Params("oc_cumsum_params", {absl::StrCat(".rank = ", x.size()), ".dims = " + Ints(x),
                              absl::StrCat(".axis = ", s_.Int("axis")),
                              absl::StrCat(".axis_is64 = ", HasOperand(1) && Is64(1) ? 1 : 0),
                              absl::StrCat(".exclusive = ", s_.Int("exclusive")),
                              absl::StrCat(".reverse = ", s_.Int("reverse"))});
  Use(absl::StrCat("cumsum_", type, ".c"));
  w_.Line(absl::StrCat("oc_cumsum_", type, "(&p, ", Read(0), ", ", OptionalRead(1), ", ", Write(),
                       ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Einsum() {
  const std::string type(DTypeName(V(s_.operands[0]).dtype));
  const bool two = HasOperand(1);
  std::vector<int64_t> dims = s_.Ints("dims");
  Params(
      "oc_einsum_params",
      {absl::StrCat(".n_labels = ", dims.size()), absl::StrCat(".n_operands = ", two ? 2 : 1),
       absl::StrCat(".y_size = ", V(s_.results[0]).NumElements()), ".dims = " + Ints(dims),
       ".y_strides = " + Ints(s_.Ints("y_strides")), ".a_strides = " + Ints(s_.Ints("a_strides")),
       ".b_strides = " + Ints(two ? s_.Ints("b_strides") : std::vector<int64_t>{})});
  Use(absl::StrCat("einsum_", type, ".c"));
  w_.Line(absl::StrCat("oc_einsum_", type, "(&p, ", Read(0), ", ", two ? Read(1) : "NULL", ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Det() {
  const Shape& x = In(0);
  Use("det.c");
  w_.Line(absl::StrCat("oc_det_f32(", Read(0), ", ", Write(), ", ", Prod(x, 0, x.size() - 2), ", ",
                       x.back(), ", ", Scratch("float"), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Dft() {
  const Shape& x = In(0);
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  std::vector<float> tw = s_.Floats("twiddles");
  std::vector<std::string> words;
  for (float v : tw) words.push_back(CFloat(v));
  w_.Line(
      absl::StrCat("static const float tw[", tw.size(), "] = {", absl::StrJoin(words, ", "), "};"));
  Params("oc_dft_params",
         {absl::StrCat(".outer = ", Prod(x, 0, axis)), absl::StrCat(".n_in = ", x[axis]),
          absl::StrCat(".inner = ", Prod(x, axis + 1, x.size() - 1)),
          absl::StrCat(".len = ", s_.Int("len")), absl::StrCat(".n_out = ", Out()[axis]),
          absl::StrCat(".complex_in = ", x.back() == 2 ? 1 : 0),
          absl::StrCat(".inverse = ", s_.Int("inverse"))});
  Use("dft.c");
  w_.Line(absl::StrCat("oc_dft_f32(&p, ", Read(0), ", tw, ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::GridSample() {
  const Shape& x = In(0);
  const Shape& y = Out();
  const std::string mode = s_.Str("mode"), pad = s_.Str("padding");
  const size_t h = x.size() - 2, w = x.size() - 1;  // 3-D: depth at 2
  std::vector<std::string> fields = {
      absl::StrCat(".n = ", x[0]), absl::StrCat(".c = ", x[1]), absl::StrCat(".h_in = ", x[h]),
      absl::StrCat(".w_in = ", x[w]), absl::StrCat(".h_out = ", y[h]),
      absl::StrCat(".w_out = ", y[w])};
  fields.push_back(absl::StrCat(".mode = ", mode == "nearest"   ? "OC_GRID_NEAREST"
                                           : mode == "bicubic" ? "OC_GRID_BICUBIC"
                                                               : "OC_GRID_BILINEAR"));
  fields.push_back(absl::StrCat(".padding = ", pad == "border"       ? "OC_GRID_BORDER"
                                              : pad == "reflection" ? "OC_GRID_REFLECTION"
                                                                    : "OC_GRID_ZEROS"));
  fields.push_back(absl::StrCat(".align_corners = ", s_.Int("align_corners")));
  if (x.size() == 5) {
    fields.push_back(absl::StrCat(".d_in = ", x[2]));
    fields.push_back(absl::StrCat(".d_out = ", y[2]));
  }
  Params("oc_grid_sample_params", fields);
  Use("grid_sample.c");
  w_.Line(absl::StrCat("oc_grid_sample_f32(&p, ", Read(0), ", ", Read(1), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::DeformConv() {
  const Shape& x = In(0);
  const Shape& y = Out();
  const std::vector<int64_t> strides = s_.Ints("strides"), dilations = s_.Ints("dilations");
  const std::vector<int64_t> pads = s_.Ints("pads"), kernel = s_.Ints("kernel");
  Params("oc_deform_conv_params",
         {absl::StrCat(".n = ", x[0]), absl::StrCat(".c = ", x[1]), absl::StrCat(".h = ", x[2]),
          absl::StrCat(".w = ", x[3]), absl::StrCat(".oc = ", y[1]),
          absl::StrCat(".out_h = ", y[2]), absl::StrCat(".out_w = ", y[3]),
          absl::StrCat(".kh = ", kernel[0]), absl::StrCat(".kw = ", kernel[1]),
          absl::StrCat(".stride_h = ", strides[0]), absl::StrCat(".stride_w = ", strides[1]),
          absl::StrCat(".dilation_h = ", dilations[0]),
          absl::StrCat(".dilation_w = ", dilations[1]), absl::StrCat(".pad_top = ", pads[0]),
          absl::StrCat(".pad_left = ", pads[1]), absl::StrCat(".group = ", s_.Int("group")),
          absl::StrCat(".offset_group = ", s_.Int("offset_group"))});
  Use("deform_conv.c");
  w_.Line(absl::StrCat("oc_deform_conv_f32(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ",
                       OptionalRead(3), ", ", OptionalRead(4), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::RoiAlign() {
  const Shape& x = In(0);
  const Shape& y = Out();
  Params("oc_roi_align_params",
         {absl::StrCat(".n = ", x[0]), absl::StrCat(".c = ", x[1]), absl::StrCat(".h = ", x[2]),
          absl::StrCat(".w = ", x[3]), absl::StrCat(".n_rois = ", y[0]),
          absl::StrCat(".out_h = ", y[2]), absl::StrCat(".out_w = ", y[3]),
          absl::StrCat(".sampling_ratio = ", s_.Int("sampling_ratio")),
          ".spatial_scale = " + CFloat(s_.Float("spatial_scale")),
          absl::StrCat(".half_pixel = ", s_.Int("half_pixel")),
          absl::StrCat(".is_max = ", s_.Str("mode") == "max" ? 1 : 0)});
  Use("roi_align.c");
  w_.Line(absl::StrCat("oc_roi_align_f32(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::TfIdf() {
  const Shape& x = In(0);
  std::vector<std::string> pool, starts, first, index, weights;
  for (int64_t v : s_.Ints("pool")) pool.push_back(IntLiteral(DType::kI64, v));
  for (int64_t v : s_.Ints("pool_starts")) starts.push_back(CInt(v));
  for (int64_t v : s_.Ints("first_id")) first.push_back(CInt(v));
  for (int64_t v : s_.Ints("out_index")) index.push_back(CInt(v));
  for (float v : s_.Floats("weights")) weights.push_back(CFloat(v));
  Table("int64_t", "pool", pool);
  Table("int32_t", "pool_starts", starts);
  Table("int32_t", "first_id", first);
  Table("int32_t", "out_index", index);
  if (!weights.empty()) Table("float", "weights", weights);
  Use("tfidf.c");
  w_.Line(absl::StrCat("oc_tfidf(", Read(0), ", ", DTypeEnum(V(s_.operands[0]).dtype), ", ",
                       Write(), ", ", x.size() == 2 ? x[0] : 1, ", ", x.back(), ", ", Out().back(),
                       ", ", s_.Int("min_gram"), ", ", s_.Int("max_gram"), ", ", s_.Int("max_skip"),
                       ", pool, pool_starts, first_id, out_index, ",
                       weights.empty() ? "NULL" : "weights", ", ", s_.Int("mode"), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::NllLoss() {
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

}  // namespace oc
