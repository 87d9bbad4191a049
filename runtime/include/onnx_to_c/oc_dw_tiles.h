/*
 * onnx-to-c runtime: depthwise convolution rows (one input channel per
 * output channel), square K x K kernels with K = 3 or 5, stride S = 1 or 2,
 * dilation 1; conv2d_row_ (oc_conv_tiles.h) hands them its depthwise rows.
 *
 * Each output is the bias plus w * x over the valid kernel rows, then the
 * kernel columns, in increasing order (the order of conv2d.c). Tiles of
 * OC_TILE_WIDE / OC_TILE_NARROW outputs cover the pixels whose kernel
 * columns are all inside the input, reading the input directly (S = 2 reads
 * a lane as two loads and a shuffle, oc_lane_load). The pixels near the left
 * and right padding copy the input columns they need into a small zero-padded
 * buffer and run the narrow tile on it: a padding tap then adds w * +0.0
 * instead of being skipped, which gives the same bits when the weights are
 * finite and the bias is not -0.0 (the argument above OC_CONV_EDGE_FN;
 * conv2d_geom_.exact_pad). Otherwise they go one pixel at a time over the
 * valid taps.
 */
#ifndef ONNX_TO_C_OC_DW_TILES_H_
#define ONNX_TO_C_OC_DW_TILES_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_tile.h"

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
#undef OC_DWT_K
#define OC_DWT_K 5
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
  int32_t exact_pad;
  const oc_act *act;
} oc_dw_row_args;

/* buffer columns of an edge chunk: (OC_TILE_NARROW - 1) * S + K at most */
#define OC_DW_EDGE_BW ((OC_TILE_NARROW - 1) * 2 + 5)

/* The outputs [a, b) near the padding. */
OC_INLINE void oc_dw_edges_(const oc_dw_row_args *r, oc_dw_tile_fn_ narrow, int32_t a,
                            int32_t b, float *y) {
  const int32_t k = r->k, s = r->s, w_in = r->w_in;
  int32_t c, i, j, kh, kw;
  if (!r->exact_pad) {
    for (c = a; c < b; c++) {
      const int32_t ix = c * s - r->pad_left;
      const float *xr = r->xr, *w = r->w;
      float acc = r->b;
      for (kh = 0; kh < r->nkh; kh++, xr += w_in, w += k) {
        for (kw = 0; kw < k; kw++) {
          if (ix + kw >= 0 && ix + kw < w_in) OC_MAC(acc, w[kw], xr[ix + kw]);
        }
      }
      y[c] = oc_tile_act(r->act, acc);
    }
    return;
  }
  for (c = a; c < b; c += OC_TILE_NARROW) {
    float buf[5 * OC_DW_EDGE_BW], out[OC_TILE_NARROW];
    const int32_t ix0 = c * s - r->pad_left, nb = (OC_TILE_NARROW - 1) * s + k;
    const int32_t n = b - c < OC_TILE_NARROW ? b - c : OC_TILE_NARROW;
    for (kh = 0; kh < r->nkh; kh++) {
      const float *xrow = r->xr + kh * w_in;
      for (j = 0; j < nb; j++) {
        const int32_t ix = ix0 + j;
        buf[kh * OC_DW_EDGE_BW + j] = ix >= 0 && ix < w_in ? xrow[ix] : 0.0f;
      }
    }
    narrow(buf, OC_DW_EDGE_BW, r->w, r->nkh, r->b, r->act, out);
    for (i = 0; i < n; i++) y[c + i] = out[i];
  }
}

/* The row with the tiles of one K and S. */
OC_INLINE void oc_dw_row_ks_(const oc_dw_row_args *r, oc_dw_tile_fn_ wide, oc_dw_tile_fn_ narrow,
                             float *y) {
  const int32_t s = r->s, last = r->w_in - r->k + r->pad_left;
  /* [lo, hi): the outputs whose kernel columns are all inside the input */
  int32_t lo = (r->pad_left + s - 1) / s, hi = last >= 0 ? last / s + 1 : 0, t1, ox;
  if (hi > r->w_out) hi = r->w_out;
  if (lo > hi) lo = hi;
  t1 = lo;
  if (hi - lo >= OC_TILE_NARROW) {
    const int32_t tw = hi - lo >= OC_TILE_WIDE ? OC_TILE_WIDE : OC_TILE_NARROW;
    const oc_dw_tile_fn_ tile = tw == OC_TILE_WIDE ? wide : narrow;
    for (ox = lo;; ox += tw) {
      if (ox + tw > hi) ox = hi - tw; /* moved back: recomputes a few outputs, same bits */
      tile(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
      if (ox + tw == hi) break;
    }
    t1 = hi;
  }
  oc_dw_edges_(r, narrow, 0, lo, y);
  oc_dw_edges_(r, narrow, t1, r->w_out, y);
}

/* The row if its kernel is one of the tiles' (3x3 or 5x5, stride 1 or 2,
 * pad_left >= 0), returning 1; 0 otherwise. */
OC_INLINE int oc_dw_row(const oc_dw_row_args *r, float *y) {
  if (r->pad_left < 0) return 0;
  if (r->k == 3 && r->s == 1) {
    oc_dw_row_ks_(r, oc_dw_k3s1w_, oc_dw_k3s1n_, y);
  } else if (r->k == 3 && r->s == 2) {
    oc_dw_row_ks_(r, oc_dw_k3s2w_, oc_dw_k3s2n_, y);
  } else if (r->k == 5 && r->s == 1) {
    oc_dw_row_ks_(r, oc_dw_k5s1w_, oc_dw_k5s1n_, y);
  } else if (r->k == 5 && r->s == 2) {
    oc_dw_row_ks_(r, oc_dw_k5s2w_, oc_dw_k5s2n_, y);
  } else {
    return 0;
  }
  return 1;
}

#endif /* ONNX_TO_C_OC_DW_TILES_H_ */
