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
 * row (the top and bottom rows too). With stride 1 and "same" padding the
 * first and last OC_LANE_W outputs are edge lanes reading +0.0 for the
 * padding (where that gives the same bits, see "Edge lanes"); other pixels near
 * the left and right padding go one at a time over their valid taps:
 * measured on the public models, that beat running the narrow tile on a
 * zero-padded copy of their input columns, whose copy costs more than the
 * skipped taps (a lane load from the stores just made waits for them).
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

/* The tiles over the outputs [lo, hi) (hi - lo >= OC_TILE_NARROW) of a row:
 * extra-wide, wide, then narrow tiles, the last one moved back to end at hi
 * (it recomputes a few outputs, with the same bits). */
OC_LANE_INLINE void oc_dw_sweep_(const oc_dw_row_args *r, int32_t s, oc_dw_tile_fn_ xl,
                                 oc_dw_tile_fn_ wide, oc_dw_tile_fn_ narrow, int32_t lo,
                                 int32_t hi, float *y) {
  const int32_t nw = OC_TILE_NARROW;
  int32_t ox = lo;
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
}

#if OC_LANE_VECTOR && OC_LANE_W == 4
#define OC_DW_EDGE_LANES 1
/* Edge lanes, for stride 1 and "same" padding (pad_left = (K - 1) / 2,
 * w_out = w_in): the first and the last OC_LANE_W outputs of a row as two
 * lanes, their taps in the padding reading +0.0 instead of being skipped.
 * One at a time, each of those outputs is a chain of dependent adds and a
 * branch per tap; on small feature maps they are much of a row. Reading
 * +0.0 gives the same bits when the weights are finite and the bias is not
 * -0.0 (the argument of OC_CONV_EDGE_FN in oc_conv_tiles.h), which
 * oc_dw_exact_ checks. A kernel column's inputs are a lane load inside the
 * row, moved by a constant with +0.0 shifted in where it reaches the
 * padding; no copy of the row (a lane read back from stores just made waits
 * for them). */

/* v moved up by n elements, +0.0 in the first n (n < 0: down by -n, +0.0
 * in the last -n), n a constant */
OC_LANE_INLINE oc_lane oc_dw_shift_(oc_lane v, int32_t n) {
  const oc_lane z = oc_lane_splat(0.0f);
  switch (n) {
    case 0: return v;
    case 1: return OC_LANE_SHUFFLE_W(z, v, 0, 4, 5, 6);
    case 2: return OC_LANE_SHUFFLE_W(z, v, 0, 1, 4, 5);
    case 3: return OC_LANE_SHUFFLE_W(z, v, 0, 1, 2, 4);
    case -1: return OC_LANE_SHUFFLE_W(v, z, 1, 2, 3, 4);
    case -2: return OC_LANE_SHUFFLE_W(v, z, 2, 3, 4, 5);
    case -3: return OC_LANE_SHUFFLE_W(v, z, 3, 4, 5, 6);
    default: return z;
  }
}

/* the two lanes a (outputs 0..3) and b (outputs w_in - 4 ..), P = (K - 1) / 2,
 * w_in >= OC_LANE_W + P: every load stays inside the row */
#define OC_DWE_P ((OC_DWT_K - 1) / 2)
#define OC_DWE_TAP(kw)                                                                    \
  {                                                                                       \
    const oc_lane wv = oc_lane_splat(w[kw]);                                              \
    OC_MAC(a, wv, (kw) < OC_DWE_P ? oc_dw_shift_(l, OC_DWE_P - (kw))                      \
                                  : oc_lane_load(x + (kw) - OC_DWE_P, 1));                \
    OC_MAC(b, wv, (kw) > OC_DWE_P ? oc_dw_shift_(h, OC_DWE_P - (kw))                      \
                                  : oc_lane_load(x + e + (kw) - OC_DWE_P, 1));            \
  }
#define OC_DWE_FN(name, COLS)                                                                \
  OC_LANE_INLINE void name(const oc_dw_row_args *r, float *y) {                             \
    const float *x = r->xr, *w = r->w;                                                       \
    const int32_t e = r->w_in - OC_LANE_W;                                                   \
    oc_lane a = oc_lane_splat(r->b), b = a;                                                  \
    int32_t kh;                                                                              \
    for (kh = 0; kh < r->nkh; kh++, x += r->w_in, w += OC_DWT_K) {                           \
      const oc_lane l = oc_lane_load(x, 1), h = oc_lane_load(x + e, 1);                      \
      COLS(OC_DWE_TAP)                                                                       \
    }                                                                                        \
    oc_lane_store(y, a, r->act);                                                             \
    oc_lane_store(y + e, b, r->act);                                                         \
  }
