/*
 * onnx-to-c runtime: the quantized 2-D convolution without scratch, its
 * weights packed by the compiler (oc_qconv_params with k_d, d_in and d_out
 * 1; weights' zero points 0): per group, blocks of four output channels, the last one padded with
 * zero weights, each block holding for every tap t = (ic * k_h + kh) * k_w +
 * kw the four channels' weights w[c0][t] w[c1][t] w[c2][t] w[c3][t]. One
 * load gives a tap's four weights, and each input byte (less its zero point)
 * is multiplied with all four: SMLABB/SMLABT on M4/M7 after SXTB16 unpacks
 * them, plain multiply-adds elsewhere. The taps are found once per row and
 * only at the borders per column, and rows of three taps inside the input
 * are unrolled; so are rows of four in the instances defined with ROWS4 1
 * (qconv2d_packed4.c: a separate kernel, so the loop nest of the others is
 * compiled as before). On M4/M7, 3 x 3 windows inside the input at stride 1
 * go two at a time (OC_QC2P_PAIR3_). The same sums as oc_qconv2d.
 */
#ifndef ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_
#define ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_

#include "onnx_to_c/oc_qconv_loops.h"
#include "onnx_to_c/oc_qpacked_taps_fast.h"

#ifndef OC_QC2P_TAP_
#define OC_QC2P_TAP_(W4, WQ, WS)                      \
  do {                                                        \
    s0 += (uint32_t)(xv * (int32_t)(WQ)[0]);                  \
    s1 += (uint32_t)(xv * (int32_t)(WQ)[1]);                  \
    s2 += (uint32_t)(xv * (int32_t)(WQ)[2]);                  \
    s3 += (uint32_t)(xv * (int32_t)(WQ)[3]);                  \
  } while (0)
#define OC_QC2P_LOAD_(WT, P) 0u
#define OC_QC2P_PAIR3_(XT, XS, WS, ODD, A0, A2, C0, C2) (void)0
#define OC_QC2P_PAIRS3 0
#endif

/* The sums S0..S3 of output pixel OX requantized into y. */
#define OC_QC2P_PUT_(OX, S0, S1, S2, S3)                                                           \
  for (c = 0; c < m; c++) {                                                                        \
    const uint32_t sc = (uint32_t)(c == 0 ? (S0) : c == 1 ? (S1) : c == 2 ? (S2) : (S3));          \
    oc_q8_put(y, y_signed, yb + (ptrdiff_t)c * out_plane + (ptrdiff_t)oy * w_out + (OX),           \
              oc_requant8_apply(r, co + c, (int32_t)sc));                                          \
  }

/* Tap T of an unrolled row: input byte xr[T] (less zx) times the four
 * weights at wq + 4 T. */
#define OC_QC2P_TAP_AT_(T, WT, WS)                                                         \
  {                                                                                                \
    const int32_t xv = (int32_t)xr[T] - zx;                                                        \
    const WT *wt = wq + 4 * (T);                                                                   \
    const uint32_t w4 = OC_QC2P_LOAD_(WT, wt);                                                     \
    (void)w4, (void)wt;                                                                            \
    OC_QC2P_TAP_(w4, wt, WS);                                                              \
  }
/* The kernel NAME for inputs XT and weights WT, XS and WS their signedness
 * (S or U) for an optimized folder's hooks (oc_qpacked_taps_fast.h). */
