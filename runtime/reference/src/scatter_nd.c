/* ScatterND (oc_nd_params): y = data, then each tuple's slice of updates
 * written (or combined) in tuple order; out-of-range tuples are skipped. */
#include "onnx_to_c/oc_nd.h"
#include "onnx_to_c/oc_scatter.h"

OC_API void oc_scatter_nd(const oc_nd_params *p, const void *data, const void *indices,
                          const void *updates, void *y) {
  const size_t es = (size_t)p->elem_size;
  const unsigned char *pu = (const unsigned char *)updates;
  unsigned char *py = (unsigned char *)y;
  int32_t b, t, i;
  memcpy(py, data, (size_t)p->batch * (size_t)p->data_batch * es);
  for (b = 0; b < p->batch; b++) {
    for (t = 0; t < p->n_tuples; t++) {
      const int32_t tuple = b * p->n_tuples + t;
      const int32_t off = oc_nd_offset(p, indices, tuple);
      if (off < 0) continue;
      for (i = 0; i < p->inner; i++) {
        oc_scatter_put(p->reduction, py + ((size_t)b * (size_t)p->data_batch + (size_t)off + (size_t)i) * es,
                       pu + ((size_t)tuple * (size_t)p->inner + (size_t)i) * es, es);
      }
    }
  }
}
