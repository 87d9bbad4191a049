/*
 * onnx-to-c runtime: the output channels of one column of 8-bit inputs (a
 * pixel's window, or its input channels), shared by the column convolution
 * (qconv_column.c) and the pointwise overlap kernel (qconv1x1_overlap.c).
 * Each channel is the dot product of the column's raw bytes with its
 * weights, from a bias into which the compiler folded the zero points; four
 * channels per pass on SMLAD (Cortex-M4/M7), the plain loop elsewhere: the
 * same integer sums.
 *
 * The weights are packed (by the compiler) per group: the group's channels
 * in blocks of four, each block's k in runs of four, w[c0][k..k+3]
 * w[c1][k..k+3] w[c2][k..k+3] w[c3][k..k+3], then the block's kk % 4 last
 * k of c0, c1, c2, c3 in turn; the cog % 4 channels after the last block as
 * plain rows of kk. One pointer walks a block, so the four sums, the column
 * and the weights stay in registers.
 */
#ifndef ONNX_TO_C_OC_QCOL_H_
#define ONNX_TO_C_OC_QCOL_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
/* The runs of four k of one block of four channels, in a function of its
 * own so that the sums, the column and the weights stay in registers
 * (inlined, the loop nest around it spills them): per run one LDR of the
 * column's four bytes, unpacked to the lanes (x0, x2), (x1, x3). Returns
 * the weights after the runs. */
#define OC_QCOL_LDR_(XTB16) \
  "ldr %[c13], [%[cb]], #4\n\t" XTB16 " %[c02], %[c13]\n\t" XTB16 " %[c13], %[c13], ror #8\n\t"
#define OC_QCOL_DOT4_DEFINE(NAME, XT, WT, XTB16, WTB16)                                          \
  static __attribute__((noinline, unused)) const WT *NAME(const XT *cb, const XT *end,          \
                                                          const WT *wp, uint32_t *s) {          \
    uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                                       \
    OC_Q8_ASM_DOT4_(OC_QCOL_LDR_(XTB16), OC_QCOL_LDR_(XTB16), WTB16);                          \
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
    return wp;                                                                                 \
  }
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_s8s8, int8_t, int8_t, "sxtb16", "sxtb16")
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_s8u8, int8_t, uint8_t, "sxtb16", "uxtb16")
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_u8s8, uint8_t, int8_t, "uxtb16", "sxtb16")
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_u8u8, uint8_t, uint8_t, "uxtb16", "uxtb16")
#undef OC_QCOL_DOT4_DEFINE
#undef OC_QCOL_LDR_
#define OC_QCOL_DSP_LOOP_(DOT4)                                                                 \
  {                                                                                             \
    uint32_t sums[4];                                                                           \
    sums[0] = s0, sums[1] = s1, sums[2] = s2, sums[3] = s3;                                     \
    k = kk - tail;                                                                              \
    wp = DOT4(cb, cb + k, wp, sums);                                                            \
    s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];                                     \
  }
#else
#define OC_QCOL_DSP_LOOP_(DOT4)
#endif

/* Channels co0 .. co0 + cog - 1 of the column cb (kk bytes) with the packed
 * weights wp, into y at `at`, the next channel out_plane further. */
#define OC_QCOL_CHANNELS_DEFINE(NAME, XT, WT, DOT4)                                              \
  static __attribute__((unused)) void NAME(const oc_requant8 *r, int32_t y_signed, const XT *cb, \
                                           int32_t kk, const WT *wp, const int32_t *bias,        \
                                           int32_t co0, int32_t cog, void *y, ptrdiff_t at,      \
                                           ptrdiff_t out_plane) {                                \
    const int32_t tail = kk % 4, cog4 = cog - cog % 4;                                           \
    int32_t j, k, t;                                                                             \
    for (j = 0; j < cog4; j += 4) {                                                              \
      const int32_t co = co0 + j;                                                                \
      uint32_t s0 = (uint32_t)bias[co], s1 = (uint32_t)bias[co + 1], s2 = (uint32_t)bias[co + 2], \
               s3 = (uint32_t)bias[co + 3];                                                      \
      k = 0;                                                                                     \
      OC_QCOL_DSP_LOOP_(DOT4)                                                                    \
      for (; k + 4 <= kk; k += 4, wp += 16) {                                                    \
        for (t = 0; t < 4; t++) {                                                                \
          const int32_t cv = cb[k + t];                                                          \
          s0 += (uint32_t)(cv * wp[t]);                                                          \
          s1 += (uint32_t)(cv * wp[4 + t]);                                                      \
          s2 += (uint32_t)(cv * wp[8 + t]);                                                      \
          s3 += (uint32_t)(cv * wp[12 + t]);                                                     \
        }                                                                                        \
      }                                                                                          \
      for (t = 0; t < tail; t++) {                                                               \
        const int32_t cv = cb[k + t];                                                            \
        s0 += (uint32_t)(cv * wp[t]);                                                            \
        s1 += (uint32_t)(cv * wp[tail + t]);                                                     \
        s2 += (uint32_t)(cv * wp[2 * tail + t]);                                                 \
        s3 += (uint32_t)(cv * wp[3 * tail + t]);                                                 \
      }                                                                                          \
      wp += 4 * tail;                                                                            \
      oc_requant8_put4(r, co, s0, s1, s2, s3, y, at + (ptrdiff_t)j * out_plane, out_plane);      \
    }                                                                                            \
    for (; j < cog; j++, wp += kk) { /* the last cog % 4 channels, one at a time */              \
      const int32_t co = co0 + j;                                                                \
      uint32_t s = (uint32_t)bias[co];                                                           \
      for (k = 0; k < kk; k++) s += (uint32_t)((int32_t)cb[k] * wp[k]);                          \
      oc_q8_put(y, y_signed, at + (ptrdiff_t)j * out_plane, oc_requant8_apply(r, co, (int32_t)s)); \
    }                                                                                            \
  }
OC_QCOL_CHANNELS_DEFINE(oc_qcol_channels_s8s8, int8_t, int8_t, oc_qcol_dot4_s8s8)
OC_QCOL_CHANNELS_DEFINE(oc_qcol_channels_s8u8, int8_t, uint8_t, oc_qcol_dot4_s8u8)
OC_QCOL_CHANNELS_DEFINE(oc_qcol_channels_u8s8, uint8_t, int8_t, oc_qcol_dot4_u8s8)
OC_QCOL_CHANNELS_DEFINE(oc_qcol_channels_u8u8, uint8_t, uint8_t, oc_qcol_dot4_u8u8)
#undef OC_QCOL_DSP_LOOP_
#undef OC_QCOL_CHANNELS_DEFINE

#endif /* ONNX_TO_C_OC_QCOL_H_ */
