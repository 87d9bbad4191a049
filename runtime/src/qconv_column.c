/* Quantized 2-D convolution through a column (oc_qconv_params, oc_qlinear.h):
 * for each output pixel, the window's input bytes (padding read as the
 * input zero point) are copied into `col` in the weights' order (channel,
 * row, column: cig * k_h * k_w bytes, the kernel's scratch in the arena), and
 * each output channel is one dot product of that column with its weights,
 * four channels per pass sharing the column's loads (SMLAD on M4/M7), the
 * weights packed for that by the compiler (see OC_QCOL_DEFINE). The weights' zero points are 0 and the compiler has folded the
 * input's into the bias: bias[co] - x_zp * sum_k w[co][k], so the products
 * are of raw values, (x - zx) w summed over a window = x w summed less zx
 * times the weights' sum, padding included (it holds zx). The same sums mod
 * 2^32 as oc_qconv. */
#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

/* The window of output pixel (oy, ox) of the group's planes xg into col.
 * The parameters are in locals: a byte store may alias anything, so the
 * compiler would reload them from *p after every one. */
#define OC_QCOL_FILL_(XT)                                                                       \
  do {                                                                                          \
    const int32_t iy = oy * sh - pt, ix = ox * sw - pl;                                         \
    XT *c = (XT *)col;                                                                          \
    int32_t ic, kh, kw;                                                                         \
    if (iy >= 0 && iy + (kh_n - 1) * dh < h_in && ix >= 0 && ix + (kw_n - 1) * dw < w_in) {     \
      const XT *xp = xg + (ptrdiff_t)iy * w_in + ix;                                            \
      for (ic = 0; ic < cig; ic++, xp += plane) {                                               \
        const XT *xr = xp;                                                                      \
        for (kh = 0; kh < kh_n; kh++, xr += row_step) {                                         \
          for (kw = 0; kw < kw_n; kw++) *c++ = xr[kw * dw];                                     \
        }                                                                                       \
      }                                                                                         \
    } else {                                                                                    \
      for (ic = 0; ic < cig; ic++) {                                                            \
        for (kh = 0; kh < kh_n; kh++) {                                                         \
          const int32_t yy = iy + kh * dh;                                                      \
          const XT *xr = xg + (ptrdiff_t)ic * plane + (ptrdiff_t)yy * w_in + ix;                \
          for (kw = 0; kw < kw_n; kw++) {                                                       \
            const int32_t xx = ix + kw * dw;                                                    \
            *c++ = yy >= 0 && yy < h_in && xx >= 0 && xx < w_in ? xr[kw * dw] : pad;            \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
    }                                                                                           \
  } while (0)

#if OC_Q8_DSP
/* Four products of the column's bytes k..k+3 and a channel's into S. */
#define OC_QCOL_DSP4_(S, W, WEXT, WODD) \
  S = (uint32_t)__smlad(c_odd, (int32_t)WODD(W), __smlad(c_even, (int32_t)WEXT(W), (int32_t)(S)))
/* The runs of four k of one block of four channels, in a function of its
 * own so that the sums, the column and the weights stay in registers
 * (inlined, the loop nest around it spills them). Returns the weights after
 * the runs. */
#define OC_QCOL_DOT4_DEFINE(NAME, XT, WT, XEXT, XODD, WEXT, WODD)                               \
  static __attribute__((noinline)) const WT *NAME(const XT *cb, const XT *end, const WT *wp,   \
                                                  uint32_t *s) {                               \
    uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                                       \
    for (; cb < end; cb += 4, wp += 16) {                                                      \
      const uint32_t c4 = oc_q8_load4(cb);                                                     \
      const int32_t c_even = (int32_t)XEXT(c4), c_odd = (int32_t)XODD(c4);                     \
      const uint32_t v0 = oc_q8_load4(wp), v1 = oc_q8_load4(wp + 4);                          \
      const uint32_t v2 = oc_q8_load4(wp + 8), v3 = oc_q8_load4(wp + 12);                      \
      OC_QCOL_DSP4_(s0, v0, WEXT, WODD);                                                       \
      OC_QCOL_DSP4_(s1, v1, WEXT, WODD);                                                       \
      OC_QCOL_DSP4_(s2, v2, WEXT, WODD);                                                       \
      OC_QCOL_DSP4_(s3, v3, WEXT, WODD);                                                       \
    }                                                                                          \
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
    return wp;                                                                                 \
  }
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_s8s8, int8_t, int8_t, __sxtb16, oc_sxtb16_odd, __sxtb16, oc_sxtb16_odd)
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_s8u8, int8_t, uint8_t, __sxtb16, oc_sxtb16_odd, __uxtb16, oc_uxtb16_odd)
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_u8s8, uint8_t, int8_t, __uxtb16, oc_uxtb16_odd, __sxtb16, oc_sxtb16_odd)
OC_QCOL_DOT4_DEFINE(oc_qcol_dot4_u8u8, uint8_t, uint8_t, __uxtb16, oc_uxtb16_odd, __uxtb16, oc_uxtb16_odd)
#define OC_QCOL_DSP_LOOP_(DOT4)                                                                 \
  {                                                                                             \
    uint32_t sums[4];                                                                           \
    sums[0] = s0, sums[1] = s1, sums[2] = s2, sums[3] = s3;                                     \
    k = kk - tail;                                                                              \
    wp = DOT4(cb, cb + k, wp, sums);                                                            \
    s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];                                     \
  }
#else
#define OC_QCOL_DSP_LOOP_(DOT4)
#endif

