/* Quantized average pooling (oc_qpool_params, oc_qlinear.h). */
#include "onnx_to_c/oc_qlinear.h"

/* round(x / d), halves away from zero (d > 0). */
static int32_t oc_div_round(int32_t x, int32_t d) {
  const uint32_t mag = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
  const uint32_t r = (mag + (uint32_t)d / 2u) / (uint32_t)d;
  return x < 0 ? -(int32_t)r : (int32_t)r;
}

OC_API void oc_qavgpool(const oc_qpool_params *q, const oc_requant8 *r, const void *x, void *y) {
  const ptrdiff_t plane = (ptrdiff_t)q->d_in * q->h_in * q->w_in;
  int32_t c, od, oy, ox, iz, iy, ix;
  ptrdiff_t at = 0;
  for (c = 0; c < q->n * q->c; c++) {
    const ptrdiff_t xc = (ptrdiff_t)c * plane;
    for (od = 0; od < q->d_out; od++) {
      const int32_t z0 = od * q->stride_d - q->pad_front;
      const int32_t z1 = z0 + q->k_d < q->d_in ? z0 + q->k_d : q->d_in;
      for (oy = 0; oy < q->h_out; oy++) {
        const int32_t y0 = oy * q->stride_h - q->pad_top;
        const int32_t y1 = y0 + q->k_h < q->h_in ? y0 + q->k_h : q->h_in;
        for (ox = 0; ox < q->w_out; ox++, at++) {
          const int32_t x0 = ox * q->stride_w - q->pad_left;
          const int32_t x1 = x0 + q->k_w < q->w_in ? x0 + q->k_w : q->w_in;
          const int32_t zs = z0 < 0 ? 0 : z0, ys = y0 < 0 ? 0 : y0, xs = x0 < 0 ? 0 : x0;
          const int32_t count = q->count_include_pad ? q->k_d * q->k_h * q->k_w
                                                     : (z1 - zs) * (y1 - ys) * (x1 - xs);
          float fsum = 0.0f;
          int32_t isum = 0, v;
          for (iz = zs; iz < z1; iz++) {
            for (iy = ys; iy < y1; iy++) {
              const ptrdiff_t row = xc + ((ptrdiff_t)iz * q->h_in + iy) * q->w_in;
              for (ix = xs; ix < x1; ix++) {
                const int32_t d = oc_q8_get(x, q->x_signed, row + ix) - q->x_zp;
                if (r->mult != NULL) {
                  fsum += q->x_scale * (float)d;
                } else {
                  isum += d;
                }
              }
            }
          }
          if (r->mult != NULL) {
            /* as QuantizeLinear: rounded before the zero point is added (adding it
             * first rounds in float32 and can move a value onto a tie) */
            float f = oc_roundf_even(fsum / (float)count / q->y_scale) + (float)r->zp;
            v = f < (float)r->lo ? r->lo : (f > (float)r->hi ? r->hi : (int32_t)f);
          } else {
            /* isum * 256 * (x_scale / y_scale), then / (256 * count) */
            v = oc_requant_fixed(oc_sat_i32((int64_t)isum * 256), r->q_mult[0], r->q_shift[0]);
            v = oc_div_round(v, 256 * count) + r->zp;
            v = v < r->lo ? r->lo : (v > r->hi ? r->hi : v);
          }
          oc_q8_put(y, q->y_signed, at, v);
        }
      }
    }
  }
}
