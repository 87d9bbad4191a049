/* TopK of x viewed as (outer, len, inner) along len: the k largest (or
 * smallest) values, sorted, with their int64 indices; equal values keep
 * increasing index order; NaN counts as the largest value. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* a comes before b in the output (values va, vb) */
static int topk_before_(float va, float vb, int32_t largest) {
  if (va != va) return vb == vb; /* NaN first, ties keep order */
  if (vb != vb) return 0;
  return largest ? va > vb : va < vb;
}

OC_API void oc_topk_f32(const float *x, float *values, int64_t *indices, int32_t outer,
                        int32_t len, int32_t inner, int32_t k, int32_t largest) {
  int32_t o, j, i, n, at;
  for (o = 0; o < outer; o++) {
    for (j = 0; j < inner; j++) {
      const float *xs = x + (ptrdiff_t)o * len * inner + j;
      float *vs = values + (ptrdiff_t)o * k * inner + j;
      int64_t *is = indices + (ptrdiff_t)o * k * inner + j;
      n = 0; /* entries kept so far, sorted */
      for (i = 0; i < len; i++) {
        const float v = xs[(ptrdiff_t)i * inner];
        for (at = n; at > 0 && topk_before_(v, vs[(ptrdiff_t)(at - 1) * inner], largest); at--) {
          if (at < k) {
            vs[(ptrdiff_t)at * inner] = vs[(ptrdiff_t)(at - 1) * inner];
            is[(ptrdiff_t)at * inner] = is[(ptrdiff_t)(at - 1) * inner];
          }
        }
        if (at < k) {
          vs[(ptrdiff_t)at * inner] = v;
          is[(ptrdiff_t)at * inner] = i;
          if (n < k) n++;
        }
      }
    }
  }
}
