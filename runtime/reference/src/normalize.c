/* LayerNormalization and InstanceNormalization (oc_norm_params) in float32:
 * per row, mean = sum / n, var = sum((x - mean)^2) / n, inv_std = 1 /
 * sqrt(var + epsilon), y = (x - mean) * inv_std * scale + bias. mean and
 * inv_std (one per row) are written when not NULL; bias may be NULL. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_normalize_f32(const oc_norm_params *p, const float *x, const float *scale,
                             const float *bias, float *y, float *mean_out, float *inv_std_out) {
  int32_t r, j;
  for (r = 0; r < p->rows; r++) {
    const float *xr = x + (ptrdiff_t)r * p->cols;
    float *yr = y + (ptrdiff_t)r * p->cols;
    float sum = 0.0f, sq = 0.0f, mean, inv_std;
    for (j = 0; j < p->cols; j++) sum += xr[j];
    mean = sum / (float)p->cols;
    for (j = 0; j < p->cols; j++) {
      const float dv = xr[j] - mean;
      sq += dv * dv;
    }
    inv_std = 1.0f / sqrtf(sq / (float)p->cols + p->epsilon);
    if (p->channels > 0) {
      const int32_t c = r % p->channels;
      const float b = bias != NULL ? bias[c] : 0.0f;
      for (j = 0; j < p->cols; j++) yr[j] = (xr[j] - mean) * inv_std * scale[c] + b;
    } else {
      for (j = 0; j < p->cols; j++) {
        yr[j] = (xr[j] - mean) * inv_std * scale[j] + (bias != NULL ? bias[j] : 0.0f);
      }
    }
    if (mean_out != NULL) mean_out[r] = mean;
    if (inv_std_out != NULL) inv_std_out[r] = inv_std;
  }
}
