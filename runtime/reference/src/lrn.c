/* LRN across channels of x (n, c, inner): y = x / (bias + alpha / size *
 * sum of x^2 over channels [c - floor((size-1)/2), c + ceil((size-1)/2)])^beta.
 * y must not overlap x. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_lrn_f32(const float *x, float *y, int32_t n, int32_t c, int32_t inner,
                       int32_t size, float alpha, float beta, float bias) {
  const int32_t before = (size - 1) / 2, after = size / 2;
  const float scale = alpha / (float)size;
  int32_t b, ch, i, k;
  for (b = 0; b < n; b++) {
    const float *xb = x + (ptrdiff_t)b * c * inner;
    float *yb = y + (ptrdiff_t)b * c * inner;
    for (ch = 0; ch < c; ch++) {
      const int32_t lo = ch - before < 0 ? 0 : ch - before;
      const int32_t hi = ch + after >= c ? c - 1 : ch + after;
      for (i = 0; i < inner; i++) {
        float sq = 0.0f;
        for (k = lo; k <= hi; k++) {
          const float v = xb[(ptrdiff_t)k * inner + i];
          sq += v * v;
        }
        yb[(ptrdiff_t)ch * inner + i] =
            xb[(ptrdiff_t)ch * inner + i] / oc_powf(bias + scale * sq, beta);
      }
    }
  }
}
