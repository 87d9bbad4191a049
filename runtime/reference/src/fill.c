/* Fill n elements of elem_size bytes with *value. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_fill(void *y, const void *value, int32_t elem_size, int32_t n) {
  const unsigned char *v = (const unsigned char *)value;
  unsigned char *d = (unsigned char *)y;
  const size_t es = (size_t)elem_size, total = (size_t)n * es;
  size_t i, done;
  int same = 1;
  if (n <= 0) return;
  for (i = 1; i < es; i++) same &= v[i] == v[0];
  if (same) { /* zeros and other byte patterns */
    memset(d, v[0], total);
    return;
  }
  /* one element, then double the filled prefix */
  memcpy(d, v, es);
  for (done = es; done < total; done *= 2u) {
    memcpy(d + done, d, done < total - done ? done : total - done);
  }
}
