/* Det of `batch` n x n float32 matrices: LU decomposition with partial
 * pivoting on a copy in scratch (n * n floats); the product of the pivots,
 * negated per row swap. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_det_f32(const float *x, float *y, int32_t batch, int32_t n, float *scratch) {
  int32_t b, i, j, k;
  for (b = 0; b < batch; b++) {
    float det = 1.0f;
    memcpy(scratch, x + (ptrdiff_t)b * n * n, (size_t)n * (size_t)n * sizeof *scratch);
    for (k = 0; k < n && det != 0.0f; k++) {
      int32_t piv = k;
      for (i = k + 1; i < n; i++) {
        if (fabsf(scratch[i * n + k]) > fabsf(scratch[piv * n + k])) piv = i;
      }
      if (scratch[piv * n + k] == 0.0f) {
        det = 0.0f;
        break;
      }
      if (piv != k) {
        for (j = 0; j < n; j++) {
          const float t = scratch[k * n + j];
          scratch[k * n + j] = scratch[piv * n + j];
          scratch[piv * n + j] = t;
        }
        det = -det;
      }
      det *= scratch[k * n + k];
      for (i = k + 1; i < n; i++) {
        const float f = scratch[i * n + k] / scratch[k * n + k];
        for (j = k + 1; j < n; j++) scratch[i * n + j] -= f * scratch[k * n + j];
      }
    }
    y[b] = det;
  }
}
