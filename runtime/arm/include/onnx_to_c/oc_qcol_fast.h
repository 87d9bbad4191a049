/*
 * onnx-to-c runtime, Armv7E-M: the column kernels (oc_qcol.h): the runs of four k of a block of four
 * channels in assembler with SMLAD; the interface of the reference
 * oc_qcol_fast.h. Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QCOL_FAST_H_
#define ONNX_TO_C_OC_QCOL_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
/* The runs of four k of one block of four channels, in a function of its
 * own so that the sums, the column and the weights stay in registers
 * (inlined, the loop nest around it spills them): per run one LDR of the
 * column's four bytes, unpacked to the lanes (x0, x2), (x1, x3). Returns
 * the weights after the runs. */
#define OC_QCOL_DOT4_DEFINE(NAME, XT, WT, XTB16, WTB16)                                          \
  static __attribute__((noinline, unused)) const WT *NAME(const XT *cb, const XT *end,          \
                                                          const WT *wp, uint32_t *s) {          \
    uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                                       \
    OC_Q8_ASM_DOT4_(OC_Q8_ASM_ROW4_(XTB16), OC_Q8_ASM_ROW4_(XTB16), WTB16);                    \
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
    return wp;                                                                                 \
  }
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_s8s8, int8_t, int8_t, "sxtb16", "sxtb16")
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_s8u8, int8_t, uint8_t, "sxtb16", "uxtb16")
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_u8s8, uint8_t, int8_t, "uxtb16", "sxtb16")
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_u8u8, uint8_t, uint8_t, "uxtb16", "uxtb16")
#undef OC_QCOL_DOT4_DEFINE
#define OC_QCOL_DSP_LOOP_(DOT4)                                                                 \
  {                                                                                             \
    uint32_t sums[4];                                                                           \
    sums[0] = s0, sums[1] = s1, sums[2] = s2, sums[3] = s3;                                     \
    k = kk - tail;                                                                              \
    wp = DOT4(cb, cb + k, wp, sums);                                                            \
    s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];                                     \
  }
#endif

#endif /* ONNX_TO_C_OC_QCOL_FAST_H_ */
