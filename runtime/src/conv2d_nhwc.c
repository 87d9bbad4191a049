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
 * Tiles: a block of output channels (2 lanes where there are vectors, 4
 * floats elsewhere; a lane is oc_tile.h's, or 8 floats where GCC has AVX
 * enabled but oc_tile.h keeps 4-float lanes, as in a generated model's AVX2
 * file) x 4 pixels of a row whose taps are all inside the input (with
 * vectors: 3-wide kernel rows unrolled, and with 3-wide kernels of dilation
 * 1 also 4 pixels whose first or last one has its outer tap in the padding,
 * that tap skipped for it alone), the same block x 1 pixel elsewhere near
 * the padding; a group's last channels in 1-lane blocks, then (with vectors)
 * one lane of the rest whose extra elements are never stored. The weights of
 * a tap load as whole lanes, each input value is broadcast to every lane.
 * Depthwise convolutions (one
 * input and one output channel per group) take lanes across groups instead:
 * their input channels are contiguous in NHWC.
 *
 * On a Cortex-M4F/M7 (OC_ARM_VMLA with GCC or Clang), 3-wide kernels of
 * stride 1 or 2 take their blocks of 4 channels through the inline-asm tiles
 * of oc_conv_nhwc_arm.h instead (4, 2 or 1 pixels, and 4 pixels with the first or last one at
 * the padding): the same sums in the same order, as VMLA.F32. So do 1x1
 * kernels (not depthwise) in their rows inside the input, blocks of 8 or 4
 * channels x 2 or 1 pixels (nhwc_pw_row_), with the input channels-last or
 * planar and the output either; a group's last count % 4 channels and the
 * columns in the padding stay with the portable tiles.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_tile.h"
#include "onnx_to_c/oc_conv_nhwc_arm.h"


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
#if OC_NHWC_ARM
  int32_t arm3; /* a 3-wide kernel of stride 1 or 2, no dilation: the Arm tiles take the blocks */
#endif
} nhwc_geom_;

/* x: input at (the block's first input channel, first valid kernel row,
 * column 0); ix: input column of the first pixel's tap kw = 0; w: weights at
 * (the block's first group, first valid kernel row, kw 0, ic 0, its first
 * channel); bias at the block's first channel or NULL; kernel columns
 * [kw0, kw1), inside the input for every pixel; y at the first pixel. */
typedef void (*nhwc_tile_fn_)(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,
                              const float *bias, int32_t kw0, int32_t kw1, float *y);

/* The lanes of this kernel: oc_tile.h's, except where AVX is enabled but
 * oc_tile.h keeps 4-float lanes (ONNX_TO_C_AVX_LANES unset, as in a
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
#if OC_LANE_VECTOR
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
#else
  (void)s;
  return p[0];
#endif
}

/* y[i * s] = act(lane i) */
OC_LANE_INLINE void nhwc_put_(float *y, int32_t s, nhwc_lane_ v, const oc_act *act) {
#if OC_LANE_VECTOR
  if (s == 1) {
    nhwc_store_(y, v, act);
  } else {
    float t[OC_NHWC_W];
    int32_t i;
    nhwc_store_(t, v, act);
    for (i = 0; i < OC_NHWC_W; i++) y[i * s] = t[i];
  }
#else
  (void)s;
  nhwc_store_(y, v, act);
#endif
}

#if OC_LANE_VECTOR
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
#endif

/* The lanes of a block and the pixels of a tile: M(pixel, lane). */
#if OC_LANE_VECTOR
#define OC_NHWC_LANES(M, j) M(j, 0) M(j, 1)
#define OC_NHWC_NL 2
#else
#define OC_NHWC_LANES(M, j) M(j, 0) M(j, 1) M(j, 2) M(j, 3)
#define OC_NHWC_NL 4
#endif
#define OC_NHWC_LANE1(M, j) M(j, 0)
#define OC_NHWC_PX 4
#define OC_NHWC_PIXELS(M, L) M(0, L) M(1, L) M(2, L) M(3, L)
#define OC_NHWC_PIXEL1(M, L) M(0, L)

