/*
 * onnx-to-c runtime, Armv7E-M: the runs of four input channels of the 8-bit
 * channels-last pointwise convolution (qconv_pw_nhwc.c) with SXTB16/UXTB16
 * and SMLAD, and its float requantization with VCVTR; the interface of the
 * reference oc_qpw_nhwc_fast.h. Per run: one LDR of each pixel's four bytes,
 * unpacked to the lanes (x0, x2) and (x1, x3), one LDR of each channel's
 * four weights, unpacked the same way, and two SMLAD per channel and pixel
 * (two runs per pass where there are two): the products are exact and
 * SMLAD's sums wrap like the uint32 ones, so the same bits. Where they serve
 * (float requantization to a whole 8-bit range, c_in a multiple of 4, c_out
 * even) the whole statement runs in oc_qpw_nhwc_pass.h's assembler passes
 * instead (QPW_NHWC_WHOLE_). Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QPW_NHWC_FAST_H_
#define ONNX_TO_C_OC_QPW_NHWC_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qpw_nhwc_pass.h"

#if OC_Q8_DSP
#define QPW_NHWC_LO_int8_t(v) (int32_t) __sxtb16(v)
#define QPW_NHWC_HI_int8_t(v) (int32_t) oc_sxtb16_odd(v)
#define QPW_NHWC_LO_uint8_t(v) (int32_t) __uxtb16(v)
#define QPW_NHWC_HI_uint8_t(v) (int32_t) oc_uxtb16_odd(v)
#define QPW_NHWC_MAC_(S, X, W) S = (uint32_t)__smlad((X), (W), (int32_t)(S))
/* One run of four input channels, k + O .. k + O + 3, its weights at w + 2 O. */
#define QPW_NHWC_RUN_(XT, WT, O)                                                                  \
  {                                                                                             \
    const uint32_t xa4 = oc_q8_load4(xa + k + (O)), xb4 = oc_q8_load4(xb + k + (O));            \
    const int32_t a02 = QPW_NHWC_LO_##XT(xa4), a13 = QPW_NHWC_HI_##XT(xa4);                     \
    const int32_t b02 = QPW_NHWC_LO_##XT(xb4), b13 = QPW_NHWC_HI_##XT(xb4);                     \
    const uint32_t w0 = oc_q8_load4(w + 2 * (O)), w1 = oc_q8_load4(w + 2 * (O) + 4);            \
    int32_t t = QPW_NHWC_LO_##WT(w0);                                                           \
    QPW_NHWC_MAC_(s00, a02, t), QPW_NHWC_MAC_(s10, b02, t);                                     \
    t = QPW_NHWC_HI_##WT(w0);                                                                   \
    QPW_NHWC_MAC_(s00, a13, t), QPW_NHWC_MAC_(s10, b13, t);                                     \
    t = QPW_NHWC_LO_##WT(w1);                                                                   \
    QPW_NHWC_MAC_(s01, a02, t), QPW_NHWC_MAC_(s11, b02, t);                                     \
    t = QPW_NHWC_HI_##WT(w1);                                                                   \
    QPW_NHWC_MAC_(s01, a13, t), QPW_NHWC_MAC_(s11, b13, t);                                     \
  }
#define QPW_NHWC_RUNS_(XT, WT) \
  for (k = 0; k < c4; k += 4, w += 8) QPW_NHWC_RUN_(XT, WT, 0)
#endif

#if defined(OC_REQUANT_VCVTR)
/* oc_requant8_apply's float mode with VCVTR (OC_REQUANT8_APPLY_FLOAT_), the
 * multiplier m and the bounds less the zero point, lo and hi, in registers. */
#define QPW_NHWC_FLOAT_ 1
OC_INLINE int32_t qpw_nhwc_requant_(uint32_t acc, float m, int32_t lo, int32_t hi, int32_t zp) {
  int32_t v = oc_round_even_i32((float)(int32_t)acc * m);
  v = v > hi ? hi : (v < lo ? lo : v);
  return v + zp;
}
#define QPW_NHWC_REQUANT_(ACC, M, LO, HI, ZP) qpw_nhwc_requant_(ACC, M, LO, HI, ZP)
#endif

#endif /* ONNX_TO_C_OC_QPW_NHWC_FAST_H_ */
