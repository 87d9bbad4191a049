/*
 * onnx-to-c runtime: the one-float lane of the channels-last convolution
 * (conv2d_nhwc.c, the interface of oc_conv_nhwc_lane.h): the reference
 * kernel's, and an optimized folder's where its oc_conv_nhwc_lane.h defines
 * no wider one (OC_NHWC_W) before including this.
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_SCALAR_H_
#define ONNX_TO_C_OC_CONV_NHWC_SCALAR_H_

#include "onnx_to_c/oc_lane.h"

#ifndef OC_NHWC_W
typedef oc_lane nhwc_lane_;
#define OC_NHWC_W OC_LANE_W
#define nhwc_splat_ oc_lane_splat
#define nhwc_store_ oc_lane_store

/* OC_NHWC_W values p[0], p[s], ... (only those: x may share memory with y) */
OC_LANE_INLINE nhwc_lane_ nhwc_load_(const float *p, int32_t s) {
  (void)s;
  return p[0];
}

/* y[i * s] = act(lane i) */
OC_LANE_INLINE void nhwc_put_(float *y, int32_t s, nhwc_lane_ v, const oc_act *act) {
  (void)s;
  nhwc_store_(y, v, act);
}

/* The lanes of a block: M(pixel, lane). */
#define OC_NHWC_LANES(M, j) M(j, 0) M(j, 1) M(j, 2) M(j, 3)
#define OC_NHWC_NL 4
/* no unrolled branch for 3-wide kernel rows */
#define OC_NHWC_KW3(LANES, PIXELS, K)
/* the tables of the tile families: general, depthwise */
#define OC_NHWC_FAMILIES                                                                     \
  static const nhwc_tile_fn_ nhwc_general_[4] = {nhwc_pb_, nhwc_1b_, nhwc_pl_, nhwc_1l_};    \
  static const nhwc_tile_fn_ nhwc_depthwise_[4] = {nhwc_dw_pb_, nhwc_dw_1b_, nhwc_dw_pl_,     \
                                                   nhwc_dw_1l_};
/* the 4-pixel tiles of a row's first and last pixels at the padding: none */
#define OC_NHWC_EDGES(p) NULL
#define OC_NHWC_EDGE_PIXELS(p, g, edge, x, ix, w, bias, y, ox)
/* the depthwise family */
#define OC_NHWC_DEPTHWISE(x_nhwc) nhwc_depthwise_
/* a group's last channels after the whole lanes: none (a lane is one) */
#define OC_NHWC_PARTIAL_LANE(p, g, fn, edge, count, x, xs, w, ws, bias, y, c)
#endif

#endif /* ONNX_TO_C_OC_CONV_NHWC_SCALAR_H_ */