/* x[0..n-1] and +0.0 past them, 1 <= n <= OC_LANE_W (nothing read past x[n-1]) */
OC_LANE_INLINE oc_lane oc_dw_load_n_(const float *x, int32_t n) {
  if (n == OC_LANE_W) return oc_lane_load(x, 1);
  {
    const oc_lane v = {x[0], n > 1 ? x[1] : 0.0f, n > 2 ? x[2] : 0.0f, 0.0f};
    return v;
  }
}

/* a row of w_in <= OC_LANE_W: one lane, the +0.0 past the row its right
 * padding, every kernel column the row's load moved; its first w_out
 * outputs stored */
#define OC_DWE_TAP1(kw) OC_MAC(a, oc_lane_splat(w[kw]), oc_dw_shift_(l, OC_DWE_P - (kw)));
#define OC_DWE1_FN(name, COLS)                                                    \
  OC_LANE_INLINE void name(const oc_dw_row_args *r, float *y) {                  \
    const float *x = r->xr, *w = r->w;                                            \
    oc_lane a = oc_lane_splat(r->b);                                              \
    float t[OC_LANE_W];                                                           \
    int32_t kh, i;                                                                \
    for (kh = 0; kh < r->nkh; kh++, x += r->w_in, w += OC_DWT_K) {                \
      const oc_lane l = oc_dw_load_n_(x, r->w_in);                                \
      COLS(OC_DWE_TAP1)                                                           \
    }                                                                             \
    if (r->w_out == OC_LANE_W) {                                                  \
      oc_lane_store(y, a, r->act);                                                \
    } else {                                                                      \
      oc_lane_store(t, a, r->act);                                                \
      for (i = 0; i < r->w_out; i++) y[i] = t[i];                                 \
    }                                                                             \
  }
/* Stride 2, pad_left = P, w_out = (w_in - 1) / 2 + 1 > OC_LANE_W: lanes
 * a (outputs 0..3) and b (outputs w_out - 4 ..). A column left of P has
 * one tap in the padding in a (the first); in b, a column has one in the
 * right padding (the last) from P + 1 on for an odd w_in, from P + 2 on for
 * an even one (ODD). Every load stays inside the row. */
#define OC_DWE2_TAP(kw)                                                                       \
  {                                                                                           \
    const oc_lane wv = oc_lane_splat(w[kw]);                                                  \
    OC_MAC(a, wv, (kw) < OC_DWE_P ? oc_dw_shift_(oc_lane_load(x + 2 - OC_DWE_P + (kw), 2), 1) \
                                  : oc_lane_load(x + (kw) - OC_DWE_P, 2));                    \
    OC_MAC(b, wv, (kw) >= OC_DWE_P + 2 - OC_DWE_ODD                                           \
                      ? oc_dw_shift_(oc_lane_load(x + e + (kw) - OC_DWE_P - 2, 2), -1)        \
                      : oc_lane_load(x + e + (kw) - OC_DWE_P, 2));                            \
  }
#define OC_DWE2_FN(name, COLS)                                                               \
  OC_LANE_INLINE void name(const oc_dw_row_args *r, float *y) {                             \
    const float *x = r->xr, *w = r->w;                                                       \
    const int32_t e = 2 * (r->w_out - OC_LANE_W);                                            \
    oc_lane a = oc_lane_splat(r->b), b = a;                                                  \
    int32_t kh;                                                                              \
    for (kh = 0; kh < r->nkh; kh++, x += r->w_in, w += OC_DWT_K) {                           \
      COLS(OC_DWE2_TAP)                                                                      \
    }                                                                                        \
    oc_lane_store(y, a, r->act);                                                             \
    oc_lane_store(y + r->w_out - OC_LANE_W, b, r->act);                                      \
  }
#define OC_DWT_K 3
#define OC_DWE_ODD 0
OC_DWE2_FN(oc_dw_e3s2_, OC_DWT_COLS3)
#undef OC_DWE_ODD
#define OC_DWE_ODD 1
OC_DWE2_FN(oc_dw_e3s2o_, OC_DWT_COLS3)
#undef OC_DWT_K
#define OC_DWT_K 5
OC_DWE2_FN(oc_dw_e5s2o_, OC_DWT_COLS5)
#undef OC_DWE_ODD
#define OC_DWE_ODD 0
OC_DWE2_FN(oc_dw_e5s2_, OC_DWT_COLS5)
#undef OC_DWE_ODD
#undef OC_DWT_K

#define OC_DWT_K 3
OC_DWE_FN(oc_dw_e3_, OC_DWT_COLS3)
OC_DWE1_FN(oc_dw_e3w4_, OC_DWT_COLS3)
#undef OC_DWT_K
#define OC_DWT_K 5
OC_DWE_FN(oc_dw_e5_, OC_DWT_COLS5)
OC_DWE1_FN(oc_dw_e5w4_, OC_DWT_COLS5)
#undef OC_DWT_K

