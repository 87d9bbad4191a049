/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit depthwise 3x3 convolution (qconv_dw3x3.c) with SMLAD:
 * two lines' values in one register against packed pairs of weights, and
 * short planes at stride 1 with one pixel of padding column by column
 * (oc_qdw3x3_plane.h); the interface of the reference oc_qdw3x3_fast.h. Without the DSP extension
 * it defines nothing and the kernel keeps its own loops.
 */
#ifndef ONNX_TO_C_OC_QDW3X3_FAST_H_
#define ONNX_TO_C_OC_QDW3X3_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qdw3x3_plane.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
#define OC_QDW_PAIR_(LO, HI) oc_pack16(LO, HI)
/* The sliding sums after position (a, b, c); s2 is the completed output. */
#define OC_QDW_SLIDE_                                                                            \
  {                                                                                              \
    const int32_t ab = OC_QDW_PAIR_(a, b);                                                       \
    s2 = (uint32_t)__smlad(ab, t2, (int32_t)(s1 + (uint32_t)(c * q8)));                          \
    s1 = (uint32_t)__smlad(ab, t1, (int32_t)(s0 + (uint32_t)(c * q7)));                          \
    s0 = (uint32_t)__smlad(ab, t0, (int32_t)(base + (uint32_t)(c * q6)));                        \
  }
#endif

#if OC_Q8_DSP
#define OC_QDW_PLANE_(q, rc, x, k, bias, y, at) oc_qdw3x3_short_plane(q, rc, x, k, bias, y, at)
#define OC_QDW_PAIRS_                                                                            \
  const int32_t t0 = OC_QDW_PAIR_(q0, q3), t1 = OC_QDW_PAIR_(q1, q4), t2 = OC_QDW_PAIR_(q2, q5);
#endif

#endif /* ONNX_TO_C_OC_QDW3X3_FAST_H_ */
