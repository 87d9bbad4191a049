/*
 * onnx-to-c runtime, Armv7E-M: two output pixels' windows of an 8-bit
 * channels-last convolution (one group, kernel rows of whole groups of four
 * values: k_w c_in a multiple of 4) as columns in kernel scratch, shared by
 * the column products of 8-bit weights (oc_qnhwc_col.h) and of 4-bit ones
 * (oc_qw4_col.h), whose x is 8-bit alike. Each window becomes a column of
 * K = k_h k_w c_in values x - x_zp as 16-bit lanes, (v0, v2) and (v1, v3)
 * per group of four (SXTB16/UXTB16 and SSUB16), the two columns interleaved
 * a group at a time (a's two words, then b's): a kernel row wholly inside
 * widened straight from x, one wholly in the padding zeros, one clipped
 * gathered first (its padding taps as x_zp, so 0 once widened). The
 * scratch is 4 K + k_w c_in bytes, word-aligned. Here too the requantized
 * stores of two channels by two pixels. Without the DSP extension, or at
 * -O0, it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QCOL_PAIR_H_
#define ONNX_TO_C_OC_QCOL_PAIR_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qconv_loops.h"

#if OC_Q8_DSP && defined(__OPTIMIZE__)

/* One output row's geometry, as the column functions read it. */
typedef struct {
  const uint8_t *x;   /* x at item n, row 0, column 0, channel 0 */
  const void *w;      /* the weights: 8-bit OHWI, K bytes a channel; 4-bit: oc_w4_at's blocks */
  const uint8_t *w_zp; /* 4-bit weights: their zero points, one a channel */
  const int32_t *bias;
  uint8_t *y;         /* y at (n, oy, column 0, channel 0) */
  ptrdiff_t x_row, y_x, y_c;
  int32_t iy, h_in, w_in, c_in, kh_n, kw_n, dh, dw, sw, pl, w_out, c_out;
  int32_t k, groups, zx; /* K, its groups of four (k_w c_in is whole groups), x_zp */
  uint32_t *col;         /* the scratch: the pair's columns, then a kernel row's bytes */
} qnhwc_col_;

/* Kernel row iy (inside the input) of the window from input column ix0 as
 * bytes at b: the taps inside copied, the others x_zp's byte. */
static void qnhwc_col_gather_row_(const qnhwc_col_ *g, int32_t ix0, int32_t iy, uint8_t *b) {
  const uint8_t *const xr = g->x + (ptrdiff_t)iy * g->x_row;
  const int32_t c_in = g->c_in;
  const int zb = (int)(uint8_t)g->zx;
  int32_t kw;
  for (kw = 0; kw < g->kw_n; kw++) {
    const int32_t ix = ix0 + kw * g->dw;
    if (ix >= 0 && ix < g->w_in) {
      memcpy(b + kw * c_in, xr + (ptrdiff_t)ix * c_in, (size_t)c_in);
    } else {
      memset(b + kw * c_in, zb, (size_t)c_in);
    }
  }
}

static void qnhwc_col_geometry_(qnhwc_col_ *g, const oc_qconv_params *q, const void *x,
                                const void *w, const int32_t *bias, void *y, int32_t y_last,
                                int32_t n, int32_t oy) {
  const oc_conv2d_params *p = &q->conv;
  const ptrdiff_t out_plane = (ptrdiff_t)p->h_out * p->w_out;
  g->c_in = p->c_in, g->c_out = p->c_out, g->h_in = p->h_in, g->w_in = p->w_in;
  g->kh_n = p->k_h, g->kw_n = p->k_w, g->dh = p->dil_h, g->dw = p->dil_w;
  g->sw = p->stride_w, g->pl = p->pad_left, g->w_out = p->w_out;
  g->x_row = (ptrdiff_t)p->w_in * p->c_in;
  g->x = (const uint8_t *)x + (ptrdiff_t)n * p->h_in * g->x_row;
  g->w = w, g->bias = bias;
  g->y_c = y_last ? 1 : out_plane, g->y_x = y_last ? p->c_out : 1;
  g->y = (uint8_t *)y + (ptrdiff_t)n * out_plane * p->c_out + (ptrdiff_t)oy * p->w_out * g->y_x;
  g->iy = oy * p->stride_h - p->pad_top;
  g->k = p->k_h * p->k_w * p->c_in, g->groups = g->k / 4, g->zx = q->x_zp;
}

