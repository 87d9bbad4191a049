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

#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qcol_fast.h"

#ifndef OC_QCOL_DSP_LOOP_
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

#endif /* ONNX_TO_C_OC_QCOL_H_ */
