/* The quantized 1x1 overlap convolution (qconv1x1_overlap_packed.c: stride
 * 1, no padding, x and y NCHW, its output over its dying input) two pixels
 * at a time, with the weights packed per pair of output channels and the
 * input's zero point folded into the bias as for oc_qconv_pw_nhwc
 * (qconv_pw_nhwc.c says how): the two pixels' input bytes are copied, raw,
 * to `column` (the contract's scratch, 2 c_in bytes: c_in per pixel), then
 * their outputs are the tiles of qconv_pw_nhwc.c (two channels by the two
 * pixels), each stored at its plane. Both pixels are read before either is
 * written, and pixel p's outputs land only on pixel p's inputs, so y may
 * start at x as in the one-pixel order; an odd last pixel of an item takes
 * the tiles with itself as the second. The same integer sums, requantized
 * by oc_requant8_apply. On M4/M7 (oc_qpw_nhwc_pass.h), where the bounds are
 * a whole 8-bit range with float requantization, c_in a multiple of 4 and
 * c_out even, the assembler passes of the channels-last kernel run each pair
 * of pixels, storing a channel's bytes a plane apart (QPW_NCHW_WHOLE_). */
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qpw_nhwc_fast.h"
#include "onnx_to_c/oc_qpw_runs.h"

/* The whole statement in an optimized folder's passes where they serve it
 * (1); none here. */
#ifndef QPW_NCHW_WHOLE_
#define QPW_NCHW_WHOLE_(XT, WT, Q, R, X, W, BIAS, Y, COLUMN) 0
#endif

/* Sums s[i] of channel c + (i & 1) at pixel i >> 1 (pixel 1 at y + 1; none
 * where two is 0), channels c .. c + m - 1, planes `plane` bytes apart,
 * requantized (one call site) before any byte is stored. */
static OC_NOINLINE void qpw_nchw_store_(const oc_requant8 *r, int32_t c, int32_t m, const uint32_t *s,
                                        uint8_t *y, ptrdiff_t plane, int32_t two) {
  const int32_t n = two ? 4 : 2;
  int32_t v[4], i;
  for (i = 0; i < n; i++) v[i] = (i & 1) < m ? oc_requant8_apply(r, c + (i & 1), (int32_t)s[i]) : 0;
  for (i = 0; i < n; i++) {
    if ((i & 1) < m) y[(i & 1) * plane + (i >> 1)] = (uint8_t)v[i];
  }
}

#define QPW_NCHW_DEFINE(NAME, XT, WT)                                                             \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x,    \
                               const void *wpacked, const int32_t *bias, void *y, void *column) { \
    const oc_conv2d_params *p = &q->conv;                                                       \
    const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in;                               \
    const int32_t cin = p->c_in, cout = p->c_out, c4 = cin & ~3, tail = cin - c4;                \
    const oc_requant8 rq = *r; /* a local copy: the byte stores cannot alias it */              \
    XT *const col = (XT *)column;                                                               \
    int32_t n, c, k, ic;                                                                        \
    ptrdiff_t px;                                                                               \
    if (QPW_NCHW_WHOLE_(XT, WT, q, &rq, x, wpacked, bias, y, column)) return;                  \
    for (n = 0; n < p->n; n++) {                                                                \
      const XT *const xn = (const XT *)x + (ptrdiff_t)n * cin * vol;                            \
      uint8_t *const yn = (uint8_t *)y + (ptrdiff_t)n * cout * vol;                             \
      for (px = 0; px < vol; px += 2) {                                                         \
        const int32_t two = px + 1 < vol;                                                       \
        const XT *xp = xn + px;                                                                 \
        const XT *const xa = col, *const xb = two ? col + cin : col;                            \
        uint8_t *const ya = yn + px;                                                            \
        const WT *w = (const WT *)wpacked;                                                      \
        for (ic = 0; ic < cin; ic++, xp += vol) col[ic] = xp[0];                                \
        if (two) {                                                                              \
          for (ic = 0, xp = xn + px + 1; ic < cin; ic++, xp += vol) col[cin + ic] = xp[0];      \
        }                                                                                       \
        for (c = 0; c + 2 <= cout; c += 2) {                                                    \
          uint32_t s00, s01, s10, s11;                                                          \
          QPW_TILE_SUMS_(XT, WT)                                                                \
          const uint32_t s4[4] = {s00, s01, s10, s11};                                        \
          qpw_nchw_store_(&rq, c, 2, s4, ya + (ptrdiff_t)c * vol, vol, two);                  \
        }                                                                                       \
        if (c < cout) { /* an odd last channel: its c_in weights in order */                    \
          uint32_t sa, sb;                                                                      \
          QPW_ODD_SUMS_                                                                         \
          const uint32_t s4[4] = {sa, 0u, sb, 0u};                                            \
          qpw_nchw_store_(&rq, c, 1, s4, ya + (ptrdiff_t)c * vol, vol, two);                  \
        }                                                                                       \
      }                                                                                         \
    }                                                                                           \
  }
QPW_NCHW_DEFINE(oc_qconv1x1_pairs_s8s8, int8_t, int8_t)
QPW_NCHW_DEFINE(oc_qconv1x1_pairs_s8u8, int8_t, uint8_t)
QPW_NCHW_DEFINE(oc_qconv1x1_pairs_u8s8, uint8_t, int8_t)
QPW_NCHW_DEFINE(oc_qconv1x1_pairs_u8u8, uint8_t, uint8_t)
#undef QPW_NCHW_DEFINE

OC_API void oc_qconv1x1_overlap_pairs(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                      const void *w, const int32_t *folded_bias, void *y, void *column) {
  OC_Q8_PAIR_CALL(oc_qconv1x1_pairs, q->x_signed, q->w_signed, (q, r, x, w, folded_bias, y, column));
}
