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

/* A depthwise 3x3 plane (dilation 1): each window takes nine products of
 * raw inputs (taps in the padding read as the input's zero point) and
 * weights less their zero point, w' = w - zw, from bias - zx sum w': the
 * same sum mod 2^32 as (x - zx) w' over the taps inside. The requantization
 * parameters of the channel are copied into a local, which byte stores
 * cannot alias. */
#define OC_QDW3X3_DEFINE(NAME, XT, WT)                                                             \
  static OC_NOINLINE void NAME##_plane(const oc_qconv_params *q, const oc_requant8 *r, const XT *xg, \
                                       const WT *wg, int32_t zw, uint32_t b, int32_t co, void *y,  \
                                       ptrdiff_t yo) {                                             \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t zx = q->x_zp, h_in = p->h_in, w_in = p->w_in, h_out = p->h_out, w_out = p->w_out; \
    const int32_t sh = p->stride_h, sw = p->stride_w, pt = p->pad_top, pl = p->pad_left;           \
    const int32_t y_signed = q->y_signed;                                                          \
    const int32_t k0 = wg[0] - zw, k1 = wg[1] - zw, k2 = wg[2] - zw, k3 = wg[3] - zw,             \
                  k4 = wg[4] - zw, k5 = wg[5] - zw, k6 = wg[6] - zw, k7 = wg[7] - zw,             \
                  k8 = wg[8] - zw;                                                                 \
    const uint32_t base = b - (uint32_t)zx * (uint32_t)(k0 + k1 + k2 + k3 + k4 + k5 + k6 + k7 + k8); \
    const int32_t i = r->per_channel ? co : 0;                                                     \
    oc_requant8 rc = *r;                                                                           \
    int32_t oy, ox;                                                                                \
    rc.per_channel = 0;                                                                            \
    if (r->mult != NULL) rc.mult = r->mult + i;                                                    \
    if (r->q_mult != NULL) rc.q_mult = r->q_mult + i, rc.q_shift = r->q_shift + i;                 \
    for (oy = 0; oy < h_out; oy++) {                                                               \
      const int32_t iy = oy * sh - pt;                                                             \
      const int32_t v0 = iy >= 0 && iy < h_in, v1 = iy + 1 >= 0 && iy + 1 < h_in,                 \
                    v2 = iy + 2 >= 0 && iy + 2 < h_in;                                             \
      for (ox = 0; ox < w_out; ox++) {                                                             \
        const int32_t ix = ox * sw - pl;                                                           \
        int32_t a0, a1, a2, b0, b1, b2, c0, c1, c2;                                                \
        if (v0 && v2 && ix >= 0 && ix + 2 < w_in) {                                                \
          const XT *r0 = xg + (ptrdiff_t)iy * w_in + ix, *r1 = r0 + w_in, *r2 = r1 + w_in;         \
          a0 = r0[0], a1 = r0[1], a2 = r0[2], b0 = r1[0], b1 = r1[1], b2 = r1[2];                  \
          c0 = r2[0], c1 = r2[1], c2 = r2[2];                                                      \
        } else { /* a border window: taps in the padding read as zx */                             \
          const int32_t u0 = ix >= 0 && ix < w_in, u1 = ix + 1 >= 0 && ix + 1 < w_in,              \
                        u2 = ix + 2 >= 0 && ix + 2 < w_in;                                         \
          const ptrdiff_t at0 = (ptrdiff_t)iy * w_in + ix;                                         \
          a0 = v0 && u0 ? xg[at0] : zx, a1 = v0 && u1 ? xg[at0 + 1] : zx;                          \
          a2 = v0 && u2 ? xg[at0 + 2] : zx, b0 = v1 && u0 ? xg[at0 + w_in] : zx;                   \
          b1 = v1 && u1 ? xg[at0 + w_in + 1] : zx, b2 = v1 && u2 ? xg[at0 + w_in + 2] : zx;        \
          c0 = v2 && u0 ? xg[at0 + 2 * w_in] : zx, c1 = v2 && u1 ? xg[at0 + 2 * w_in + 1] : zx;    \
          c2 = v2 && u2 ? xg[at0 + 2 * w_in + 2] : zx;                                             \
        }                                                                                          \
        oc_q8_put(y, y_signed, yo + (ptrdiff_t)oy * w_out + ox,                                    \
                  oc_requant8_apply(&rc, 0, (int32_t)(base + (uint32_t)(a0 * k0 + a1 * k1 + a2 * k2 + \
                                                   b0 * k3 + b1 * k4 + b2 * k5 + c0 * k6 +         \
                                                   c1 * k7 + c2 * k8))));                          \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
  /* Every plane (n, g) of a depthwise 3x3 convolution. */                                           \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x,          \
                               const void *w, const void *w_zp, const int32_t *bias, void *y) {       \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const ptrdiff_t plane = (ptrdiff_t)p->h_in * p->w_in, out_plane = (ptrdiff_t)p->h_out * p->w_out; \
    int32_t n, g;                                                                                  \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (g = 0; g < p->group; g++) {                                                             \
        NAME##_plane(q, r, (const XT *)x + ((ptrdiff_t)n * p->c_in + g) * plane, (const WT *)w + (ptrdiff_t)g * 9, \
                     w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? g : 0),  \
                     bias != NULL ? (uint32_t)bias[g] : 0u, g, y, ((ptrdiff_t)n * p->c_out + g) * out_plane); \
      }                                                                                            \
    }                                                                                              \
  }

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

OC_QDW3X3_DEFINE(oc_qconv2d_dw3x3_s8s8, int8_t, int8_t)
OC_QDW3X3_DEFINE(oc_qconv2d_dw3x3_u8s8, uint8_t, int8_t)
OC_QDW3X3_DEFINE(oc_qconv2d_dw3x3_s8u8, int8_t, uint8_t)
OC_QDW3X3_DEFINE(oc_qconv2d_dw3x3_u8u8, uint8_t, uint8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_s8s8, int8_t, int8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_u8s8, uint8_t, int8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_s8u8, int8_t, uint8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_u8u8, uint8_t, uint8_t)

#undef OC_QDW3X3_DEFINE
#undef OC_QCONV2D_WINDOW_
#undef OC_QCONV2D_FOUR_
#undef OC_QCONV2D_ONE_
#undef OC_QCONV2D_MINUS_
#undef OC_QCONV2D_RAW_

OC_API void oc_qconv2d(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                       const void *w_zp, const int32_t *bias, void *y) {
  const oc_conv2d_params *p = &q->conv;
  if (p->c_in == p->group && p->c_out == p->group && p->k_h == 3 && p->k_w == 3 && p->dil_h == 1 &&
      p->dil_w == 1) {
    OC_Q8_PAIR_CALL(oc_qconv2d_dw3x3, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
  } else {
    OC_Q8_PAIR_CALL(oc_qconv2d, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
  }
}
