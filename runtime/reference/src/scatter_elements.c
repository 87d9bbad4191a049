/* ScatterElements (oc_scatter_elements_params), in index order (a later
 * duplicate index overwrites, or combines with, an earlier one). */
#include "onnx_to_c/oc_scatter.h"
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_scatter_elements(const oc_scatter_elements_params *p, const void *data,
                                const void *index, const void *updates, void *y) {
  int32_t idx[OC_MAX_RANK];
  int32_t d, i, total = 1, base = 0; /* base: y offset without the axis term */
  const size_t es = (size_t)p->elem_size;
  const unsigned char *pu = (const unsigned char *)updates;
  unsigned char *py = (unsigned char *)y;
  memcpy(py, data, (size_t)p->data_size * es);
  for (d = 0; d < p->rank; d++) {
    idx[d] = 0;
    total *= p->dims[d];
  }
  for (i = 0; i < total; i++) {
    const int32_t k = oc_wrap_index(oc_index_at(index, p->index_is64, i), p->axis_len);
    if (k >= 0) {
      oc_scatter_put(p->reduction, py + (size_t)(base + k * p->y_strides[p->axis]) * es,
                     pu + (size_t)i * es, es);
    }
    for (d = p->rank - 1; d >= 0; d--) {
      const int32_t step = d == p->axis ? 0 : p->y_strides[d];
      base += step;
      if (++idx[d] < p->dims[d]) break;
      base -= step * p->dims[d];
      idx[d] = 0;
    }
  }
}