/* Suffix F: whole lanes; N: one lane of g->nc channels. */
#define OC_NHWC_BIAS_F(j, l) \
  const nhwc_lane_ b##l = bias != NULL ? nhwc_load_(bias + (l) * OC_NHWC_W, 1) : nhwc_splat_(0.0f);
#define OC_NHWC_BIAS_N(j, l) \
  const nhwc_lane_ b##l = bias != NULL ? nhwc_load_n_(bias, 1, g->nc) : nhwc_splat_(0.0f);
#define OC_NHWC_DECL1(j, l) nhwc_lane_ a##j##_##l = b##l;
#define OC_NHWC_DECL(j, L) L(OC_NHWC_DECL1, j)
#define OC_NHWC_STORE1_F(j, l) \
  nhwc_put_(y + (j) * g->yx + (l) * OC_NHWC_W * g->yc, g->yc, a##j##_##l, g->act);
#define OC_NHWC_STORE1_N(j, l) nhwc_put_n_(y + (j) * g->yx, g->yc, a##j##_##l, g->act, g->nc);
#define OC_NHWC_STORE_F(j, L) L(OC_NHWC_STORE1_F, j)
#define OC_NHWC_STORE_N(j, L) L(OC_NHWC_STORE1_N, j)

/* Channels of one group: a tap's weights are one load per lane, its input
 * one value per pixel for every lane. ONE_TAP: a loop over the input
 * channels alone where each has one tap (1x1 kernels), 0 in the 1-pixel
 * tiles (only the padding's columns take them). */
#define OC_NHWC_WLOAD_F(j, l) const nhwc_lane_ w##l = nhwc_load_(wp + (l) * OC_NHWC_W, 1);
#define OC_NHWC_WLOAD_N(j, l) const nhwc_lane_ w##l = nhwc_load_n_(wp, 1, g->nc);
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
/* With vectors, 3-wide kernel rows unrolled (a branch of OC_NHWC_TILE_FN). */
#if OC_LANE_VECTOR
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
#else
#define OC_NHWC_KW3(LANES, PIXELS, K)
#endif
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

/* Depthwise, lanes across groups: a tap's weights are kk apart, its inputs
 * xs (1 in NHWC, a constant then) apart, one load per pixel and lane. */
#define OC_NHWC_DW_WLOAD_F(j, l) \
  const nhwc_lane_ w##l = nhwc_load_(wp + (l) * OC_NHWC_W * g->kk, g->kk);
#define OC_NHWC_DW_WLOAD_N(j, l) const nhwc_lane_ w##l = nhwc_load_n_(wp, g->kk, g->nc);
#define OC_NHWC_DW_MAC1_F(j, l) \
  OC_MAC(a##j##_##l, w##l, nhwc_load_(xp + (j) * ps + (l) * OC_NHWC_W * xs, xs));
#define OC_NHWC_DW_MAC1_N(j, l) OC_MAC(a##j##_##l, w##l, nhwc_load_n_(xp + (j) * ps, xs, g->nc));
#define OC_NHWC_DW_MAC_F(j, L) L(OC_NHWC_DW_MAC1_F, j)
#define OC_NHWC_DW_MAC_N(j, L) L(OC_NHWC_DW_MAC1_N, j)
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

/* Per family: blocks x 4 pixels, blocks x 1, lanes x 4, lanes x 1, and
 * (with vectors) partial lanes x 4 and x 1. With vectors the depthwise
 * tiles of whole lanes also come with the NHWC input's stride fixed at 1:
 * a runtime stride keeps the compilers from loading the lanes directly. */
OC_NHWC_TILE_FN(nhwc_pb_, OC_NHWC_PIXELS, OC_NHWC_LANES, F, 1)
OC_NHWC_TILE_FN(nhwc_1b_, OC_NHWC_PIXEL1, OC_NHWC_LANES, F, 0)
OC_NHWC_TILE_FN(nhwc_pl_, OC_NHWC_PIXELS, OC_NHWC_LANE1, F, 1)
OC_NHWC_TILE_FN(nhwc_1l_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, F, 0)
OC_NHWC_DW_TILE_FN(nhwc_dw_pb_, OC_NHWC_PIXELS, OC_NHWC_LANES, F, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_1b_, OC_NHWC_PIXEL1, OC_NHWC_LANES, F, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_pl_, OC_NHWC_PIXELS, OC_NHWC_LANE1, F, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_1l_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, F, g->xc)
#if OC_LANE_VECTOR
OC_NHWC_TILE_FN(nhwc_pn_, OC_NHWC_PIXELS, OC_NHWC_LANE1, N, 1)
OC_NHWC_TILE_FN(nhwc_1n_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, N, 0)
OC_NHWC_EDGE_FN(nhwc_el_b_, OC_NHWC_LANES, F, 1)
OC_NHWC_EDGE_FN(nhwc_er_b_, OC_NHWC_LANES, F, 0)
OC_NHWC_EDGE_FN(nhwc_el_l_, OC_NHWC_LANE1, F, 1)
OC_NHWC_EDGE_FN(nhwc_er_l_, OC_NHWC_LANE1, F, 0)
OC_NHWC_EDGE_FN(nhwc_el_n_, OC_NHWC_LANE1, N, 1)
OC_NHWC_EDGE_FN(nhwc_er_n_, OC_NHWC_LANE1, N, 0)
OC_NHWC_DW_TILE_FN(nhwc_dw_pn_, OC_NHWC_PIXELS, OC_NHWC_LANE1, N, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dw_1n_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, N, g->xc)
OC_NHWC_DW_TILE_FN(nhwc_dwc_pb_, OC_NHWC_PIXELS, OC_NHWC_LANES, F, 1)
OC_NHWC_DW_TILE_FN(nhwc_dwc_1b_, OC_NHWC_PIXEL1, OC_NHWC_LANES, F, 1)
OC_NHWC_DW_TILE_FN(nhwc_dwc_pl_, OC_NHWC_PIXELS, OC_NHWC_LANE1, F, 1)
OC_NHWC_DW_TILE_FN(nhwc_dwc_1l_, OC_NHWC_PIXEL1, OC_NHWC_LANE1, F, 1)
static const nhwc_tile_fn_ nhwc_general_[6] = {nhwc_pb_, nhwc_1b_, nhwc_pl_,
                                               nhwc_1l_, nhwc_pn_, nhwc_1n_};
static const nhwc_tile_fn_ nhwc_edges_[6] = {nhwc_el_b_, nhwc_er_b_, nhwc_el_l_,
                                             nhwc_er_l_, nhwc_el_n_, nhwc_er_n_};
static const nhwc_tile_fn_ nhwc_depthwise_[6] = {nhwc_dw_pb_, nhwc_dw_1b_, nhwc_dw_pl_,
                                                 nhwc_dw_1l_, nhwc_dw_pn_, nhwc_dw_1n_};
static const nhwc_tile_fn_ nhwc_depthwise_nhwc_[6] = {nhwc_dwc_pb_, nhwc_dwc_1b_, nhwc_dwc_pl_,
                                                      nhwc_dwc_1l_, nhwc_dw_pn_,  nhwc_dw_1n_};
#else
static const nhwc_tile_fn_ nhwc_general_[4] = {nhwc_pb_, nhwc_1b_, nhwc_pl_, nhwc_1l_};
static const nhwc_tile_fn_ nhwc_depthwise_[4] = {nhwc_dw_pb_, nhwc_dw_1b_, nhwc_dw_pl_,
                                                 nhwc_dw_1l_};
#endif

#if OC_NHWC_ARM
/* The block of 4 channels x np pixels of a row (kind as above), the first
 * pixel's tap kw 0 at input column ix (-1 for kind 3). */
static void nhwc_arm3_(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,
                       const float *bias, int32_t kind, int32_t np, float *y) {
  static const float zeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  const int32_t act = g->act->kind;
  float acc[16];
  int32_t j, l;
  if (g->nkh > 0) {
    nhwc_arm_args_ a;
    a.xx = g->xx * (int32_t)sizeof(float);
    a.xr = g->xr * (int32_t)sizeof(float);
    a.wkw = g->cig * g->cog * (int32_t)sizeof(float);
    a.xic = g->xc * (int32_t)sizeof(float);
    a.wic = g->cog * (int32_t)sizeof(float);
    a.nkh = g->nkh;
    a.cig = g->cig;
    a.y = g->yc == 1 && (act == OC_ACT_NONE || act == OC_ACT_RELU) ? y : NULL;
    a.relu = a.y != NULL && act == OC_ACT_RELU;
    a.yx = g->yx * (int32_t)sizeof(float);
    a.b = bias != NULL ? bias : zeros;
    nhwc_arm_[g->stride_w - 1][kind](x + (kind == 3 ? ix + 1 : ix) * g->xx, w, &a, acc);
    if (a.y != NULL) return;
  } else {
    for (j = 0; j < np; j++) {
      for (l = 0; l < 4; l++) acc[4 * j + l] = bias != NULL ? bias[l] : 0.0f;
    }
  }
  for (j = 0; j < np; j++) {
    for (l = 0; l < 4; l++) y[j * g->yx + l * g->yc] = oc_tile_act(g->act, acc[4 * j + l]);
  }
}
#endif

/* The pixels of one output row for one block: tiles of OC_NHWC_PX over
 * [lo, hi), single pixels with their valid kernel columns elsewhere. */
static void nhwc_pixels_(const oc_conv2d_params *p, const nhwc_geom_ *g, nhwc_tile_fn_ tile,
                         nhwc_tile_fn_ one, const nhwc_tile_fn_ *edge, const float *x,
                         const float *w, const float *bias, float *y) {
  int32_t ox = 0;
  (void)edge;
  while (ox < p->w_out) {
    const int32_t ix = ox * p->stride_w - p->pad_left;
#if OC_NHWC_ARM
    if (g->arm3 && tile == nhwc_pb_) {
      if (ox == 0 && ix == -1 && g->lo == 1 && g->hi >= 4) {
        nhwc_arm3_(g, x, ix, w, bias, 3, 4, y);
        ox += 4;
        continue;
      }
      if (ox >= g->lo && ox == p->w_out - 4 && g->hi == p->w_out - 1 &&
          ix + 3 * p->stride_w + 2 == p->w_in) {
        nhwc_arm3_(g, x, ix, w, bias, 4, 4, y + ox * g->yx);
        ox += 4;
        continue;
      }
      if (ox >= g->lo && ox < g->hi) {
        const int32_t np = g->hi - ox >= 4 ? 4 : g->hi - ox >= 2 ? 2 : 1;
        nhwc_arm3_(g, x, ix, w, bias, np == 4 ? 0 : np == 2 ? 1 : 2, np, y + ox * g->yx);
        ox += np;
        continue;
      }
    }
#endif
#if OC_LANE_VECTOR
    if (edge != NULL) { /* 4 pixels with the first or the last one at the padding */
      if (ox == 0 && ix == -1 && g->lo == 1 && g->hi >= 4) {
        edge[0](g, x, ix, w, bias, 0, 3, y);
        ox += 4;
        continue;
      }
      if (ox >= g->lo && ox == p->w_out - 4 && g->hi == p->w_out - 1 &&
          ix + 3 * p->stride_w + 2 == p->w_in) {
        edge[1](g, x, ix, w, bias, 0, 3, y + ox * g->yx);
        ox += 4;
        continue;
      }
    }
#endif
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

#if OC_NHWC_ARM
/* Pointwise (1x1 kernel), a row inside the input: the first count - count
 * % 4 channels of one output row of a group through the Arm tiles of
 * oc_conv_nhwc_arm.h, blocks of 8 channels, then 4, x 2 pixels (1 with a
 * planar input of stride 2), then 1; the columns in the padding (no tap) take
 * the bias alone. x at the group's first input channel, w at its first
 * weight. Returns the channels done. */
static __attribute__((noinline)) int32_t nhwc_pw_row_(const oc_conv2d_params *p,
                                                      const nhwc_geom_ *g, const float *x,
                                                      const float *w, const float *bias,
                                                      int32_t count, float *y) {
  static const float zeros[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  const int32_t direct = g->act->kind == OC_ACT_NONE || g->act->kind == OC_ACT_RELU;
  const int32_t planar = g->xc != 1, pairs = !planar || p->stride_w == 1;
  nhwc_pw_args_ a;
  float acc[16];
  int32_t c = 0, nc, ox, np, j, l;
  a.xs = (planar ? g->xc : p->stride_w * g->xx) * (int32_t)sizeof(float);
  a.wic = g->cog * (int32_t)sizeof(float);
  a.n4 = g->cig / 4;
  a.tail = g->cig % 4;
  a.relu = g->act->kind == OC_ACT_RELU;
  a.yx = g->yx * (int32_t)sizeof(float);
  a.yc = g->yc == 1 ? 0 : g->yc * (int32_t)sizeof(float); /* else g->yx is 1 */
  for (; count - c >= 4; c += nc) {
    nc = count - c >= 8 ? 8 : 4;
    a.b = bias != NULL ? bias + c : zeros;
    for (ox = 0; ox < p->w_out; ox += np) {
      float *yp = y + ox * g->yx + c * g->yc;
      np = 1;
      if (ox < g->lo || ox >= g->hi) {
        for (l = 0; l < nc; l++) {
          yp[l * g->yc] = oc_tile_act(g->act, bias != NULL ? bias[c + l] : 0.0f);
        }
        continue;
      }
      if (pairs && g->hi - ox >= 2) np = 2;
      a.y = direct ? yp : NULL;
      nhwc_pw_[planar][nc == 8 ? 0 : 1][np - 1](x + (ox * p->stride_w - p->pad_left) * g->xx,
                                                w + c, &a, acc);
      if (!direct) {
        for (j = 0; j < np; j++) {
          for (l = 0; l < nc; l++) yp[j * g->yx + l * g->yc] = oc_tile_act(g->act, acc[j * nc + l]);
        }
      }
    }
  }
  return c;
}
#endif

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
#if OC_LANE_VECTOR
  if (c < count) {
    g->nc = count - c;
    nhwc_pixels_(p, g, fn[4], fn[5], edge != NULL ? edge + 4 : NULL, x + c * xs, w + c * ws,
                 bias != NULL ? bias + c : NULL, y + c * g->yc);
  }
#endif
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
#if OC_NHWC_ARM
  /* pointwise (not depthwise): the Arm tiles of nhwc_pw_row_ */
  const int32_t pw = p->k_h == 1 && p->k_w == 1 && !(cig == 1 && cog == 1);
#endif
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
#if OC_NHWC_ARM
  g.arm3 = p->k_w == 3 && p->dil_w == 1 && (p->stride_w == 1 || p->stride_w == 2);
#endif
#if OC_LANE_VECTOR
  /* 3-wide kernels of dilation 1: 4-pixel tiles at the padding too */
  edge = p->k_w == 3 && p->dil_w == 1 ? nhwc_edges_ : NULL;
#else
  edge = NULL;
#endif
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
#if OC_LANE_VECTOR
        const nhwc_tile_fn_ *fn = x_nhwc ? nhwc_depthwise_nhwc_ : nhwc_depthwise_;
#else
        const nhwc_tile_fn_ *fn = nhwc_depthwise_;
#endif
        nhwc_blocks_(p, &g, fn, NULL, p->c_out, xr, g.xc, wr, wg, bias, yr);
        continue;
      }
      for (grp = 0; grp < p->group; grp++) {
        const float *xg = xr + grp * cig * g.xc, *wgp = wr + grp * wg;
        const float *bg = bias != NULL ? bias + grp * cog : NULL;
        float *yg = yr + grp * cog * g.yc;
        int32_t done = 0;
#if OC_NHWC_ARM
        if (pw && g.nkh > 0) done = nhwc_pw_row_(p, &g, xg, wgp, bg, cog, yg);
#endif
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
