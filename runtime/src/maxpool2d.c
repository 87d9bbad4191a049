/*
 * ONNX MaxPool, 2-D (1-D is h = k_h = 1), with strides, dilations and pads.
 * Padding positions are ignored (a window entirely in the padding, which
 * valid pads never produce, gives -inf). NaN propagates.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* [*lo, *hi): the taps k in [0, k_len) whose position start + k * dil is in
 * [0, len). */
static void maxpool2d_taps_(int32_t start, int32_t dil, int32_t len, int32_t k_len, int32_t *lo,
                            int32_t *hi) {
  int32_t a = start < 0 ? (dil - 1 - start) / dil : 0;
  int32_t b = len - start > 0 ? (len - start + dil - 1) / dil : 0;
  if (b > k_len) b = k_len;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

OC_API void oc_maxpool2d_f32(const oc_pool2d_params *p, const float *x, float *y) {
  int32_t c, oy, ox, kh, kw, kh0, kh1, kw0, kw1;
  for (c = 0; c < p->n_c; c++) {
    const float *xp = x + c * p->h_in * p->w_in;
    for (oy = 0; oy < p->h_out; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      maxpool2d_taps_(iy0, p->dil_h, p->h_in, p->k_h, &kh0, &kh1);
      for (ox = 0; ox < p->w_out; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_left;
        float m = -oc_inff();
        maxpool2d_taps_(ix0, p->dil_w, p->w_in, p->k_w, &kw0, &kw1);
        for (kh = kh0; kh < kh1; kh++) {
          const float *xr = xp + (iy0 + kh * p->dil_h) * p->w_in;
          for (kw = kw0; kw < kw1; kw++) {
            const float v = xr[ix0 + kw * p->dil_w];
            m = (v > m || v != v) ? v : m;
          }
        }
        *y++ = m;
      }
    }
  }
}
