/*
 * ONNX QLinearConv (a QDQ Conv) with 4-bit weights, 2-D (1-D: h 1): the
 * weights stay two to a byte (oc_w4_at's blocks of four output channels,
 * each channel's k = [kh][kw][ic within the group]) and are read a nibble
 * at a time; x and y each NHWC or NCHW.
 *
 * The sums are those of oc_qconv2d_nhwc on the same weights as bytes, bit
 * for bit: each output starts from bias[co] (or 0) and adds (x - x_zp)(u -
 * zu) over the taps inside the input, as int32 wrapping around (uint32
 * arithmetic, so their order does not change the bits), then
 * oc_requant8_apply of channel co, stored as the output's type.
 *
 * Streaming order, as oc_qconv2d_nhwc's: output rows (n, oy) one at a time
 * in increasing order, or decreasing with q->conv.reverse_rows; row (n, oy)
 * reads only input rows of item n under its window and writes only its own
 * outputs, each once, when its sum is complete; no scratch, nothing static.
 * So y may overlap x as it may there (the rows contracts).
 *
 * Dense pixels (x NHWC, one group, dilation 1 along the width, cig a
 * multiple of 4): a kernel row's taps inside are one run of (taps) * cig
 * values in x and whole chunks of each block, so a window is one run per
 * kernel row (oc_qw4_run.h: SMLAD on M4/M7); the sums are of (x - x_zp) u,
 * and sum (x - x_zp) over the window, found once per pixel for all blocks,
 * times zu is taken off. Other pixels (NCHW x, groups, dilation along the
 * width, other cig) go tap by tap, one output at a time.
 *
 * Given scratch (oc_qconv2d_w4_col: x NHWC, one group, kernel rows of whole
 * groups of four), an optimized folder may run the whole convolution as
 * column products there instead (runtime/arm: oc_qw4_col.h), the same sums.
 */
#include "onnx_to_c/oc_qconv_loops.h"
#include "onnx_to_c/oc_qw4_col.h"
#include "onnx_to_c/oc_qw4_run.h"

/* A convolution's numbers, in elements. */
typedef struct {
  int32_t cig, cog, kh_n, kw_n, dh, dw, h_in, w_in, kk;
  ptrdiff_t x_c, x_x, x_row, x_item, y_c, blk;
} qw4_geom_;

/* The output of channel co at y[at]. */
static void qw4_put_(const oc_requant8 *r, const int32_t *bias, int32_t co, uint32_t sum, uint8_t *y,
                     ptrdiff_t at) {
  const uint32_t b = bias != NULL ? (uint32_t)bias[co] : 0u;
  y[at] = (uint8_t)oc_requant8_apply(r, co, (int32_t)(b + sum));
}

/* One output (channel co; x at item n's first element) tap by tap: any
 * layout, group and dilation. */
