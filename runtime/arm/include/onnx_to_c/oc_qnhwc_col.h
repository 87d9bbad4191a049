/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit channels-last convolution
 * (qconv2d_nhwc.c) with a kernel larger than 1x1, one group, the weights'
 * zero points 0 and kernel rows of whole groups of four values (k_w c_in a
 * multiple of 4), given kernel scratch, an output row at a time as column
 * products (im2col). For
 * two output pixels at a time, each window becomes a column of K = k_h k_w
 * c_in values x - x_zp as 16-bit lanes, (v0, v2) and (v1, v3) per group of
 * four (SXTB16/UXTB16 and SSUB16, as the weights' words unpack), the two
 * columns interleaved a group at a time (a's two words, then b's): a kernel
 * row wholly inside widened straight from x, one wholly in the padding
 * zeros, one clipped gathered first (its padding taps as x_zp). Then per
 * pair of output channels (their OHWI weights, K bytes apart) four sums,
 * two channels by two pixels: per group six loads back to back, the two
 * weight words unpacked once each, eight SMLAD (the published inner loop
 * of this shape: CMSIS-NN's arm_nn_mat_mult_kernel_s8_s16), then the four
 * requantized into the outputs. An odd last pixel or channel repeats the
 * one before (the same value stored twice). The products are exact and the
 * sums wrap like the reference's uint32 ones, so the same bits.
 *
 * Against the pair windows of oc_qnhwc_pair.h, which unpack each pixel's
 * bytes once per pair of channels, a column is unpacked once for all the
 * channels. The 3-channel stems (kernel rows of 9 bytes) measured slower
 * this way and keep the other paths.
 *
 * The two columns and the gathered kernel row live in the statement's
 * kernel scratch (4 K + k_w c_in bytes, word-aligned), which the compiler
 * gives by default only where the plan has free bytes for it
 * (compiler/target/kernel_facts.h); without it the convolution keeps the
 * other paths, whose frames the column functions do not deepen. Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QNHWC_COL_H_
#define ONNX_TO_C_OC_QNHWC_COL_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qconv_loops.h"

#if OC_Q8_DSP && defined(__OPTIMIZE__)

/* The full groups of a pair of channels (assembler: GCC spills these
 * sums). Per group six loads back to back (they pipeline: 7 cycles on the
 * M4): pixel a's two column words, pixel b's (the next two), the second channel's four weights (k bytes past the first) and
 * the first's; each weight word unpacked by WS to the lanes (w0, w2) and
 * (w1, w3), eight SMLAD: 20 instructions per 16 multiply-accumulates, two
 * groups a pass (entering at the second where their number is odd). 14
 * registers; the end and the parity are read from memory. */
#define QNHWC_COL_GROUP_(WS)                                                                     \
  "ldr %[a02], [%[xa]], #16\n\t"                                                                 \
  "ldr %[a13], [%[xa], #-12]\n\t"                                                                \
  "ldr %[b02], [%[xa], #-8]\n\t"                                                                 \
  "ldr %[b13], [%[xa], #-4]\n\t"                                                                 \
  "ldr %[u], [%[pa], %[k]]\n\t"                                                                  \
  "ldr %[v], [%[pa]], #4\n\t" WS " %[t], %[u], ror #8\n\t" WS " %[u], %[u]\n\t"               \
  "smlad %[s2], %[a02], %[u], %[s2]\n\t"                                                         \
  "smlad %[s2], %[a13], %[t], %[s2]\n\t"                                                         \
  "smlad %[s3], %[b02], %[u], %[s3]\n\t"                                                         \
  "smlad %[s3], %[b13], %[t], %[s3]\n\t" WS " %[t], %[v], ror #8\n\t" WS " %[v], %[v]\n\t"     \
  "smlad %[s0], %[a02], %[v], %[s0]\n\t"                                                         \
  "smlad %[s0], %[a13], %[t], %[s0]\n\t"                                                         \
  "smlad %[s1], %[b02], %[v], %[s1]\n\t"                                                         \
  "smlad %[s1], %[b13], %[t], %[s1]\n\t"
#define QNHWC_COL_ASM_(WS)                                                                       \
  __asm__("ldr %[t], %[odd]\n\t"                                                                 \
          "cmp %[t], #0\n\t"                                                                     \
          "bne 5f\n"                                                                              \
          "1:\n\t" QNHWC_COL_GROUP_(WS) "5:\n\t" QNHWC_COL_GROUP_(WS)                              \
          "ldr %[t], %[end]\n\t"                                                                 \
          "cmp %[xa], %[t]\n\t"                                                                  \
          "blo 1b\n\t"                                                                           \
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xa] "+r"(xa),           \
            [pa] "+r"(pa), [u] "=&r"(u), [v] "=&r"(v), [t] "=&r"(t), [a02] "=&r"(a02),           \
            [a13] "=&r"(a13), [b02] "=&r"(b02), [b13] "=&r"(b13)                                 \
          : [k] "r"(kk), [end] "m"(end), [odd] "m"(odd)                                          \
          : "cc", "memory")

/* One output row's geometry, as the column functions read it. */
typedef struct {
  const uint8_t *x;   /* x at item n, row 0, column 0, channel 0 */
  const void *w;      /* OHWI weights, K bytes a channel */
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

/* The sums of channels co (pixels a, b: s0, s1) and c1 (s2, s3)
 * requantized into oa and ob, the four values found before any store. On
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

/* Per pair of x and w types (P): window bytes widened into a column
 * (P##_col_widen, P##_col_fill), the pairs of channels of two pixels
 * (P##_col_pairs), a whole row (P##_colrun) and the convolution
 * (P##_colconv). */
#define QNHWC_COL_DEFINE(P, XT, WT, XL, XH, WS)                                              \
  /* groups of four bytes at b as x - x_zp into col, two words a group, four words apart */ \
  static void P##_col_widen(uint32_t *col, const uint8_t *b, int32_t groups, int32_t zx) {       \
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
  static void P##_col_fill(const qnhwc_col_ *g, int32_t ox, uint32_t *col) {                    \
    const int32_t c_in = g->c_in, run = g->kw_n * c_in, ix0 = ox * g->sw - g->pl;               \
    const int32_t inside = g->dw == 1 && ix0 >= 0 && ix0 + g->kw_n <= g->w_in;                  \
    uint8_t *const row = (uint8_t *)(g->col + 4 * g->groups);                                    \
    int32_t kh, i;                                                                               \
    for (kh = 0; kh < g->kh_n; kh++, col += run) {                                               \
      const int32_t iy = g->iy + kh * g->dh;                                                     \
      if (iy < 0 || iy >= g->h_in) {                                                             \
        for (i = 0; i < run; i += 4) col[i] = col[i + 1] = 0u;                                   \
      } else if (inside) {                                                                       \
        P##_col_widen(col, g->x + (ptrdiff_t)iy * g->x_row + (ptrdiff_t)ix0 * c_in, run / 4,     \
                      g->zx);                                                                    \
      } else {                                                                                   \
        qnhwc_col_gather_row_(g, ix0, iy, row);                                                  \
        P##_col_widen(col, row, run / 4, g->zx);                                                 \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  static OC_NOINLINE void P##_col_pairs(const qnhwc_col_ *g, const oc_requant8 *r,               \
                                        const uint32_t *ca, uint8_t *oa, uint8_t *ob) {          \
    const WT *const w = (const WT *)g->w;                                                        \
    const int32_t k = g->k, c_out = g->c_out, full = g->groups;                                  \
    const ptrdiff_t y_c = g->y_c;                                                                \
    const int32_t *const bias = g->bias;                                                         \
    const uint32_t *const end = ca + 4 * full;                                                   \
    const int32_t odd = full & 1;                                                                \
    const oc_requant8 rl = *r; /* in a local: the byte stores do not make it reloaded */        \
    const int32_t sat = QNHWC_COL_SAT_KIND_(r);                                                  \
    int32_t co;                                                                                  \
    for (co = 0; co < c_out; co += 2) {                                                          \
      const int32_t c1 = co + 1 < c_out ? co + 1 : co;                                           \
      const WT *pa = w + (ptrdiff_t)co * k;                                                      \
      const uint32_t *xa = ca;                                                                   \
      uint32_t s0 = bias != NULL ? (uint32_t)bias[co] : 0u, s1 = s0;                             \
      uint32_t s2 = bias != NULL ? (uint32_t)bias[c1] : 0u, s3 = s2;                             \
      const ptrdiff_t kk = c1 == co ? 0 : k; /* a last channel alone: the second is the first */  \
      {                                                                                          \
        uint32_t u, v, t, a02, a13, b02, b13;                                                    \
        QNHWC_COL_ASM_(WS);                                                                      \
      }                                                                                          \
      QNHWC_COL_PUT_(co, c1, s0, s1, s2, s3)                                                     \
    }                                                                                            \
  }                                                                                              \
  /* the row (its columns in the scratch; inlined: one frame less under the pairs) */          \
  static void P##_colrun(const qnhwc_col_ *g, const oc_requant8 *r) {               \
    int32_t ox, j;                                                                               \
    for (ox = 0; ox < g->w_out; ox += 2) {                                                       \
      /* an odd last pixel: its column twice, its values stored twice */                         \
      const int32_t o1 = ox + 1 < g->w_out ? ox + 1 : ox;                                        \
      for (j = 0; j < 2; j++) P##_col_fill(g, j ? o1 : ox, g->col + 2 * j);                      \
      P##_col_pairs(g, r, g->col, g->y + (ptrdiff_t)ox * g->y_x, g->y + (ptrdiff_t)o1 * g->y_x); \
    }                                                                                            \
  }                                                                                              \
  /* the convolution, its rows in oc_qconv2d_nhwc's streaming order */                          \
  static OC_NOINLINE void P##_colconv(const oc_qconv_params *q, const oc_requant8 *r,         \
                                         const void *x, const void *w, const int32_t *bias,      \
                                         void *y, int32_t y_last, void *col) {                   \
    const int32_t h_out = q->conv.h_out, rows = q->conv.n * h_out;                               \
    int32_t row;                                                                                 \
    qnhwc_col_ g;                                                                                \
    for (row = 0; row < rows; row++) {                                                           \
      const int32_t nr = q->conv.reverse_rows ? rows - 1 - row : row, n = nr / h_out;            \
      qnhwc_col_geometry_(&g, q, x, w, bias, y, y_last, n, nr - n * h_out);                      \
      g.col = (uint32_t *)col;                                                                   \
      P##_colrun(&g, r);                                                                         \
    }                                                                                            \
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

QNHWC_COL_DEFINE(qnhwc_s8s8, int8_t, int8_t, __sxtb16, oc_sxtb16_odd, "sxtb16")
QNHWC_COL_DEFINE(qnhwc_u8s8, uint8_t, int8_t, __uxtb16, oc_uxtb16_odd, "sxtb16")
QNHWC_COL_DEFINE(qnhwc_s8u8, int8_t, uint8_t, __sxtb16, oc_sxtb16_odd, "uxtb16")
QNHWC_COL_DEFINE(qnhwc_u8u8, uint8_t, uint8_t, __uxtb16, oc_uxtb16_odd, "uxtb16")
#undef QNHWC_COL_DEFINE
#undef QNHWC_COL_ASM_
#undef QNHWC_COL_GROUP_
#undef QNHWC_COL_PUT_
#undef QNHWC_COL_APPLY_
#undef QNHWC_COL_SAT_KIND_
#ifdef QNHWC_COL_SAT_
#undef QNHWC_COL_SAT_
#endif

/* oc_qconv2d_nhwc_col's convolution as columns where it fits (qconv2d_nhwc.c). */
#define QNHWC_COLUMN_CONV_(X_SIGNED, W_SIGNED, ARGS)                                             \
  ((X_SIGNED) ? ((W_SIGNED) ? qnhwc_s8s8_colconv ARGS : qnhwc_s8u8_colconv ARGS)                 \
              : ((W_SIGNED) ? qnhwc_u8s8_colconv ARGS : qnhwc_u8u8_colconv ARGS))
#endif

#endif /* ONNX_TO_C_OC_QNHWC_COL_H_ */
