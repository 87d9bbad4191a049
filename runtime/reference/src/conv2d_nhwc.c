/*
 * ONNX Conv, 2-D, with channels-last activations: x and y each NHWC or NCHW,
 * weights per group in HWIO order (kernel row, kernel column, input channel,
 * output channel), so the output channels of one tap are contiguous and a
 * block of them loads as vector lanes.
 *
 * The sums are those of oc_conv2d_f32 (conv2d.c): each output starts from
 * its bias (or +0.0) and adds w * x for ic = 0..c_in/group-1, then kh, then
 * kw, in increasing order, skipping the taps in the padding (adding w * 0
 * instead would turn a -0.0 sum into +0.0, and an infinite weight into a
 * NaN); the activation is applied to the finished sum as oc_lane_store and
 * oc_tile_act apply it. A lane is one output's own sum, so vectors and
 * scalars give the same bits.
 *
 * Streaming order: output rows are computed one at a time in increasing
 * (n, oy) order, or decreasing with p->reverse_rows. While computing row
 * (n, oy) the kernel reads only input rows of batch item n under the row's
 * window (iy = oy * stride_h - pad_top + kh * dil_h within [0, h_in)) and
 * writes only that row's outputs (every ox and channel), each once, when its
 * sum is complete. Its only state is a tile of local accumulators. So y may
 * overlap x where each output row lies over input rows that neither that row
 * nor a later one (in the kernel's order) reads: y below x in increasing
 * order, above it in decreasing order.
 *
 * Tiles: a block of output channels (OC_NHWC_NL lanes of OC_NHWC_W
 * channels: 4 floats here) x 4 pixels of a row whose taps are all inside the
 * input, the same block x 1 pixel elsewhere near the padding; a group's last
 * channels in 1-lane blocks. The weights of a tap load as whole lanes, each
 * input value is broadcast to every lane. Depthwise convolutions (one input
 * and one output channel per group) take lanes across groups instead: their
 * input channels are contiguous in NHWC.
 *
 * An optimized folder speeds this up through two headers: a wider lane and
 * the tile families that come with it (oc_conv_nhwc_lane.h; runtime/x86:
 * vectors), and tiles of its own for some blocks of channels
 * (oc_conv_nhwc_fast.h; runtime/arm: assembler), the same sums in the same
 * order.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"
#include "onnx_to_c/oc_conv_nhwc_fast.h"
#include "onnx_to_c/oc_conv_nhwc_lane.h"

/* No tiles of an optimized folder's own (oc_conv_nhwc_fast.h) */
#ifndef OC_NHWC_PIXELS_FAST
#define OC_NHWC_GEOM_FAST
#define OC_NHWC_TILE_FNS_FAST
#define OC_NHWC_ROW_FNS_FAST
#define OC_NHWC_PIXELS_FAST(p, g, tile, x, ix, w, bias, y, ox)
#define OC_NHWC_DECL_FAST(p, cig, cog)
#define OC_NHWC_INIT_FAST(p, g)
#define OC_NHWC_PW_ROW_FAST(p, g, x, w, bias, count, y, done)
#endif

/* One output row's geometry: the steps are in elements. */
typedef struct {
  int32_t cig, cog, k_w, kk;
  int32_t nkh;        /* kernel rows inside the input, from the first one */
  int32_t stride_w, dil_w;
  int32_t xc, xx, xr; /* input steps: channel, column, kernel row (dil_h rows) */
  int32_t yc, yx;     /* output steps: channel, column */
  int32_t lo, hi;     /* the output columns whose kernel columns are all inside the input */
  int32_t nc;         /* channels of a partial lane */
  const oc_act *act;
  OC_NHWC_GEOM_FAST
} nhwc_geom_;

/* x: input at (the block's first input channel, first valid kernel row,
 * column 0); ix: input column of the first pixel's tap kw = 0; w: weights at
 * (the block's first group, first valid kernel row, kw 0, ic 0, its first
 * channel); bias at the block's first channel or NULL; kernel columns
 * [kw0, kw1), inside the input for every pixel; y at the first pixel. */
