/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the
 * 2-D convolution tiles (oc_conv_tiles.h, conv1x1_overlap.c), as statements
 * the kernels expand; none here. runtime/x86 adds tiles over 8-float lanes,
 * runtime/arm 1x1 tiles in assembler; every sum keeps its order.
 */
#ifndef ONNX_TO_C_OC_CONV_FAST_H_
#define ONNX_TO_C_OC_CONV_FAST_H_

#include "onnx_to_c/oc_conv_tile_fns.h"

/* conv2d_set_init_, 4 channels: tiles added to set s before the others */
#define OC_CONV_SET_FAST(s)
/* conv2d_pointwise_, 4 channels: "i = the pixels [0, i) done by faster
 * tiles; if (i == 0)", which the kernel follows with its own tiles */
#define OC_CONV_POINTWISE4_FAST(g, x, w, bias, vol, y, i)
/* oc_conv1x1_overlap_f32: the rows of a block of len pixels copied from
 * scratch to y by a faster loop, then "continue" */
#define OC_CONV_COPY_ROWS_FAST(scratch, y, vol, rows, len, block)

#endif /* ONNX_TO_C_OC_CONV_FAST_H_ */
