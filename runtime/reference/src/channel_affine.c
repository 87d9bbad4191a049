/* y[n][c][i] = x[n][c][i] * scale[c] + bias[c] (unfolded BatchNormalization);
 * y may equal x. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_channel_affine_f32(const float *x, const float *scale, const float *bias, float *y,
                                  int32_t n, int32_t c, int32_t inner) {
  int32_t in, ic, i;
  for (in = 0; in < n; in++) {
    for (ic = 0; ic < c; ic++) {
      const float s = scale[ic], b = bias[ic];
      const int32_t base = (in * c + ic) * inner;
      for (i = 0; i < inner; i++) y[base + i] = x[base + i] * s + b;
    }
  }
}
