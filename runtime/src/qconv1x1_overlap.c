/* Quantized 1x1 convolution, stride 1, no padding (oc_qconv_params,
 * oc_qlinear.h), whose output may overlap its input (an overlap contract,
 * as oc_conv1x1_overlap_f32): y may equal x. One pixel at a time: its c_out
 * int32 accumulators go to `scratch`, then every output channel co of the
 * pixel is written where input channel co of the same pixel was, which is
 * dead once the pixel is read (or past the input's end when co >= c_in).
 * Needs n == 1 or c_out <= c_in. */
#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qconv1x1_overlap(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                const void *w, const void *w_zp, const int32_t *bias, void *y,
                                uint32_t *scratch) {
  const oc_conv2d_params *p = &q->conv;
  const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in;
  int32_t n, co, ic;
  ptrdiff_t px;
  for (n = 0; n < p->n; n++) {
    const ptrdiff_t xn = (ptrdiff_t)n * p->c_in * vol, yn = (ptrdiff_t)n * p->c_out * vol;
    for (px = 0; px < vol; px++) {
      for (co = 0; co < p->c_out; co++) scratch[co] = bias != NULL ? (uint32_t)bias[co] : 0u;
      for (ic = 0; ic < p->c_in; ic++) {
        const int32_t xv = oc_q8_get(x, q->x_signed, xn + ic * vol + px) - q->x_zp;
        for (co = 0; co < p->c_out; co++) {
          const int32_t zw =
              w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co : 0);
          scratch[co] += (uint32_t)(xv * (oc_q8_get(w, q->w_signed, co * p->c_in + ic) - zw));
        }
      }
      for (co = 0; co < p->c_out; co++) {
        oc_q8_put(y, q->y_signed, yn + co * vol + px, oc_requant8_apply(r, co, (int32_t)scratch[co]));
      }
    }
  }
}
