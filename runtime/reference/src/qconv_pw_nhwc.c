/* The quantized pointwise convolution (1x1, stride 1, no padding, one group)
 * with channels-last x and y, as one matrix product over every pixel of the
 * tensor: the weights' zero points 0, the weights packed by the compiler in
 * the order the inner loop reads them and the input's zero point folded into
 * the bias, bias[co] - x_zp sum_k w[co][k] (mod 2^32, oc_qcol.h), so each sum
 * is that of oc_qconv2d_nhwc, bit for bit (uint32 sums do not depend on the
 * order). Packing (targets/c99/emit_qlinear.cc, QPwNhwcWeights): per pair of
 * output channels (c, c + 1), the input channels in runs of four, c's four
 * bytes then c + 1's, then the c_in % 4 last of c, then those of c + 1; an
 * odd last channel's c_in bytes in order.
 *
 * Tiles of two output channels by two adjacent pixels of a row (four sums):
 * each pixel's input bytes are read once per tile and each weight once per
 * two pixels; an odd last pixel of a row takes the tiles with itself as the
 * second pixel (stored once). Each sum is requantized (oc_requant8_apply)
 * when complete, and a tile's four bytes are stored after all four are
 * found. Streaming order: rows (n, d, h) in increasing order, or decreasing
 * with q->conv.reverse_rows, a row's outputs written while only that row's
 * input is read (no tile spans two rows), so y may overlap x as for
 * oc_qconv2d_nhwc (an output row over input rows already read).
 *
 * On cores with the DSP extension (runtime/arm: oc_qpw_nhwc_fast.h) a run of
 * four input channels takes one word of each pixel's bytes as two pairs of
 * 16-bit lanes (SXTB16/UXTB16) and one word of each channel's weights the
 * same way, then eight SMLAD: 20 instructions per 16 multiply-accumulates;
 * the float requantization there is VCVTR with the tile's two multipliers
 * and the bounds in registers; where the bounds are a whole 8-bit range,
 * c_in a multiple of 4 and c_out even, a pass over two pixels and every
 * pair of channels in assembler (oc_qpw_nhwc_pass.h) runs the statement.
 */
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qpw_nhwc_fast.h"
#include "onnx_to_c/oc_qpw_runs.h"

/* The float requantization with the multipliers and bounds in registers
 * (QPW_NHWC_REQUANT_, where QPW_NHWC_FLOAT_); none here. */
#ifndef QPW_NHWC_FLOAT_
#define QPW_NHWC_FLOAT_ 0
#define QPW_NHWC_REQUANT_(ACC, M, LO, HI, ZP) ((void)(ACC), (void)(M), (void)(LO), (void)(HI), (int32_t)(ZP))
#endif

/* The whole statement in an optimized folder's passes where they serve it
 * (1; runtime/arm: oc_qpw_nhwc_pass.h); none here. */
#ifndef QPW_NHWC_WHOLE_
#define QPW_NHWC_WHOLE_(XT, WT, Q, R, X, W, BIAS, Y) 0
#endif

/* The sums s[i] of channel c + (i & 1) at pixel i >> 1 (pixel 1 at y + step;
 * none where step is 0), channels c .. c + m - 1, requantized by
 * oc_requant8_apply (one call site, so the requantization is inlined once),
 * the values found before any byte is stored. */
static OC_NOINLINE void qpw_nhwc_store_(const oc_requant8 *r, int32_t c, int32_t m, const uint32_t *s,
                                        uint8_t *y, ptrdiff_t step) {
  const int32_t n = step != 0 ? 4 : 2;
  int32_t v[4], i;
  for (i = 0; i < n; i++) v[i] = (i & 1) < m ? oc_requant8_apply(r, c + (i & 1), (int32_t)s[i]) : 0;
  for (i = 0; i < n; i++) {
    if ((i & 1) < m) y[(i >> 1) * step + (i & 1)] = (uint8_t)v[i];
  }
}

