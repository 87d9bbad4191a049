/*
 * ONNX MaxPool, 2-D (1-D is h = k_h = 1) and 3-D, with strides, dilations
 * and pads. Padding positions are ignored (a window entirely in the padding,
 * which valid pads never produce, gives -inf). NaN propagates. indices (or
 * NULL) receives the flat input position of each maximum, the first one in
 * window order (oc_pool2d_params).
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

OC_API void oc_maxpool2d_f32(const oc_pool2d_params *p, const float *x, float *y,
                             int64_t *indices) {
  const int32_t plane = p->h_in * p->w_in;
  int32_t c, od, oy, ox, kd, kh, kw, kd0, kd1, kh0, kh1, kw0, kw1;
  for (c = 0; c < p->n_c; c++) {
    const float *xc = x + (ptrdiff_t)c * p->d_in * plane;
    for (od = 0; od < p->d_out; od++) {
      const int32_t id0 = od * p->stride_d - p->pad_front;
      maxpool2d_taps_(id0, p->dil_d, p->d_in, p->k_d, &kd0, &kd1);
      for (oy = 0; oy < p->h_out; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_top;
        maxpool2d_taps_(iy0, p->dil_h, p->h_in, p->k_h, &kh0, &kh1);
        for (ox = 0; ox < p->w_out; ox++) {
          const int32_t ix0 = ox * p->stride_w - p->pad_left;
          float m = -oc_inff();
          int32_t at_d = 0, at_y = 0, at_x = 0;
          maxpool2d_taps_(ix0, p->dil_w, p->w_in, p->k_w, &kw0, &kw1);
          for (kd = kd0; kd < kd1; kd++) {
            const int32_t iz = id0 + kd * p->dil_d;
            for (kh = kh0; kh < kh1; kh++) {
              const int32_t iy = iy0 + kh * p->dil_h;
              const float *xr = xc + (ptrdiff_t)iz * plane + (ptrdiff_t)iy * p->w_in;
              for (kw = kw0; kw < kw1; kw++) {
                const float v = xr[ix0 + kw * p->dil_w];
                if (v > m || (v != v && m == m)) {
                  m = v;
                  at_d = iz;
                  at_y = iy;
                  at_x = ix0 + kw * p->dil_w;
                }
              }
            }
          }
          *y++ = m;
          if (indices != NULL) {
            const int64_t base = ((int64_t)c * p->d_in + at_d) * plane;
            *indices++ = base + (p->storage_order ? (int64_t)at_x * p->h_in + at_y
                                                  : (int64_t)at_y * p->w_in + at_x);
          }
        }
      }
    }
  }
}
