/* Quantized max pooling (oc_qmaxpool_params, oc_qlinear.h): the maximum of
 * the 8-bit values of each window (dequantizing is monotonic, so it is the
 * maximum of the real values), converted to the output's scale. */
#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qmaxpool(const oc_qmaxpool_params *q, const oc_requant8 *r, const void *x, void *y) {
  const oc_qpool_params *p = &q->pool;
  const ptrdiff_t plane = (ptrdiff_t)p->d_in * p->h_in * p->w_in;
  int32_t c, od, oy, ox, kd, kh, kw;
  ptrdiff_t at = 0;
  for (c = 0; c < p->n * p->c; c++) {
    for (od = 0; od < p->d_out; od++) {
      for (oy = 0; oy < p->h_out; oy++) {
        for (ox = 0; ox < p->w_out; ox++, at++) {
          int32_t best = INT32_MIN;
          for (kd = 0; kd < p->k_d; kd++) {
            const int32_t iz = od * p->stride_d - p->pad_front + kd * q->dil_d;
            if (iz < 0 || iz >= p->d_in) continue;
            for (kh = 0; kh < p->k_h; kh++) {
              const int32_t iy = oy * p->stride_h - p->pad_top + kh * q->dil_h;
              if (iy < 0 || iy >= p->h_in) continue;
              for (kw = 0; kw < p->k_w; kw++) {
                const int32_t ix = ox * p->stride_w - p->pad_left + kw * q->dil_w;
                int32_t v;
                if (ix < 0 || ix >= p->w_in) continue;
                v = oc_q8_get(x, p->x_signed,
                              c * plane + ((ptrdiff_t)iz * p->h_in + iy) * p->w_in + ix);
                best = v > best ? v : best;
              }
            }
          }
          oc_q8_put(y, p->y_signed, at, oc_qconvert(&q->convert, r, best));
        }
      }
    }
  }
}
