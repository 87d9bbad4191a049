/* DFT (oc_dft_params) by direct summation in increasing j, with the
 * compiler's table of cos / sin (tw[2 m], tw[2 m + 1]). */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_dft_f32(const oc_dft_params *p, const float *x, const float *tw, float *y) {
  const int32_t ci = p->complex_in ? 2 : 1, n = p->n_in < p->len ? p->n_in : p->len;
  const float sign = p->inverse ? 1.0f : -1.0f;
  int32_t o, i, k, j;
  for (o = 0; o < p->outer; o++) {
    for (k = 0; k < p->n_out; k++) {
      for (i = 0; i < p->inner; i++) {
        float re = 0.0f, im = 0.0f;
        int32_t m = 0; /* (j * k) mod len */
        for (j = 0; j < n; j++) {
          const float *xv = x + (((ptrdiff_t)o * p->n_in + j) * p->inner + i) * ci;
          const float c = tw[2 * m], s = sign * tw[2 * m + 1];
          const float xr = xv[0], xi = p->complex_in ? xv[1] : 0.0f;
          re += xr * c - xi * s;
          im += xr * s + xi * c;
          m += k;
          if (m >= p->len) m -= p->len * (m / p->len);
        }
        if (p->inverse) {
          re /= (float)p->len;
          im /= (float)p->len;
        }
        y[(((ptrdiff_t)o * p->n_out + k) * p->inner + i) * 2] = re;
        y[(((ptrdiff_t)o * p->n_out + k) * p->inner + i) * 2 + 1] = im;
      }
    }
  }
}
