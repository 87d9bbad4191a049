/*
 * onnx-to-c runtime, Armv7E-M: short planes of the 8-bit depthwise 3x3
 * convolution (qconv_dw3x3.c) at stride 1 with one pixel of padding on every
 * side (same size out as in), such as a keyword-spotting network's 25x5: the
 * plane column by column, each column's sums sliding down three adjacent
 * input columns with two SMLAD and one SMLABB/SMLABT/MLA per input row.
 * Where the requantization is float and its bounds a whole 8-bit range, each
 * sum is requantized into its byte as it completes; otherwise the column's
 * sums are requantized in one run (oc_requant8_run). The taps of the three
 * kinds of column (left edge, inside, right edge) are packed once per plane.
 * The general line kernel spends most of such a plane on its lines' set-up
 * and bounds.
 *
 * The sums: a column at the plane's left or right edge reads the three
 * columns inside next to it, its taps shifted and the tap over the padding
 * 0; the rows above and below the plane read as the input's zero point zx,
 * and the sum starts from bias - zx * (the sum of the taps), so each output
 * is bias + the sum over its taps inside of (x - zx) w', the reference's sum
 * mod 2^32 (integer sums wrap the same in any order): the same bits.
 */
#ifndef ONNX_TO_C_OC_QDW3X3_PLANE_H_
#define ONNX_TO_C_OC_QDW3X3_PLANE_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
/* The longest column taken (its sums on the stack, 4 bytes each). */
#define OC_QDW_PLANE_ROWS 32

/* One column's taps over its three input columns a, b, c, kernel row by
 * row: (a, b) of each row packed for SMLAD, c of rows 0 and 1 packed for
 * SMLABB/SMLABT, c of row 2 alone; base is bias - zx * (their sum). */
typedef struct {
  int32_t t0, t1, t2, c01, c2;
  uint32_t base;
} oc_qdw_column_taps;

/* The taps of a column whose window starts `shift` columns before its three
 * input columns (1: the left edge, 0: inside, -1: the right edge); k holds
 * the nine weights less zw, row-major. */
static void oc_qdw_column_taps_make(const int32_t *k, int32_t shift, uint32_t bias, int32_t zx,
                                    oc_qdw_column_taps *t) {
  int32_t sum;
  if (shift == 1) { /* (k[3r + 1], k[3r + 2], 0) */
    t->t0 = oc_pack16(k[1], k[2]), t->t1 = oc_pack16(k[4], k[5]), t->t2 = oc_pack16(k[7], k[8]);
    t->c01 = 0, t->c2 = 0;
    sum = k[1] + k[2] + k[4] + k[5] + k[7] + k[8];
  } else if (shift == 0) { /* (k[3r], k[3r + 1], k[3r + 2]) */
    t->t0 = oc_pack16(k[0], k[1]), t->t1 = oc_pack16(k[3], k[4]), t->t2 = oc_pack16(k[6], k[7]);
    t->c01 = oc_pack16(k[2], k[5]), t->c2 = k[8];
    sum = k[0] + k[1] + k[2] + k[3] + k[4] + k[5] + k[6] + k[7] + k[8];
  } else { /* (0, k[3r], k[3r + 1]) */
    t->t0 = oc_pack16(0, k[0]), t->t1 = oc_pack16(0, k[3]), t->t2 = oc_pack16(0, k[6]);
    t->c01 = oc_pack16(k[1], k[4]), t->c2 = k[7];
    sum = k[0] + k[1] + k[3] + k[4] + k[6] + k[7];
  }
  t->base = bias - (uint32_t)zx * (uint32_t)sum;
}

/* One output column's h sums, row by row, each stored by PUT(o, sum) at o,
 * which then steps by OSTEP: x is row 0 of its three input columns (step
 * bytes between rows). */
