// StatementEmitter: quantization (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, integer matrix products and convolutions, and the
// requantization that completes QLinearMatMul / QLinearConv).
#include "absl/strings/str_cat.h"
#include "targets/c99/statement_emitter.h"

namespace oc {

// x viewed as (outer, axis_len, inner) around `axis` (-1: one block).
std::vector<std::string> StatementEmitter::QuantFields(const Shape& x, int64_t axis,
                                                       DType q) const {
  const bool per_axis = axis >= 0;
  const size_t a = per_axis ? static_cast<size_t>(axis) : 0;
  return {absl::StrCat(".outer = ", per_axis ? Prod(x, 0, a) : 1),
          absl::StrCat(".axis_len = ", per_axis ? x[a] : 1),
          absl::StrCat(".inner = ", per_axis ? Prod(x, a + 1, x.size()) : NumElements(x)),
          absl::StrCat(".per_axis = ", per_axis ? 1 : 0), ".q_type = " + DTypeEnum(q)};
}

absl::Status StatementEmitter::MatMulInteger() {
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

absl::Status StatementEmitter::ConvInteger() {
  Params("oc_conv_int_params",
         {".conv = " + Nested(ConvFields()), absl::StrCat(".x_signed = ", IsSigned8(0) ? 1 : 0),
          absl::StrCat(".w_signed = ", IsSigned8(1) ? 1 : 0),
          absl::StrCat(".w_zp_per_channel = ",
                       HasOperand(3) && V(s_.operands[3]).NumElements() > 1 ? 1 : 0)});
  Use("conv_integer.c");
  w_.Line(absl::StrCat("oc_conv_integer(&p, ", Read(0), ", ", OptionalRead(2), ", ", Read(1), ", ",
                       OptionalRead(3), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Quantize() {
  const bool quantize = s_.op == OpKind::kQuantizeLinear;
  const DType q = quantize ? V(s_.results[0]).dtype : V(s_.operands[0]).dtype;
  Params("oc_quant_params", QuantFields(In(0), s_.Int("axis"), q));
  // Under an elements contract the result starts inside the input: last element first.
  const OverlapContract* c = Overlap();
  const bool last_first = c && c->kind == OverlapContract::Kind::kElements;
  Use(quantize ? (last_first ? "quantize_last_first.c" : "quantize.c") : "dequantize.c");
  if (last_first) {
    w_.Comment(absl::StrCat("overlap contract: the output starts ", -c->displacement,
                            " bytes into the input"));
  }
  w_.Line(absl::StrCat(quantize ? (last_first ? "oc_quantize_f32_last_first(&p, " : "oc_quantize_f32(&p, ")
                                : "oc_dequantize(&p, ",
                       Read(0), ", ",
                       Read(1), ", ", OptionalRead(2), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::DynamicQuantize() {
  Use("dynamic_quantize.c");
  w_.Line(absl::StrCat("oc_dynamic_quantize_f32(", Read(0), ", ", V(s_.operands[0]).NumElements(),
                       ", ", Write(0), ", ", Write(1), ", ", Write(2), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Requantize() {
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

}  // namespace oc