/* Per type of x (X: s8 or u8): window bytes widened into a column
 * (qnhwc_col_widen_##X, qnhwc_col_fill_##X). */
#define QNHWC_COL_FILL_DEFINE_(X, XL, XH)                                                        \
  /* groups of four bytes at b as x - x_zp into col, two words a group, four words apart */ \
  static void qnhwc_col_widen_##X(uint32_t *col, const uint8_t *b, int32_t groups, int32_t zx) { \
    const int32_t zx2 = (int32_t)((uint32_t)(uint16_t)zx * 0x00010001u);                        \
    int32_t g;                                                                                   \
    for (g = 0; g < groups; g++) {                                                               \
      const uint32_t v = oc_q8_load4(b + 4 * g);                                                 \
      col[4 * g] = (uint32_t)__ssub16((int32_t)XL(v), zx2);                                      \
      col[4 * g + 1] = (uint32_t)__ssub16((int32_t)XH(v), zx2);                                  \
    }                                                                                            \
  }                                                                                              \
  /* The column of output column ox (a kernel row is whole groups) into col's words 4g and  \
   * 4g + 1: each kernel row widened from x when wholly inside (dilation 1), zeros when      \
   * wholly outside, else gathered into the scratch's row bytes and widened from there. */     \
  static void qnhwc_col_fill_##X(const qnhwc_col_ *g, int32_t ox, uint32_t *col) {              \
    const int32_t c_in = g->c_in, run = g->kw_n * c_in, ix0 = ox * g->sw - g->pl;               \
    const int32_t inside = g->dw == 1 && ix0 >= 0 && ix0 + g->kw_n <= g->w_in;                  \
    uint8_t *const row = (uint8_t *)(g->col + 4 * g->groups);                                    \
    int32_t kh, i;                                                                               \
    for (kh = 0; kh < g->kh_n; kh++, col += run) {                                               \
      const int32_t iy = g->iy + kh * g->dh;                                                     \
      if (iy < 0 || iy >= g->h_in) {                                                             \
        for (i = 0; i < run; i += 4) col[i] = col[i + 1] = 0u;                                   \
      } else if (inside) {                                                                       \
        qnhwc_col_widen_##X(col, g->x + (ptrdiff_t)iy * g->x_row + (ptrdiff_t)ix0 * c_in,        \
                            run / 4, g->zx);                                                     \
      } else {                                                                                   \
        qnhwc_col_gather_row_(g, ix0, iy, row);                                                  \
        qnhwc_col_widen_##X(col, row, run / 4, g->zx);                                           \
      }                                                                                          \
    }                                                                                            \
  }

QNHWC_COL_FILL_DEFINE_(s8, __sxtb16, oc_sxtb16_odd)
QNHWC_COL_FILL_DEFINE_(u8, __uxtb16, oc_uxtb16_odd)
#undef QNHWC_COL_FILL_DEFINE_

/* Per kernel (P: its prefix; X: x's type, s8 or u8): a whole row, the pixels
 * two at a time into P##_col_pairs (inlined: one frame less under the
 * pairs), and the convolution (P##_colconv), its rows in the streaming
 * order of the scratch-free kernels. */
#define QNHWC_COL_ROWS_DEFINE(P, X)                                                              \
  static void P##_colrun(const qnhwc_col_ *g, const oc_requant8 *r) {                            \
    int32_t ox, j;                                                                               \
    for (ox = 0; ox < g->w_out; ox += 2) {                                                       \
      /* an odd last pixel: its column twice, its values stored twice */                         \
      const int32_t o1 = ox + 1 < g->w_out ? ox + 1 : ox;                                        \
      for (j = 0; j < 2; j++) qnhwc_col_fill_##X(g, j ? o1 : ox, g->col + 2 * j);                \
      P##_col_pairs(g, r, g->col, g->y + (ptrdiff_t)ox * g->y_x, g->y + (ptrdiff_t)o1 * g->y_x); \
    }                                                                                            \
  }                                                                                              \
  static OC_NOINLINE void P##_colconv(const oc_qconv_params *q, const oc_requant8 *r,            \
                                      const void *x, const void *w, const uint8_t *w_zp,         \
                                      const int32_t *bias, void *y, int32_t y_last, void *col) { \
    const int32_t h_out = q->conv.h_out, rows = q->conv.n * h_out;                               \
    int32_t row;                                                                                 \
    qnhwc_col_ g;                                                                                \
    for (row = 0; row < rows; row++) {                                                           \
      const int32_t nr = q->conv.reverse_rows ? rows - 1 - row : row, n = nr / h_out;            \
      qnhwc_col_geometry_(&g, q, x, w, bias, y, y_last, n, nr - n * h_out);                      \
      g.w_zp = w_zp;                                                                             \
      g.col = (uint32_t *)col;                                                                   \
      P##_colrun(&g, r);                                                                         \
    }                                                                                            \
  }

