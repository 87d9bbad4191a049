/*
 * onnx-to-c runtime: the planes of a depthwise 2-D convolution, shared by
 * oc_conv2d_f32 (conv2d.c, one plane a call) and oc_conv2d_dw_planes_f32
 * (conv2d_dw_planes.c, every plane in one call); out of line, so the
 * generated code holds its rows once.
 */
#ifndef ONNX_TO_C_OC_DW_PLANE_H_
#define ONNX_TO_C_OC_DW_PLANE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_conv_tiles.h"
#include "onnx_to_c/oc_dw_tiles.h"

/* A run of planes: plane i reads x + i * in_plane with the weights and
 * bias of channel c (0 for the first, then the next, back to 0 at group)
 * and is written to y + i * out_plane, through scratch (one plane) unless
 * scratch is NULL or the plane's place ends at or before input plane i,
 * where live input begins (below: x - y in floats when y starts at or
 * below x, else -1; the planes overlap contract of conv2d_dw_planes.c). */
typedef struct {
  int32_t planes, in_plane, out_plane;
  float *scratch;
  int64_t below;
} conv2d_dw_run_;

/* plane i's destination */
OC_INLINE float *conv2d_dw_dst_(const conv2d_dw_run_ *run, int32_t i, float *y) {
  const int direct = run->scratch == NULL ||
                     (run->below >= 0 && (int64_t)(i + 1) * run->out_plane <=
                                             run->below + (int64_t)i * run->in_plane);
  return direct ? y + i * run->out_plane : run->scratch;
}

/* plane i, computed at dst, to its place */
OC_INLINE void conv2d_dw_place_(const conv2d_dw_run_ *run, int32_t i, const float *dst, float *y) {
  if (dst == run->scratch) memcpy(y + i * run->out_plane, dst, (size_t)run->out_plane * sizeof(float));
}

/* The planes of a run with the tiles of kernel k, stride s: the span of
 * whole-window outputs set up once per run (a patch's planes can be two
 * rows of six pixels, and per-plane setup cost as much as their taps), then
 * per row only its valid kernel rows [kh0, kh1) (dilation 1) and where they
 * start. */
OC_LANE_INLINE void conv2d_dw_rows_ks_(const oc_conv2d_params *p, const conv2d_dw_run_ *run,
                                       oc_dw_row_args *r, const float *x, const float *w,
                                       const float *bias, int32_t k, int32_t s,
                                       oc_dw_tile_fn_ xl, oc_dw_tile_fn_ wide,
                                       oc_dw_tile_fn_ narrow, float *y) {
  int32_t lo, hi, oy, i, c = 0;
  oc_dw_span_(r, k, s, &lo, &hi);
  for (i = 0; i < run->planes; i++, c = c + 1 == p->group ? 0 : c + 1) {
    float *const dst = conv2d_dw_dst_(run, i, y);
    const float *const xp = x + i * run->in_plane, *const wc = w + c * k * k;
    float *yr = dst;
    r->b = bias != NULL ? bias[c] : 0.0f;
    for (oy = 0; oy < p->h_out; oy++, yr += p->w_out) {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      const int32_t kh0 = iy0 < 0 ? -iy0 : 0;
      const int32_t kh1 = iy0 + k > p->h_in ? p->h_in - iy0 : k;
      r->nkh = kh1 > kh0 ? kh1 - kh0 : 0;
      r->xr = xp + (r->nkh > 0 ? (iy0 + kh0) * p->w_in : 0);
      r->w = wc + (r->nkh > 0 ? kh0 : 0) * k;
      oc_dw_row_span_(r, k, s, xl, wide, narrow, lo, hi, yr);
    }
    conv2d_dw_place_(run, i, dst, y);
  }
}

/* The planes of a run of a depthwise convolution (one input and one output
 * channel each; x, w and bias at the first plane's channel): the rows of
 * oc_dw_tiles.h, their kernel and stride dispatched and their span set up
 * once per run, conv2d_row_ for the kernels those rows do not take. Each sum
 * is the one conv2d.c describes, so the bits are those of conv2d_row_. */
static OC_NOINLINE void conv2d_dw_planes_(const oc_conv2d_params *p, const conv2d_geom_ *g,
                                          const conv2d_dw_run_ *run, const float *x,
                                          const float *w, const float *bias, float *y) {
  oc_dw_row_args r;
  int32_t oy, i, c = 0;
  r.w_in = p->w_in;
  r.b = 0.0f;
  r.k = p->k_w;
  r.s = p->stride_w;
  r.pad_left = p->pad_left;
  r.w_out = p->w_out;
  r.act = &p->act;
  if (p->k_h == p->k_w && p->dil_h == 1 && p->dil_w == 1 && oc_dw_rows_apply(&r)) {
    if (r.k == 3 && r.s == 1) {
      conv2d_dw_rows_ks_(p, run, &r, x, w, bias, 3, 1, oc_dw_k3s1x_, oc_dw_k3s1w_, oc_dw_k3s1n_, y);
    } else if (r.k == 3) {
      conv2d_dw_rows_ks_(p, run, &r, x, w, bias, 3, 2, oc_dw_k3s2x_, oc_dw_k3s2w_, oc_dw_k3s2n_, y);
    } else if (r.s == 1) {
      conv2d_dw_rows_ks_(p, run, &r, x, w, bias, 5, 1, oc_dw_k5s1x_, oc_dw_k5s1w_, oc_dw_k5s1n_, y);
    } else {
      conv2d_dw_rows_ks_(p, run, &r, x, w, bias, 5, 2, oc_dw_k5s2x_, oc_dw_k5s2w_, oc_dw_k5s2n_, y);
    }
    return;
  }
  for (i = 0; i < run->planes; i++, c = c + 1 == p->group ? 0 : c + 1) {
    float *const dst = conv2d_dw_dst_(run, i, y);
    const float *const xp = x + i * run->in_plane, *const wc = w + c * p->k_h * p->k_w;
    const float *const bc = bias != NULL ? bias + c : NULL;
    for (oy = 0; oy < p->h_out; oy++) conv2d_row_(p, g, xp, wc, bc, 1, oy, dst);
    conv2d_dw_place_(run, i, dst, y);
  }
}

#endif /* ONNX_TO_C_OC_DW_PLANE_H_ */
