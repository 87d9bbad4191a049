/*
 * onnx-to-c runtime, Armv7E-M: the 2-D convolution's 1x1 stride-1 tiles of
 * 4 output channels and the copies of oc_conv1x1_overlap_f32's blocks in
 * assembler (oc_arm_tiles.h), on a single-precision FPU; the interface of
 * the reference oc_conv_fast.h.
 */
#ifndef ONNX_TO_C_OC_CONV_FAST_H_
#define ONNX_TO_C_OC_CONV_FAST_H_

#include "onnx_to_c/oc_arm_tiles.h"
#include "onnx_to_c/oc_conv_tile_fns.h"

#define OC_CONV_SET_FAST(s)
#if OC_ARM_TILES
#define OC_CONV_POINTWISE4_FAST(g, x, w, bias, vol, y, i)                                          \
  i = oc_arm_pointwise4(x, (g)->in_plane, w, (g)->w_co, (g)->cig, bias, vol, y, (g)->y_co, (g)->act); \
  if (i == 0)
#define OC_CONV_COPY_ROWS_FAST(scratch, y, vol, rows, len, block) \
  if ((len) == 8 && (block) == 8 && (rows) > 0) {                \
    oc_arm_copy_rows8(scratch, y, vol, rows);                     \
    continue;                                                     \
  }
#else
#define OC_CONV_POINTWISE4_FAST(g, x, w, bias, vol, y, i)
#define OC_CONV_COPY_ROWS_FAST(scratch, y, vol, rows, len, block)
#endif

#endif /* ONNX_TO_C_OC_CONV_FAST_H_ */
