/* Trilu (oc_trilu_params): keeps the upper (j - i >= k) or lower
 * (j - i <= k) triangle of each matrix and zeros the rest; any element type. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_trilu(const oc_trilu_params *p, const void *x, const int64_t *k_ptr, void *y) {
  const int64_t k = k_ptr != NULL ? k_ptr[0] : p->k;
  const size_t es = (size_t)p->elem_size;
  const unsigned char *px = (const unsigned char *)x;
  unsigned char *py = (unsigned char *)y;
  int32_t b, i, j;
  for (b = 0; b < p->batch; b++) {
    for (i = 0; i < p->rows; i++) {
      for (j = 0; j < p->cols; j++) {
        const int64_t diag = (int64_t)j - (int64_t)i;
        const size_t at = (((size_t)b * (size_t)p->rows + (size_t)i) * (size_t)p->cols + (size_t)j) * es;
        if (p->upper ? diag >= k : diag <= k) {
          memcpy(py + at, px + at, es);
        } else {
          memset(py + at, 0, es);
        }
      }
    }
  }
}