#define OC_QDW_COLUMN_BODY_(PUT, OSTEP)                                                          \
  const int32_t t0 = tp->t0, t1 = tp->t1, t2 = tp->t2, c01 = tp->c01, c2 = tp->c2;               \
  const uint32_t base = tp->base;                                                                \
  const int32_t zx2 = oc_pack16(zx, zx);                                                         \
  /* the row above the plane (zx), then row 0 */                                                 \
  uint32_t s0 = (uint32_t)__smlad(zx2, t0, __smlabb(zx, c01, (int32_t)base));                    \
  uint32_t s1;                                                                                   \
  int32_t ab = oc_pack16(x[0], x[1]), c = x[2];                                                  \
  s1 = (uint32_t)__smlad(ab, t1, __smlabt(c, c01, (int32_t)s0));                                 \
  s0 = (uint32_t)__smlad(ab, t0, __smlabb(c, c01, (int32_t)base));                               \
  for (; o != end; o += (OSTEP)) {                                                               \
    x += step;                                                                                   \
    ab = oc_pack16(x[0], x[1]), c = x[2];                                                        \
    PUT(o, __smlad(ab, t2, (int32_t)(s1 + (uint32_t)(c * c2))));                                 \
    s1 = (uint32_t)__smlad(ab, t1, __smlabt(c, c01, (int32_t)s0));                               \
    s0 = (uint32_t)__smlad(ab, t0, __smlabb(c, c01, (int32_t)base));                             \
  }                                                                                              \
  /* the row below the plane (zx) */                                                             \
  PUT(o, __smlad(zx2, t2, (int32_t)(s1 + (uint32_t)(zx * c2))));

/* The sums into acc[0 .. h). */
#define OC_QDW_PUT_SUM_(O, SUM) (*(O) = (SUM))
#define OC_QDW_COLUMN_DEFINE(NAME, XT)                                                           \
  static OC_NOINLINE void NAME(const XT *x, ptrdiff_t step, int32_t h, const oc_qdw_column_taps *tp, \
                               int32_t zx, int32_t *acc) {                                       \
    int32_t *o = acc, *const end = acc + h - 1;                                                  \
    OC_QDW_COLUMN_BODY_(OC_QDW_PUT_SUM_, 1)                                                      \
  }
OC_QDW_COLUMN_DEFINE(oc_qdw3x3_plane_column_s8, int8_t)
OC_QDW_COLUMN_DEFINE(oc_qdw3x3_plane_column_u8, uint8_t)
#undef OC_QDW_COLUMN_DEFINE

#if defined(OC_REQUANT_SAT8)
/* Where the requantization is float and its bounds a whole 8-bit range
 * (oc_requant8_run's OC_SSAT8_ / OC_USAT8_ path: the same values), each sum
 * goes straight to its byte in y, the outputs step bytes apart as the
 * inputs: no sums on the stack and no second pass over them. */
#define OC_QDW_COLUMN_SAT_DEFINE(NAME, XT)                                                  \
  static OC_NOINLINE void NAME(const XT *x, ptrdiff_t step, int32_t h, const oc_qdw_column_taps *tp, \
                               int32_t zx, float m, int32_t zp, uint8_t *y) {                    \
    uint8_t *o = y, *const end = y + (h - 1) * step;                                             \
    OC_QDW_COLUMN_BODY_(OC_QDW_PUT_SAT_, step)                                                   \
  }
#define OC_QDW_PUT_SAT_(O, SUM) (*(O) = (uint8_t)OC_SSAT8_((SUM), m, zp))
OC_QDW_COLUMN_SAT_DEFINE(oc_qdw3x3_plane_ssat_s8, int8_t)
OC_QDW_COLUMN_SAT_DEFINE(oc_qdw3x3_plane_ssat_u8, uint8_t)
#undef OC_QDW_PUT_SAT_
#define OC_QDW_PUT_SAT_(O, SUM) (*(O) = (uint8_t)OC_USAT8_((SUM), m, zp))
OC_QDW_COLUMN_SAT_DEFINE(oc_qdw3x3_plane_usat_s8, int8_t)
OC_QDW_COLUMN_SAT_DEFINE(oc_qdw3x3_plane_usat_u8, uint8_t)
#undef OC_QDW_PUT_SAT_
#undef OC_QDW_COLUMN_SAT_DEFINE
#endif
#undef OC_QDW_PUT_SUM_
#undef OC_QDW_COLUMN_BODY_

