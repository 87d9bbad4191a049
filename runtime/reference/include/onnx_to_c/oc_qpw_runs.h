/*
 * onnx-to-c runtime: the runs of four input channels of the 8-bit pointwise
 * tiles (two output channels by two pixels, weights packed per pair of
 * channels as qconv_pw_nhwc.c says) where no optimized folder gave them
 * (oc_qpw_nhwc_fast.h): xa, xb the pixels' bytes, w the pair's weights; adds
 * to s00 (channel c, pixel a), s01 (c + 1, a), s10 (c, b), s11 (c + 1, b);
 * leaves k at c4 and w past the runs. Include after oc_qpw_nhwc_fast.h.
 */
#ifndef ONNX_TO_C_OC_QPW_RUNS_H_
#define ONNX_TO_C_OC_QPW_RUNS_H_

#ifndef QPW_NHWC_RUNS_
#define QPW_NHWC_RUNS_(XT, WT)                                                                    \
  for (k = 0; k < c4; k += 4, w += 8) {                                                         \
    int32_t t;                                                                                  \
    for (t = 0; t < 4; t++) {                                                                   \
      const int32_t a = (int32_t)xa[k + t], b = (int32_t)xb[k + t];                             \
      const int32_t w0 = (int32_t)w[t], w1 = (int32_t)w[4 + t];                                 \
      s00 += (uint32_t)(a * w0), s01 += (uint32_t)(a * w1);                                     \
      s10 += (uint32_t)(b * w0), s11 += (uint32_t)(b * w1);                                     \
    }                                                                                           \
  }
#endif

/* A tile's four sums (uint32_t s00, s01, s10, s11, declared by the caller)
 * from the folded biases of c and c + 1: the runs, then each channel's
 * c_in % 4 last (tail) input channels; leaves w at the next pair's weights. */
#define QPW_TILE_SUMS_(XT, WT)                                                                    \
  s00 = (uint32_t)bias[c], s01 = (uint32_t)bias[c + 1], s10 = s00, s11 = s01;                   \
  QPW_NHWC_RUNS_(XT, WT)                                                                        \
  for (; k < cin; k++, w++) {                                                                   \
    const int32_t a = (int32_t)xa[k], b = (int32_t)xb[k];                                       \
    const int32_t w0 = (int32_t)w[0], w1 = (int32_t)w[tail];                                    \
    s00 += (uint32_t)(a * w0), s01 += (uint32_t)(a * w1);                                       \
    s10 += (uint32_t)(b * w0), s11 += (uint32_t)(b * w1);                                       \
  }                                                                                             \
  w += tail;

/* An odd last channel's sums at the two pixels (uint32_t sa, sb, declared by
 * the caller): its c_in weights in order. */
#define QPW_ODD_SUMS_                                                                             \
  sa = (uint32_t)bias[c], sb = sa;                                                              \
  for (k = 0; k < cin; k++) {                                                                   \
    sa += (uint32_t)((int32_t)xa[k] * (int32_t)w[k]);                                           \
    sb += (uint32_t)((int32_t)xb[k] * (int32_t)w[k]);                                           \
  }

#endif /* ONNX_TO_C_OC_QPW_RUNS_H_ */
