/*
 * onnx-to-c runtime, Armv7E-M: the packed 8-bit 1x1 overlap convolution
 * (qconv1x1_overlap_packed.c) with the column as int16 lanes and SMLAD; the
 * interface of the reference oc_qpw_packed_fast.h. Without the DSP
 * extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QPW_PACKED_FAST_H_
#define ONNX_TO_C_OC_QPW_PACKED_FAST_H_

#include "onnx_to_c/oc_qcol.h"

#if OC_Q8_DSP
/* Where channel k of the column is: runs of four as (0, 2, 1, 3), the last
 * c_in % 4 in place. */
#define OC_QPW16_AT_(K) ((K) < c4 ? ((K) & ~3) | (((K)&1) << 1) | (((K)&2) >> 1) : (K))

/* The four sums of a block over the column's runs of four (16-byte weight
 * runs), in a function of its own so the sums stay in registers: per run
 * one LDRD of the column's lanes (two LDR where it is not word-aligned). */
#define OC_QPW16_DOT4_DEFINE(NAME, WT, XTB16)                                                     \
  static OC_NOINLINE const WT *NAME(const int16_t *cb, const int16_t *end, const WT *wp, uint32_t *s) { \
    uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                                         \
    OC_Q8_ASM_DOT4_("ldrd %[c02], %[c13], [%[cb]], #8\n\t",                                      \
                    "ldr %[c02], [%[cb]], #4\n\tldr %[c13], [%[cb]], #4\n\t", XTB16);          \
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                  \
    return wp;                                                                                   \
  }
OC_QPW16_DOT4_DEFINE(oc_qpw16_dot4_s8, int8_t, "sxtb16")
OC_QPW16_DOT4_DEFINE(oc_qpw16_dot4_u8, uint8_t, "uxtb16")

#define OC_QCONV1X1_PACKED_DEFINE(NAME, XT, WT, DOT4)                                             \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w, \
                   const int32_t *bias, void *y, void *column) {                                 \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in;                                \
    const int32_t cin = p->c_in, cout = p->c_out, c4 = cin & ~3, tail = cin - c4;                \
    int16_t *col = (int16_t *)column;                                                            \
    int32_t n, ic, j, k;                                                                         \
    ptrdiff_t px;                                                                                \
    for (n = 0; n < p->n; n++) {                                                                 \
      const XT *xn = (const XT *)x + (ptrdiff_t)n * cin * vol;                                   \
      const ptrdiff_t yn = (ptrdiff_t)n * cout * vol;                                            \
      for (px = 0; px < vol; px++) {                                                             \
        const XT *xp = xn + px;                                                                  \
        const WT *wp = (const WT *)w;                                                            \
        for (ic = 0; ic < c4; ic += 4, xp += 4 * vol) {                                          \
          col[ic] = (int16_t)xp[0], col[ic + 1] = (int16_t)xp[2 * vol];                          \
          col[ic + 2] = (int16_t)xp[vol], col[ic + 3] = (int16_t)xp[3 * vol];                    \
        }                                                                                        \
        for (; ic < cin; ic++, xp += vol) col[ic] = (int16_t)*xp;                                \
        for (j = 0; j + 4 <= cout; j += 4) {                                                     \
          uint32_t s[4];                                                                         \
          s[0] = (uint32_t)bias[j], s[1] = (uint32_t)bias[j + 1];                                \
          s[2] = (uint32_t)bias[j + 2], s[3] = (uint32_t)bias[j + 3];                            \
          wp = DOT4(col, col + c4, wp, s);                                                       \
          for (k = 0; k < tail; k++) {                                                           \
            const int32_t cv = col[c4 + k];                                                      \
            s[0] += (uint32_t)(cv * wp[k]), s[1] += (uint32_t)(cv * wp[tail + k]);               \
            s[2] += (uint32_t)(cv * wp[2 * tail + k]), s[3] += (uint32_t)(cv * wp[3 * tail + k]); \
          }                                                                                      \
          wp += 4 * tail;                                                                        \
          oc_requant8_put4(r, j, s[0], s[1], s[2], s[3], y, yn + (ptrdiff_t)j * vol + px, vol); \
        }                                                                                        \
        for (; j < cout; j++, wp += cin) { /* the last cout % 4 channels, one at a time */       \
          uint32_t sum = (uint32_t)bias[j];                                                      \
          for (k = 0; k < cin; k++) sum += (uint32_t)((int32_t)col[OC_QPW16_AT_(k)] * wp[k]);    \
          oc_q8_put(y, q->y_signed, yn + (ptrdiff_t)j * vol + px,                                \
                    oc_requant8_apply(r, j, (int32_t)sum));                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_s8s8, int8_t, int8_t, oc_qpw16_dot4_s8)
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_s8u8, int8_t, uint8_t, oc_qpw16_dot4_u8)
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_u8s8, uint8_t, int8_t, oc_qpw16_dot4_s8)
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_u8u8, uint8_t, uint8_t, oc_qpw16_dot4_u8)
#undef OC_QPW16_AT_
#undef OC_QPW16_DOT4_DEFINE
#endif

#endif /* ONNX_TO_C_OC_QPW_PACKED_FAST_H_ */