typedef void (*nhwc_tile_fn_)(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,
                              const float *bias, int32_t kw0, int32_t kw1, float *y);

#define OC_NHWC_LANE1(M, j) M(j, 0)
#define OC_NHWC_PX 4
#define OC_NHWC_PIXELS(M, L) M(0, L) M(1, L) M(2, L) M(3, L)
#define OC_NHWC_PIXEL1(M, L) M(0, L)

/* Suffix F: whole lanes (an optimized folder's lane may add suffix N). */
#define OC_NHWC_BIAS_F(j, l) \
  const nhwc_lane_ b##l = bias != NULL ? nhwc_load_(bias + (l) * OC_NHWC_W, 1) : nhwc_splat_(0.0f);
#define OC_NHWC_DECL1(j, l) nhwc_lane_ a##j##_##l = b##l;
#define OC_NHWC_DECL(j, L) L(OC_NHWC_DECL1, j)
#define OC_NHWC_STORE1_F(j, l) \
  nhwc_put_(y + (j) * g->yx + (l) * OC_NHWC_W * g->yc, g->yc, a##j##_##l, g->act);
#define OC_NHWC_STORE_F(j, L) L(OC_NHWC_STORE1_F, j)

/* Channels of one group: a tap's weights are one load per lane, its input
 * one value per pixel for every lane. ONE_TAP: a loop over the input
 * channels alone where each has one tap (1x1 kernels), 0 in the 1-pixel
 * tiles (only the padding's columns take them). */
#define OC_NHWC_WLOAD_F(j, l) const nhwc_lane_ w##l = nhwc_load_(wp + (l) * OC_NHWC_W, 1);
#define OC_NHWC_MAC1(j, l) OC_MAC(a##j##_##l, w##l, xv);
#define OC_NHWC_MAC(j, L)                           \
  {                                                 \
    const nhwc_lane_ xv = nhwc_splat_(xp[(j) * ps]); \
    L(OC_NHWC_MAC1, j)                              \
  }
/* One tap of 3-wide kernel rows: the weights at W, the first pixel's input at X. */
#define OC_NHWC_TAP(X, W, LANES, PIXELS, K) \
  {                                         \
    const float *xp = (X), *wp = (W);       \
    LANES(OC_NHWC_WLOAD_##K, 0)             \
    PIXELS(OC_NHWC_MAC, LANES)              \
  }
/* OC_NHWC_KW3 (oc_conv_nhwc_lane.h): a branch of OC_NHWC_TILE_FN for 3-wide
 * kernel rows, unrolled, or nothing. */
#define OC_NHWC_TILE_FN(name, PIXELS, LANES, K, ONE_TAP)                                       \
  static void name(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,            \
                   const float *bias, int32_t kw0, int32_t kw1, float *y) {                    \
    const int32_t ps = g->stride_w * g->xx, dx = g->dil_w * g->xx;                             \
    const int32_t wkw = g->cig * g->cog, wkh = g->k_w * wkw;                                   \
    int32_t ic, kh, kw;                                                                        \
    LANES(OC_NHWC_BIAS_##K, 0)                                                                 \
    PIXELS(OC_NHWC_DECL, LANES)                                                                \
    if (ONE_TAP && g->nkh == 1 && kw1 - kw0 == 1) {                                            \
      const int32_t xo = (ix + kw0 * g->dil_w) * g->xx, wo = kw0 * wkw;                        \
      for (ic = 0; ic < g->cig; ic++) {                                                        \
        const float *xp = x + xo + ic * g->xc, *wp = w + wo + ic * g->cog;                     \
        LANES(OC_NHWC_WLOAD_##K, 0)                                                            \
        PIXELS(OC_NHWC_MAC, LANES)                                                             \
      }                                                                                        \
    OC_NHWC_KW3(LANES, PIXELS, K)                                                              \
    } else {                                                                                   \
      for (ic = 0; ic < g->cig; ic++) {                                                        \
        const int32_t xo = ic * g->xc + (ix + kw0 * g->dil_w) * g->xx;                         \
        const int32_t wo = ic * g->cog + kw0 * wkw;                                            \
        for (kh = 0; kh < g->nkh; kh++) {                                                      \
          for (kw = 0; kw < kw1 - kw0; kw++) {                                                 \
            const float *xp = x + xo + kh * g->xr + kw * dx, *wp = w + wo + kh * wkh + kw * wkw; \
            LANES(OC_NHWC_WLOAD_##K, 0)                                                        \
            PIXELS(OC_NHWC_MAC, LANES)                                                         \
          }                                                                                    \
        }                                                                                      \
      }                                                                                        \
    }                                                                                          \
    PIXELS(OC_NHWC_STORE_##K, LANES)                                                           \
  }

/* Depthwise, lanes across groups: a tap's weights are kk apart, its inputs
 * xs (1 in NHWC, a constant then) apart, one load per pixel and lane. */
#define OC_NHWC_DW_WLOAD_F(j, l) \
  const nhwc_lane_ w##l = nhwc_load_(wp + (l) * OC_NHWC_W * g->kk, g->kk);
#define OC_NHWC_DW_MAC1_F(j, l) \
  OC_MAC(a##j##_##l, w##l, nhwc_load_(xp + (j) * ps + (l) * OC_NHWC_W * xs, xs));
#define OC_NHWC_DW_MAC_F(j, L) L(OC_NHWC_DW_MAC1_F, j)
#define OC_NHWC_DW_TILE_FN(name, PIXELS, LANES, K, XS)                                         \
  static void name(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,            \
                   const float *bias, int32_t kw0, int32_t kw1, float *y) {                    \
    const int32_t ps = g->stride_w * g->xx, xs = XS;                                           \
    int32_t kh, kw;                                                                            \
    LANES(OC_NHWC_BIAS_##K, 0)                                                                 \
    PIXELS(OC_NHWC_DECL, LANES)                                                                \
    for (kh = 0; kh < g->nkh; kh++) {                                                          \
      for (kw = kw0; kw < kw1; kw++) {                                                         \
        const float *xp = x + kh * g->xr + (ix + kw * g->dil_w) * g->xx;                       \
        const float *wp = w + kh * g->k_w + kw;                                                \
        LANES(OC_NHWC_DW_WLOAD_##K, 0)                                                         \
        PIXELS(OC_NHWC_DW_MAC_##K, LANES)                                                      \
      }                                                                                        \
    }                                                                                          \
    PIXELS(OC_NHWC_STORE_##K, LANES)                                                           \
  }


/* Per family: blocks x 4 pixels, blocks x 1, lanes x 4, lanes x 1, and the
 * tables of the families (OC_NHWC_FAMILIES, oc_conv_nhwc_lane.h: maybe more
 * tiles for a wider lane). */
OC_NHWC_TILE_FN(nhwc_pb_, OC_NHWC_PIXELS, OC_NHWC_LANES, F, 1)
OC_NHWC_TILE_FN(nhwc_1b_, OC_NHWC_PIXEL1, OC_NHWC_LANES, F, 0)
OC_NHWC_TILE_FN(nhwc_pl_, OC_NHWC_PIXELS, OC_NHWC_LANE1, F, 1)
OC_NHWC_TILE_FN(nhwc_1l_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, F, 0)
OC_NHWC_DW_TILE_FN(nhwc_dw_pb_, OC_NHWC_PIXELS, OC_NHWC_LANES, F, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_1b_, OC_NHWC_PIXEL1, OC_NHWC_LANES, F, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_pl_, OC_NHWC_PIXELS, OC_NHWC_LANE1, F, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_1l_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, F, g->xc)
OC_NHWC_FAMILIES

OC_NHWC_TILE_FNS_FAST

/* The pixels of one output row for one block: tiles of OC_NHWC_PX over
 * [lo, hi), single pixels with their valid kernel columns elsewhere. */
static void nhwc_pixels_(const oc_conv2d_params *p, const nhwc_geom_ *g, nhwc_tile_fn_ tile,
                         nhwc_tile_fn_ one, const nhwc_tile_fn_ *edge, const float *x,
                         const float *w, const float *bias, float *y) {
  int32_t ox = 0;
  (void)edge;
  while (ox < p->w_out) {
    const int32_t ix = ox * p->stride_w - p->pad_left;
    OC_NHWC_PIXELS_FAST(p, g, tile, x, ix, w, bias, y, ox)
    OC_NHWC_EDGE_PIXELS(p, g, edge, x, ix, w, bias, y, ox)
    if (ox >= g->lo && g->hi - ox >= OC_NHWC_PX) {
      tile(g, x, ix, w, bias, 0, p->k_w, y + ox * g->yx);
      ox += OC_NHWC_PX;
    } else {
      int32_t kw0 = ix < 0 ? (p->dil_w - 1 - ix) / p->dil_w : 0;
      int32_t kw1 = p->w_in - ix > 0 ? (p->w_in - ix + p->dil_w - 1) / p->dil_w : 0;
      if (kw1 > p->k_w) kw1 = p->k_w;
      if (kw0 > kw1) kw0 = kw1;
      one(g, x, ix, w, bias, kw0, kw1, y + ox * g->yx);
      ox++;
    }
  }
}

OC_NHWC_ROW_FNS_FAST

/* One output row of `count` channels of a family fn (with its padding tiles
 * edge, or NULL), in blocks, then lanes, then a partial lane; channel c at
 * x + c * xs, w + c * ws, bias + c and y + c * yc. */
static void nhwc_blocks_(const oc_conv2d_params *p, nhwc_geom_ *g, const nhwc_tile_fn_ *fn,
                         const nhwc_tile_fn_ *edge, int32_t count, const float *x, int32_t xs,
                         const float *w, int32_t ws, const float *bias, float *y) {
  int32_t c = 0;
  for (; c + OC_NHWC_NL * OC_NHWC_W <= count; c += OC_NHWC_NL * OC_NHWC_W) {
    nhwc_pixels_(p, g, fn[0], fn[1], edge, x + c * xs, w + c * ws,
                 bias != NULL ? bias + c : NULL, y + c * g->yc);
  }
  for (; c + OC_NHWC_W <= count; c += OC_NHWC_W) {
    nhwc_pixels_(p, g, fn[2], fn[3], edge != NULL ? edge + 2 : NULL, x + c * xs, w + c * ws,
                 bias != NULL ? bias + c : NULL, y + c * g->yc);
  }
  OC_NHWC_PARTIAL_LANE(p, g, fn, edge, count, x, xs, w, ws, bias, y, c)
}

OC_API void oc_conv2d_nhwc_f32(const oc_conv2d_params *p, const float *x, const float *w,
                               const float *bias, float *y, int32_t x_nhwc, int32_t y_nhwc) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_item = p->c_in * p->h_in * p->w_in, out_item = p->c_out * p->h_out * p->w_out;
  const int32_t x_row = x_nhwc ? p->w_in * p->c_in : p->w_in;
  const int32_t y_row = y_nhwc ? p->w_out * p->c_out : p->w_out;
  const int32_t span = (p->k_w - 1) * p->dil_w, wg = p->k_h * p->k_w * cig * cog;
  int32_t n, oy, kh, grp, row;
  const nhwc_tile_fn_ *edge;
  nhwc_geom_ g;
  OC_NHWC_DECL_FAST(p, cig, cog)
  g.cig = cig;
  g.cog = cog;
  g.k_w = p->k_w;
  g.kk = p->k_h * p->k_w;
  g.stride_w = p->stride_w;
  g.dil_w = p->dil_w;
  g.xc = x_nhwc ? 1 : p->h_in * p->w_in;
  g.xx = x_nhwc ? p->c_in : 1;
  g.xr = p->dil_h * x_row;
  g.yc = y_nhwc ? 1 : p->h_out * p->w_out;
  g.yx = y_nhwc ? p->c_out : 1;
  g.lo = (p->pad_left + p->stride_w - 1) / p->stride_w;
  g.hi = p->w_in - 1 - span + p->pad_left >= 0
             ? (p->w_in - 1 - span + p->pad_left) / p->stride_w + 1
             : 0;
  if (g.hi > p->w_out) g.hi = p->w_out;
  g.nc = 0;
  g.act = &p->act;
  OC_NHWC_INIT_FAST(p, g)
  edge = OC_NHWC_EDGES(p);
  for (row = 0; row < p->n * p->h_out; row++) {
    const int32_t nr = p->reverse_rows ? p->n * p->h_out - 1 - row : row;
    n = nr / p->h_out;
    oy = nr % p->h_out;
    {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      int32_t kh0 = 0;
      const float *xr, *wr;
      float *yr = y + n * out_item + oy * y_row;
      g.nkh = 0;
      for (kh = 0; kh < p->k_h; kh++) {
        const int32_t iy = iy0 + kh * p->dil_h;
        if (iy < 0 || iy >= p->h_in) continue;
        if (g.nkh == 0) kh0 = kh;
        g.nkh++;
      }
      xr = x + n * in_item + (g.nkh > 0 ? (iy0 + kh0 * p->dil_h) * x_row : 0);
      wr = w + kh0 * p->k_w * cig * cog;
      if (cig == 1 && cog == 1) { /* depthwise: lanes across groups */
        const nhwc_tile_fn_ *fn = OC_NHWC_DEPTHWISE(x_nhwc);
        nhwc_blocks_(p, &g, fn, NULL, p->c_out, xr, g.xc, wr, wg, bias, yr);
        continue;
      }
      for (grp = 0; grp < p->group; grp++) {
        const float *xg = xr + grp * cig * g.xc, *wgp = wr + grp * wg;
        const float *bg = bias != NULL ? bias + grp * cog : NULL;
        float *yg = yr + grp * cog * g.yc;
        int32_t done = 0;
        OC_NHWC_PW_ROW_FAST(p, g, xg, wgp, bg, cog, yg, done)
        nhwc_blocks_(p, &g, nhwc_general_, edge, cog - done, xg, 0, wgp + done, 1,
                     bg != NULL ? bg + done : NULL, yg + done * g.yc);
      }
    }
  }
}

#undef OC_NHWC_LANES
#undef OC_NHWC_NL
#undef OC_NHWC_LANE1
#undef OC_NHWC_PX
#undef OC_NHWC_PIXELS
#undef OC_NHWC_PIXEL1
#undef OC_NHWC_BIAS_F
#undef OC_NHWC_BIAS_N
#undef OC_NHWC_DECL1
#undef OC_NHWC_DECL
#undef OC_NHWC_STORE1_F
#undef OC_NHWC_STORE1_N
#undef OC_NHWC_STORE_F
#undef OC_NHWC_STORE_N
#undef OC_NHWC_WLOAD_F
#undef OC_NHWC_WLOAD_N
#undef OC_NHWC_MAC1
#undef OC_NHWC_MAC
#undef OC_NHWC_TILE_FN
#undef OC_NHWC_TAP
#undef OC_NHWC_KW3
#undef OC_NHWC_EDGE_FN
#undef OC_NHWC_TAPS
#undef OC_NHWC_MACS
#undef OC_NHWC_PIX012
#undef OC_NHWC_PIX123
#undef OC_NHWC_W
#undef nhwc_splat_
#undef nhwc_store_
#undef OC_NHWC_DW_WLOAD_F
#undef OC_NHWC_DW_WLOAD_N
#undef OC_NHWC_DW_MAC1_F
#undef OC_NHWC_DW_MAC1_N
#undef OC_NHWC_DW_MAC_F
#undef OC_NHWC_DW_MAC_N
#undef OC_NHWC_DW_TILE_FN
