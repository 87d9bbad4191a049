/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit 1x1 overlap convolution (qconv1x1_overlap.c), int8
 * weights, with SMLAD; the interface of the reference oc_qpw_overlap_fast.h.
 * Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QPW_OVERLAP_FAST_H_
#define ONNX_TO_C_OC_QPW_OVERLAP_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
/* Cortex-M4/M7 DSP extension, int8 weights: the column is stored with each
 * group of four channels as (c0, c2, c1, c3), the lanes SXTB16 gives four
 * weights in, so two SMLAD multiply four channels (Arm ACLE). The zero point
 * of the weights comes out of the sum as zw times the column's sum; integer
 * sums wrap the same in any order, so the bits are the plain loop's. */
#define QPW_DSP_ 1

/* Four products of column lanes (c0, c2), (c1, c3) and four int8 weights. */
#define QPW_DSP4_(S, V) \
  S = (uint32_t)__smlad(c13, (int32_t)oc_sxtb16_odd(V), __smlad(c02, (int32_t)__sxtb16(V), (int32_t)(S)))

/* The sums of four output channels (weights w, w + cin, ...) over the first
 * c4 channels of the column, in a function of its own so that the sums and
 * pointers stay in registers. */
static __attribute__((noinline)) void qpw_dot4_(const int16_t *column, const int8_t *w, int32_t cin,
                                                int32_t c4, uint32_t *s) {
  const int8_t *w0 = w, *w1 = w + cin, *w2 = w1 + cin, *w3 = w2 + cin;
  const int16_t *end = column + c4;
  uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  for (; column < end; column += 4, w0 += 4, w1 += 4, w2 += 4, w3 += 4) {
    int32_t c02, c13;
    uint32_t v0, v1, v2, v3;
    memcpy(&c02, column, sizeof c02);
    memcpy(&c13, column + 2, sizeof c13);
    memcpy(&v0, w0, sizeof v0);
    memcpy(&v1, w1, sizeof v1);
    memcpy(&v2, w2, sizeof v2);
    memcpy(&v3, w3, sizeof v3);
    QPW_DSP4_(s0, v0);
    QPW_DSP4_(s1, v1);
    QPW_DSP4_(s2, v2);
    QPW_DSP4_(s3, v3);
  }
  s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

static void qpw_pixel_dsp_(const oc_qconv_params *q, const oc_requant8 *r, const int8_t *w,
                           const void *w_zp, const int32_t *bias, void *y, ptrdiff_t at, ptrdiff_t vol,
                           const int16_t *column, uint32_t column_sum) {
  const int32_t cin = q->conv.c_in, c4 = cin & ~3, c_out = q->conv.c_out, y_signed = q->y_signed;
  int32_t co = 0, c, ic;
  uint32_t s[4];
  for (; co < c_out; co += 4) {
    const int32_t m = c_out - co < 4 ? c_out - co : 4; /* a short last block: channels repeated */
    for (c = 0; c < 4; c++) s[c] = bias != NULL ? (uint32_t)bias[co + (c < m ? c : m - 1)] : 0u;
    if (m == 4) {
      qpw_dot4_(column, w + (ptrdiff_t)co * cin, cin, c4, s);
    }
    for (c = 0; c < m; c++) {
      const int8_t *wc = w + (ptrdiff_t)(co + c) * cin;
      const int32_t zw = w_zp == NULL ? 0 : oc_q8_get(w_zp, 1, q->w_zp_per_channel ? co + c : 0);
      uint32_t sum = s[c];
      int32_t acc = 0;
      if (m < 4) { /* one channel at a time */
        for (ic = 0; ic < c4; ic += 4) {
          uint32_t v;
          int32_t c02, c13;
          memcpy(&v, wc + ic, sizeof v);
          memcpy(&c02, column + ic, sizeof c02);
          memcpy(&c13, column + ic + 2, sizeof c13);
          acc = __smlad(c02, (int32_t)__sxtb16(v), acc);
          acc = __smlad(c13, (int32_t)oc_sxtb16_odd(v), acc);
        }
        sum += (uint32_t)acc;
      }
      for (ic = c4; ic < cin; ic++) sum += (uint32_t)((int32_t)column[ic] * (int32_t)wc[ic]);
      sum -= (uint32_t)zw * column_sum;
      oc_q8_put(y, y_signed, at + (co + c) * vol, oc_requant8_apply(r, co + c, (int32_t)sum));
    }
  }
}
#undef QPW_DSP4_
#endif

#if QPW_DSP_
#define QPW_INT8_W_(q) 1
#define QPW_PIXEL_(q, r, w, w_zp, bias, y, at, vol, column, sum) \
  qpw_pixel_dsp_(q, r, (const int8_t *)(w), w_zp, bias, y, at, vol, column, sum)
#endif

#endif /* ONNX_TO_C_OC_QPW_OVERLAP_FAST_H_ */
