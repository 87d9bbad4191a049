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
 * compiled as before). The same sums as oc_qconv2d.
 */
#ifndef ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_
#define ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qconv_loops.h"

#if OC_Q8_DSP
/* The tap's four weights W4 (loaded from WQ) times xv into s0..s3. */
#define OC_QC2P_TAP_(W4, WQ, WEXT, WODD)                      \
  do {                                                        \
    const int32_t we = (int32_t)WEXT(W4), wo = (int32_t)WODD(W4); \
    s0 = (uint32_t)__smlabb(xv, we, (int32_t)s0);             \
    s2 = (uint32_t)__smlabt(xv, we, (int32_t)s2);             \
    s1 = (uint32_t)__smlabb(xv, wo, (int32_t)s1);             \
    s3 = (uint32_t)__smlabt(xv, wo, (int32_t)s3);             \
  } while (0)
#define OC_QC2P_LOAD_(WT, P) oc_q8_load4(P)
#else
#define OC_QC2P_TAP_(W4, WQ, WEXT, WODD)                      \
  do {                                                        \
    s0 += (uint32_t)(xv * (int32_t)(WQ)[0]);                  \
    s1 += (uint32_t)(xv * (int32_t)(WQ)[1]);                  \
    s2 += (uint32_t)(xv * (int32_t)(WQ)[2]);                  \
    s3 += (uint32_t)(xv * (int32_t)(WQ)[3]);                  \
  } while (0)
#define OC_QC2P_LOAD_(WT, P) 0u
#endif

/* Tap T of an unrolled row: input byte xr[T] (less zx) times the four
 * weights at wq + 4 T. */
#define OC_QC2P_TAP_AT_(T, WT, WEXT, WODD)                                                         \
  {                                                                                                \
    const int32_t xv = (int32_t)xr[T] - zx;                                                        \
    const WT *wt = wq + 4 * (T);                                                                   \
    const uint32_t w4 = OC_QC2P_LOAD_(WT, wt);                                                     \
    (void)w4, (void)wt;                                                                            \
    OC_QC2P_TAP_(w4, wt, WEXT, WODD);                                                              \
  }
#define OC_QC2P_DEFINE(NAME, XT, WT, WEXT, WODD, ROWS4)                                            \
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
    int32_t n, g, j, c, ic, oy, ox, kh, kw, h0, h1, w0, w1;                                        \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (g = 0; g < p->group; g++) {                                                             \
        const XT *xg = (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)g * cig) * plane;      \
        for (j = 0; j < blocks; j++) {                                                             \
          const int32_t co = g * cog + 4 * j, m = cog - 4 * j < 4 ? cog - 4 * j : 4;               \
          const WT *wb = (const WT *)w + ((ptrdiff_t)g * blocks + j) * taps * 4;                   \
          const ptrdiff_t yb = ((ptrdiff_t)n * p->c_out + co) * out_plane;                         \
          uint32_t b[4];                                                                           \
          for (c = 0; c < 4; c++) b[c] = bias != NULL && c < m ? (uint32_t)bias[co + c] : 0u;      \
          for (oy = 0; oy < h_out; oy++) {                                                         \
            const int32_t iy = oy * sh - pt;                                                       \
            oc_qconv_taps(iy, dh, kh_n, h_in, &h0, &h1);                                           \
            for (ox = 0; ox < w_out; ox++) {                                                       \
              const int32_t ix = ox * sw - pl;                                                     \
              uint32_t s0 = b[0], s1 = b[1], s2 = b[2], s3 = b[3]; /* int32 wrap-around */         \
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
                    OC_QC2P_TAP_AT_(0, WT, WEXT, WODD) OC_QC2P_TAP_AT_(1, WT, WEXT, WODD)            \
                    OC_QC2P_TAP_AT_(2, WT, WEXT, WODD)                                               \
                  }                                                                                \
                }                                                                                  \
              } else if (rows4 && w0 == 0 && w1 == 4) { /* rows of 4 taps, those inside */        \
                for (ic = 0; ic < cig; ic++) {                                                     \
                  const XT *xr = xg + (ptrdiff_t)ic * plane + (ptrdiff_t)(iy + h0 * dh) * w_in + ix; \
                  const WT *wq = wb + ((ptrdiff_t)ic * kh_n + h0) * 16;                            \
                  for (kh = h0; kh < h1; kh++, xr += row_step, wq += 16) {                         \
                    OC_QC2P_TAP_AT_(0, WT, WEXT, WODD) OC_QC2P_TAP_AT_(1, WT, WEXT, WODD)            \
                    OC_QC2P_TAP_AT_(2, WT, WEXT, WODD) OC_QC2P_TAP_AT_(3, WT, WEXT, WODD)            \
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
                    OC_QC2P_TAP_(w4, wq, WEXT, WODD);                                                  \
                  }                                                                                \
                }                                                                                  \
              }                                                                                    \
              for (c = 0; c < m; c++) {                                                            \
                const uint32_t sc = c == 0 ? s0 : c == 1 ? s1 : c == 2 ? s2 : s3;                  \
                oc_q8_put(y, y_signed, yb + (ptrdiff_t)c * out_plane + (ptrdiff_t)oy * w_out + ox, \
                          oc_requant8_apply(r, co + c, (int32_t)sc));                              \
              }                                                                                    \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }


#endif /* ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_ */
