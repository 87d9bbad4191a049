/*
 * ONNX QLinearConv, 2-D, with channels-last activations: x and y each NHWC
 * or NCHW, weights OHWI (per output channel co, [kh][kw][ic within the
 * group]: TFLite's order), so with NHWC x the input channels of a tap are
 * contiguous in both x and w.
 *
 * The sums are those of oc_qconv2d (qconv2d.c), bit for bit: each output
 * starts from bias[co] (or 0) and adds (x - x_zp)(w - w_zp) over the taps
 * inside the input, as int32 wrapping around (uint32 arithmetic, so the
 * order of the sums does not change the bits); then oc_requant8_apply of
 * channel co, stored as the output's type. The same parameters
 * (oc_qconv_params: any group, depthwise included; w_zp NULL, one, or one
 * per output channel; bias NULL or one per channel), instantiated per pair
 * of x and w types.
 *
 * Streaming order: output rows are computed one at a time in increasing
 * (n, oy) order, or decreasing with q->conv.reverse_rows. While computing
 * row (n, oy) the kernel reads only input rows of batch item n under the
 * row's window (iy = oy * stride_h - pad_top + kh * dil_h within
 * [0, h_in)) and writes only that row's outputs (every ox and channel),
 * each once, when its sum is complete. Its only state is local
 * accumulators (no scratch, nothing static). So y may overlap x where each
 * output row lies over input rows that neither that row nor a later one (in
 * the kernel's order) reads: y below x in increasing order, above it in
 * decreasing order.
 *
 * Blocks: per row, up to four output channels of one group per pass over a
 * pixel's window, each input byte loaded (less x_zp) once for the four; a
 * short last block repeats its last channel (one channel alone takes a
 * one-channel loop). The innermost loop runs over the input channels of a
 * tap, contiguous in x (NHWC) and w; with NHWC x, one group and dilation 1
 * along the width, a whole kernel row is one run of (taps inside) * c_in
 * bytes. The padding clips the window once per row (kernel rows) and, near
 * the borders only, per pixel (kernel columns), as oc_qconv_taps finds them:
 * no test per tap. Weights' zero points: where the four are 0 the products
 * are of the raw weights; else sum (x - x_zp) w - zw sum (x - x_zp), the
 * same sum mod 2^32. Depthwise convolutions (one input and one output
 * channel per group) take blocks of four groups instead, whose channels are
 * adjacent in NHWC; there, with four channels and zero points 0, a window
 * wholly inside the input sums the raw values, sum x w - x_zp sum w with
 * sum w found once per row. One row of a block is a function of its own
 * (the registers for its loops), its parameters in locals: a byte store may
 * alias anything, so the compiler would reload them after every output. The
 * sums are requantized by another function, once per pixel and block.
 *
 * On cores with the DSP extension (Cortex-M4/M7, oc_q8_dsp.h) a contiguous
 * run takes four values per step: one word of input bytes as two pairs of
 * 16-bit lanes less x_zp (SXTB16/UXTB16, SSUB16), a word of each channel's
 * weights the same way, two SMLAD per channel. SMLAD's sums wrap like the
 * uint32 ones and the products are exact, so the same bits.
 */
#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qconv_loops.h"

/* One output row of a block of four channels, co .. co + 3 (a short block,
 * m < 4, repeats its last channel), as the row functions take it. */
typedef struct {
  const void *x;         /* x at item n, first kernel row inside, column 0, the block's
                            first input channel; NULL when no kernel row is inside */
  const void *w;         /* w at channel co, kernel row h0 */
  void *y;
  const oc_requant8 *r;
  ptrdiff_t yo, y_x, y_c; /* y: (n, oy, column 0, channel co); column and channel steps */
  ptrdiff_t x_kh, x_kw;   /* x: kernel row (dil_h rows), kernel column (dil_w columns) */
  ptrdiff_t x_x, x_c;     /* x: column, channel */
  ptrdiff_t w_kh;         /* w: kernel row */
  ptrdiff_t wo[4];        /* the four channels' weights from w */
  ptrdiff_t xo[4];        /* depthwise: the four channels' inputs from x */
  int32_t z[4], zero;     /* the weights' zero points; whether all four are 0 */
  uint32_t b[4];          /* biases */
  int32_t nkh, kw_n, dw, sw, pl, w_in, w_out, zx, cig, merge, co, m;
} qnhwc_row_;

