/* Gather along one axis with compile-time indices: x is (outer, axis_len,
 * inner), y is (outer, n_indices, inner), elements of elem_size bytes. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_gather(const oc_gather_params *p, const void *x, const int32_t *indices, void *y) {
  const size_t chunk = (size_t)p->inner * (size_t)p->elem_size;
  const unsigned char *src = (const unsigned char *)x;
  unsigned char *dst = (unsigned char *)y;
  int32_t o, j;
  for (o = 0; o < p->outer; o++) {
    const unsigned char *so = src + (size_t)o * (size_t)p->axis_len * chunk;
    for (j = 0; j < p->n_indices; j++) {
      memcpy(dst, so + (size_t)indices[j] * chunk, chunk);
      dst += chunk;
    }
  }
}
