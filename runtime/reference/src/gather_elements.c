/* GatherElements (oc_gather_elements_params): y[i] = x[i with its axis
 * coordinate replaced by index[i]], any element type. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_gather_elements(const oc_gather_elements_params *p, const void *x,
                               const void *index, void *y) {
  int32_t idx[OC_MAX_RANK];
  int32_t d, i, total = 1, base = 0; /* base: x offset without the axis term */
  const size_t es = (size_t)p->elem_size;
  const unsigned char *px = (const unsigned char *)x;
  unsigned char *py = (unsigned char *)y;
  for (d = 0; d < p->rank; d++) {
    idx[d] = 0;
    total *= p->dims[d];
  }
  for (i = 0; i < total; i++) {
    const int32_t k = oc_wrap_index(oc_index_at(index, p->index_is64, i), p->axis_len);
    if (k < 0) {
      memset(py + (size_t)i * es, 0, es);
    } else {
      memcpy(py + (size_t)i * es, px + (size_t)(base + k * p->x_strides[p->axis]) * es, es);
    }
    for (d = p->rank - 1; d >= 0; d--) {
      const int32_t step = d == p->axis ? 0 : p->x_strides[d];
      base += step;
      if (++idx[d] < p->dims[d]) break;
      base -= step * p->dims[d];
      idx[d] = 0;
    }
  }
}
