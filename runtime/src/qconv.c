/* Quantized convolution (oc_qconv_params, oc_qlinear.h): regular, grouped,
 * depthwise and pointwise, 1-D to 3-D. Padding reads as the input zero
 * point (contributes 0); the int32 bias starts the accumulator (int32
 * wrap-around, as int32 arithmetic). One loop nest per pair of element
 * types, so the innermost loop reads typed elements without branching;
 * 2-D and pointwise convolutions have loop nests of their own. */
#include "onnx_to_c/oc_qlinear.h"

/* The taps k in [*k0, *k1) of a window starting at input index `start` with
 * dilation `dil` that fall inside [0, size). */
static void oc_qconv_taps(int32_t start, int32_t dil, int32_t k, int32_t size, int32_t *k0,
                          int32_t *k1) {
  int32_t lo = 0, hi = k;
  while (lo < hi && start + lo * dil < 0) lo++;
  while (hi > lo && start + (hi - 1) * dil >= size) hi--;
  *k0 = lo;
  *k1 = hi;
}

/* sum += (x - zx)(w - zw) over the taps kw in [K0, K1) of one window row. */
#define OC_QCONV_ROW_(XT, WT, XR, WR, K0, K1, DIL)                                             \
  for (kw = (K0); kw < (K1); kw++) {                                                         \
    sum += (uint32_t)(((int32_t)((const XT *)(XR))[kw * (DIL)] - zx) * ((int32_t)(WR)[kw] - zw)); \
  }

#define OC_QCONV_DEFINE(NAME, XT, WT)                                                              \
  static void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
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

/* 2-D (depth 1): the same sums, the taps found once per row and only at the
 * borders per column; a window wholly inside the input runs without bounds,
 * its pointers stepped. */