/* Output column ox over input columns first to first + 2 (at: its first
 * output) with its sums on the stack, then requantized in one run: a frame
 * of its own, so the fused path's callers do not hold them. */
static OC_NOINLINE void oc_qdw3x3_plane_requant(const oc_qconv_params *q, const oc_requant8 *rc,
                                                const void *x, int32_t first,
                                                const oc_qdw_column_taps *taps, void *y, ptrdiff_t at) {
  const int32_t h = q->conv.h_in, w = q->conv.w_in, zx = q->x_zp;
  int32_t acc[OC_QDW_PLANE_ROWS];
  if (q->x_signed) {
    oc_qdw3x3_plane_column_s8((const int8_t *)x + first, w, h, taps, zx, acc);
  } else {
    oc_qdw3x3_plane_column_u8((const uint8_t *)x + first, w, h, taps, zx, acc);
  }
  oc_requant8_run(rc, acc, h, y, at, w);
}

/* Computes the plane and returns 1 when it is such a short plane (k: the
 * nine taps less the weights' zero point, row-major; x: its first input;
 * at: its first output in y), else returns 0 and writes nothing. */
static int oc_qdw3x3_short_plane(const oc_qconv_params *q, const oc_requant8 *rc, const void *x,
                                 const int32_t *k, uint32_t bias, void *y, ptrdiff_t at) {
  const oc_conv2d_params *p = &q->conv;
  const int32_t h = p->h_in, w = p->w_in, zx = q->x_zp;
  int32_t ox;
#if defined(OC_REQUANT_SAT8)
  const int32_t sat = rc->mult != NULL && OC_SAT8_WHOLE_(rc);
#endif
  oc_qdw_column_taps taps;
  if (p->stride_h != 1 || p->stride_w != 1 || p->pad_top != 1 || p->pad_left != 1 || p->h_out != h ||
      p->w_out != w || w < 3 || h < 1 || h > OC_QDW_PLANE_ROWS) {
    return 0;
  }
  for (ox = 0; ox < w; ox++) {
    /* the three input columns read: ox - 1 .. ox + 1, shifted inside at the
     * edges; the taps remade at column 0 (the left edge), 1 (inside) and w - 1
     * (the right edge) */
    const int32_t first = ox == 0 ? 0 : (ox == w - 1 ? w - 3 : ox - 1);
    if (ox <= 1 || ox == w - 1) oc_qdw_column_taps_make(k, ox == 0 ? 1 : (ox == w - 1 ? -1 : 0), bias, zx, &taps);
#if defined(OC_REQUANT_SAT8)
    if (sat) {
      uint8_t *const o = (uint8_t *)y + at + ox;
      const float m = rc->mult[0];
      if (rc->lo < 0) {
        if (q->x_signed) {
          oc_qdw3x3_plane_ssat_s8((const int8_t *)x + first, w, h, &taps, zx, m, rc->zp, o);
        } else {
          oc_qdw3x3_plane_ssat_u8((const uint8_t *)x + first, w, h, &taps, zx, m, rc->zp, o);
        }
      } else if (q->x_signed) {
        oc_qdw3x3_plane_usat_s8((const int8_t *)x + first, w, h, &taps, zx, m, rc->zp, o);
      } else {
        oc_qdw3x3_plane_usat_u8((const uint8_t *)x + first, w, h, &taps, zx, m, rc->zp, o);
      }
      continue;
    }
#endif
    oc_qdw3x3_plane_requant(q, rc, x, first, &taps, y, at + ox);
  }
  return 1;
}
#endif

#endif /* ONNX_TO_C_OC_QDW3X3_PLANE_H_ */
