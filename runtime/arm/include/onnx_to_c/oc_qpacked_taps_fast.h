/*
 * onnx-to-c runtime, Armv7E-M: the packed-taps convolution (oc_qconv_packed_taps.h) with SMLAD and
 * SMLAxy, two pixels in assembler; the interface of the reference
 * oc_qpacked_taps_fast.h. Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QPACKED_TAPS_FAST_H_
#define ONNX_TO_C_OC_QPACKED_TAPS_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qconv_loops.h"

#if OC_Q8_DSP
/* The tap's four weights W4 (loaded from WQ) times xv into s0..s3. */
#define OC_QC2P_TAP4_(W4, WQ, WEXT, WODD)                      \
  do {                                                        \
    const int32_t we = (int32_t)WEXT(W4), wo = (int32_t)WODD(W4); \
    s0 = (uint32_t)__smlabb(xv, we, (int32_t)s0);             \
    s2 = (uint32_t)__smlabt(xv, we, (int32_t)s2);             \
    s1 = (uint32_t)__smlabb(xv, wo, (int32_t)s1);             \
    s3 = (uint32_t)__smlabt(xv, wo, (int32_t)s3);             \
  } while (0)
#define OC_QC2P_LOAD_(WT, P) oc_q8_load4(P)
/* Two neighbouring output pixels, stride 1, 3 x 3 windows all inside the
 * input, for the channels c and c + 2 of a block (WROT ", ror #8": 1 and
 * 3), in assembler: GCC keeps neither the sums nor the row
 * pointers in registers here. Per window row, one load gives the inputs
 * x0 x1 x2 x3 and two extracts (XTB) the lanes xe = (x0, x2) and
 * xo = (x1, x3); PKHBT/PKHTB pair a channel's weights of taps 0 and 2, so
 * one SMLAD adds both taps for one pixel, and SMLAxy add x1 and x2 times
 * tap 1: 19 instructions per 12 multiply-accumulates where one pixel at a
 * time takes 27. The inputs are x, not x - zx: the sums start at bias - zx
 * times the sum of the weights. Per input channel, the rows at xr, xr + rs
 * and xr + 2 rs, and three rows of weights, 12 bytes each, at wq. */
#define OC_QC2P_ROW3_(XADDR, XTB, WTB, WROT)                                                       \
  "ldr %[t], " XADDR "\n\t" XTB " %[xe], %[t]\n\t" XTB " %[xo], %[t], ror #8\n\t"                     \
  "ldr %[e0], [%[wq]], #12\n\t"                                                                    \
  "ldr %[e2], [%[wq], #-4]\n\t"                                                                   \
  WTB " %[e0], %[e0]" WROT "\n\t" WTB " %[e2], %[e2]" WROT "\n\t"                                   \
  "pkhbt %[t], %[e0], %[e2], lsl #16\n\t"                                                         \
  "smlad %[a0], %[xe], %[t], %[a0]\n\t"                                                           \
  "smlad %[c0], %[xo], %[t], %[c0]\n\t"                                                           \
  "pkhtb %[t], %[e2], %[e0], asr #16\n\t"                                                         \
  "smlad %[a2], %[xe], %[t], %[a2]\n\t"                                                           \
  "smlad %[c2], %[xo], %[t], %[c2]\n\t"                                                           \
  "ldr %[t], [%[wq], #-8]\n\t" WTB " %[t], %[t]" WROT "\n\t"                                         \
  "smlabb %[a0], %[xo], %[t], %[a0]\n\t"                                                          \
  "smlabt %[a2], %[xo], %[t], %[a2]\n\t"                                                          \
  "smlatb %[c0], %[xe], %[t], %[c0]\n\t"                                                          \
  "smlatt %[c2], %[xe], %[t], %[c2]\n\t"
#define OC_QC2P_PAIR3X_(XT, XTB, WTB, WROT, A0, A2, C0, C2)                                         \
  do {                                                                                             \
    const XT *xr = xg + (ptrdiff_t)iy * w_in + ix;                                                 \
    const void *wq = wb;                                                                           \
    uint32_t xe, xo, e0, e2, t;                                                                    \
    for (ic = 0; ic < cig; ic++, xr += plane) {                                                    \
      __asm__(OC_QC2P_ROW3_("[%[xr]]", XTB, WTB, WROT) OC_QC2P_ROW3_("[%[xr], %[rs]]", XTB, WTB, WROT) \
                  OC_QC2P_ROW3_("[%[xr], %[rs], lsl #1]", XTB, WTB, WROT)                          \
              : [a0] "+r"(A0), [a2] "+r"(A2), [c0] "+r"(C0), [c2] "+r"(C2), [wq] "+r"(wq),         \
                [xe] "=&r"(xe), [xo] "=&r"(xo), [e0] "=&r"(e0), [e2] "=&r"(e2), [t] "=&r"(t)       \
              : [xr] "r"(xr), [rs] "r"(row_step)                                                   \
              : "memory");                                                                         \
    }                                                                                              \
  } while (0)
/* The hooks by signedness (S, U) of the inputs and weights, and the odd
 * bytes' rotation (ODD 1). */
#define OC_QC2P_XTB_S "sxtb16"
#define OC_QC2P_XTB_U "uxtb16"
#define OC_QC2P_EXT_S __sxtb16
#define OC_QC2P_EXT_U __uxtb16
#define OC_QC2P_ODD_S oc_sxtb16_odd
#define OC_QC2P_ODD_U oc_uxtb16_odd
#define OC_QC2P_ROT_0 ""
#define OC_QC2P_ROT_1 ", ror #8"
#define OC_QC2P_TAP_(W4, WQ, WS) OC_QC2P_TAP4_(W4, WQ, OC_QC2P_EXT_##WS, OC_QC2P_ODD_##WS)
#define OC_QC2P_PAIR3_(XT, XS, WS, ODD, A0, A2, C0, C2) \
  OC_QC2P_PAIR3X_(XT, OC_QC2P_XTB_##XS, OC_QC2P_XTB_##WS, OC_QC2P_ROT_##ODD, A0, A2, C0, C2)
#define OC_QC2P_PAIRS3 1
#endif

#endif /* ONNX_TO_C_OC_QPACKED_TAPS_FAST_H_ */