/* the weights of the row's valid kernel rows are finite and the bias is not
 * -0.0 (w - w is 0 for a finite w, NaN otherwise); the last lane moved back
 * to end at the last weight, the lanes' results folded by two shuffles */
OC_LANE_INLINE int oc_dw_exact_(const oc_dw_row_args *r, int32_t k) {
  const int32_t n = r->nkh * k;
  const oc_lane z = oc_lane_splat(0.0f);
  oc_lane_mask bad = (oc_lane_mask)z;
  uint32_t bits;
  int32_t i;
  if (n < OC_LANE_W) return 0;
  for (i = 0;; i += OC_LANE_W) {
    const oc_lane v = oc_lane_load(r->w + (i + OC_LANE_W > n ? n - OC_LANE_W : i), 1);
    bad |= ~(v - v == z);
    if (i + OC_LANE_W >= n) break;
  }
  bad |= OC_LANE_SHUFFLE_W(bad, bad, 2, 3, 0, 1);
  bad |= OC_LANE_SHUFFLE_W(bad, bad, 1, 0, 3, 2);
  memcpy(&bits, &r->b, sizeof bits);
  return !bad[0] && bits != 0x80000000u;
}
#else
#define OC_DW_EDGE_LANES 0
#endif

/* The row with the tiles of one K and S over the pixels whose kernel columns
 * are all inside the input, the edges around: edge lanes where they apply
 * (the row's first and last OC_LANE_W outputs), one output at a time
 * otherwise. Inlined with constant k and s (rows can be a few pixels long:
 * the divisions and loop bounds count). */
OC_LANE_INLINE void oc_dw_row_ks_(const oc_dw_row_args *r, int32_t k, int32_t s,
                                  oc_dw_tile_fn_ xl, oc_dw_tile_fn_ wide, oc_dw_tile_fn_ narrow,
                                  float *y) {
  const int32_t last = r->w_in - k + r->pad_left, nw = OC_TILE_NARROW;
  /* [lo, hi): the outputs whose kernel columns are all inside the input */
  int32_t lo = (r->pad_left + s - 1) / s, hi = last >= 0 ? last / s + 1 : 0;
  if (hi > r->w_out) hi = r->w_out;
  if (lo > hi) lo = hi;
#if OC_DW_EDGE_LANES
  if (s == 1 && r->pad_left == (k - 1) / 2 && r->w_out == r->w_in && r->w_in <= OC_LANE_W &&
      oc_dw_exact_(r, k)) {
    if (k == 3) {
      oc_dw_e3w4_(r, y);
    } else {
      oc_dw_e5w4_(r, y);
    }
    return;
  }
  if (s == 1 && r->pad_left == (k - 1) / 2 && r->w_out == r->w_in &&
      r->w_in >= OC_LANE_W + (k - 1) / 2 && oc_dw_exact_(r, k)) {
    if (k == 3) {
      oc_dw_e3_(r, y);
    } else {
      oc_dw_e5_(r, y);
    }
    if (r->w_out > 2 * OC_LANE_W) oc_dw_sweep_(r, s, xl, wide, narrow, lo, hi, y);
    return;
  }
  /* (on wider rows these lanes measured slower than their one or two
   * outputs one at a time) */
  if (s == 2 && r->pad_left == (k - 1) / 2 && r->w_out == (r->w_in - 1) / 2 + 1 &&
      r->w_out > OC_LANE_W && r->w_out <= 2 * OC_LANE_W && oc_dw_exact_(r, k)) {
    if (k == 3 && (r->w_in & 1)) {
      oc_dw_e3s2o_(r, y);
    } else if (k == 3) {
      oc_dw_e3s2_(r, y);
    } else if (r->w_in & 1) {
      oc_dw_e5s2o_(r, y);
    } else {
      oc_dw_e5s2_(r, y);
    }
    return;
  }
#endif
  if (hi - lo < nw) {
    oc_dw_edges_(r, k, s, 0, r->w_out, y);
    return;
  }
  oc_dw_sweep_(r, s, xl, wide, narrow, lo, hi, y);
  oc_dw_edges_(r, k, s, 0, lo, y);
  oc_dw_edges_(r, k, s, hi, r->w_out, y);
}

/* The row if its kernel is one of the tiles' (3x3 or 5x5, stride 1 or 2,
 * pad_left >= 0), returning 1; 0 otherwise. */
OC_LANE_INLINE int oc_dw_row(const oc_dw_row_args *r, float *y) {
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
