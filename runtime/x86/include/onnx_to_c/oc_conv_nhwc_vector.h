/*
 * onnx-to-c runtime, x86: the vector lanes of the channels-last convolution
 * (conv2d_nhwc.c; the interface of the reference oc_conv_nhwc_lane.h).
 * Defines nothing without vector lanes (oc_conv_nhwc_scalar.h follows).
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_VECTOR_H_
#define ONNX_TO_C_OC_CONV_NHWC_VECTOR_H_

#include "onnx_to_c/oc_lane.h"

#if OC_LANE_VECTOR
/* The lanes of this kernel: oc_lane.h's, except where AVX is enabled but
 * oc_lane.h keeps 4-float lanes (ONNX_TO_C_AVX_LANES unset, as in a
 * generated model's AVX2 file with GCC, whose target pragma defines __AVX__):
 * 8-float vectors here, twice the channels per instruction. Each element is
 * still one output's own sum, so the same bits; the activation is
 * oc_lane_store's on each half. */
#if OC_LANE_VECTOR && OC_LANE_W == 4 && defined(__AVX__) && defined(__GNUC__)
typedef float nhwc_lane_ __attribute__((vector_size(32)));
#define OC_NHWC_W 8

OC_LANE_INLINE nhwc_lane_ nhwc_splat_(float v) {
  const nhwc_lane_ r = {v, v, v, v, v, v, v, v};
  return r;
}

/* p[i] = act(lane i) */
OC_LANE_INLINE void nhwc_store_(float *p, nhwc_lane_ v, const oc_act *act) {
  oc_lane h[2];
  memcpy(h, &v, sizeof v);
  oc_lane_store(p, h[0], act);
  oc_lane_store(p + 4, h[1], act);
}
#else
typedef oc_lane nhwc_lane_;
#define OC_NHWC_W OC_LANE_W
#define nhwc_splat_ oc_lane_splat
#define nhwc_store_ oc_lane_store
#endif

/* OC_NHWC_W values p[0], p[s], ... (only those: x may share memory with y) */
OC_LANE_INLINE nhwc_lane_ nhwc_load_(const float *p, int32_t s) {
  if (s == 1) {
    nhwc_lane_ r;
    memcpy(&r, p, sizeof r);
    return r;
  } else {
#if OC_NHWC_W == 8
    const nhwc_lane_ r = {p[0], p[s], p[2 * s], p[3 * s], p[4 * s], p[5 * s], p[6 * s], p[7 * s]};
#else
    const nhwc_lane_ r = {p[0], p[s], p[2 * s], p[3 * s]};
#endif
    return r;
  }
}

/* y[i * s] = act(lane i) */
OC_LANE_INLINE void nhwc_put_(float *y, int32_t s, nhwc_lane_ v, const oc_act *act) {
  if (s == 1) {
    nhwc_store_(y, v, act);
  } else {
    float t[OC_NHWC_W];
    int32_t i;
    nhwc_store_(t, v, act);
    for (i = 0; i < OC_NHWC_W; i++) y[i * s] = t[i];
  }
}

/* A lane's first n < OC_NHWC_W channels (a group's last ones): the other
 * lanes compute sums that are never stored. */
OC_LANE_INLINE nhwc_lane_ nhwc_load_n_(const float *p, int32_t s, int32_t n) {
#if OC_NHWC_W == 8
  const nhwc_lane_ r = {p[0],
                     n > 1 ? p[s] : 0.0f,
                     n > 2 ? p[2 * s] : 0.0f,
                     n > 3 ? p[3 * s] : 0.0f,
                     n > 4 ? p[4 * s] : 0.0f,
                     n > 5 ? p[5 * s] : 0.0f,
                     n > 6 ? p[6 * s] : 0.0f,
                     0.0f};
#else
  const nhwc_lane_ r = {p[0], n > 1 ? p[s] : 0.0f, n > 2 ? p[2 * s] : 0.0f, 0.0f};
#endif
  return r;
}

OC_LANE_INLINE void nhwc_put_n_(float *y, int32_t s, nhwc_lane_ v, const oc_act *act, int32_t n) {
  float t[OC_NHWC_W];
  int32_t i;
  nhwc_store_(t, v, act);
  for (i = 0; i < n; i++) y[i * s] = t[i];
}

/* The lanes of a block: M(pixel, lane). */
#define OC_NHWC_LANES(M, j) M(j, 0) M(j, 1)
#define OC_NHWC_NL 2

/* Suffix N: one lane of g->nc channels. */
#define OC_NHWC_BIAS_N(j, l) \
  const nhwc_lane_ b##l = bias != NULL ? nhwc_load_n_(bias, 1, g->nc) : nhwc_splat_(0.0f);
