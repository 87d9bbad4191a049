/* ConvInteger (oc_conv_int_params): int32 convolution of zero-point
 * adjusted 8-bit operands, 1-D to 3-D, with groups, strides, dilations and
 * begin pads (padding reads as the zero point, i.e. contributes 0). */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_conv_integer(const oc_conv_int_params *q, const void *x, const void *x_zp,
                            const void *w, const void *w_zp, int32_t *y) {
  const oc_conv2d_params *p = &q->conv;
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t zx = oc_q8_at(x_zp, q->x_signed, 0);
  int32_t n, co, ic, od, oy, ox, kd, kh, kw;
  for (n = 0; n < p->n; n++) {
    for (co = 0; co < p->c_out; co++) {
      const int32_t g = co / cog;
      const int32_t zw = oc_q8_at(w_zp, q->w_signed, q->w_zp_per_channel ? co : 0);
      for (od = 0; od < p->d_out; od++) {
        for (oy = 0; oy < p->h_out; oy++) {
          for (ox = 0; ox < p->w_out; ox++) {
            uint32_t sum = 0u;
            for (ic = 0; ic < cig; ic++) {
              const int32_t xc = (n * p->c_in + g * cig + ic) * p->d_in;
              const int32_t wc = (co * cig + ic) * p->k_d;
              for (kd = 0; kd < p->k_d; kd++) {
                const int32_t iz = od * p->stride_d - p->pad_front + kd * p->dil_d;
                if (iz < 0 || iz >= p->d_in) continue;
                for (kh = 0; kh < p->k_h; kh++) {
                  const int32_t iy = oy * p->stride_h - p->pad_top + kh * p->dil_h;
                  if (iy < 0 || iy >= p->h_in) continue;
                  for (kw = 0; kw < p->k_w; kw++) {
                    const int32_t ix = ox * p->stride_w - p->pad_left + kw * p->dil_w;
                    int32_t xv, wv;
                    if (ix < 0 || ix >= p->w_in) continue;
                    xv = oc_q8_at(x, q->x_signed, ((xc + iz) * p->h_in + iy) * p->w_in + ix) - zx;
                    wv = oc_q8_at(w, q->w_signed, ((wc + kd) * p->k_h + kh) * p->k_w + kw) - zw;
                    sum += (uint32_t)(xv * wv);
                  }
                }
              }
            }
            *y++ = (int32_t)sum;
          }
        }
      }
    }
  }
}
