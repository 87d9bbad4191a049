/*
 * Softmax / LogSoftmax of x viewed as (outer, len, inner), along len.
 * Stable: exp(x - max). The sum runs in increasing index order. y may equal
 * x (every element is read before it is written).
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_softmax_f32(const float *x, float *y, int32_t outer, int32_t len, int32_t inner,
                           int32_t log) {
  int32_t o, j, k;
  if (len <= 0) return;
  for (o = 0; o < outer; o++) {
    for (j = 0; j < inner; j++) {
      const float *xs = x + o * len * inner + j;
      float *ys = y + o * len * inner + j;
      float m = xs[0], sum = 0.0f;
      for (k = 1; k < len; k++) {
        const float v = xs[k * inner];
        m = v > m ? v : m;
      }
      if (log) {
        float ls;
        for (k = 0; k < len; k++) sum += oc_expf(xs[k * inner] - m);
        ls = oc_logf(sum);
        for (k = 0; k < len; k++) ys[k * inner] = (xs[k * inner] - m) - ls;
      } else {
        for (k = 0; k < len; k++) {
          const float e = oc_expf(xs[k * inner] - m);
          ys[k * inner] = e;
          sum += e;
        }
        for (k = 0; k < len; k++) ys[k * inner] = ys[k * inner] / sum;
      }
    }
  }
}
