/*
 * onnx-to-c runtime: depthwise convolution rows (one input channel per
 * output channel), square K x K kernels with K = 3 or 5, stride S = 1 or 2,
 * dilation 1; conv2d_row_ (oc_conv_tiles.h) hands them its depthwise rows.
 *
 * Each output is the bias plus w * x over the valid kernel rows, then the
 * kernel columns, in increasing order (the order of conv2d.c). Tiles of
 * OC_TILE_WIDE / OC_TILE_NARROW outputs cover the pixels whose kernel
 * columns are all inside the input, reading the input directly (S = 2 reads
 * a lane as two loads and a shuffle, oc_lane_load), over every valid kernel
 * row (the top and bottom rows too). The few pixels near the left and right
 * padding go one at a time over their valid taps: measured on the public
 * models, that beat running the narrow tile on a zero-padded copy of their
 * input columns, whose copy costs more than the skipped taps.
 */
#ifndef ONNX_TO_C_OC_DW_TILES_H_
#define ONNX_TO_C_OC_DW_TILES_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_tile.h"

/* An extra-wide tile of 4 vectors where rows are long enough: each output's
 * sum is a chain of dependent adds, so more independent lanes keep the adder
 * busy (the register file holds them with the few weights of a kernel row). */
#if OC_LANE_VECTOR
#define OC_DWT_LANES_XL(M) M(0) M(1) M(2) M(3)
#define OC_DWT_TILE_XL (4 * OC_LANE_W)
#else
#define OC_DWT_LANES_XL OC_LANES_WIDE
#define OC_DWT_TILE_XL OC_TILE_WIDE
#endif
/* with float lanes the extra-wide tiles are the wide ones (no second copy) */
#if !OC_LANE_VECTOR
#define OC_DWT_XL_ALIAS 1
#endif

/* the kernel columns, unrolled */
#define OC_DWT_COLS3(M) M(0) M(1) M(2)
#define OC_DWT_COLS5(M) M(0) M(1) M(2) M(3) M(4)

/* The tile: LANES of outputs S input columns apart, from x (the first valid
 * kernel row at the first output's first tap), kernel rows rs apart, w at the
 * first valid kernel row; nkh valid kernel rows. */
#define OC_DWT_DECL(i) oc_lane a##i = bv;
#define OC_DWT_MAC(i) OC_MAC(a##i, wv, oc_lane_load(xk + (i) * OC_LANE_W * OC_DWT_S, OC_DWT_S));
#define OC_DWT_STORE(i) oc_lane_store(y + (i) * OC_LANE_W, a##i, act);
#define OC_DWT_TAP(kw)                                \
  {                                                   \
    const float *xk = x + (kw);                       \
    const oc_lane wv = oc_lane_splat(w[kw]);          \
    OC_DWT_LANES(OC_DWT_MAC)                          \
  }
#define OC_DWT_TILE_FN(name, COLS)                                                             \
  OC_INLINE void name(const float *restrict x, int32_t rs, const float *restrict w,            \
                      int32_t nkh, float b, const oc_act *act, float *restrict y) {            \
    const oc_lane bv = oc_lane_splat(b);                                                       \
    int32_t r;                                                                                 \
    OC_DWT_LANES(OC_DWT_DECL)                                                                  \
    for (r = 0; r < nkh; r++, x += rs, w += OC_DWT_K) {                                        \
      COLS(OC_DWT_TAP)                                                                         \
    }                                                                                          \
    OC_DWT_LANES(OC_DWT_STORE)                                                                 \
  }

#define OC_DWT_K 3
#define OC_DWT_S 1
#define OC_DWT_LANES OC_DWT_LANES_XL
#ifndef OC_DWT_XL_ALIAS
OC_DWT_TILE_FN(oc_dw_k3s1x_, OC_DWT_COLS3)
#else
#define oc_dw_k3s1x_ oc_dw_k3s1w_
#endif
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_LANES_WIDE
OC_DWT_TILE_FN(oc_dw_k3s1w_, OC_DWT_COLS3)
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_LANES_NARROW
OC_DWT_TILE_FN(oc_dw_k3s1n_, OC_DWT_COLS3)
#undef OC_DWT_S
#define OC_DWT_S 2
OC_DWT_TILE_FN(oc_dw_k3s2n_, OC_DWT_COLS3)
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_LANES_WIDE
OC_DWT_TILE_FN(oc_dw_k3s2w_, OC_DWT_COLS3)
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_DWT_LANES_XL
#ifndef OC_DWT_XL_ALIAS
OC_DWT_TILE_FN(oc_dw_k3s2x_, OC_DWT_COLS3)
#else
#define oc_dw_k3s2x_ oc_dw_k3s2w_
#endif
#undef OC_DWT_K
#define OC_DWT_K 5
#ifndef OC_DWT_XL_ALIAS
OC_DWT_TILE_FN(oc_dw_k5s2x_, OC_DWT_COLS5)
#else
#define oc_dw_k5s2x_ oc_dw_k5s2w_
#endif
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_LANES_WIDE
OC_DWT_TILE_FN(oc_dw_k5s2w_, OC_DWT_COLS5)
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_LANES_NARROW
OC_DWT_TILE_FN(oc_dw_k5s2n_, OC_DWT_COLS5)
#undef OC_DWT_S
#define OC_DWT_S 1
OC_DWT_TILE_FN(oc_dw_k5s1n_, OC_DWT_COLS5)
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_LANES_WIDE
OC_DWT_TILE_FN(oc_dw_k5s1w_, OC_DWT_COLS5)
#undef OC_DWT_LANES
#define OC_DWT_LANES OC_DWT_LANES_XL
#ifndef OC_DWT_XL_ALIAS
OC_DWT_TILE_FN(oc_dw_k5s1x_, OC_DWT_COLS5)
#else
#define oc_dw_k5s1x_ oc_dw_k5s1w_
#endif
#undef OC_DWT_LANES
#undef OC_DWT_S
#undef OC_DWT_K

