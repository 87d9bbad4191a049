/* Quantized convolution (oc_qconv_params, oc_qlinear.h), the general loop
 * nest: regular, grouped and depthwise, 1-D to 3-D. Padding reads as the
 * input zero point (contributes 0); the int32 bias starts the accumulator
 * (int32 wrap-around, as int32 arithmetic). One loop nest per pair of element
 * types, so the innermost loop reads typed elements without branching. 2-D
 * convolutions (qconv2d.c), pointwise ones (qconv_pointwise.c) and those with
 * a column (qconv_column.c) have kernels of their own, with the same sums. */
#include "onnx_to_c/oc_qconv_loops.h"

#define OC_QCONV_DEFINE(NAME, XT, WT)                                                              \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const void *w_zp, const int32_t *bias, void *y) {                               \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group, zx = q->x_zp;               \
    const ptrdiff_t plane = (ptrdiff_t)p->d_in * p->h_in * p->w_in;                                \
    const ptrdiff_t wsize = (ptrdiff_t)p->k_d * p->k_h * p->k_w;                                   \
    int32_t n, co, ic, od, oy, ox, kd, kh, kw, d0, d1, h0, h1, w0, w1;                             \
    ptrdiff_t at = 0;                                                                              \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (co = 0; co < p->c_out; co++) {                                                          \
        const int32_t zw =                                                                         \
            w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co : 0);         \
        const uint32_t b = bias != NULL ? (uint32_t)bias[co] : 0u;                                 \
        const XT *xg =                                                                             \
            (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)(co / cog) * cig) * plane;        \
        const WT *wc = (const WT *)w + (ptrdiff_t)co * cig * wsize;                                \
        for (od = 0; od < p->d_out; od++) {                                                        \
          const int32_t iz = od * p->stride_d - p->pad_front;                                      \
          oc_qconv_taps(iz, p->dil_d, p->k_d, p->d_in, &d0, &d1);                                  \
          for (oy = 0; oy < p->h_out; oy++) {                                                      \
            const int32_t iy = oy * p->stride_h - p->pad_top;                                      \
            oc_qconv_taps(iy, p->dil_h, p->k_h, p->h_in, &h0, &h1);                                \
            for (ox = 0; ox < p->w_out; ox++, at++) {                                              \
              const int32_t ix = ox * p->stride_w - p->pad_left;                                   \
              uint32_t sum = b; /* int32 wrap-around, as int32 arithmetic */                       \
              oc_qconv_taps(ix, p->dil_w, p->k_w, p->w_in, &w0, &w1);                              \
              for (ic = 0; ic < cig; ic++) {                                                       \
                for (kd = d0; kd < d1; kd++) {                                                     \
                  for (kh = h0; kh < h1; kh++) {                                                   \
                    const ptrdiff_t row = (ptrdiff_t)(iz + kd * p->dil_d) * p->h_in + iy +         \
                                          kh * p->dil_h;                                           \
                    const XT *xr = xg + ic * plane + row * p->w_in + ix;                           \
                    const WT *wr = wc + ic * wsize + ((ptrdiff_t)kd * p->k_h + kh) * p->k_w;       \
                    OC_QCONV_ROW_(XT, WT, xr, wr, w0, w1, p->dil_w)                                \
                  }                                                                                \
                }                                                                                  \
              }                                                                                    \
              oc_q8_put(y, q->y_signed, at, oc_requant8_apply(r, co, (int32_t)sum));               \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCONV_DEFINE(oc_qconv_s8s8, int8_t, int8_t)
OC_QCONV_DEFINE(oc_qconv_u8s8, uint8_t, int8_t)
OC_QCONV_DEFINE(oc_qconv_s8u8, int8_t, uint8_t)
OC_QCONV_DEFINE(oc_qconv_u8u8, uint8_t, uint8_t)

OC_API void oc_qconv(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                     const void *w_zp, const int32_t *bias, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
}