#define QPW_NHWC_DEFINE(NAME, XT, WT)                                                             \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x,    \
                               const void *wpacked, const int32_t *bias, void *y) {             \
    const oc_conv2d_params *p = &q->conv;                                                       \
    const ptrdiff_t rows = (ptrdiff_t)p->n * p->d_in * p->h_in, width = p->w_in;                \
    const int32_t cin = p->c_in, cout = p->c_out, c4 = cin & ~3, tail = cin - c4;                \
    const oc_requant8 rq = *r; /* a local copy: the byte stores cannot alias it */              \
    const int32_t fast = QPW_NHWC_FLOAT_ && rq.mult != NULL, per_channel = rq.per_channel;      \
    const int32_t zp = rq.zp, lo = rq.lo - zp, hi = rq.hi - zp;                                 \
    ptrdiff_t row, col;                                                                         \
    int32_t c, k;                                                                               \
    if (QPW_NHWC_WHOLE_(XT, WT, q, &rq, x, wpacked, bias, y)) return;                          \
    for (row = 0; row < rows; row++) {                                                          \
     const ptrdiff_t first = (p->reverse_rows ? rows - 1 - row : row) * width;                  \
     for (col = 0; col < width; col += 2) {                                                     \
      const XT *const xa = (const XT *)x + (first + col) * cin;                                 \
      const int32_t two = col + 1 < width;                                                      \
      const XT *const xb = two ? xa + cin : xa;                                                 \
      uint8_t *const ya = (uint8_t *)y + (first + col) * cout;                                  \
      const WT *w = (const WT *)wpacked;                                                        \
      for (c = 0; c + 2 <= cout; c += 2) {                                                      \
        uint32_t s00, s01, s10, s11;                                                            \
        QPW_TILE_SUMS_(XT, WT)                                                                  \
        if (fast) {                                                                             \
          const float m0 = rq.mult[per_channel ? c : 0], m1 = rq.mult[per_channel ? c + 1 : 0];  \
          const int32_t v00 = QPW_NHWC_REQUANT_(s00, m0, lo, hi, zp);                           \
          const int32_t v01 = QPW_NHWC_REQUANT_(s01, m1, lo, hi, zp);                           \
          const int32_t v10 = QPW_NHWC_REQUANT_(s10, m0, lo, hi, zp);                           \
          const int32_t v11 = QPW_NHWC_REQUANT_(s11, m1, lo, hi, zp);                           \
          ya[c] = (uint8_t)v00, ya[c + 1] = (uint8_t)v01;                                       \
          if (two) ya[cout + c] = (uint8_t)v10, ya[cout + c + 1] = (uint8_t)v11;                \
        } else {                                                                                \
          const uint32_t s4[4] = {s00, s01, s10, s11};                                          \
          qpw_nhwc_store_(&rq, c, 2, s4, ya + c, two ? cout : 0);                               \
        }                                                                                       \
      }                                                                                         \
      if (c < cout) { /* an odd last channel: its c_in weights in order */                      \
        uint32_t sa, sb;                                                                        \
        QPW_ODD_SUMS_                                                                           \
        const uint32_t s4[4] = {sa, 0u, sb, 0u};                                                \
        qpw_nhwc_store_(&rq, c, 1, s4, ya + c, two ? cout : 0);                                 \
      }                                                                                         \
     }                                                                                          \
    }                                                                                           \
  }
QPW_NHWC_DEFINE(oc_qconv_pw_nhwc_s8s8, int8_t, int8_t)
QPW_NHWC_DEFINE(oc_qconv_pw_nhwc_s8u8, int8_t, uint8_t)
QPW_NHWC_DEFINE(oc_qconv_pw_nhwc_u8s8, uint8_t, int8_t)
QPW_NHWC_DEFINE(oc_qconv_pw_nhwc_u8u8, uint8_t, uint8_t)
#undef QPW_NHWC_DEFINE

OC_API void oc_qconv_pw_nhwc(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                             const int32_t *folded_bias, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv_pw_nhwc, q->x_signed, q->w_signed, (q, r, x, w, folded_bias, y));
}