#define OC_QCONV2D_DEFINE(NAME, XT, WT)                                                            \
  static void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const void *w_zp, const int32_t *bias, void *y) {                               \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group, zx = q->x_zp;               \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, dh = p->dil_h, dw = p->dil_w;                      \
    const ptrdiff_t plane = (ptrdiff_t)p->h_in * p->w_in, wsize = (ptrdiff_t)kh_n * kw_n;          \
    const ptrdiff_t row_step = (ptrdiff_t)dh * p->w_in;                                            \
    int32_t n, co, ic, oy, ox, kh, kw, h0, h1, w0, w1;                                             \
    ptrdiff_t at = 0;                                                                              \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (co = 0; co < p->c_out; co++) {                                                          \
        const int32_t zw =                                                                         \
            w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co : 0);         \
        const uint32_t b = bias != NULL ? (uint32_t)bias[co] : 0u;                                 \
        const XT *xg =                                                                             \
            (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)(co / cog) * cig) * plane;        \
        const WT *wc = (const WT *)w + (ptrdiff_t)co * cig * wsize;                                \
        for (oy = 0; oy < p->h_out; oy++) {                                                        \
          const int32_t iy = oy * p->stride_h - p->pad_top;                                        \
          oc_qconv_taps(iy, dh, kh_n, p->h_in, &h0, &h1);                                          \
          for (ox = 0; ox < p->w_out; ox++, at++) {                                                \
            const int32_t ix = ox * p->stride_w - p->pad_left;                                     \
            uint32_t sum = b; /* int32 wrap-around, as int32 arithmetic */                         \
            if (h0 == 0 && h1 == kh_n && ix >= 0 && ix + (kw_n - 1) * dw < p->w_in) {              \
              const XT *xi = xg + (ptrdiff_t)iy * p->w_in + ix;                                    \
              const WT *wi = wc;                                                                   \
              for (ic = 0; ic < cig; ic++, xi += plane) {                                          \
                const XT *xr = xi;                                                                 \
                for (kh = 0; kh < kh_n; kh++, xr += row_step, wi += kw_n) {                        \
                  OC_QCONV_ROW_(XT, WT, xr, wi, 0, kw_n, dw)                                       \
                }                                                                                  \
              }                                                                                    \
            } else {                                                                               \
              oc_qconv_taps(ix, dw, kw_n, p->w_in, &w0, &w1);                                      \
              for (ic = 0; ic < cig; ic++) {                                                       \
                for (kh = h0; kh < h1; kh++) {                                                     \
                  OC_QCONV_ROW_(XT, WT, xg + ic * plane + (ptrdiff_t)(iy + kh * dh) * p->w_in + ix, \
                                wc + ic * wsize + (ptrdiff_t)kh * kw_n, w0, w1, dw)                \
                }                                                                                  \
              }                                                                                    \
            }                                                                                      \
            oc_q8_put(y, q->y_signed, at, oc_requant8_apply(r, co, (int32_t)sum));                 \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCONV2D_DEFINE(oc_qconv2d_s8s8, int8_t, int8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_u8s8, uint8_t, int8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_s8u8, int8_t, uint8_t)
OC_QCONV2D_DEFINE(oc_qconv2d_u8u8, uint8_t, uint8_t)

/* Pointwise (1x1 kernel, stride 1, no padding, one group): an output
 * channel is a weighted sum of the input planes. Two output channels and four
 * positions per pass share their loads; the zero points come out of the sum,
 * (x - zx)(w - zw) = x w - zw x - zx w + zx zw, with the weights' sum taken
 * once per channel and the inputs' sum only where zw is not 0. Integer sums
 * wrap the same in any order, so the bits are the general loop's. */
#define OC_QCONV_PW_DEFINE(NAME, XT, WT)                                                           \
  static void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const void *w_zp, const int32_t *bias, void *y) {                               \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cin = p->c_in, zx = q->x_zp;                                                     \
    const ptrdiff_t plane = (ptrdiff_t)p->d_in * p->h_in * p->w_in;                                \
    int32_t n, co, ic, c;                                                                          \
    ptrdiff_t i;                                                                                   \
    for (n = 0; n < p->n; n++) {                                                                   \
      const XT *xn = (const XT *)x + (ptrdiff_t)n * cin * plane;                                   \
      const ptrdiff_t yn = (ptrdiff_t)n * p->c_out * plane;                                        \
      for (co = 0; co < p->c_out; co += 2) {                                                       \
        const int32_t pair = co + 1 < p->c_out; /* a second channel in this pass */                \
        const WT *w0 = (const WT *)w + (ptrdiff_t)co * cin, *w1 = pair ? w0 + cin : w0;            \
        int32_t zw[2];                                                                             \
        uint32_t base[2];                                                                          \
        for (c = 0; c < 2; c++) {                                                                  \
          const WT *wc = c == 0 ? w0 : w1;                                                         \
          uint32_t wsum = 0u;                                                                      \
          zw[c] = w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co + c * pair : 0); \
          for (ic = 0; ic < cin; ic++) wsum += (uint32_t)(int32_t)wc[ic];                          \
          base[c] = (bias != NULL ? (uint32_t)bias[co + c * pair] : 0u) - (uint32_t)zx * wsum +    \
                    (uint32_t)cin * (uint32_t)zx * (uint32_t)zw[c];                                \
        }                                                                                          \
        for (i = 0; i + 4 <= plane; i += 4) {                                                      \
          uint32_t a0 = base[0], a1 = base[0], a2 = base[0], a3 = base[0];                         \
          uint32_t b0 = base[1], b1 = base[1], b2 = base[1], b3 = base[1];                         \
          uint32_t xs0 = 0u, xs1 = 0u, xs2 = 0u, xs3 = 0u;                                         \
          const XT *xi = xn + i;                                                                   \
          for (ic = 0; ic < cin; ic++, xi += plane) {                                              \
            const int32_t x0 = xi[0], x1 = xi[1], x2 = xi[2], x3 = xi[3];                          \
            const int32_t v0 = w0[ic], v1 = w1[ic];                                                \
            a0 += (uint32_t)(x0 * v0), a1 += (uint32_t)(x1 * v0), a2 += (uint32_t)(x2 * v0);       \
            a3 += (uint32_t)(x3 * v0);                                                             \
            b0 += (uint32_t)(x0 * v1), b1 += (uint32_t)(x1 * v1), b2 += (uint32_t)(x2 * v1);       \
            b3 += (uint32_t)(x3 * v1);                                                             \
            if (zw[0] != 0 || zw[1] != 0) {                                                        \
              xs0 += (uint32_t)x0, xs1 += (uint32_t)x1, xs2 += (uint32_t)x2, xs3 += (uint32_t)x3;  \
            }                                                                                      \
          }                                                                                        \
          a0 -= (uint32_t)zw[0] * xs0, a1 -= (uint32_t)zw[0] * xs1, a2 -= (uint32_t)zw[0] * xs2;   \
          a3 -= (uint32_t)zw[0] * xs3;                                                             \
          b0 -= (uint32_t)zw[1] * xs0, b1 -= (uint32_t)zw[1] * xs1, b2 -= (uint32_t)zw[1] * xs2;   \
          b3 -= (uint32_t)zw[1] * xs3;                                                             \
          {                                                                                        \
            const ptrdiff_t ya = yn + (ptrdiff_t)co * plane + i, yb = ya + plane;                  \
            oc_q8_put(y, q->y_signed, ya, oc_requant8_apply(r, co, (int32_t)a0));                  \
            oc_q8_put(y, q->y_signed, ya + 1, oc_requant8_apply(r, co, (int32_t)a1));              \
            oc_q8_put(y, q->y_signed, ya + 2, oc_requant8_apply(r, co, (int32_t)a2));              \
            oc_q8_put(y, q->y_signed, ya + 3, oc_requant8_apply(r, co, (int32_t)a3));              \
            if (pair) {                                                                            \
              oc_q8_put(y, q->y_signed, yb, oc_requant8_apply(r, co + 1, (int32_t)b0));            \
              oc_q8_put(y, q->y_signed, yb + 1, oc_requant8_apply(r, co + 1, (int32_t)b1));        \
              oc_q8_put(y, q->y_signed, yb + 2, oc_requant8_apply(r, co + 1, (int32_t)b2));        \
              oc_q8_put(y, q->y_signed, yb + 3, oc_requant8_apply(r, co + 1, (int32_t)b3));        \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
        for (; i < plane; i++) { /* the last plane % 4 positions */                                \
          for (c = 0; c <= pair; c++) {                                                            \
            const WT *wc = c == 0 ? w0 : w1;                                                       \
            uint32_t sum = base[c], xs = 0u;                                                       \
            for (ic = 0; ic < cin; ic++) {                                                         \
              const int32_t xv = xn[(ptrdiff_t)ic * plane + i];                                    \
              sum += (uint32_t)(xv * (int32_t)wc[ic]);                                             \
              xs += (uint32_t)xv;                                                                  \
            }                                                                                      \
            sum -= (uint32_t)zw[c] * xs;                                                           \
            oc_q8_put(y, q->y_signed, yn + (ptrdiff_t)(co + c) * plane + i,                        \
                      oc_requant8_apply(r, co + c, (int32_t)sum));                                 \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCONV_PW_DEFINE(oc_qconv_pw_s8s8, int8_t, int8_t)
OC_QCONV_PW_DEFINE(oc_qconv_pw_u8s8, uint8_t, int8_t)
OC_QCONV_PW_DEFINE(oc_qconv_pw_s8u8, int8_t, uint8_t)
OC_QCONV_PW_DEFINE(oc_qconv_pw_u8u8, uint8_t, uint8_t)

static int oc_qconv_is_pointwise(const oc_conv2d_params *p) {
  return p->group == 1 && p->k_d == 1 && p->k_h == 1 && p->k_w == 1 && p->stride_d == 1 &&
         p->stride_h == 1 && p->stride_w == 1 && p->pad_front == 0 && p->pad_top == 0 &&
         p->pad_left == 0 && p->d_out == p->d_in && p->h_out == p->h_in && p->w_out == p->w_in;
}

OC_API void oc_qconv(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                     const void *w_zp, const int32_t *bias, void *y) {
  if (oc_qconv_is_pointwise(&q->conv)) {
    OC_Q8_PAIR_CALL(oc_qconv_pw, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
    return;
  }
  if (q->conv.k_d == 1 && q->conv.d_in == 1 && q->conv.d_out == 1) {
    OC_Q8_PAIR_CALL(oc_qconv2d, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
    return;
  }
  OC_Q8_PAIR_CALL(oc_qconv, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
}
