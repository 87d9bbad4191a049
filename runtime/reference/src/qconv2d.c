/* Quantized 2-D convolution (oc_qconv_params with k_d, d_in and d_out 1):
 * the sums of oc_qconv (qconv.c), regular, grouped or depthwise. */
#include "onnx_to_c/oc_qconv_loops.h"

/* Up to four channels of one group per pass over a window: each input byte
 * is loaded once for all of them. The taps are found once per row and only at
 * the borders per column; a window wholly inside the input runs without
 * bounds. The parameters are in locals: a byte store may alias anything, so
 * the compiler would reload them from *p after every output. */
#define OC_QCONV2D_WINDOW_(XT, BODY)                                                             \
  for (ic = 0; ic < cig; ic++) {                                                                 \
    const XT *xc = xg + (ptrdiff_t)ic * plane + (ptrdiff_t)iy * w_in + ix;                       \
    const ptrdiff_t wic = (ptrdiff_t)ic * wsize;                                                 \
    for (kh = h0; kh < h1; kh++) {                                                               \
      const XT *xr = xc + (ptrdiff_t)kh * row_step;                                              \
      const ptrdiff_t wr = wic + (ptrdiff_t)kh * kw_n;                                           \
      for (kw = w0; kw < w1; kw++) {                                                             \
        const int32_t xv = (int32_t)xr[kw * dw] - zx;                                            \
        BODY                                                                                     \
      }                                                                                          \
    }                                                                                            \
  }
/* The products of input xv (less its zero point) and tap wr + kw of four
 * channels, or of one (depthwise convolutions, a group's last channel). */
#define OC_QCONV2D_FOUR_(SUB)                                                                    \
  s0 += (uint32_t)(xv * SUB(wa[wr + kw], z0));                                                   \
  s1 += (uint32_t)(xv * SUB(wb[wr + kw], z1));                                                   \
  s2 += (uint32_t)(xv * SUB(wc[wr + kw], z2));                                                   \
  s3 += (uint32_t)(xv * SUB(wd[wr + kw], z3));
#define OC_QCONV2D_ONE_(SUB) s0 += (uint32_t)(xv * SUB(wa[wr + kw], z0));
#define OC_QCONV2D_MINUS_(W, Z) ((int32_t)(W) - (Z))
#define OC_QCONV2D_RAW_(W, Z) ((int32_t)(W))

#define OC_QCONV2D_DEFINE(NAME, XT, WT)                                                            \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const void *w_zp, const int32_t *bias, void *y) {                               \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group, zx = q->x_zp;               \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, dh = p->dil_h, dw = p->dil_w;                      \
    const int32_t h_in = p->h_in, w_in = p->w_in, h_out = p->h_out, w_out = p->w_out;              \
    const int32_t sh = p->stride_h, sw = p->stride_w, pt = p->pad_top, pl = p->pad_left;           \
    const int32_t y_signed = q->y_signed;                                                          \
    const ptrdiff_t plane = (ptrdiff_t)h_in * w_in, wsize = (ptrdiff_t)kh_n * kw_n;                \
    const ptrdiff_t out_plane = (ptrdiff_t)h_out * w_out, row_step = (ptrdiff_t)dh * w_in;         \
    int32_t n, g, j, c, ic, oy, ox, kh, kw, h0, h1, w0, w1;                                        \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (g = 0; g < p->group; g++) {                                                             \
        const XT *xg = (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)g * cig) * plane;      \
        for (j = 0; j < cog; j += 4) {                                                             \
          /* Channels co .. co + m - 1; a short last block repeats its last channel. */           \
          const int32_t co = g * cog + j, m = cog - j < 4 ? cog - j : 4;                           \
          const int32_t ca = co, cb_ = co + (m > 1), cc = co + (m > 2) * 2, cd = co + (m > 3) * 3; \
          const WT *wa = (const WT *)w + (ptrdiff_t)ca * cig * wsize;                              \
          const WT *wb = (const WT *)w + (ptrdiff_t)cb_ * cig * wsize;                             \
          const WT *wc = (const WT *)w + (ptrdiff_t)cc * cig * wsize;                              \
          const WT *wd = (const WT *)w + (ptrdiff_t)cd * cig * wsize;                              \
          int32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0;                                                  \
          const uint32_t b0 = bias != NULL ? (uint32_t)bias[ca] : 0u,                              \
                         b1 = bias != NULL ? (uint32_t)bias[cb_] : 0u,                             \
                         b2 = bias != NULL ? (uint32_t)bias[cc] : 0u,                              \
                         b3 = bias != NULL ? (uint32_t)bias[cd] : 0u;                              \
          const ptrdiff_t yn = (ptrdiff_t)n * p->c_out * out_plane;                                \
          if (w_zp != NULL) {                                                                      \
            const int32_t per = q->w_zp_per_channel;                                               \
            z0 = oc_q8_get(w_zp, q->w_signed, per ? ca : 0);                                       \
            z1 = oc_q8_get(w_zp, q->w_signed, per ? cb_ : 0);                                      \
            z2 = oc_q8_get(w_zp, q->w_signed, per ? cc : 0);                                       \
            z3 = oc_q8_get(w_zp, q->w_signed, per ? cd : 0);                                       \
          }                                                                                        \
          for (oy = 0; oy < h_out; oy++) {                                                         \
            const int32_t iy = oy * sh - pt;                                                       \
            oc_qconv_taps(iy, dh, kh_n, h_in, &h0, &h1);                                           \
            for (ox = 0; ox < w_out; ox++) {                                                       \
              const int32_t ix = ox * sw - pl;                                                     \
              const ptrdiff_t at = yn + (ptrdiff_t)oy * w_out + ox;                                \
              uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3; /* int32 wrap-around */                 \
              if (ix >= 0 && ix + (kw_n - 1) * dw < w_in) {                                        \
                w0 = 0, w1 = kw_n;                                                                 \
              } else {                                                                             \
                oc_qconv_taps(ix, dw, kw_n, w_in, &w0, &w1);                                       \
              }                                                                                    \
              if (m == 1) {                                                                        \
                OC_QCONV2D_WINDOW_(XT, OC_QCONV2D_ONE_(OC_QCONV2D_MINUS_))                         \
              } else if ((z0 | z1 | z2 | z3) == 0) {                                               \
                OC_QCONV2D_WINDOW_(XT, OC_QCONV2D_FOUR_(OC_QCONV2D_RAW_))                          \
              } else {                                                                             \
                OC_QCONV2D_WINDOW_(XT, OC_QCONV2D_FOUR_(OC_QCONV2D_MINUS_))                        \
              }                                                                                    \
              for (c = 0; c < m; c++) {                                                            \
                const uint32_t sc = c == 0 ? s0 : c == 1 ? s1 : c == 2 ? s2 : s3;                  \
                oc_q8_put(y, y_signed, at + (ptrdiff_t)(co + c) * out_plane,                       \
                          oc_requant8_apply(r, co + c, (int32_t)sc));                              \
              }                                                                                    \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCONV2D_DEFINE(oc_qconv2d_s8s8, int8_t, int8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_u8s8, uint8_t, int8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_s8u8, int8_t, uint8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_u8u8, uint8_t, uint8_t)

#undef OC_QCONV2D_WINDOW_
#undef OC_QCONV2D_FOUR_
#undef OC_QCONV2D_ONE_
#undef OC_QCONV2D_MINUS_
#undef OC_QCONV2D_RAW_

OC_API void oc_qconv2d(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                       const void *w_zp, const int32_t *bias, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv2d, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
}
