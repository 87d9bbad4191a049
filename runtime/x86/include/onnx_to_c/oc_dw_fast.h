/*
 * onnx-to-c runtime, x86: the depthwise rows' faster paths (the interface of
 * the reference oc_dw_fast.h) with vector lanes: an extra-wide tile of 4
 * lanes where rows are long enough (each output's sum is a chain of
 * dependent adds, so more independent lanes keep the adder busy; the
 * register file holds them with the few weights of a kernel row), and with
 * 4-float lanes edge lanes at the padding.
 */
#ifndef ONNX_TO_C_OC_DW_FAST_H_
#define ONNX_TO_C_OC_DW_FAST_H_

#include "onnx_to_c/oc_dw_tile_fns.h"

#if OC_LANE_VECTOR
#define OC_DWT_TILE_XL (4 * OC_LANE_W)
#define OC_DWT_LANES(M) M(0) M(1) M(2) M(3)
#define OC_DWT_K 3
#define OC_DWT_S 1
OC_DWT_TILE_FN(oc_dw_k3s1x_, OC_DWT_COLS3)
#undef OC_DWT_S
#define OC_DWT_S 2
OC_DWT_TILE_FN(oc_dw_k3s2x_, OC_DWT_COLS3)
#undef OC_DWT_K
#define OC_DWT_K 5
OC_DWT_TILE_FN(oc_dw_k5s2x_, OC_DWT_COLS5)
#undef OC_DWT_S
#define OC_DWT_S 1
OC_DWT_TILE_FN(oc_dw_k5s1x_, OC_DWT_COLS5)
#undef OC_DWT_S
#undef OC_DWT_K
#undef OC_DWT_LANES
#else
/* one-float lanes: the wide tiles */
#define OC_DWT_TILE_XL OC_TILE_WIDE
#define oc_dw_k3s1x_ oc_dw_k3s1w_
#define oc_dw_k3s2x_ oc_dw_k3s2w_
#define oc_dw_k5s2x_ oc_dw_k5s2w_
#define oc_dw_k5s1x_ oc_dw_k5s1w_
#endif

#if OC_LANE_VECTOR && OC_LANE_W == 4
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
#define OC_DW_ROW_FAST(r, k, s, xl, wide, narrow, lo, hi, y)                                   \
  if (s == 1 && r->pad_left == (k - 1) / 2 && r->w_out == r->w_in && r->w_in <= OC_LANE_W &&   \
      oc_dw_exact_(r, k)) {                                                                    \
    if (k == 3) {                                                                              \
      oc_dw_e3w4_(r, y);                                                                       \
    } else {                                                                                   \
      oc_dw_e5w4_(r, y);                                                                       \
    }                                                                                          \
    return;                                                                                    \
  }                                                                                            \
  if (s == 1 && r->pad_left == (k - 1) / 2 && r->w_out == r->w_in &&                           \
      r->w_in >= OC_LANE_W + (k - 1) / 2 && oc_dw_exact_(r, k)) {                              \
    if (k == 3) {                                                                              \
      oc_dw_e3_(r, y);                                                                         \
    } else {                                                                                   \
      oc_dw_e5_(r, y);                                                                         \
    }                                                                                          \
    if (r->w_out > 2 * OC_LANE_W) oc_dw_sweep_(r, s, xl, wide, narrow, lo, hi, y);             \
    return;                                                                                    \
  }                                                                                            \
  /* (on wider rows these lanes measured slower than their one or two                          \
   * outputs one at a time) */                                                                 \
  if (s == 2 && r->pad_left == (k - 1) / 2 && r->w_out == (r->w_in - 1) / 2 + 1 &&             \
      r->w_out > OC_LANE_W && r->w_out <= 2 * OC_LANE_W && oc_dw_exact_(r, k)) {               \
    if (k == 3 && (r->w_in & 1)) {                                                             \
      oc_dw_e3s2o_(r, y);                                                                      \
    } else if (k == 3) {                                                                       \
      oc_dw_e3s2_(r, y);                                                                       \
    } else if (r->w_in & 1) {                                                                  \
      oc_dw_e5s2o_(r, y);                                                                      \
    } else {                                                                                   \
      oc_dw_e5s2_(r, y);                                                                       \
    }                                                                                          \
    return;                                                                                    \
  }
#else
#define OC_DW_ROW_FAST(r, k, s, xl, wide, narrow, lo, hi, y)
#endif

#endif /* ONNX_TO_C_OC_DW_FAST_H_ */
