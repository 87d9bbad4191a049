/* GlobalAveragePool / GlobalMaxPool over (n_c, len), len >= 1: y[c] = mean
 * (sum in increasing order, then divided by len) or max (NaN propagates). */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_global_pool_f32(const float *x, float *y, int32_t n_c, int32_t len,
                               int32_t is_max) {
  int32_t c, i;
  for (c = 0; c < n_c; c++) {
    const float *xc = x + c * len;
    if (is_max) {
      float m = xc[0];
      for (i = 1; i < len; i++) m = (xc[i] > m || xc[i] != xc[i]) ? xc[i] : m;
      y[c] = m;
    } else {
      float s = 0.0f;
      for (i = 0; i < len; i++) s += xc[i];
      y[c] = s / (float)len;
    }
  }
}

