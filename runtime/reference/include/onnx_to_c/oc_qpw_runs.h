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

#endif /* ONNX_TO_C_OC_QPW_RUNS_H_ */
