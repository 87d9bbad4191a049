/* GatherND (oc_nd_params). */
#include "onnx_to_c/oc_nd.h"

OC_API void oc_gather_nd(const oc_nd_params *p, const void *data, const void *indices, void *y) {
  const size_t es = (size_t)p->elem_size, slice = (size_t)p->inner * es;
  const unsigned char *pd = (const unsigned char *)data;
  unsigned char *py = (unsigned char *)y;
  int32_t b, t;
  for (b = 0; b < p->batch; b++) {
    for (t = 0; t < p->n_tuples; t++) {
      const int32_t tuple = b * p->n_tuples + t;
      const int32_t off = oc_nd_offset(p, indices, tuple);
      if (off < 0) {
        memset(py + (size_t)tuple * slice, 0, slice);
      } else {
        memcpy(py + (size_t)tuple * slice, pd + ((size_t)b * (size_t)p->data_batch + (size_t)off) * es,
               slice);
      }
    }
  }
}
