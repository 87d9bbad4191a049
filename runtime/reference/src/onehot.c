/* OneHot: y (outer, depth, inner) holds values[1] where the index (outer,
 * inner) equals the depth position (negative indices count from the end)
 * and values[0] elsewhere; indices of any integer type or float32, values
 * of elem_size bytes. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_onehot(const void *indices, int32_t index_dtype, const void *values, void *y,
                      int32_t outer, int32_t depth, int32_t inner, int32_t elem_size) {
  const size_t es = (size_t)elem_size;
  const unsigned char *pv = (const unsigned char *)values;
  unsigned char *py = (unsigned char *)y;
  int32_t o, d, i;
  for (o = 0; o < outer; o++) {
    for (d = 0; d < depth; d++) {
      for (i = 0; i < inner; i++) {
        const int32_t hot = oc_wrap_index(oc_int_at(indices, index_dtype, o * inner + i), depth);
        memcpy(py + (((size_t)o * (size_t)depth + (size_t)d) * (size_t)inner + (size_t)i) * es,
               pv + (hot == d ? es : 0u), es);
      }
    }
  }
}
