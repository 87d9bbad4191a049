/*
 * onnx-to-c runtime: loop pieces shared by the 8-bit convolutions (qconv.c,
 * qconv2d.c): the taps of a window that fall inside the input, and the sum
 * over one window row.
 */
#ifndef ONNX_TO_C_OC_QCONV_LOOPS_H_
#define ONNX_TO_C_OC_QCONV_LOOPS_H_

#include "onnx_to_c/oc_qlinear.h"

/* The taps k in [*k0, *k1) of a window starting at input index `start` with
 * dilation `dil` that fall inside [0, size). */
OC_INLINE void oc_qconv_taps(int32_t start, int32_t dil, int32_t k, int32_t size, int32_t *k0,
                          int32_t *k1) {
  int32_t lo = 0, hi = k;
  while (lo < hi && start + lo * dil < 0) lo++;
  while (hi > lo && start + (hi - 1) * dil >= size) hi--;
  *k0 = lo;
  *k1 = hi;
}

/* sum += (x - zx)(w - zw) over the taps kw in [K0, K1) of one window row. */
#define OC_QCONV_ROW_(XT, WT, XR, WR, K0, K1, DIL)                                             \
  for (kw = (K0); kw < (K1); kw++) {                                                         \
    sum += (uint32_t)(((int32_t)((const XT *)(XR))[kw * (DIL)] - zx) * ((int32_t)(WR)[kw] - zw)); \
  }

#endif /* ONNX_TO_C_OC_QCONV_LOOPS_H_ */