typedef void (*oc_dw_tile_fn_)(const float *x, int32_t rs, const float *w, int32_t nkh, float b,
                               const oc_act *act, float *y);

/* One depthwise row: xr at the first valid input row (column 0), w_in
 * floats per row, nkh valid kernel rows, w at the first valid kernel row. */
typedef struct {
  const float *xr;
  int32_t w_in, nkh;
  const float *w;
  float b;
  int32_t k, s, pad_left, w_out;
  const oc_act *act;
} oc_dw_row_args;

/* The outputs [a, b) near the padding, one at a time over the valid taps. */
#define OC_DWT_EDGE_TAP(kw) \
  if (in##kw) OC_MAC(acc, w[kw], xr[ix + (kw)]);
OC_LANE_INLINE void oc_dw_edges_(const oc_dw_row_args *r, int32_t k, int32_t s, int32_t a,
                                 int32_t b, float *y) {
  const int32_t w_in = r->w_in;
  int32_t c, kh;
  for (c = a; c < b; c++) {
    const int32_t ix = c * s - r->pad_left;
    const float *xr = r->xr, *w = r->w;
    /* the kernel columns inside the input (in3, in4 unused for k == 3) */
    const int in0 = ix >= 0 && ix < w_in, in1 = ix + 1 >= 0 && ix + 1 < w_in,
              in2 = ix + 2 >= 0 && ix + 2 < w_in, in3 = ix + 3 >= 0 && ix + 3 < w_in,
              in4 = ix + 4 >= 0 && ix + 4 < w_in;
    float acc = r->b;
    for (kh = 0; kh < r->nkh; kh++, xr += w_in, w += k) {
      if (k == 3) {
        OC_DWT_COLS3(OC_DWT_EDGE_TAP)
      } else {
        OC_DWT_COLS5(OC_DWT_EDGE_TAP)
      }
    }
    y[c] = oc_tile_act(r->act, acc);
    (void)in3;
    (void)in4;
  }
}

/* The row with the tiles of one K and S over the pixels whose kernel columns
 * are all inside the input (the last tile moved back to end at the range's
 * end: it recomputes a few outputs, with the same bits), the edges around.
 * Inlined with constant k and s (rows can be a few pixels long: the divisions
 * and loop bounds count). */
OC_LANE_INLINE void oc_dw_row_ks_(const oc_dw_row_args *r, int32_t k, int32_t s,
                                  oc_dw_tile_fn_ xl, oc_dw_tile_fn_ wide, oc_dw_tile_fn_ narrow,
                                  float *y) {
  const int32_t last = r->w_in - k + r->pad_left, nw = OC_TILE_NARROW;
  /* [lo, hi): the outputs whose kernel columns are all inside the input */
  int32_t lo = (r->pad_left + s - 1) / s, hi = last >= 0 ? last / s + 1 : 0, ox;
  if (hi > r->w_out) hi = r->w_out;
  if (lo > hi) lo = hi;
  if (hi - lo < nw) {
    oc_dw_edges_(r, k, s, 0, r->w_out, y);
    return;
  }
  ox = lo;
  while (hi - ox >= OC_DWT_TILE_XL) {
    xl(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
    ox += OC_DWT_TILE_XL;
  }
  while (hi - ox >= OC_TILE_WIDE) {
    wide(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
    ox += OC_TILE_WIDE;
  }
  while (hi - ox >= nw) {
    narrow(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
    ox += nw;
  }
  if (ox < hi) {
    ox = hi - nw;
    narrow(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
  }
  oc_dw_edges_(r, k, s, 0, lo, y);
  oc_dw_edges_(r, k, s, hi, r->w_out, y);
}

/* The row if its kernel is one of the tiles' (3x3 or 5x5, stride 1 or 2,
 * pad_left >= 0), returning 1; 0 otherwise. */
OC_INLINE int oc_dw_row(const oc_dw_row_args *r, float *y) {
  if (r->pad_left < 0) return 0;
  if (r->k == 3 && r->s == 1) {
    oc_dw_row_ks_(r, 3, 1, oc_dw_k3s1x_, oc_dw_k3s1w_, oc_dw_k3s1n_, y);
  } else if (r->k == 3 && r->s == 2) {
    oc_dw_row_ks_(r, 3, 2, oc_dw_k3s2x_, oc_dw_k3s2w_, oc_dw_k3s2n_, y);
  } else if (r->k == 5 && r->s == 1) {
    oc_dw_row_ks_(r, 5, 1, oc_dw_k5s1x_, oc_dw_k5s1w_, oc_dw_k5s1n_, y);
  } else if (r->k == 5 && r->s == 2) {
    oc_dw_row_ks_(r, 5, 2, oc_dw_k5s2x_, oc_dw_k5s2w_, oc_dw_k5s2n_, y);
  } else {
    return 0;
  }
  return 1;
}

#endif /* ONNX_TO_C_OC_DW_TILES_H_ */