/* Sums s[0 .. m) of channels co .. co + m - 1 requantized into bytes at,
 * at + step, ... of y (an int8 and a uint8 value in range have the same
 * byte as their uint8 conversion), the values found before any store. */
static OC_NOINLINE void qnhwc_store_(const oc_requant8 *r, int32_t co, int32_t m, const uint32_t *s,
                                     void *y, ptrdiff_t at, ptrdiff_t step) {
  uint8_t *out = (uint8_t *)y + at;
  int32_t v[4], c;
  for (c = 0; c < m; c++) v[c] = oc_requant8_apply(r, co + c, (int32_t)s[c]);
  for (c = 0; c < m; c++) out[c * step] = (uint8_t)v[c];
}

/* The products of values xr[i * XS] (less zx) and pa[i] .. pd[i] for i in
 * [i, run), added to s0 .. s3 (and the values to xs with ZP). */
#define QNHWC_RUN4_(XS, ZP)                                                                       \
  for (; i < run; i++) {                                                                         \
    const int32_t xv = (int32_t)xr[(ptrdiff_t)i * (XS)] - zx;                                     \
    s0 += (uint32_t)(xv * (int32_t)pa[i]);                                                       \
    s1 += (uint32_t)(xv * (int32_t)pb[i]);                                                       \
    s2 += (uint32_t)(xv * (int32_t)pc[i]);                                                       \
    s3 += (uint32_t)(xv * (int32_t)pd[i]);                                                       \
    if (ZP) xs += (uint32_t)xv;                                                                  \
  }

#if OC_Q8_DSP
/* Four values of a contiguous run per step (see the header). XL, XH: the
 * even and odd bytes of a word of x as 16-bit lanes; WL, WH: of w. */
#define QNHWC_SMLAD2_(S, P, WL, WH)                                                              \
  {                                                                                              \
    const uint32_t wv = oc_q8_load4((P) + i);                                                    \
    S = (uint32_t)__smlad(x13, (int32_t)WH(wv), __smlad(x02, (int32_t)WL(wv), (int32_t)(S)));    \
  }
#define QNHWC_DSP4_(ZP, XL, XH, WL, WH)                                                          \
  for (; i + 4 <= run; i += 4) {                                                                 \
    const uint32_t xq = oc_q8_load4(xr + i);                                                     \
    const int32_t x02 = (int32_t)__ssub16((int32_t)XL(xq), zx2);                                 \
    const int32_t x13 = (int32_t)__ssub16((int32_t)XH(xq), zx2);                                 \
    QNHWC_SMLAD2_(s0, pa, WL, WH)                                                                \
    QNHWC_SMLAD2_(s1, pb, WL, WH)                                                                \
    QNHWC_SMLAD2_(s2, pc, WL, WH)                                                                \
    QNHWC_SMLAD2_(s3, pd, WL, WH)                                                                \
    if (ZP) xs = (uint32_t)__smlad(x13, 0x00010001, __smlad(x02, 0x00010001, (int32_t)xs));     \
  }
#define QNHWC_S8L_(v) __sxtb16(v)
#define QNHWC_S8H_(v) oc_sxtb16_odd(v)
#define QNHWC_U8L_(v) __uxtb16(v)
#define QNHWC_U8H_(v) oc_uxtb16_odd(v)
/* x_zp in both 16-bit lanes */
#define QNHWC_ZX2_ const int32_t zx2 = (int32_t)((uint32_t)(uint16_t)zx * 0x00010001u);
#else
#define QNHWC_DSP4_(ZP, XL, XH, WL, WH)
#define QNHWC_ZX2_
#endif