#define QW4_GENERIC_(XT)                                                                         \
  static uint32_t qw4_generic_##XT(const qw4_geom_ *g, const XT *x, int32_t zx, const uint8_t *w, \
                                   int32_t zu, int32_t co, int32_t iy, int32_t ix, int32_t h0,    \
                                   int32_t h1, int32_t w0, int32_t w1) {                          \
    const uint8_t *const block = w + (ptrdiff_t)(co >> 2) * g->blk;                               \
    const XT *const xg = x + (ptrdiff_t)(co / g->cog) * g->cig * g->x_c;                          \
    uint32_t sum = 0u;                                                                           \
    int32_t kh, kw, ic;                                                                          \
    for (kh = h0; kh < h1; kh++) {                                                               \
      for (kw = w0; kw < w1; kw++) {                                                             \
        const XT *const xt = xg + (ptrdiff_t)(iy + kh * g->dh) * g->x_row +                      \
                             (ptrdiff_t)(ix + kw * g->dw) * g->x_x;                              \
        const int32_t k0 = (kh * g->kw_n + kw) * g->cig;                                         \
        for (ic = 0; ic < g->cig; ic++) {                                                        \
          sum += (uint32_t)(((int32_t)xt[(ptrdiff_t)ic * g->x_c] - zx) *                         \
                            (oc_w4_at(block, k0 + ic, co & 3) - zu));                            \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
    return sum;                                                                                  \
  }

/* The outputs of one dense pixel (xw: its first kernel row inside, column
 * w0, channel 0), every block, at y[yo + co y_c]. */
#define QW4_DENSE_(XT, XTB16, FLIP)                                                              \
  static OC_NOINLINE void qw4_dense_##XT(const qw4_geom_ *g, const oc_requant8 *r,               \
                                         const XT *xw, int32_t zx, const uint8_t *w,             \
                                         const uint8_t *w_zp, const int32_t *bias, int32_t c_out, \
                                         int32_t h0, int32_t h1, int32_t w0, int32_t w1,          \
                                         uint8_t *y, ptrdiff_t yo) {                              \
    const int32_t run = (w1 - w0) * g->cig, nkh = h1 - h0;                                       \
    const ptrdiff_t x_kh = (ptrdiff_t)g->dh * g->x_row, w_kh = (ptrdiff_t)g->kw_n * g->cig / 4 * 8; \
    const ptrdiff_t w_at = ((ptrdiff_t)h0 * g->kw_n + w0) * g->cig / 4 * 8;                      \
    uint32_t xs = 0u;                                                                            \
    int32_t kh, co;                                                                              \
    for (kh = 0; kh < nkh; kh++) OC_W4_XSUM_(XT, FLIP, xw + (ptrdiff_t)kh * x_kh, run)           \
    for (co = 0; co < c_out; co += 4) {                                                          \
      const uint8_t *const wb = w + (ptrdiff_t)(co >> 2) * g->blk + w_at;                        \
      uint32_t s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u, s[4];                                         \
      for (kh = 0; kh < nkh; kh++) {                                                             \
        OC_W4_RUN_(XT, XTB16, xw + (ptrdiff_t)kh * x_kh, wb + (ptrdiff_t)kh * w_kh, run)         \
      }                                                                                          \
      s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
      oc_w4_put4(r, bias, w_zp, s, xs, co, c_out, y + yo + (ptrdiff_t)co * g->y_c, g->y_c);      \
    }                                                                                            \
  }

/* The kernel for x of type XT. */
#define QW4_DEFINE_(XT)                                                                          \
  static void qw4_conv_##XT(const oc_qconv_params *q, const oc_requant8 *r, const XT *x,         \
                            const uint8_t *w, const uint8_t *w_zp, const int32_t *bias,          \
                            uint8_t *y, int32_t x_last, int32_t y_last) {                        \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const int32_t c_in = p->c_in, c_out = p->c_out, zx = q->x_zp;                                \
    const int32_t rows = p->n * p->h_out, reverse = p->reverse_rows;                             \
    const ptrdiff_t in_plane = (ptrdiff_t)p->h_in * p->w_in, out_plane = (ptrdiff_t)p->h_out * p->w_out; \
    const ptrdiff_t y_x = y_last ? c_out : 1, y_row = (ptrdiff_t)p->w_out * y_x;                 \
    qw4_geom_ g;                                                                                 \
    int32_t row, ox, co, h0, h1, w0, w1, dense;                                                  \
    g.cig = c_in / p->group, g.cog = c_out / p->group;                                           \
    g.kh_n = p->k_h, g.kw_n = p->k_w, g.dh = p->dil_h, g.dw = p->dil_w;                          \
    g.h_in = p->h_in, g.w_in = p->w_in, g.kk = g.kh_n * g.kw_n * g.cig;                          \
    g.x_c = x_last ? 1 : in_plane, g.x_x = x_last ? c_in : 1;                                    \
    g.x_row = (ptrdiff_t)p->w_in * g.x_x, g.x_item = in_plane * c_in;                            \
    g.y_c = y_last ? 1 : out_plane, g.blk = oc_w4_block_bytes(g.kk);                             \
    dense = x_last && p->group == 1 && g.dw == 1 && g.cig % 4 == 0;                              \
    for (row = 0; row < rows; row++) {                                                           \
      const int32_t nr = reverse ? rows - 1 - row : row, n = nr / p->h_out, oy = nr - n * p->h_out; \
      const int32_t iy = oy * p->stride_h - p->pad_top;                                          \
      const XT *const xn = x + (ptrdiff_t)n * g.x_item;                                          \
      oc_qconv_taps(iy, g.dh, g.kh_n, g.h_in, &h0, &h1);                                         \
      for (ox = 0; ox < p->w_out; ox++) {                                                        \
        const int32_t ix = ox * p->stride_w - p->pad_left;                                       \
        const ptrdiff_t yo = (ptrdiff_t)n * out_plane * c_out + (ptrdiff_t)oy * y_row + (ptrdiff_t)ox * y_x; \
        oc_qconv_taps(ix, g.dw, g.kw_n, g.w_in, &w0, &w1);                                       \
        if (h0 >= h1 || w0 >= w1) w0 = w1 = h0 = h1 = 0; /* wholly in the padding */             \
        if (dense) {                                                                             \
          const XT *const xw = xn + (ptrdiff_t)(iy + h0 * g.dh) * g.x_row + (ptrdiff_t)(ix + w0) * c_in; \
          qw4_dense_##XT(&g, r, xw, zx, w, w_zp, bias, c_out, h0, h1, w0, w1, y, yo);             \
          continue;                                                                              \
        }                                                                                        \
        for (co = 0; co < c_out; co++) {                                                         \
          qw4_put_(r, bias, co,                                                                  \
                   qw4_generic_##XT(&g, xn, zx, w, w_zp[co], co, iy, ix, h0, h1, w0, w1), y,     \
                   yo + (ptrdiff_t)co * g.y_c);                                                  \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

QW4_GENERIC_(int8_t)
QW4_GENERIC_(uint8_t)
QW4_DENSE_(int8_t, "sxtb16", 0x80808080u)
QW4_DENSE_(uint8_t, "uxtb16", 0u)
QW4_DEFINE_(int8_t)
QW4_DEFINE_(uint8_t)

#undef QW4_GENERIC_
#undef QW4_DENSE_
#undef QW4_DEFINE_

/* A generated file (where OC_API is static) may call only one of the two. */
#if defined(__GNUC__)
#define QW4_MAYBE_UNUSED_ __attribute__((unused))
#else
#define QW4_MAYBE_UNUSED_
#endif

OC_API QW4_MAYBE_UNUSED_ void oc_qconv2d_w4(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                            const uint8_t *w, const uint8_t *w_zp, const int32_t *bias, void *y,
                                            int32_t x_last, int32_t y_last) {
  if (q->x_signed) {
    qw4_conv_int8_t(q, r, (const int8_t *)x, w, w_zp, bias, (uint8_t *)y, x_last, y_last);
  } else {
    qw4_conv_uint8_t(q, r, (const uint8_t *)x, w, w_zp, bias, (uint8_t *)y, x_last, y_last);
  }
}

/* The whole convolution as column products in the scratch col (on M4/M7:
 * oc_qw4_col.h); here the windows above, the scratch unused. */
#ifndef QW4_COLUMN_CONV_
#define QW4_COLUMN_CONV_(X_SIGNED, ARGS) qw4_no_columns_ ARGS
static void qw4_no_columns_(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const uint8_t *w,
                            const uint8_t *w_zp, const int32_t *bias, void *y, int32_t y_last, void *col) {
  (void)col;
  oc_qconv2d_w4(q, r, x, w, w_zp, bias, y, 1, y_last);
}
#endif

OC_API QW4_MAYBE_UNUSED_ void oc_qconv2d_w4_col(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                                const uint8_t *w, const uint8_t *w_zp, const int32_t *bias,
                                                void *y, int32_t y_last, void *col) {
  QW4_COLUMN_CONV_(q->x_signed, (q, r, x, w, w_zp, bias, y, y_last, col));
}

#undef QW4_MAYBE_UNUSED_
#undef QW4_COLUMN_CONV_
