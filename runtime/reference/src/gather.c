/* Gather along one axis (oc_gather_params): x is (outer, axis_len, inner),
 * y is (outer, n_indices, inner), elements of elem_size bytes. Indices are
 * int32 or int64, negative ones count from the end, out-of-range ones give
 * zeros. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_gather(const oc_gather_params *p, const void *x, const void *indices, void *y) {
  const size_t chunk = (size_t)p->inner * (size_t)p->elem_size;
  const unsigned char *src = (const unsigned char *)x;
  unsigned char *dst = (unsigned char *)y;
  int32_t o, j;
  for (o = 0; o < p->outer; o++) {
    const unsigned char *so = src + (size_t)o * (size_t)p->axis_len * chunk;
    for (j = 0; j < p->n_indices; j++) {
      const int32_t i = oc_wrap_index(oc_index_at(indices, p->index_is64, j), p->axis_len);
      if (i < 0) {
        memset(dst, 0, chunk);
      } else {
        memcpy(dst, so + (size_t)i * chunk, chunk);
      }
      dst += chunk;
    }
  }
}
