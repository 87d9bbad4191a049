/*
 * onnx-to-c runtime: the tiles of the depthwise convolution rows (the
 * building blocks of oc_dw_tiles.h): square K x K kernels with K = 3 or 5,
 * stride S = 1 or 2, dilation 1, tiles of OC_TILE_WIDE and OC_TILE_NARROW
 * outputs, and the outputs near the padding one at a time.
 */
#ifndef ONNX_TO_C_OC_DW_TILE_FNS_H_
#define ONNX_TO_C_OC_DW_TILE_FNS_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

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

#endif /* ONNX_TO_C_OC_DW_TILE_FNS_H_ */
