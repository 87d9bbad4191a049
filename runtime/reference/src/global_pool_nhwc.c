/* GlobalAveragePool / GlobalMaxPool with x NHWC (n items of len pixels x c
 * channels), y (n, c): each channel's values in increasing pixel order, as
 * oc_global_pool_f32 (global_pool.c) takes them, so the same bits. y holds the
 * running sums (or maxima); it never shares memory with x. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_global_pool_nhwc_f32(const float *x, float *y, int32_t n, int32_t c, int32_t len,
                                    int32_t is_max) {
  int32_t b, ch, i;
  for (b = 0; b < n; b++) {
    const float *xb = x + (ptrdiff_t)b * len * c;
    float *yb = y + (ptrdiff_t)b * c;
    for (ch = 0; ch < c; ch++) yb[ch] = is_max ? xb[ch] : 0.0f;
    for (i = is_max ? 1 : 0; i < len; i++) {
      const float *xp = xb + (ptrdiff_t)i * c;
      if (is_max) {
        for (ch = 0; ch < c; ch++) yb[ch] = (xp[ch] > yb[ch] || xp[ch] != xp[ch]) ? xp[ch] : yb[ch];
      } else {
        for (ch = 0; ch < c; ch++) yb[ch] += xp[ch];
      }
    }
    if (!is_max) {
      for (ch = 0; ch < c; ch++) yb[ch] = yb[ch] / (float)len;
    }
  }
}