/* The row's parameters in locals (a byte store may alias anything). */
#define QNHWC_ROW_LOCALS_(XT, WT)                                                                \
  const XT *const x = (const XT *)a->x;                                                          \
  const WT *const wa = (const WT *)a->w + a->wo[0], *const wb = (const WT *)a->w + a->wo[1];     \
  const WT *const wc = (const WT *)a->w + a->wo[2], *const wd = (const WT *)a->w + a->wo[3];     \
  void *const y = a->y;                                                                          \
  const oc_requant8 *const r = a->r;                                                             \
  const ptrdiff_t yo = a->yo, y_x = a->y_x, y_c = a->y_c, x_kh = a->x_kh, x_kw = a->x_kw;        \
  const ptrdiff_t x_x = a->x_x, w_kh = a->w_kh;                                                  \
  const int32_t z0 = a->z[0], z1 = a->z[1], z2 = a->z[2], z3 = a->z[3], zero = a->zero;          \
  const uint32_t b0 = a->b[0], b1 = a->b[1], b2 = a->b[2], b3 = a->b[3];                         \
  const int32_t nkh = a->nkh, kw_n = a->kw_n, dw = a->dw, sw = a->sw, pl = a->pl;                \
  const int32_t w_in = a->w_in, w_out = a->w_out, zx = a->zx, co = a->co, m = a->m;              \
  int32_t ox, w0, w1, kh, kw, i;                                                                 \
  uint32_t s[4];

/* The kernel columns [w0, w1) of output column ox inside the input. */
#define QNHWC_COLUMNS_                                                                           \
  const int32_t ix = ox * sw - pl;                                                               \
  if (ix >= 0 && ix + (kw_n - 1) * dw < w_in) {                                                  \
    w0 = 0, w1 = kw_n;                                                                           \
  } else {                                                                                       \
    oc_qconv_taps(ix, dw, kw_n, w_in, &w0, &w1);                                                 \
  }

/* The row functions of one pair of types (P: their prefix). XL .. WH: the
 * DSP lane extractions of the types (unused elsewhere). */
