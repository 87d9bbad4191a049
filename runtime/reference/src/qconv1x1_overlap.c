/* Quantized 1x1 convolution, stride 1, no padding (oc_qconv_params,
 * oc_qlinear.h), whose output may overlap its input (an overlap contract,
 * as oc_conv1x1_overlap_f32): y may equal x. One pixel at a time: its input
 * channels, less the zero point, are copied to `scratch` (c_in int16), then
 * every output channel co of the pixel is written where input channel co of
 * the same pixel was (dead now), or past the input's end when co >= c_in.
 * Needs n == 1 or c_out <= c_in. */
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qpw_overlap_fast.h"


/* DSP_OK(q): whether this pair of types takes the DSP path; DSP_PIXEL: it. */
#define OC_QCONV1X1_DEFINE(NAME, XT, WT, DSP_OK, DSP_PIXEL)                                      \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w, \
                   const void *w_zp, const int32_t *bias, void *y, int16_t *column) {            \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in;                                \
    int32_t n, co, ic;                                                                           \
    ptrdiff_t px;                                                                                \
    for (n = 0; n < p->n; n++) {                                                                 \
      const XT *xn = (const XT *)x + (ptrdiff_t)n * p->c_in * vol;                               \
      const ptrdiff_t yn = (ptrdiff_t)n * p->c_out * vol;                                        \
      for (px = 0; px < vol; px++) {                                                             \
        if (DSP_OK(q)) {                                                                         \
          uint32_t column_sum = 0u;                                                              \
          for (ic = 0; ic < p->c_in; ic++) {                                                     \
            /* (c0, c2, c1, c3) per group of four; the rest in order */                          \
            const int32_t at = ic < (p->c_in & ~3) ? (ic & ~3) + ((ic & 1) << 1) + ((ic & 2) >> 1) : ic; \
            column[at] = (int16_t)((int32_t)xn[ic * vol + px] - q->x_zp);                        \
            column_sum += (uint32_t)(int32_t)column[at];                                         \
          }                                                                                      \
          DSP_PIXEL(q, r, w, w_zp, bias, y, yn + px, vol, column, column_sum);                   \
          continue;                                                                              \
        }                                                                                        \
        for (ic = 0; ic < p->c_in; ic++) {                                                       \
          column[ic] = (int16_t)((int32_t)xn[ic * vol + px] - q->x_zp);                          \
        }                                                                                        \
        for (co = 0; co < p->c_out; co++) {                                                      \
          const WT *wc = (const WT *)w + (ptrdiff_t)co * p->c_in;                                \
          const int32_t zw =                                                                     \
              w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co : 0);     \
          uint32_t sum = bias != NULL ? (uint32_t)bias[co] : 0u; /* int32 wrap-around */         \
          for (ic = 0; ic < p->c_in; ic++) {                                                     \
            sum += (uint32_t)((int32_t)column[ic] * ((int32_t)wc[ic] - zw));                     \
          }                                                                                      \
          oc_q8_put(y, q->y_signed, yn + co * vol + px, oc_requant8_apply(r, co, (int32_t)sum)); \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

#ifndef QPW_PIXEL_
#define QPW_INT8_W_(q) 0
#define QPW_PIXEL_(q, r, w, w_zp, bias, y, at, vol, column, sum) (void)(sum)
#endif
#define QPW_NEVER_(q) 0
#define QPW_NONE_(q, r, w, w_zp, bias, y, at, vol, column, sum) (void)(sum)

OC_QCONV1X1_DEFINE(oc_qconv1x1_overlap_s8s8, int8_t, int8_t, QPW_INT8_W_, QPW_PIXEL_)
OC_QCONV1X1_DEFINE(oc_qconv1x1_overlap_u8s8, uint8_t, int8_t, QPW_INT8_W_, QPW_PIXEL_)
OC_QCONV1X1_DEFINE(oc_qconv1x1_overlap_s8u8, int8_t, uint8_t, QPW_NEVER_, QPW_NONE_)
OC_QCONV1X1_DEFINE(oc_qconv1x1_overlap_u8u8, uint8_t, uint8_t, QPW_NEVER_, QPW_NONE_)

OC_API void oc_qconv1x1_overlap(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                const void *w, const void *w_zp, const int32_t *bias, void *y,
                                int16_t *column) {
  OC_Q8_PAIR_CALL(oc_qconv1x1_overlap, q->x_signed, q->w_signed,
                  (q, r, x, w, w_zp, bias, y, column));
}
