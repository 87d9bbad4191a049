/* Quantized 2-D convolution through a column (oc_qconv_params, oc_qlinear.h):
 * for each output pixel, the window's input bytes (padding read as the
 * input zero point) are copied into `col` in the weights' order (channel,
 * row, column: cig * k_h * k_w bytes, the kernel's scratch in the arena), and
 * each output channel is one dot product of that column with its weights
 * (oc_qcol.h: four channels per pass, SMLAD on M4/M7, the weights packed by
 * the compiler). The weights' zero points are 0 and the compiler has folded
 * the input's into the bias: bias[co] - x_zp * sum_k w[co][k], so the
 * products are of raw values, (x - zx) w summed over a window = x w summed
 * less zx times the weights' sum, padding included (it holds zx). The same
 * sums mod 2^32 as oc_qconv. */
#include "onnx_to_c/oc_qcol.h"

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
        if (rows3) {                                                                            \
          for (kh = 0; kh < kh_n; kh++, xr += row_step, c += 3) {                               \
            c[0] = xr[0], c[1] = xr[1], c[2] = xr[2];                                           \
          }                                                                                     \
        } else {                                                                                \
          for (kh = 0; kh < kh_n; kh++, xr += row_step) {                                       \
            for (kw = 0; kw < kw_n; kw++) *c++ = xr[kw * dw];                                   \
          }                                                                                     \
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

#define OC_QCOL_DEFINE(NAME, XT, WT, CHANNELS)                                                     \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const int32_t *bias, void *col, void *y) {                                      \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;                             \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, kk = cig * kh_n * kw_n;                            \
    const ptrdiff_t plane = (ptrdiff_t)p->h_in * p->w_in, out_plane = (ptrdiff_t)p->h_out * p->w_out; \
    const int32_t h_in = p->h_in, w_in = p->w_in, sh = p->stride_h, sw = p->stride_w;              \
    const int32_t pt = p->pad_top, pl = p->pad_left, dh = p->dil_h, dw = p->dil_w;                 \
    const ptrdiff_t row_step = (ptrdiff_t)dh * w_in;                                               \
    const int32_t rows3 = kw_n == 3 && dw == 1;                                                    \
    const XT pad = (XT)q->x_zp;                                                                    \
    int32_t n, g, oy, ox;                                                                          \
    for (n = 0; n < p->n; n++) {                                                                   \
      for (g = 0; g < p->group; g++) {                                                             \
        const XT *xg = (const XT *)x + ((ptrdiff_t)n * p->c_in + (ptrdiff_t)g * cig) * plane;      \
        const ptrdiff_t yg = ((ptrdiff_t)n * p->c_out + (ptrdiff_t)g * cog) * out_plane;           \
        const WT *wg = (const WT *)w + (ptrdiff_t)g * cog * kk;                                    \
        for (oy = 0; oy < p->h_out; oy++) {                                                        \
          for (ox = 0; ox < p->w_out; ox++) {                                                      \
            OC_QCOL_FILL_(XT);                                                                     \
            CHANNELS(r, q->y_signed, (const XT *)col, kk, wg, bias, g * cog, cog, y,               \
                     yg + (ptrdiff_t)oy * p->w_out + ox, out_plane);                               \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCOL_DEFINE(oc_qconv_column_s8s8, int8_t, int8_t, oc_qcol_channels_s8s8)
OC_QCOL_DEFINE(oc_qconv_column_s8u8, int8_t, uint8_t, oc_qcol_channels_s8u8)
OC_QCOL_DEFINE(oc_qconv_column_u8s8, uint8_t, int8_t, oc_qcol_channels_u8s8)
OC_QCOL_DEFINE(oc_qconv_column_u8u8, uint8_t, uint8_t, oc_qcol_channels_u8u8)

OC_API void oc_qconv_column(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                            const int32_t *folded_bias, void *col, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv_column, q->x_signed, q->w_signed, (q, r, x, w, folded_bias, col, y));
}

#undef OC_QCOL_FILL_
#undef OC_QCOL_DEFINE