#define OC_QCONV2D_NHWC_ROWS(P, XT, WT, XL, XH, WL, WH)                                          \
  /* A block of a group's channels: each pixel's window in runs of input channels. */          \
  static OC_NOINLINE void P##_row(const qnhwc_row_ *a) {                                         \
    QNHWC_ROW_LOCALS_(XT, WT)                                                                    \
    const ptrdiff_t x_c = a->x_c;                                                                \
    const int32_t cig = a->cig, merge = a->merge;                                                \
    QNHWC_ZX2_                                                                                   \
    for (ox = 0; ox < w_out; ox++) {                                                             \
      uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3, xs = 0u; /* int32 wrap-around */              \
      QNHWC_COLUMNS_                                                                             \
      if (nkh > 0 && w0 < w1) {                                                                  \
        const XT *const xw = x + (ptrdiff_t)(ix + w0 * dw) * x_x;                                \
        /* a kernel row: nkw runs of `run` channels (one run when contiguous) */                 \
        const int32_t nkw = merge ? 1 : w1 - w0, run = merge ? (w1 - w0) * cig : cig;            \
        for (kh = 0; kh < nkh; kh++) {                                                           \
          for (kw = 0; kw < nkw; kw++) {                                                         \
            const XT *const xr = xw + (ptrdiff_t)kh * x_kh + (ptrdiff_t)kw * x_kw;               \
            const ptrdiff_t wo = (ptrdiff_t)kh * w_kh + (ptrdiff_t)(w0 + kw) * cig;              \
            const WT *const pa = wa + wo, *const pb = wb + wo, *const pc = wc + wo;              \
            const WT *const pd = wd + wo;                                                        \
            i = 0;                                                                               \
            if (m == 1) {                                                                        \
              for (; i < run; i++) {                                                             \
                s0 += (uint32_t)(((int32_t)xr[(ptrdiff_t)i * x_c] - zx) * ((int32_t)pa[i] - z0)); \
              }                                                                                  \
            } else if (zero) {                                                                   \
              if (x_c == 1) {                                                                    \
                QNHWC_DSP4_(0, XL, XH, WL, WH)                                                   \
                QNHWC_RUN4_(1, 0)                                                                \
              } else {                                                                           \
                QNHWC_RUN4_(x_c, 0)                                                              \
              }                                                                                  \
            } else {                                                                             \
              if (x_c == 1) {                                                                    \
                QNHWC_DSP4_(1, XL, XH, WL, WH)                                                   \
                QNHWC_RUN4_(1, 1)                                                                \
              } else {                                                                           \
                QNHWC_RUN4_(x_c, 1)                                                              \
              }                                                                                  \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
        if (!zero && m > 1) {                                                                    \
          s0 -= (uint32_t)z0 * xs, s1 -= (uint32_t)z1 * xs;                                      \
          s2 -= (uint32_t)z2 * xs, s3 -= (uint32_t)z3 * xs;                                      \
        }                                                                                        \
      }                                                                                          \
      s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
      qnhwc_store_(r, co, m, s, y, yo + (ptrdiff_t)ox * y_x, y_c);                               \
    }                                                                                            \
  }                                                                                              \
  /* Depthwise: four groups of one channel each. In NHWC with four channels and zero points   \
   * 0, a window wholly inside the input sums raw values: sum (x - zx) w = sum x w - zx sum w,  \
   * with sum w found once per row. */                                                         \
  static OC_NOINLINE void P##_dwrow(const qnhwc_row_ *a) {                                       \
    QNHWC_ROW_LOCALS_(XT, WT)                                                                    \
    const ptrdiff_t o1 = a->xo[1], o2 = a->xo[2], o3 = a->xo[3];                                 \
    const int32_t fast = zero && m == 4 && o1 == 1 && o2 == 2 && o3 == 3;                        \
    uint32_t f0 = b0, f1 = b1, f2 = b2, f3 = b3;                                                 \
    if (fast) {                                                                                  \
      uint32_t t0 = 0u, t1 = 0u, t2 = 0u, t3 = 0u;                                               \
      for (kh = 0; kh < nkh; kh++) {                                                             \
        for (kw = 0; kw < kw_n; kw++) {                                                          \
          const ptrdiff_t k = (ptrdiff_t)kh * w_kh + kw;                                         \
          t0 += (uint32_t)(int32_t)wa[k], t1 += (uint32_t)(int32_t)wb[k];                        \
          t2 += (uint32_t)(int32_t)wc[k], t3 += (uint32_t)(int32_t)wd[k];                        \
        }                                                                                        \
      }                                                                                          \
      f0 -= (uint32_t)zx * t0, f1 -= (uint32_t)zx * t1;                                          \
      f2 -= (uint32_t)zx * t2, f3 -= (uint32_t)zx * t3;                                          \
    }                                                                                            \
    for (ox = 0; ox < w_out; ox++) {                                                             \
      uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3; /* int32 wrap-around */                       \
      QNHWC_COLUMNS_                                                                             \
      if (nkh > 0 && w0 < w1) {                                                                  \
        const XT *const xw = x + (ptrdiff_t)(ix + w0 * dw) * x_x;                                \
        if (fast && w0 == 0 && w1 == kw_n) {                                                     \
          s0 = f0, s1 = f1, s2 = f2, s3 = f3;                                                    \
          for (kh = 0; kh < nkh; kh++) {                                                         \
            const XT *const xk = xw + (ptrdiff_t)kh * x_kh;                                      \
            const ptrdiff_t wo = (ptrdiff_t)kh * w_kh;                                           \
            const WT *const pa = wa + wo, *const pb = wb + wo, *const pc = wc + wo;              \
            const WT *const pd = wd + wo;                                                        \
            for (i = 0; i < kw_n; i++) {                                                         \
              const XT *const xr = xk + (ptrdiff_t)i * x_kw;                                     \
              s0 += (uint32_t)((int32_t)xr[0] * (int32_t)pa[i]);                                 \
              s1 += (uint32_t)((int32_t)xr[1] * (int32_t)pb[i]);                                 \
              s2 += (uint32_t)((int32_t)xr[2] * (int32_t)pc[i]);                                 \
              s3 += (uint32_t)((int32_t)xr[3] * (int32_t)pd[i]);                                 \
            }                                                                                    \
          }                                                                                      \
        } else {                                                                                 \
          for (kh = 0; kh < nkh; kh++) {                                                         \
            const XT *const xk = xw + (ptrdiff_t)kh * x_kh;                                      \
            const ptrdiff_t wo = (ptrdiff_t)kh * w_kh;                                           \
            for (kw = w0; kw < w1; kw++) {                                                       \
              const XT *const xr = xk + (ptrdiff_t)(kw - w0) * x_kw;                             \
              s0 += (uint32_t)(((int32_t)xr[0] - zx) * ((int32_t)wa[wo + kw] - z0));             \
              s1 += (uint32_t)(((int32_t)xr[o1] - zx) * ((int32_t)wb[wo + kw] - z1));            \
              s2 += (uint32_t)(((int32_t)xr[o2] - zx) * ((int32_t)wc[wo + kw] - z2));            \
              s3 += (uint32_t)(((int32_t)xr[o3] - zx) * ((int32_t)wd[wo + kw] - z3));            \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
      s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
      qnhwc_store_(r, co, m, s, y, yo + (ptrdiff_t)ox * y_x, y_c);                               \
    }                                                                                            \
  }

#if OC_Q8_DSP
OC_QCONV2D_NHWC_ROWS(qnhwc_s8s8, int8_t, int8_t, QNHWC_S8L_, QNHWC_S8H_, QNHWC_S8L_, QNHWC_S8H_)
OC_QCONV2D_NHWC_ROWS(qnhwc_u8s8, uint8_t, int8_t, QNHWC_U8L_, QNHWC_U8H_, QNHWC_S8L_, QNHWC_S8H_)
OC_QCONV2D_NHWC_ROWS(qnhwc_s8u8, int8_t, uint8_t, QNHWC_S8L_, QNHWC_S8H_, QNHWC_U8L_, QNHWC_U8H_)
OC_QCONV2D_NHWC_ROWS(qnhwc_u8u8, uint8_t, uint8_t, QNHWC_U8L_, QNHWC_U8H_, QNHWC_U8L_, QNHWC_U8H_)
#else
OC_QCONV2D_NHWC_ROWS(qnhwc_s8s8, int8_t, int8_t, , , , )
OC_QCONV2D_NHWC_ROWS(qnhwc_u8s8, uint8_t, int8_t, , , , )
OC_QCONV2D_NHWC_ROWS(qnhwc_s8u8, int8_t, uint8_t, , , , )
OC_QCONV2D_NHWC_ROWS(qnhwc_u8u8, uint8_t, uint8_t, , , , )
#endif

/* The kernel: every row (in the streaming order) and block (P: the pair's
 * row functions). */
#define OC_QCONV2D_NHWC_DEFINE(NAME, P, XT, WT)                                                  \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x,    \
                               const void *w, const void *w_zp, const int32_t *bias, void *y,    \
                               int32_t x_last, int32_t y_last) {                                 \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const int32_t group = p->group, c_in = p->c_in, c_out = p->c_out;                            \
    const int32_t cig = c_in / group, cog = c_out / group, depthwise = cig == 1 && cog == 1;     \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, dh = p->dil_h, dw = p->dil_w;                    \
    const int32_t h_in = p->h_in, w_in = p->w_in, h_out = p->h_out, w_out = p->w_out;            \
    const int32_t sh = p->stride_h, pt = p->pad_top;                                             \
    const int32_t w_signed = q->w_signed, per = q->w_zp_per_channel;                             \
    const int32_t rows = p->n * h_out, reverse = p->reverse_rows;                                \
    const ptrdiff_t in_plane = (ptrdiff_t)h_in * w_in, out_plane = (ptrdiff_t)h_out * w_out;     \
    /* steps in elements: channel, column, row, item */                                         \
    const ptrdiff_t x_c = x_last ? 1 : in_plane, x_x = x_last ? c_in : 1;                        \
    const ptrdiff_t x_row = (ptrdiff_t)w_in * x_x, x_item = in_plane * c_in;                     \
    const ptrdiff_t y_c = y_last ? 1 : out_plane, y_x = y_last ? c_out : 1;                      \
    const ptrdiff_t y_row = (ptrdiff_t)w_out * y_x, y_item = out_plane * c_out;                  \
    const ptrdiff_t w_ch = (ptrdiff_t)kh_n * kw_n * cig;                                         \
    const int32_t nblk = depthwise ? 1 : group, nch = depthwise ? c_out : cog;                   \
    qnhwc_row_ a;                                                                                \
    int32_t row, g, j, c, h0, h1;                                                                \
    a.y = y;                                                                                     \
    a.r = r;                                                                                     \
    a.y_x = y_x;                                                                                 \
    a.y_c = y_c;                                                                                 \
    a.x_kh = (ptrdiff_t)dh * x_row;                                                              \
    a.x_kw = (ptrdiff_t)dw * x_x;                                                                \
    a.x_x = x_x;                                                                                 \
    a.x_c = x_c;                                                                                 \
    a.w_kh = (ptrdiff_t)kw_n * cig;                                                              \
    a.kw_n = kw_n;                                                                               \
    a.dw = dw;                                                                                   \
    a.sw = p->stride_w;                                                                          \
    a.pl = p->pad_left;                                                                          \
    a.w_in = w_in;                                                                               \
    a.w_out = w_out;                                                                             \
    a.zx = q->x_zp;                                                                              \
    a.cig = cig;                                                                                 \
    /* a kernel row's taps as one run of channels: NHWC, one group, dilation 1 along it */       \
    a.merge = x_last && group == 1 && dw == 1;                                                   \
    for (row = 0; row < rows; row++) {                                                           \
      const int32_t nr = reverse ? rows - 1 - row : row, n = nr / h_out, oy = nr - n * h_out;    \
      const int32_t iy = oy * sh - pt;                                                           \
      oc_qconv_taps(iy, dh, kh_n, h_in, &h0, &h1);                                               \
      a.nkh = h1 - h0;                                                                           \
      for (g = 0; g < nblk; g++) {                                                               \
        for (j = 0; j < nch; j += 4) {                                                           \
          const int32_t co = g * cog + j, m = nch - j < 4 ? nch - j : 4;                         \
          a.co = co;                                                                             \
          a.m = m;                                                                               \
          a.zero = 1;                                                                            \
          a.w = (const WT *)w + (ptrdiff_t)co * w_ch + (ptrdiff_t)h0 * a.w_kh;                   \
          /* the first kernel row inside (none: nothing is read) */                              \
          a.x = h0 < h1 ? (const XT *)x + (ptrdiff_t)n * x_item + (ptrdiff_t)(iy + h0 * dh) * x_row + \
                              (ptrdiff_t)(depthwise ? co : g * cig) * x_c                        \
                        : NULL;                                                                  \
          a.yo = (ptrdiff_t)n * y_item + (ptrdiff_t)oy * y_row + (ptrdiff_t)co * y_c;            \
          for (c = 0; c < 4; c++) {                                                              \
            const int32_t ch = co + (c < m ? c : m - 1);                                         \
            a.wo[c] = (ptrdiff_t)(ch - co) * w_ch;                                               \
            a.xo[c] = (ptrdiff_t)(ch - co) * x_c;                                                \
            a.z[c] = w_zp == NULL ? 0 : oc_q8_get(w_zp, w_signed, per ? ch : 0);                 \
            a.zero &= a.z[c] == 0;                                                               \
            a.b[c] = bias != NULL ? (uint32_t)bias[ch] : 0u;                                     \
          }                                                                                      \
          if (depthwise) {                                                                       \
            P##_dwrow(&a);                                                                       \
          } else {                                                                               \
            P##_row(&a);                                                                         \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_s8s8, qnhwc_s8s8, int8_t, int8_t)
OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_u8s8, qnhwc_u8s8, uint8_t, int8_t)
OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_s8u8, qnhwc_s8u8, int8_t, uint8_t)
OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_u8u8, qnhwc_u8u8, uint8_t, uint8_t)

#undef OC_QCONV2D_NHWC_ROWS
#undef OC_QCONV2D_NHWC_DEFINE
#undef QNHWC_RUN4_
#undef QNHWC_DSP4_
#undef QNHWC_ZX2_
#undef QNHWC_ROW_LOCALS_
#undef QNHWC_COLUMNS_
#if OC_Q8_DSP
#undef QNHWC_SMLAD2_
#undef QNHWC_S8L_
#undef QNHWC_S8H_
#undef QNHWC_U8L_
#undef QNHWC_U8H_
#endif

OC_API void oc_qconv2d_nhwc(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                            const void *w, const void *w_zp, const int32_t *bias, void *y,
                            int32_t x_last, int32_t y_last) {
  OC_Q8_PAIR_CALL(oc_qconv2d_nhwc, q->x_signed, q->w_signed,
                  (q, r, x, w, w_zp, bias, y, x_last, y_last));
}
