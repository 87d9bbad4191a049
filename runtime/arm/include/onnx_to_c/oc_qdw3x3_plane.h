/*
 * onnx-to-c runtime, Armv7E-M: short planes of the 8-bit depthwise 3x3
 * convolution (qconv_dw3x3.c) at stride 1 with one pixel of padding on every
 * side (same size out as in), such as a keyword-spotting network's 25x5: the
 * plane column by column, each column's sums sliding down three adjacent
 * input columns with two SMLAD and one SMLABB/SMLABT/MLA per input row, the
 * column requantized in one run (oc_requant8_run). The general line kernel
 * spends most of such a plane on its lines' set-up and bounds.
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

/* The h sums of one output column into acc: x is row 0 of its three input
 * columns (step bytes between rows), t the nine taps row by row with the
 * tap over the padding 0. */
#define OC_QDW_COLUMN_DEFINE(NAME, XT)                                                           \
  static OC_NOINLINE void NAME(const XT *x, ptrdiff_t step, int32_t h, const int32_t *t, uint32_t base, \
                               int32_t zx, int32_t *acc) {                                       \
    const int32_t t0 = oc_pack16(t[0], t[1]), t1 = oc_pack16(t[3], t[4]);                        \
    const int32_t t2 = oc_pack16(t[6], t[7]), c01 = oc_pack16(t[2], t[5]), c2 = t[8];            \
    const int32_t zx2 = oc_pack16(zx, zx);                                                       \
    int32_t *const end = acc + h - 1;                                                            \
    /* the row above the plane (zx), then row 0 */                                               \
    uint32_t s0 = (uint32_t)__smlad(zx2, t0, (int32_t)(base + (uint32_t)(zx * t[2])));            \
    uint32_t s1;                                                                                 \
    int32_t ab = oc_pack16(x[0], x[1]), c = x[2];                                                \
    s1 = (uint32_t)__smlad(ab, t1, __smlabt(c, c01, (int32_t)s0));                               \
    s0 = (uint32_t)__smlad(ab, t0, __smlabb(c, c01, (int32_t)base));                             \
    for (; acc < end; acc++) {                                                                   \
      x += step;                                                                                 \
      ab = oc_pack16(x[0], x[1]), c = x[2];                                                      \
      *acc = __smlad(ab, t2, (int32_t)(s1 + (uint32_t)(c * c2)));                                \
      s1 = (uint32_t)__smlad(ab, t1, __smlabt(c, c01, (int32_t)s0));                             \
      s0 = (uint32_t)__smlad(ab, t0, __smlabb(c, c01, (int32_t)base));                           \
    }                                                                                            \
    /* the row below the plane (zx) */                                                           \
    *acc = __smlad(zx2, t2, (int32_t)(s1 + (uint32_t)(zx * c2)));                                \
  }
OC_QDW_COLUMN_DEFINE(oc_qdw3x3_plane_column_s8, int8_t)
OC_QDW_COLUMN_DEFINE(oc_qdw3x3_plane_column_u8, uint8_t)
#undef OC_QDW_COLUMN_DEFINE

/* Computes the plane and returns 1 when it is such a short plane (k: the
 * nine taps less the weights' zero point, row-major; x: its first input;
 * at: its first output in y), else returns 0 and writes nothing. */
static int oc_qdw3x3_short_plane(const oc_qconv_params *q, const oc_requant8 *rc, const void *x,
                                 const int32_t *k, uint32_t bias, void *y, ptrdiff_t at) {
  const oc_conv2d_params *p = &q->conv;
  const int32_t h = p->h_in, w = p->w_in, zx = q->x_zp;
  int32_t acc[OC_QDW_PLANE_ROWS], t[9], ox, i;
  if (p->stride_h != 1 || p->stride_w != 1 || p->pad_top != 1 || p->pad_left != 1 || p->h_out != h ||
      p->w_out != w || w < 3 || h < 1 || h > OC_QDW_PLANE_ROWS) {
    return 0;
  }
  for (ox = 0; ox < w; ox++) {
    /* the three input columns read: ox - 1 .. ox + 1, shifted inside at the edges */
    const int32_t first = ox == 0 ? 0 : (ox == w - 1 ? w - 3 : ox - 1), shift = ox - 1 - first;
    uint32_t sum = 0;
    for (i = 0; i < 9; i++) {
      const int32_t m = i % 3 - shift; /* the tap over input column first + i % 3 */
      t[i] = m >= 0 && m < 3 ? k[i - i % 3 + m] : 0;
      sum += (uint32_t)t[i];
    }
    if (q->x_signed) {
      oc_qdw3x3_plane_column_s8((const int8_t *)x + first, w, h, t, bias - (uint32_t)zx * sum, zx, acc);
    } else {
      oc_qdw3x3_plane_column_u8((const uint8_t *)x + first, w, h, t, bias - (uint32_t)zx * sum, zx, acc);
    }
    oc_requant8_run(rc, acc, h, y, at + ox, w);
  }
  return 1;
}
#endif

#endif /* ONNX_TO_C_OC_QDW3X3_PLANE_H_ */