#define OC_QC2P_DEFINE(NAME, XT, WT, XS, WS, ROWS4)                                  \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const int32_t *bias, void *y) {                                                 \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group, zx = q->x_zp;               \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, dh = p->dil_h, dw = p->dil_w;                      \
    const int32_t h_in = p->h_in, w_in = p->w_in, h_out = p->h_out, w_out = p->w_out;              \
    const int32_t sh = p->stride_h, sw = p->stride_w, pt = p->pad_top, pl = p->pad_left;           \
    const int32_t y_signed = q->y_signed, taps = cig * kh_n * kw_n, blocks = (cog + 3) / 4;        \
    const ptrdiff_t plane = (ptrdiff_t)h_in * w_in, out_plane = (ptrdiff_t)h_out * w_out;          \
    const ptrdiff_t row_step = (ptrdiff_t)dh * w_in;                                               \
    const int32_t rows3 = kw_n == 3 && dw == 1, rows4 = (ROWS4) && kw_n == 4 && dw == 1;           \
    const int32_t pairs3 = OC_QC2P_PAIRS3 && !(ROWS4) && rows3 && sw == 1 && kh_n == 3;             \
    int32_t n, g, j, c, ic, oy, ox, kh, kw, h0, h1, w0, w1;                                        \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (g = 0; g < p->group; g++) {                                                             \
        const XT *xg = (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)g * cig) * plane;      \
        for (j = 0; j < blocks; j++) {                                                             \
          const int32_t co = g * cog + 4 * j, m = cog - 4 * j < 4 ? cog - 4 * j : 4;               \
          const WT *wb = (const WT *)w + ((ptrdiff_t)g * blocks + j) * taps * 4;                   \
          const ptrdiff_t yb = ((ptrdiff_t)n * p->c_out + co) * out_plane;                         \
          uint32_t b[4], bz[4] = {0u, 0u, 0u, 0u};                                                 \
          for (c = 0; c < 4; c++) b[c] = bias != NULL && c < m ? (uint32_t)bias[co + c] : 0u;      \
          if (pairs3) { /* the pairs take x, not x - zx: less zx times the weights' sums */         \
            for (c = 0; c < 4; c++) {                                                              \
              uint32_t ws = 0u;                                                                    \
              int32_t t;                                                                           \
              for (t = 0; t < taps; t++) ws += (uint32_t)(int32_t)wb[4 * t + c];                   \
              bz[c] = b[c] - (uint32_t)zx * ws;                                                    \
            }                                                                                      \
          }                                                                                        \
          for (oy = 0; oy < h_out; oy++) {                                                         \
            const int32_t iy = oy * sh - pt;                                                       \
            oc_qconv_taps(iy, dh, kh_n, h_in, &h0, &h1);                                           \
            for (ox = 0; ox < w_out; ox++) {                                                       \
              const int32_t ix = ox * sw - pl;                                                     \
              uint32_t s0 = b[0], s1 = b[1], s2 = b[2], s3 = b[3]; /* int32 wrap-around */         \
              if (pairs3 && h0 == 0 && h1 == kh_n && ix >= 0 && ix + 3 < w_in && ox + 1 < w_out) {   \
                int32_t a0 = (int32_t)bz[0], a1 = (int32_t)bz[1], a2 = (int32_t)bz[2];             \
                int32_t a3 = (int32_t)bz[3];                                                       \
                int32_t c0 = a0, c1 = a1, c2 = a2, c3 = a3;                                        \
                (void)c0, (void)c1, (void)c2, (void)c3;                                            \
                OC_QC2P_PAIR3_(XT, XS, WS, 0, a0, a2, c0, c2);                                  \
                OC_QC2P_PAIR3_(XT, XS, WS, 1, a1, a3, c1, c3);                           \
                OC_QC2P_PUT_(ox, a0, a1, a2, a3)                                                   \
                OC_QC2P_PUT_(ox + 1, c0, c1, c2, c3)                                               \
                ox++;                                                                              \
                continue;                                                                          \
              }                                                                                    \
              if (ix >= 0 && ix + (kw_n - 1) * dw < w_in) {                                        \
                w0 = 0, w1 = kw_n;                                                                 \
              } else {                                                                             \
                oc_qconv_taps(ix, dw, kw_n, w_in, &w0, &w1);                                       \
              }                                                                                    \
              if (rows3 && w0 == 0 && w1 == 3 && h0 == 0 && h1 == kh_n) { /* rows of 3 taps */     \
                const WT *wq = wb;                                                                 \
                for (ic = 0; ic < cig; ic++) {                                                     \
                  const XT *xr = xg + (ptrdiff_t)ic * plane + (ptrdiff_t)iy * w_in + ix;           \
                  for (kh = 0; kh < kh_n; kh++, xr += row_step, wq += 12) {                        \
                    OC_QC2P_TAP_AT_(0, WT, WS) OC_QC2P_TAP_AT_(1, WT, WS)            \
                    OC_QC2P_TAP_AT_(2, WT, WS)                                               \
                  }                                                                                \
                }                                                                                  \
              } else if (rows4 && w0 == 0 && w1 == 4) { /* rows of 4 taps, those inside */        \
                for (ic = 0; ic < cig; ic++) {                                                     \
                  const XT *xr = xg + (ptrdiff_t)ic * plane + (ptrdiff_t)(iy + h0 * dh) * w_in + ix; \
                  const WT *wq = wb + ((ptrdiff_t)ic * kh_n + h0) * 16;                            \
                  for (kh = h0; kh < h1; kh++, xr += row_step, wq += 16) {                         \
                    OC_QC2P_TAP_AT_(0, WT, WS) OC_QC2P_TAP_AT_(1, WT, WS)            \
                    OC_QC2P_TAP_AT_(2, WT, WS) OC_QC2P_TAP_AT_(3, WT, WS)            \
                  }                                                                                \
                }                                                                                  \
              } else                                                                               \
              for (ic = 0; ic < cig; ic++) {                                                       \
                const XT *xc = xg + (ptrdiff_t)ic * plane + (ptrdiff_t)iy * w_in + ix;             \
                for (kh = h0; kh < h1; kh++) {                                                     \
                  const XT *xr = xc + (ptrdiff_t)kh * row_step;                                    \
                  const WT *wq = wb + ((ptrdiff_t)(ic * kh_n + kh) * kw_n + w0) * 4;               \
                  for (kw = w0; kw < w1; kw++, wq += 4) {                                          \
                    const int32_t xv = (int32_t)xr[kw * dw] - zx;                                  \
                    const uint32_t w4 = OC_QC2P_LOAD_(WT, wq);                                     \
                    (void)w4;                                                                      \
                    OC_QC2P_TAP_(w4, wq, WS);                                                  \
                  }                                                                                \
                }                                                                                  \
              }                                                                                    \
              OC_QC2P_PUT_(ox, s0, s1, s2, s3)                                                     \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }


#endif /* ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_ */
