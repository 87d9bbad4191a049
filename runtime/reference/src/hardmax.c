/* Hardmax of x viewed as (outer, len, inner), along len: 1 at the first
 * maximum, 0 elsewhere. y must not overlap x. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_hardmax_f32(const float *x, float *y, int32_t outer, int32_t len, int32_t inner) {
  int32_t o, j, k;
  for (o = 0; o < outer; o++) {
    for (j = 0; j < inner; j++) {
      const ptrdiff_t base = (ptrdiff_t)o * len * inner + j;
      int32_t at = 0;
      for (k = 1; k < len; k++) {
        if (x[base + (ptrdiff_t)k * inner] > x[base + (ptrdiff_t)at * inner]) at = k;
      }
      for (k = 0; k < len; k++) y[base + (ptrdiff_t)k * inner] = k == at ? 1.0f : 0.0f;
    }
  }
}
