/* Where: y = c ? a : b with numpy broadcasting of all three operands
 * (oc_where_params); any element type, copied as bytes. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_where(const oc_where_params *p, const uint8_t *c, const void *a, const void *b,
                     void *y) {
  int32_t idx[OC_MAX_RANK];
  int32_t d, i, total = 1, co = 0, ao = 0, bo = 0;
  const size_t es = (size_t)p->elem_size;
  const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
  unsigned char *py = (unsigned char *)y;
  for (d = 0; d < p->rank; d++) {
    idx[d] = 0;
    total *= p->dims[d];
  }
  for (i = 0; i < total; i++) {
    memcpy(py + (size_t)i * es, c[co] ? pa + (size_t)ao * es : pb + (size_t)bo * es, es);
    for (d = p->rank - 1; d >= 0; d--) {
      co += p->c_strides[d];
      ao += p->a_strides[d];
      bo += p->b_strides[d];
      if (++idx[d] < p->dims[d]) break;
      co -= p->c_strides[d] * p->dims[d];
      ao -= p->a_strides[d] * p->dims[d];
      bo -= p->b_strides[d] * p->dims[d];
      idx[d] = 0;
    }
  }
}
