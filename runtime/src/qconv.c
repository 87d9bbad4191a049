/* Quantized convolution (oc_qconv_params, oc_qlinear.h): regular, grouped,
 * depthwise and pointwise, 1-D to 3-D. Padding reads as the input zero
 * point (contributes 0); the int32 bias starts the accumulator. */
#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qconv(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                     const void *w_zp, const int32_t *bias, void *y) {
  const oc_conv2d_params *p = &q->conv;
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t plane = p->d_in * p->h_in * p->w_in;
  int32_t n, co, ic, od, oy, ox, kd, kh, kw;
  ptrdiff_t at = 0;
  for (n = 0; n < p->n; n++) {
    for (co = 0; co < p->c_out; co++) {
      const int32_t g = co / cog;
      const int32_t zw = w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co : 0);
      const int32_t b = bias != NULL ? bias[co] : 0;
      const ptrdiff_t xg = ((ptrdiff_t)n * p->c_in + (ptrdiff_t)g * cig) * plane;
      const ptrdiff_t wco = (ptrdiff_t)co * cig * p->k_d * p->k_h * p->k_w;
      for (od = 0; od < p->d_out; od++) {
        for (oy = 0; oy < p->h_out; oy++) {
          for (ox = 0; ox < p->w_out; ox++, at++) {
            uint32_t sum = (uint32_t)b; /* int32 wrap-around, as int32 arithmetic */
            for (ic = 0; ic < cig; ic++) {
              const ptrdiff_t xc = xg + (ptrdiff_t)ic * plane;
              const ptrdiff_t wc = wco + (ptrdiff_t)ic * p->k_d * p->k_h * p->k_w;
              for (kd = 0; kd < p->k_d; kd++) {
                const int32_t iz = od * p->stride_d - p->pad_front + kd * p->dil_d;
                if (iz < 0 || iz >= p->d_in) continue;
                for (kh = 0; kh < p->k_h; kh++) {
                  const int32_t iy = oy * p->stride_h - p->pad_top + kh * p->dil_h;
                  const ptrdiff_t xrow = xc + ((ptrdiff_t)iz * p->h_in + iy) * p->w_in;
                  const ptrdiff_t wrow = wc + ((ptrdiff_t)kd * p->k_h + kh) * p->k_w;
                  if (iy < 0 || iy >= p->h_in) continue;
                  for (kw = 0; kw < p->k_w; kw++) {
                    const int32_t ix = ox * p->stride_w - p->pad_left + kw * p->dil_w;
                    if (ix < 0 || ix >= p->w_in) continue;
                    sum += (uint32_t)((oc_q8_get(x, q->x_signed, xrow + ix) - q->x_zp) *
                                      (oc_q8_get(w, q->w_signed, wrow + kw) - zw));
                  }
                }
              }
            }
            oc_q8_put(y, q->y_signed, at, oc_requant8_apply(r, co, (int32_t)sum));
          }
        }
      }
    }
  }
}
