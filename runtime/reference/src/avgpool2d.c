/*
 * ONNX AveragePool, 2-D (1-D is h = k_h = 1) and 3-D, with strides,
 * dilations and pads. The sum runs over the window positions inside the
 * input (kd, kh, then kw, increasing). The divisor is the number of window
 * positions inside the padded input [-pad_top, h_in + pad_bottom) x
 * [-pad_left, w_in + pad_right) (and likewise in depth) when
 * count_include_pad (ceil_mode windows are clipped to it), else the number
 * inside the input.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* [*lo, *hi): the taps k in [0, k_len) whose position start + k * dil is in
 * [begin, end). */
static void avgpool2d_taps_(int32_t start, int32_t dil, int32_t begin, int32_t end,
                            int32_t k_len, int32_t *lo, int32_t *hi) {
  const int32_t off = start - begin, len = end - begin;
  int32_t a = off < 0 ? (dil - 1 - off) / dil : 0;
  int32_t b = len - off > 0 ? (len - off + dil - 1) / dil : 0;
  if (b > k_len) b = k_len;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

OC_API void oc_avgpool2d_f32(const oc_pool2d_params *p, const float *x, float *y) {
  const int32_t plane = p->h_in * p->w_in;
  int32_t c, od, oy, ox, kd, kh, kw, kd0, kd1, kh0, kh1, kw0, kw1, pd0, pd1, ph0, ph1, pw0, pw1;
  for (c = 0; c < p->n_c; c++) {
    const float *xc = x + (ptrdiff_t)c * p->d_in * plane;
    for (od = 0; od < p->d_out; od++) {
      const int32_t id0 = od * p->stride_d - p->pad_front;
      avgpool2d_taps_(id0, p->dil_d, 0, p->d_in, p->k_d, &kd0, &kd1);
      avgpool2d_taps_(id0, p->dil_d, -p->pad_front, p->d_in + p->pad_back, p->k_d, &pd0, &pd1);
      for (oy = 0; oy < p->h_out; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_top;
        avgpool2d_taps_(iy0, p->dil_h, 0, p->h_in, p->k_h, &kh0, &kh1);
        avgpool2d_taps_(iy0, p->dil_h, -p->pad_top, p->h_in + p->pad_bottom, p->k_h, &ph0, &ph1);
        for (ox = 0; ox < p->w_out; ox++) {
          const int32_t ix0 = ox * p->stride_w - p->pad_left;
          float sum = 0.0f;
          int32_t count;
          avgpool2d_taps_(ix0, p->dil_w, 0, p->w_in, p->k_w, &kw0, &kw1);
          for (kd = kd0; kd < kd1; kd++) {
            const float *xp = xc + (ptrdiff_t)(id0 + kd * p->dil_d) * plane;
            for (kh = kh0; kh < kh1; kh++) {
              const float *xr = xp + (iy0 + kh * p->dil_h) * p->w_in;
              for (kw = kw0; kw < kw1; kw++) sum += xr[ix0 + kw * p->dil_w];
            }
          }
          if (p->count_include_pad) {
            avgpool2d_taps_(ix0, p->dil_w, -p->pad_left, p->w_in + p->pad_right, p->k_w, &pw0,
                            &pw1);
            count = (pd1 - pd0) * (ph1 - ph0) * (pw1 - pw0);
          } else {
            count = (kd1 - kd0) * (kh1 - kh0) * (kw1 - kw0);
          }
          *y++ = count > 0 ? sum / (float)count : 0.0f;
        }
      }
    }
  }
}
