/* ArgMax / ArgMin of x viewed as (outer, len, inner), along len: int64
 * indices, the first extreme element (the last with select_last); a NaN
 * counts as the extreme, as in numpy. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_argmax_f32(const float *x, int64_t *y, int32_t outer, int32_t len, int32_t inner,
                          int32_t is_min, int32_t select_last) {
  int32_t o, j, k;
  for (o = 0; o < outer; o++) {
    for (j = 0; j < inner; j++) {
      const float *xs = x + (ptrdiff_t)o * len * inner + j;
      float best = xs[0];
      int32_t at = 0;
      for (k = 1; k < len && best == best; k++) {
        const float v = xs[(ptrdiff_t)k * inner];
        const int better = v != v || (is_min ? v < best : v > best) || (select_last && v == best);
        if (better) {
          best = v;
          at = k;
        }
      }
      y[(ptrdiff_t)o * inner + j] = at;
    }
  }
}
