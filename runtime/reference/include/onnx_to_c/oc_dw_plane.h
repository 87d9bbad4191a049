/*
 * onnx-to-c runtime: one plane of a depthwise 2-D convolution, shared by
 * oc_conv2d_f32 (conv2d.c) and oc_conv2d_dw_planes_f32 (conv2d_dw_planes.c);
 * out of line, so the generated code holds its rows once.
 */
#ifndef ONNX_TO_C_OC_DW_PLANE_H_
#define ONNX_TO_C_OC_DW_PLANE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_conv_tiles.h"
#include "onnx_to_c/oc_dw_tiles.h"

/* The rows of a plane with the tiles of kernel k, stride s: the span of
 * whole-window outputs set up once per plane, then per row only its valid
 * kernel rows [kh0, kh1) (dilation 1) and where they start. */
OC_LANE_INLINE void conv2d_dw_rows_ks_(const oc_conv2d_params *p, oc_dw_row_args *r,
                                       const float *x, const float *w, int32_t k, int32_t s,
                                       oc_dw_tile_fn_ xl, oc_dw_tile_fn_ wide,
                                       oc_dw_tile_fn_ narrow, float *y) {
  int32_t lo, hi, oy;
  oc_dw_span_(r, k, s, &lo, &hi);
  for (oy = 0; oy < p->h_out; oy++, y += p->w_out) {
    const int32_t iy0 = oy * p->stride_h - p->pad_top;
    const int32_t kh0 = iy0 < 0 ? -iy0 : 0;
    const int32_t kh1 = iy0 + k > p->h_in ? p->h_in - iy0 : k;
    r->nkh = kh1 > kh0 ? kh1 - kh0 : 0;
    r->xr = x + (r->nkh > 0 ? (iy0 + kh0) * p->w_in : 0);
    r->w = w + (r->nkh > 0 ? kh0 : 0) * k;
    oc_dw_row_span_(r, k, s, xl, wide, narrow, lo, hi, y);
  }
}

/* One plane of a depthwise convolution (one input and one output channel;
 * x, w and bias at the channel): the rows of oc_dw_tiles.h, their kernel
 * and stride dispatched and their span set up once per plane (a patch's
 * plane can be two rows of six pixels, and per-row setup cost as much as
 * their taps), conv2d_row_ for the kernels those rows do not take. Each sum
 * is the one conv2d.c describes, so the bits are those of conv2d_row_. */
static OC_NOINLINE void conv2d_dw_plane_(const oc_conv2d_params *p, const conv2d_geom_ *g,
                                         const float *x, const float *w, const float *bias,
                                         float *y) {
  oc_dw_row_args r;
  int32_t oy;
  r.w_in = p->w_in;
  r.b = bias != NULL ? bias[0] : 0.0f;
  r.k = p->k_w;
  r.s = p->stride_w;
  r.pad_left = p->pad_left;
  r.w_out = p->w_out;
  r.act = &p->act;
  if (p->k_h == p->k_w && p->dil_h == 1 && p->dil_w == 1 && oc_dw_rows_apply(&r)) {
    if (r.k == 3 && r.s == 1) {
      conv2d_dw_rows_ks_(p, &r, x, w, 3, 1, oc_dw_k3s1x_, oc_dw_k3s1w_, oc_dw_k3s1n_, y);
    } else if (r.k == 3) {
      conv2d_dw_rows_ks_(p, &r, x, w, 3, 2, oc_dw_k3s2x_, oc_dw_k3s2w_, oc_dw_k3s2n_, y);
    } else if (r.s == 1) {
      conv2d_dw_rows_ks_(p, &r, x, w, 5, 1, oc_dw_k5s1x_, oc_dw_k5s1w_, oc_dw_k5s1n_, y);
    } else {
      conv2d_dw_rows_ks_(p, &r, x, w, 5, 2, oc_dw_k5s2x_, oc_dw_k5s2w_, oc_dw_k5s2n_, y);
    }
    return;
  }
  for (oy = 0; oy < p->h_out; oy++) conv2d_row_(p, g, x, w, bias, 1, oy, y);
}

#endif /* ONNX_TO_C_OC_DW_PLANE_H_ */