/* The weights are packed (by the compiler) per group: the group's channels
 * in blocks of four, each block's k in runs of four, w[c0][k..k+3]
 * w[c1][k..k+3] w[c2][k..k+3] w[c3][k..k+3], then the block's kk % 4 last
 * k of c0, c1, c2, c3 in turn; the cog % 4 channels after the last block as
 * plain rows of kk. One pointer walks a block, so the four sums, the column
 * and the weights stay in registers. */
#define OC_QCOL_DEFINE(NAME, XT, WT, DOT4)                                       \
  static void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const int32_t *bias, void *col, void *y) {                                      \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;                             \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, kk = cig * kh_n * kw_n, tail = kk % 4;             \
    const int32_t cog4 = cog - cog % 4;                                                            \
    const ptrdiff_t plane = (ptrdiff_t)p->h_in * p->w_in, out_plane = (ptrdiff_t)p->h_out * p->w_out; \
    const int32_t h_in = p->h_in, w_in = p->w_in, sh = p->stride_h, sw = p->stride_w;              \
    const int32_t pt = p->pad_top, pl = p->pad_left, dh = p->dil_h, dw = p->dil_w;                 \
    const ptrdiff_t row_step = (ptrdiff_t)dh * w_in;                                               \
    const XT pad = (XT)q->x_zp;                                                                    \
    const XT *cb = (const XT *)col;                                                                \
    int32_t n, g, oy, ox, j, k, t;                                                                 \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (g = 0; g < p->group; g++) {                                                             \
        const XT *xg = (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)g * cig) * plane;      \
        const ptrdiff_t yg = ((ptrdiff_t)n * p->c_out + (ptrdiff_t)g * cog) * out_plane;           \
        const WT *wg = (const WT *)w + (ptrdiff_t)g * cog * kk;                                    \
        for (oy = 0; oy < p->h_out; oy++) {                                                        \
          for (ox = 0; ox < p->w_out; ox++) {                                                      \
            const ptrdiff_t at = yg + (ptrdiff_t)oy * p->w_out + ox;                               \
            const WT *wp = wg;                                                                     \
            OC_QCOL_FILL_(XT);                                                                     \
            for (j = 0; j < cog4; j += 4) {                                                        \
              const int32_t co = g * cog + j;                                                      \
              uint32_t s0 = (uint32_t)bias[co], s1 = (uint32_t)bias[co + 1],                       \
                       s2 = (uint32_t)bias[co + 2], s3 = (uint32_t)bias[co + 3];                   \
              k = 0;                                                                               \
              OC_QCOL_DSP_LOOP_(DOT4)                                                             \
              for (; k + 4 <= kk; k += 4, wp += 16) {                                              \
                for (t = 0; t < 4; t++) {                                                          \
                  const int32_t cv = cb[k + t];                                                    \
                  s0 += (uint32_t)(cv * wp[t]);                                                    \
                  s1 += (uint32_t)(cv * wp[4 + t]);                                                \
                  s2 += (uint32_t)(cv * wp[8 + t]);                                                \
                  s3 += (uint32_t)(cv * wp[12 + t]);                                               \
                }                                                                                  \
              }                                                                                    \
              for (t = 0; t < tail; t++) {                                                         \
                const int32_t cv = cb[k + t];                                                      \
                s0 += (uint32_t)(cv * wp[t]);                                                      \
                s1 += (uint32_t)(cv * wp[tail + t]);                                               \
                s2 += (uint32_t)(cv * wp[2 * tail + t]);                                           \
                s3 += (uint32_t)(cv * wp[3 * tail + t]);                                           \
              }                                                                                    \
              wp += 4 * tail;                                                                      \
              oc_q8_put(y, q->y_signed, at + (ptrdiff_t)j * out_plane, oc_requant8_apply(r, co, (int32_t)s0)); \
              oc_q8_put(y, q->y_signed, at + (ptrdiff_t)(j + 1) * out_plane,                       \
                        oc_requant8_apply(r, co + 1, (int32_t)s1));                                \
              oc_q8_put(y, q->y_signed, at + (ptrdiff_t)(j + 2) * out_plane,                       \
                        oc_requant8_apply(r, co + 2, (int32_t)s2));                                \
              oc_q8_put(y, q->y_signed, at + (ptrdiff_t)(j + 3) * out_plane,                       \
                        oc_requant8_apply(r, co + 3, (int32_t)s3));                                \
            }                                                                                      \
            for (; j < cog; j++, wp += kk) { /* the last cog % 4 channels, one at a time */        \
              const int32_t co = g * cog + j;                                                      \
              uint32_t s = (uint32_t)bias[co];                                                     \
              for (k = 0; k < kk; k++) s += (uint32_t)((int32_t)cb[k] * wp[k]);                    \
              oc_q8_put(y, q->y_signed, at + (ptrdiff_t)j * out_plane, oc_requant8_apply(r, co, (int32_t)s)); \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCOL_DEFINE(oc_qconv_column_s8s8, int8_t, int8_t, oc_qcol_dot4_s8s8)
OC_QCOL_DEFINE(oc_qconv_column_s8u8, int8_t, uint8_t, oc_qcol_dot4_s8u8)
OC_QCOL_DEFINE(oc_qconv_column_u8s8, uint8_t, int8_t, oc_qcol_dot4_u8s8)
OC_QCOL_DEFINE(oc_qconv_column_u8u8, uint8_t, uint8_t, oc_qcol_dot4_u8u8)

OC_API void oc_qconv_column(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                            const int32_t *folded_bias, void *col, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv_column, q->x_signed, q->w_signed, (q, r, x, w, folded_bias, col, y));
}

#undef OC_QCOL_FILL_
#undef OC_QCOL_DSP_LOOP_
#if OC_Q8_DSP
#undef OC_QCOL_DSP4_
#undef OC_QCOL_DOT4_DEFINE
#endif
#undef OC_QCOL_DEFINE
