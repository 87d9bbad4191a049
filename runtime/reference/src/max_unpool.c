/* MaxUnpool: y is zero except at the positions of `indices`, which are flat
 * positions in a tensor of the pooled input's shape (n_c planes of
 * in_dims, as MaxPool returns them): each maps to the same (plane, d, h, w)
 * of y (n_c planes of out_dims, which may be larger when an output_shape
 * pads it). Out-of-range indices are skipped. Spatial dims are (d, h, w),
 * 1 where unused. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_max_unpool_f32(const float *x, const int64_t *indices, int32_t n_in, float *y,
                              int32_t n_c, const int32_t *in_dims, const int32_t *out_dims) {
  const int64_t in_plane = (int64_t)in_dims[0] * in_dims[1] * in_dims[2];
  const int64_t out_plane = (int64_t)out_dims[0] * out_dims[1] * out_dims[2];
  int32_t i;
  for (i = 0; i < (int32_t)(n_c * out_plane); i++) y[i] = 0.0f;
  for (i = 0; i < n_in; i++) {
    const int64_t at = indices[i], c = at / in_plane, r = at % in_plane;
    const int64_t d = r / ((int64_t)in_dims[1] * in_dims[2]);
    const int64_t h = (r / in_dims[2]) % in_dims[1], w = r % in_dims[2];
    if (at < 0 || c >= n_c || d >= out_dims[0] || h >= out_dims[1] || w >= out_dims[2]) continue;
    y[c * out_plane + (d * out_dims[1] + h) * out_dims[2] + w] = x[i];
  }
}
