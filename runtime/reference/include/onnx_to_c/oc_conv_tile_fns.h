/*
 * onnx-to-c runtime: the register tiles of the 2-D convolution (the
 * building blocks of oc_conv_tiles.h, which runs them over the rows).
 */
#ifndef ONNX_TO_C_OC_CONV_TILE_FNS_H_
#define ONNX_TO_C_OC_CONV_TILE_FNS_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

/* One 2-D convolution of a group, in the micro-kernels' terms. */
typedef struct {
  int32_t cig;      /* input channels per group */
  int32_t in_plane; /* h_in * w_in */
  int32_t w_in;
  int32_t row_step; /* dil_h * w_in: input step between kernel rows */
  int32_t dil_w, stride_w;
  int32_t k_w, kk; /* kernel row length, k_h * k_w */
  int32_t w_co;    /* cig * kk: weight step between output channels */
  int32_t y_co;    /* h_out * w_out: output step between output channels */
  const oc_act *act;
  int32_t exact_pad; /* edge tiles give the per-pixel loop's bits (see OC_CONV_EDGE_FN) */
} conv2d_geom_;

/* [*lo, *hi): the outputs o in [0, len_out) whose input o * stride + off is
 * in [0, len_in). */
OC_INLINE void conv2d_range_(int32_t off, int32_t stride, int32_t len_in, int32_t len_out,
                          int32_t *lo, int32_t *hi) {
  int32_t a = off < 0 ? (stride - 1 - off) / stride : 0;
  int32_t b = len_in - off > 0 ? (len_in - off + stride - 1) / stride : 0;
  if (b > len_out) b = len_out;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

#define OC_CONV_BIAS4                                \
  const float bias0 = bias != NULL ? bias[0] : 0.0f; \
  const float bias1 = bias != NULL ? bias[1] : 0.0f; \
  const float bias2 = bias != NULL ? bias[2] : 0.0f; \
  const float bias3 = bias != NULL ? bias[3] : 0.0f;
/* The lane of the tiles instantiated below: oc_lane (oc_lane.h) while
 * OC_CVL_WIDE is 0, an optimized folder's wider oc_wlane while it is 1
 * (runtime/x86: oc_conv_fast.h instantiates OC_CONV_TILES4 over it). */
#define OC_CVL_WIDE 0
#define OC_CVL_CAT_(a, b) a##b
#define OC_CVL_CAT(a, b) OC_CVL_CAT_(a, b)
#define OC_CVL_SEL0(a, b) a
#define OC_CVL_SEL1(a, b) b
#define OC_CVL_PICK(a, b) OC_CVL_CAT(OC_CVL_SEL, OC_CVL_WIDE)(a, b)
#define OC_CVL_LANE OC_CVL_PICK(oc_lane, oc_wlane)
#define OC_CVL_W OC_CVL_PICK(OC_LANE_W, OC_WLANE_W)
#define OC_CVL_SPLAT OC_CVL_PICK(oc_lane_splat, oc_wlane_splat)
#define OC_CVL_LOAD OC_CVL_PICK(oc_lane_load, oc_wlane_load)
#define OC_CVL_STORE OC_CVL_PICK(oc_lane_store, oc_wlane_store)
/* Lane i of a tile of tw pixels starts at pixel o##i: i lanes on, or at
 * tw - the lane width for the last lane of a tile narrower than its lanes
 * (a 2-lane tile over 5 to 7 pixels overlaps its lanes; the outputs both
 * compute get the same bits twice). */
#define OC_CONV_OFF(i) \
  const int32_t o##i = (i) * OC_CVL_W < tw - OC_CVL_W ? (i) * OC_CVL_W : tw - OC_CVL_W;
#define OC_CONV_DECL4(i)                                                    \
  OC_CONV_OFF(i)                                                            \
  OC_CVL_LANE p##i = OC_CVL_SPLAT(bias0), q##i = OC_CVL_SPLAT(bias1),          \
             r##i = OC_CVL_SPLAT(bias2), s##i = OC_CVL_SPLAT(bias3);
#define OC_CONV_MAC4(i)                                                     \
  {                                                                         \
    const OC_CVL_LANE xv = OC_CONV_X(i);                                     \
    OC_MAC(p##i, w0, xv);                                                   \
    OC_MAC(q##i, w1, xv);                                                   \
    OC_MAC(r##i, w2, xv);                                                   \
    OC_MAC(s##i, w3, xv);                                                   \
  }
#define OC_CONV_STORE4(i)                                                   \
  OC_CVL_STORE(y + o##i, p##i, g->act);                                     \
  OC_CVL_STORE(y + g->y_co + o##i, q##i, g->act);                           \
  OC_CVL_STORE(y + 2 * g->y_co + o##i, r##i, g->act);                       \
  OC_CVL_STORE(y + 3 * g->y_co + o##i, s##i, g->act);
#define OC_CONV_DECL1(i) OC_CONV_OFF(i) OC_CVL_LANE p##i = OC_CVL_SPLAT(bias0);
#define OC_CONV_MAC1(i) OC_MAC(p##i, w0, OC_CONV_X(i));
#define OC_CONV_STORE1(i) OC_CVL_STORE(y + o##i, p##i, g->act);

#define OC_CONV_BIAS1 const float bias0 = bias != NULL ? bias[0] : 0.0f;
#define OC_CONV_WEIGHTS4(k) \
  const float w0 = wr[k], w1 = wr[ws + (k)], w2 = wr[2 * ws + (k)], w3 = wr[3 * ws + (k)];
#define OC_CONV_WEIGHTS1(k) \
  const float w0 = wr[k];   \
  (void)ws;

/* The pixels of a tile whose lanes do not overlap: LANES x the lane width
 * (a constant, so lane offsets are immediates). OC_CONV_TW_ARG: the overlapping
 * tiles' own count, tw_arg, an argument. */
#define OC_CONV_ONE_(i) +1
#define OC_CONV_TW_FULL(LANES) ((0 LANES(OC_CONV_ONE_)) * OC_CVL_W)
#define OC_CONV_TW_ARG(LANES) tw_arg

/* A tile of NCO (4 or 1) output channels x tw = TW(LANES) pixels in one
 * output row, covered by LANES (see OC_CONV_OFF): x is the input at (ic 0, first valid kernel row, the tile's
 * first input column), w the weights of the first channel at (ic 0, first
 * valid kernel row), nkh the valid kernel rows; all kernel columns are valid.
 * K3S (1 or 2; 0: none): a kernel of 3 undilated columns at that stride runs
 * its columns unrolled, the stride a constant there, so that the inputs two
 * columns share load once (a stem's 3x3 stride-2 rows: a patched program
 * runs its stem on twice the MACs); the same sums in the same order. */
#define OC_CONV_TAP(NCO, LANES, kw)   \
  {                                   \
    const float *xp = xr + (kw);      \
    OC_CONV_WEIGHTS##NCO(kw)          \
    LANES(OC_CONV_MAC##NCO)           \
  }
#define OC_CONV_TILE_FN(name, NCO, LANES, stride_expr, TW, K3S)                                 \
  OC_INLINE void name(const conv2d_geom_ *g, const float *restrict x, const float *restrict w,     \
                   const float *bias, int32_t nkh, int32_t tw_arg, float *restrict y) {        \
    const int32_t ws = g->w_co, sw = stride_expr, tw = TW(LANES);                              \
    int32_t ic, kh, kw;                                                                        \
    OC_CONV_BIAS##NCO                                                                          \
    (void)tw_arg;                                                                              \
    LANES(OC_CONV_DECL##NCO)                                                                   \
    if ((K3S) != 0 && sw == (K3S) && g->k_w == 3 && g->dil_w == 1) {                           \
      for (ic = 0; ic < g->cig; ic++) {                                                        \
        const float *xr = x + ic * g->in_plane;                                                \
        const float *wr = w + ic * g->kk;                                                      \
        for (kh = 0; kh < nkh; kh++, xr += g->row_step, wr += 3) {                             \
          OC_CONV_TAP(NCO, LANES, 0) OC_CONV_TAP(NCO, LANES, 1) OC_CONV_TAP(NCO, LANES, 2)      \
        }                                                                                      \
      }                                                                                        \
    } else {                                                                                   \
      for (ic = 0; ic < g->cig; ic++) {                                                        \
        const float *xr = x + ic * g->in_plane;                                                \
        const float *wr = w + ic * g->kk;                                                      \
        for (kh = 0; kh < nkh; kh++, xr += g->row_step, wr += g->k_w) {                        \
          for (kw = 0; kw < g->k_w; kw++) {                                                    \
            const float *xp = xr + kw * g->dil_w;                                              \
            OC_CONV_WEIGHTS##NCO(kw)                                                           \
            LANES(OC_CONV_MAC##NCO)                                                            \
          }                                                                                    \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
    LANES(OC_CONV_STORE##NCO)                                                                  \
  }

/* 1x1 stride 1: 4 output channels, x at (ic 0, the tile's first pixel), w at
 * (channel 0, ic 0). */
#define OC_CONV_TILE4_PW_FN(name, LANES, TW)                                                    \
  OC_INLINE void name(const conv2d_geom_ *g, const float *restrict x, const float *restrict w,     \
                   const float *bias, int32_t nkh, int32_t tw_arg, float *restrict y) {        \
    const int32_t ws = g->w_co, sw = 1, tw = TW(LANES);                                        \
    int32_t ic;                                                                                \
    OC_CONV_BIAS4                                                                              \
    LANES(OC_CONV_DECL4)                                                                       \
    (void)nkh;                                                                                 \
    (void)tw_arg;                                                                              \
    for (ic = 0; ic < g->cig; ic++) {                                                          \
      const float *xp = x + ic * g->in_plane;                                                  \
      const float w0 = w[ic], w1 = w[ws + ic], w2 = w[2 * ws + ic], w3 = w[3 * ws + ic];       \
      LANES(OC_CONV_MAC4)                                                                      \
    }                                                                                          \
    LANES(OC_CONV_STORE4)                                                                      \
  }

/* A lane's inputs: a lane's width of columns sw apart from xp (a compile-time
 * stride of 1 lets a lane load consecutive inputs at once). */
#define OC_CONV_X(i) OC_CVL_LOAD(xp + o##i * sw, sw)
/* the 4-channel tiles t4w<sfx>_* (2 lanes), t4n<sfx>_* (1 lane) and
 * t4o<sfx>_* (2 overlapping lanes) */
#define OC_CONV_TILES4(sfx)                                                          \
  OC_CONV_TILE_FN(conv2d_t4w##sfx##_s1_, 4, OC_LANES_WIDE, 1, OC_CONV_TW_FULL, 0)            \
  OC_CONV_TILE_FN(conv2d_t4w##sfx##_sn_, 4, OC_LANES_WIDE, g->stride_w, OC_CONV_TW_FULL, 2)  \
  OC_CONV_TILE_FN(conv2d_t4n##sfx##_s1_, 4, OC_LANES_NARROW, 1, OC_CONV_TW_FULL, 0)          \
  OC_CONV_TILE_FN(conv2d_t4n##sfx##_sn_, 4, OC_LANES_NARROW, g->stride_w, OC_CONV_TW_FULL, 2) \
  OC_CONV_TILE_FN(conv2d_t4o##sfx##_s1_, 4, OC_LANES_WIDE, 1, OC_CONV_TW_ARG, 0)             \
  OC_CONV_TILE_FN(conv2d_t4o##sfx##_sn_, 4, OC_LANES_WIDE, g->stride_w, OC_CONV_TW_ARG, 0)   \
  OC_CONV_TILE4_PW_FN(conv2d_t4w##sfx##_pw_, OC_LANES_WIDE, OC_CONV_TW_FULL)              \
  OC_CONV_TILE4_PW_FN(conv2d_t4n##sfx##_pw_, OC_LANES_NARROW, OC_CONV_TW_FULL)            \
  OC_CONV_TILE4_PW_FN(conv2d_t4o##sfx##_pw_, OC_LANES_WIDE, OC_CONV_TW_ARG)
OC_CONV_TILES4()
OC_CONV_TILE_FN(conv2d_t1w_s1_, 1, OC_LANES_WIDE, 1, OC_CONV_TW_FULL, 0)
OC_CONV_TILE_FN(conv2d_t1w_sn_, 1, OC_LANES_WIDE, g->stride_w, OC_CONV_TW_FULL, 0)
OC_CONV_TILE_FN(conv2d_t1n_s1_, 1, OC_LANES_NARROW, 1, OC_CONV_TW_FULL, 0)
OC_CONV_TILE_FN(conv2d_t1n_sn_, 1, OC_LANES_NARROW, g->stride_w, OC_CONV_TW_FULL, 0)
OC_CONV_TILE_FN(conv2d_t1o_s1_, 1, OC_LANES_WIDE, 1, OC_CONV_TW_ARG, 0)
OC_CONV_TILE_FN(conv2d_t1o_sn_, 1, OC_LANES_WIDE, g->stride_w, OC_CONV_TW_ARG, 0)
#undef OC_CONV_X

/* Edge tiles: the same tiles over pixels some of whose taps fall in the
 * padding (kernels up to OC_CONV_EDGE_KW columns wide). Those taps read +0.0
 * instead of being skipped. With finite weights and no -0.0 bias that gives
 * the same bits: a sum that starts from the bias or +0.0 is never -0.0
 * (x + y == -0.0 needs x == y == -0.0), and adding +0.0 or -0.0 (w * +0.0)
 * to a sum that is not -0.0 leaves it unchanged. conv2d_row_ checks the
 * condition (conv2d_geom_.exact_pad) and uses the per-pixel loop otherwise.
 * x is the input at (ic 0, first valid kernel row, column 0), ix0 the input
 * column of the tile's first pixel's first tap. Kernel columns whose taps
 * are all inside the input load as in the other tiles. */
#define OC_CONV_EDGE_KW 8
#define OC_CONV_EDGE_FN(name, NCO, LANES, TWPX)                                                  \
  OC_INLINE void name(const conv2d_geom_ *g, const float *restrict x, const float *restrict w,  \
                      const float *bias, int32_t nkh, int32_t ix0, float *restrict y) {         \
    int32_t off[OC_CONV_EDGE_KW * (TWPX)], full[OC_CONV_EDGE_KW];                               \
    const int32_t ws = g->w_co, sw = g->stride_w;                                               \
    const int32_t tw = (TWPX);                                                                  \
    int32_t ic, kh, kw, j;                                                                      \
    OC_CONV_BIAS##NCO                                                                           \
    LANES(OC_CONV_DECL##NCO)                                                                    \
    for (kw = 0; kw < g->k_w; kw++) {                                                           \
      full[kw] = 1;                                                                             \
      for (j = 0; j < (TWPX); j++) {                                                            \
        const int32_t ix = ix0 + j * sw + kw * g->dil_w;                                        \
        off[kw * (TWPX) + j] = ix >= 0 && ix < g->w_in ? ix : -1;                               \
        if (off[kw * (TWPX) + j] < 0) full[kw] = 0;                                             \
      }                                                                                         \
    }                                                                                           \
    for (ic = 0; ic < g->cig; ic++) {                                                           \
      const float *xr = x + ic * g->in_plane;                                                   \
      const float *wr = w + ic * g->kk;                                                         \
      for (kh = 0; kh < nkh; kh++, xr += g->row_step, wr += g->k_w) {                           \
        for (kw = 0; kw < g->k_w; kw++) {                                                       \
          const int32_t *o = off + kw * (TWPX), fk = full[kw];                                  \
          OC_CONV_WEIGHTS##NCO(kw)                                                              \
          LANES(OC_CONV_MAC##NCO)                                                               \
        }                                                                                       \
      }                                                                                         \
    }                                                                                           \
    LANES(OC_CONV_STORE##NCO)                                                                   \
  }
#define OC_CONV_X(i) \
  (fk ? oc_lane_load(xr + o[(i) * OC_LANE_W], sw) : oc_lane_pick(xr, o + (i) * OC_LANE_W))
OC_CONV_EDGE_FN(conv2d_e4_, 4, OC_LANES_NARROW, OC_TILE_NARROW)
#undef OC_CONV_X

/* Narrow edge tiles of 4 channels over the outputs [a, b) of a row of w_out >=
 * OC_TILE_NARROW pixels, a tile moved back to end at w_out when it would
 * pass it. */
OC_INLINE void conv2d_edges_(const oc_conv2d_params *p, const conv2d_geom_ *g, const float *xr,
                             const float *w, const float *bias, int32_t nkh, int32_t a,
                             int32_t b, float *y) {
  int32_t s;
  for (s = a; s < b; s += OC_TILE_NARROW) {
    const int32_t st = s + OC_TILE_NARROW > p->w_out ? p->w_out - OC_TILE_NARROW : s;
    conv2d_e4_(g, xr, w, bias, nkh, st * p->stride_w - p->pad_left, y + st);
  }
}

typedef void (*conv2d_tile_fn_)(const conv2d_geom_ *g, const float *x, const float *w,
                                const float *bias, int32_t nkh, int32_t tw, float *y);

/* The tiles of one kind (channels, stride, 1x1): tile i covers width[i]
 * pixels, part[i] (its lanes overlapping) tw in [min[i], width[i]). */
#define OC_CONV_SET_MAX 4
typedef struct {
  int32_t n;
  int32_t width[OC_CONV_SET_MAX], min[OC_CONV_SET_MAX];
  conv2d_tile_fn_ fn[OC_CONV_SET_MAX], part[OC_CONV_SET_MAX];
} conv2d_tile_set_;

/* adds a tile of `lanes` lanes of lane_w pixels (a lane covers lane_w
 * pixels, so a tile of one covers exactly that many) */
OC_INLINE void conv2d_set_add_(conv2d_tile_set_ *s, conv2d_tile_fn_ fn, conv2d_tile_fn_ part,
                               int32_t lanes, int32_t lane_w) {
  s->fn[s->n] = fn;
  s->part[s->n] = part;
  s->width[s->n] = lanes * lane_w;
  s->min[s->n] = lanes > 1 ? (lanes - 1) * lane_w + 1 : lane_w;
  s->n++;
}

#endif /* ONNX_TO_C_OC_CONV_TILE_FNS_H_ */