#define OC_NHWC_STORE1_N(j, l) nhwc_put_n_(y + (j) * g->yx, g->yc, a##j##_##l, g->act, g->nc);
#define OC_NHWC_STORE_N(j, L) L(OC_NHWC_STORE1_N, j)
#define OC_NHWC_WLOAD_N(j, l) const nhwc_lane_ w##l = nhwc_load_n_(wp, 1, g->nc);
#define OC_NHWC_DW_WLOAD_N(j, l) const nhwc_lane_ w##l = nhwc_load_n_(wp, g->kk, g->nc);
#define OC_NHWC_DW_MAC1_N(j, l) OC_MAC(a##j##_##l, w##l, nhwc_load_n_(xp + (j) * ps, xs, g->nc));
#define OC_NHWC_DW_MAC_N(j, L) L(OC_NHWC_DW_MAC1_N, j)

/* 3-wide kernel rows unrolled (a branch of OC_NHWC_TILE_FN). */
#define OC_NHWC_KW3(LANES, PIXELS, K)                                                          \
    } else if (kw1 - kw0 == 3) {                                                               \
      const float *xi = x + (ix + kw0 * g->dil_w) * g->xx, *wi = w + kw0 * wkw;                \
      for (ic = 0; ic < g->cig; ic++, xi += g->xc, wi += g->cog) {                             \
        const float *xh = xi, *wh = wi;                                                        \
        for (kh = 0; kh < g->nkh; kh++, xh += g->xr, wh += wkh) {                              \
          OC_NHWC_TAP(xh, wh, LANES, PIXELS, K)                                                \
          OC_NHWC_TAP(xh + dx, wh + wkw, LANES, PIXELS, K)                                     \
          OC_NHWC_TAP(xh + 2 * dx, wh + 2 * wkw, LANES, PIXELS, K)                             \
        }                                                                                      \
      }

/* 3-wide kernels of dilation 1 at the padding, kernel columns 0..2 for the
 * 4 pixels but pixel 0's column 0 (LEFT: ix = -1, its tap kw 0 skipped) or
 * pixel 3's column 2 (RIGHT) outside the input and skipped: the other taps in
 * the same order as the whole tile's. x is read from column ix + 1 on. */
#define OC_NHWC_PIX123(M, L) M(1, L) M(2, L) M(3, L)
#define OC_NHWC_PIX012(M, L) M(0, L) M(1, L) M(2, L)
#define OC_NHWC_MACS(j, L)                                \
  {                                                       \
    const nhwc_lane_ xv = nhwc_splat_(xp[((j) - 1) * ps]); \
    L(OC_NHWC_MAC1, j)                                    \
  }
#define OC_NHWC_TAPS(X, W, LANES, PIXELS, K, MAC) \
  {                                               \
    const float *xp = (X), *wp = (W);             \
    LANES(OC_NHWC_WLOAD_##K, 0)                   \
    PIXELS(MAC, LANES)                            \
  }
#define OC_NHWC_EDGE_FN(name, LANES, K, LEFT)                                                  \
  static void name(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,            \
                   const float *bias, int32_t kw0, int32_t kw1, float *y) {                    \
    const int32_t ps = g->stride_w * g->xx, dx = g->xx;                                        \
    const int32_t wkw = g->cig * g->cog, wkh = g->k_w * wkw;                                   \
    const float *xi = x + (ix + 1) * g->xx, *wi = w;                                           \
    int32_t ic, kh;                                                                            \
    (void)kw0;                                                                                 \
    (void)kw1;                                                                                 \
    LANES(OC_NHWC_BIAS_##K, 0)                                                                 \
    OC_NHWC_PIXELS(OC_NHWC_DECL, LANES)                                                        \
    for (ic = 0; ic < g->cig; ic++, xi += g->xc, wi += g->cog) {                               \
      const float *xh = xi, *wh = wi;                                                          \
      for (kh = 0; kh < g->nkh; kh++, xh += g->xr, wh += wkh) {                                \
        if (LEFT) {                                                                            \
          OC_NHWC_TAPS(xh + ps - dx, wh, LANES, OC_NHWC_PIX123, K, OC_NHWC_MACS)               \
          OC_NHWC_TAPS(xh, wh + wkw, LANES, OC_NHWC_PIXELS, K, OC_NHWC_MAC)                    \
          OC_NHWC_TAPS(xh + dx, wh + 2 * wkw, LANES, OC_NHWC_PIXELS, K, OC_NHWC_MAC)           \
        } else {                                                                               \
          OC_NHWC_TAPS(xh - dx, wh, LANES, OC_NHWC_PIXELS, K, OC_NHWC_MAC)                     \
          OC_NHWC_TAPS(xh, wh + wkw, LANES, OC_NHWC_PIXELS, K, OC_NHWC_MAC)                    \
          OC_NHWC_TAPS(xh + dx, wh + 2 * wkw, LANES, OC_NHWC_PIX012, K, OC_NHWC_MAC)           \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
    OC_NHWC_PIXELS(OC_NHWC_STORE_##K, LANES)                                                   \
  }


/* With vectors, partial lanes x 4 and x 1 per family, and the depthwise
 * tiles of whole lanes also come with the NHWC input's stride fixed at 1:
 * a runtime stride keeps the compilers from loading the lanes directly. */
#define OC_NHWC_FAMILIES                                                                         \
OC_NHWC_TILE_FN(nhwc_pn_, OC_NHWC_PIXELS, OC_NHWC_LANE1, N, 1)                                   \
OC_NHWC_TILE_FN(nhwc_1n_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, N, 0)                                   \
OC_NHWC_EDGE_FN(nhwc_el_b_, OC_NHWC_LANES, F, 1)                                                 \
OC_NHWC_EDGE_FN(nhwc_er_b_, OC_NHWC_LANES, F, 0)                                                 \
OC_NHWC_EDGE_FN(nhwc_el_l_, OC_NHWC_LANE1, F, 1)                                                 \
OC_NHWC_EDGE_FN(nhwc_er_l_, OC_NHWC_LANE1, F, 0)                                                 \
OC_NHWC_EDGE_FN(nhwc_el_n_, OC_NHWC_LANE1, N, 1)                                                 \
OC_NHWC_EDGE_FN(nhwc_er_n_, OC_NHWC_LANE1, N, 0)                                                 \
OC_NHWC_DW_TILE_FN(nhwc_dw_pn_, OC_NHWC_PIXELS, OC_NHWC_LANE1, N, g->xc)                         \
OC_NHWC_DW_TILE_FN(nhwc_dw_1n_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, N, g->xc)                         \
OC_NHWC_DW_TILE_FN(nhwc_dwc_pb_, OC_NHWC_PIXELS, OC_NHWC_LANES, F, 1)                            \
OC_NHWC_DW_TILE_FN(nhwc_dwc_1b_, OC_NHWC_PIXEL1, OC_NHWC_LANES, F, 1)                            \
OC_NHWC_DW_TILE_FN(nhwc_dwc_pl_, OC_NHWC_PIXELS, OC_NHWC_LANE1, F, 1)                            \
OC_NHWC_DW_TILE_FN(nhwc_dwc_1l_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, F, 1)                            \
static const nhwc_tile_fn_ nhwc_general_[6] = {nhwc_pb_, nhwc_1b_, nhwc_pl_,                     \
                                               nhwc_1l_, nhwc_pn_, nhwc_1n_};                    \
static const nhwc_tile_fn_ nhwc_edges_[6] = {nhwc_el_b_, nhwc_er_b_, nhwc_el_l_,                 \
                                             nhwc_er_l_, nhwc_el_n_, nhwc_er_n_};                \
static const nhwc_tile_fn_ nhwc_depthwise_[6] = {nhwc_dw_pb_, nhwc_dw_1b_, nhwc_dw_pl_,          \
                                                 nhwc_dw_1l_, nhwc_dw_pn_, nhwc_dw_1n_};         \
static const nhwc_tile_fn_ nhwc_depthwise_nhwc_[6] = {nhwc_dwc_pb_, nhwc_dwc_1b_, nhwc_dwc_pl_,  \
                                                      nhwc_dwc_1l_, nhwc_dw_pn_,  nhwc_dw_1n_};

/* 3-wide kernels of dilation 1: 4-pixel tiles at the padding too */
#define OC_NHWC_EDGES(p) ((p)->k_w == 3 && (p)->dil_w == 1 ? nhwc_edges_ : NULL)
#define OC_NHWC_EDGE_PIXELS(p, g, edge, x, ix, w, bias, y, ox)                        \
    if (edge != NULL) { /* 4 pixels with the first or the last one at the padding */  \
      if (ox == 0 && ix == -1 && g->lo == 1 && g->hi >= 4) {                          \
        edge[0](g, x, ix, w, bias, 0, 3, y);                                          \
        ox += 4;                                                                      \
        continue;                                                                     \
      }                                                                               \
      if (ox >= g->lo && ox == p->w_out - 4 && g->hi == p->w_out - 1 &&               \
          ix + 3 * p->stride_w + 2 == p->w_in) {                                      \
        edge[1](g, x, ix, w, bias, 0, 3, y + ox * g->yx);                             \
        ox += 4;                                                                      \
        continue;                                                                     \
      }                                                                               \
    }

#define OC_NHWC_DEPTHWISE(x_nhwc) ((x_nhwc) ? nhwc_depthwise_nhwc_ : nhwc_depthwise_)
#define OC_NHWC_PARTIAL_LANE(p, g, fn, edge, count, x, xs, w, ws, bias, y, c)                 \
  if (c < count) {                                                                            \
    g->nc = count - c;                                                                        \
    nhwc_pixels_(p, g, fn[4], fn[5], edge != NULL ? edge + 4 : NULL, x + c * xs, w + c * ws,  \
                 bias != NULL ? bias + c : NULL, y + c * g->yc);                              \
  }
#endif

#endif /* ONNX_TO_C_OC_CONV_NHWC_VECTOR_H_ */