/* The sums of channels CO (pixels a, b: S0, S1) and C1 (S2, S3)
 * requantized into oa and ob (y_c apart), the four values found before any
 * store; rl: the requantization in a local, sat: QNHWC_COL_SAT_KIND_'s. On
 * the M4F/M7 in float mode with the bounds up to the type's end (sat: 1
 * int8, 2 uint8), VCVTR, QADD and SSAT/USAT, then the lower bound (a fused
 * Relu's): the values of oc_requant8_apply (see oc_requant_fast.h). */
#if defined(OC_REQUANT_SAT8)
#define QNHWC_COL_SAT_(SAT, ACC, M)                                                              \
  ((SAT) == 1 ? OC_SSAT8_(ACC, M, rl.zp) : OC_USAT8_(ACC, M, rl.zp))
#define QNHWC_COL_PUT_(CO, C1, S0, S1, S2, S3)                                                   \
  if (sat) {                                                                                     \
    const float m0 = rl.mult[rl.per_channel ? (CO) : 0], m1 = rl.mult[rl.per_channel ? (C1) : 0]; \
    int32_t v0 = QNHWC_COL_SAT_(sat, S0, m0), v1 = QNHWC_COL_SAT_(sat, S1, m0);                  \
    int32_t v2 = QNHWC_COL_SAT_(sat, S2, m1), v3 = QNHWC_COL_SAT_(sat, S3, m1);                  \
    v0 = v0 < rl.lo ? rl.lo : v0, v1 = v1 < rl.lo ? rl.lo : v1;                                  \
    v2 = v2 < rl.lo ? rl.lo : v2, v3 = v3 < rl.lo ? rl.lo : v3;                                  \
    oa[(CO) * y_c] = (uint8_t)v0, ob[(CO) * y_c] = (uint8_t)v1;                                  \
    oa[(C1) * y_c] = (uint8_t)v2, ob[(C1) * y_c] = (uint8_t)v3;                                  \
  } else                                                                                         \
    QNHWC_COL_APPLY_(CO, C1, S0, S1, S2, S3)
#define QNHWC_COL_SAT_KIND_(R)                                                                   \
  ((R)->mult == NULL ? 0 : (R)->hi == 127 && (R)->lo >= -128 ? 1 : (R)->hi == 255 && (R)->lo >= 0 ? 2 : 0)
#else
#define QNHWC_COL_PUT_(CO, C1, S0, S1, S2, S3) QNHWC_COL_APPLY_(CO, C1, S0, S1, S2, S3)
#define QNHWC_COL_SAT_KIND_(R) 0
#endif
#define QNHWC_COL_APPLY_(CO, C1, S0, S1, S2, S3)                                                 \
  {                                                                                              \
    const int32_t v0 = oc_requant8_apply(&rl, CO, (int32_t)(S0));                                \
    const int32_t v1 = oc_requant8_apply(&rl, CO, (int32_t)(S1));                                \
    const int32_t v2 = oc_requant8_apply(&rl, C1, (int32_t)(S2));                                \
    const int32_t v3 = oc_requant8_apply(&rl, C1, (int32_t)(S3));                                \
    oa[(CO) * y_c] = (uint8_t)v0, ob[(CO) * y_c] = (uint8_t)v1;                                  \
    oa[(C1) * y_c] = (uint8_t)v2, ob[(C1) * y_c] = (uint8_t)v3;                                  \
  }

#endif

#endif /* ONNX_TO_C_OC_QCOL_PAIR_H_ */
