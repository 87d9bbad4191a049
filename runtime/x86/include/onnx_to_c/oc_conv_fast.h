/*
 * onnx-to-c runtime, x86: the 2-D convolution's tiles of 4 output channels
 * also over the 8-float lanes of oc_wide_lane.h where AVX is enabled and the
 * lanes are 4 floats (--target=x86-64-v3, and NAME_avx2.c with GCC): t4w2 2
 * x 8 pixels, t4n2 8, taken first (a row of 8 pixels takes one lane of 8
 * rather than two of 4). The interface of the reference oc_conv_fast.h.
 */
#ifndef ONNX_TO_C_OC_CONV_FAST_H_
#define ONNX_TO_C_OC_CONV_FAST_H_

#include "onnx_to_c/oc_wide_lane.h"
#include "onnx_to_c/oc_conv_tile_fns.h"

#if OC_WLANE
#undef OC_CVL_WIDE
#define OC_CVL_WIDE 1
#define OC_CONV_X(i) OC_CVL_LOAD(xp + o##i * sw, sw)
OC_CONV_TILES4(2)
#undef OC_CONV_X
#undef OC_CVL_WIDE
#define OC_CVL_WIDE 0
#define OC_CONV_SET_FAST(s)                                                                \
  conv2d_set_add_(s, OC_CONV_PICK4(t4w, 2), OC_CONV_PICK4(t4o, 2), 2, OC_WLANE_W);          \
  conv2d_set_add_(s, OC_CONV_PICK4(t4n, 2), NULL, 1, OC_WLANE_W);
#else
#define OC_CONV_SET_FAST(s)
#endif
#define OC_CONV_POINTWISE4_FAST(g, x, w, bias, vol, y, i)
#define OC_CONV_COPY_ROWS_FAST(scratch, y, vol, rows, len, block)

#endif /* ONNX_TO_C_OC_CONV_FAST_H_ */
