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
/* Two neighbouring output pixels, stride 1, 3 x 3 windows all inside the
 * input, for the channels c and c + 2 of a block (WROT ", ror #8": 1 and
 * 3), in assembler: GCC keeps neither the sums nor the row
 * pointers in registers here. Per window row, one load gives the inputs
 * x0 x1 x2 x3 and two extracts (XTB) the lanes xe = (x0, x2) and
 * xo = (x1, x3); PKHBT/PKHTB pair a channel's weights of taps 0 and 2, so
 * one SMLAD adds both taps for one pixel, and SMLAxy add x1 and x2 times
 * tap 1: 19 instructions per 12 multiply-accumulates where one pixel at a
 * time takes 27. The inputs are x, not x - zx: the sums start at bias - zx
 * times the sum of the weights. Per input channel, the rows at xr, xr + rs
 * and xr + 2 rs, and three rows of weights, 12 bytes each, at wq. */
#define OC_QC2P_ROW3_(XADDR, XTB, WTB, WROT)                                                       \
  "ldr %[t], " XADDR "\n\t" XTB " %[xe], %[t]\n\t" XTB " %[xo], %[t], ror #8\n\t"                     \
  "ldr %[e0], [%[wq]], #12\n\t"                                                                    \
  "ldr %[e2], [%[wq], #-4]\n\t"                                                                   \
  WTB " %[e0], %[e0]" WROT "\n\t" WTB " %[e2], %[e2]" WROT "\n\t"                                   \
  "pkhbt %[t], %[e0], %[e2], lsl #16\n\t"                                                         \
  "smlad %[a0], %[xe], %[t], %[a0]\n\t"                                                           \
  "smlad %[c0], %[xo], %[t], %[c0]\n\t"                                                           \
  "pkhtb %[t], %[e2], %[e0], asr #16\n\t"                                                         \
  "smlad %[a2], %[xe], %[t], %[a2]\n\t"                                                           \
  "smlad %[c2], %[xo], %[t], %[c2]\n\t"                                                           \
  "ldr %[t], [%[wq], #-8]\n\t" WTB " %[t], %[t]" WROT "\n\t"                                         \
  "smlabb %[a0], %[xo], %[t], %[a0]\n\t"                                                          \
  "smlabt %[a2], %[xo], %[t], %[a2]\n\t"                                                          \
  "smlatb %[c0], %[xe], %[t], %[c0]\n\t"                                                          \
  "smlatt %[c2], %[xe], %[t], %[c2]\n\t"
#define OC_QC2P_PAIR3_(XT, XTB, WTB, WROT, A0, A2, C0, C2)                                         \
  do {                                                                                             \
    const XT *xr = xg + (ptrdiff_t)iy * w_in + ix;                                                 \
    const void *wq = wb;                                                                           \
    uint32_t xe, xo, e0, e2, t;                                                                    \
    for (ic = 0; ic < cig; ic++, xr += plane) {                                                    \
      __asm__(OC_QC2P_ROW3_("[%[xr]]", XTB, WTB, WROT) OC_QC2P_ROW3_("[%[xr], %[rs]]", XTB, WTB, WROT) \
                  OC_QC2P_ROW3_("[%[xr], %[rs], lsl #1]", XTB, WTB, WROT)                          \
              : [a0] "+r"(A0), [a2] "+r"(A2), [c0] "+r"(C0), [c2] "+r"(C2), [wq] "+r"(wq),         \
                [xe] "=&r"(xe), [xo] "=&r"(xo), [e0] "=&r"(e0), [e2] "=&r"(e2), [t] "=&r"(t)       \
              : [xr] "r"(xr), [rs] "r"(row_step)                                                   \
              : "memory");                                                                         \
    }                                                                                              \
  } while (0)
#else
#define OC_QC2P_TAP_(W4, WQ, WEXT, WODD)                      \
  do {                                                        \
    s0 += (uint32_t)(xv * (int32_t)(WQ)[0]);                  \
    s1 += (uint32_t)(xv * (int32_t)(WQ)[1]);                  \
    s2 += (uint32_t)(xv * (int32_t)(WQ)[2]);                  \
    s3 += (uint32_t)(xv * (int32_t)(WQ)[3]);                  \
  } while (0)
#define OC_QC2P_LOAD_(WT, P) 0u
#define OC_QC2P_PAIR3_(XT, XTB, WTB, WROT, A0, A2, C0, C2) (void)0
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
#define OC_QC2P_TAP_AT_(T, WT, WEXT, WODD)                                                         \
  {                                                                                                \
    const int32_t xv = (int32_t)xr[T] - zx;                                                        \
    const WT *wt = wq + 4 * (T);                                                                   \
    const uint32_t w4 = OC_QC2P_LOAD_(WT, wt);                                                     \
    (void)w4, (void)wt;                                                                            \
    OC_QC2P_TAP_(w4, wt, WEXT, WODD);                                                              \
  }
/* The kernel NAME for inputs XT and weights WT: XTB and WTB name the
 * instruction that unpacks their bytes ("sxtb16" or "uxtb16"), WEXT and WODD
 * the weights' even and odd bytes as functions. */
#define OC_QC2P_DEFINE(NAME, XT, WT, XTB, WTB, WEXT, WODD, ROWS4)                                  \
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
    const int32_t pairs3 = OC_Q8_DSP && !(ROWS4) && rows3 && sw == 1 && kh_n == 3;             \
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
                OC_QC2P_PAIR3_(XT, XTB, WTB, "", a0, a2, c0, c2);                                  \
                OC_QC2P_PAIR3_(XT, XTB, WTB, ", ror #8", a1, a3, c1, c3);                           \
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
              OC_QC2P_PUT_(ox, s0, s1, s2, s3)                                                     \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }


#endif /* ONNX_TO_C_OC_QCONV_PACKED_TAPS_H_ */
