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

/* One plane of a depthwise convolution (one input and one output channel;
 * x, w and bias at the channel): the rows of oc_dw_tiles.h from row
 * arguments set up once per plane (a patch's plane can be two rows, and
 * conv2d_row_'s per-row setup cost as much as their taps), conv2d_row_ for
 * the kernels those rows do not take. Each sum is the one conv2d.c
 * describes, so the bits are those of conv2d_row_. */
static OC_NOINLINE void conv2d_dw_plane_(const oc_conv2d_params *p, const conv2d_geom_ *g,
                                         const float *x, const float *w, const float *bias,
                                         float *y) {
  const int dw_rows = p->k_h == p->k_w && p->dil_h == 1 && p->dil_w == 1;
  oc_dw_row_args r;
  int32_t oy;
  r.w_in = p->w_in;
  r.b = bias != NULL ? bias[0] : 0.0f;
  r.k = p->k_w;
  r.s = p->stride_w;
  r.pad_left = p->pad_left;
  r.w_out = p->w_out;
  r.act = &p->act;
  for (oy = 0; oy < p->h_out; oy++) {
    /* the valid kernel rows [kh0, kh1) (dilation 1) */
    const int32_t iy0 = oy * p->stride_h - p->pad_top;
    const int32_t kh0 = iy0 < 0 ? -iy0 : 0;
    const int32_t kh1 = iy0 + p->k_h > p->h_in ? p->h_in - iy0 : p->k_h;
    r.nkh = kh1 > kh0 ? kh1 - kh0 : 0;
    r.xr = x + (r.nkh > 0 ? (iy0 + kh0) * p->w_in : 0);
    r.w = w + (r.nkh > 0 ? kh0 : 0) * p->k_w;
    if (!dw_rows || !oc_dw_row(&r, y + oy * p->w_out)) conv2d_row_(p, g, x, w, bias, 1, oy, y);
  }
}

#endif /* ONNX_TO_C_OC_DW_PLANE_H_ */
