/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the
 * depthwise rows (oc_dw_tiles.h); none here. runtime/x86 adds tiles of 4
 * lanes and edge lanes at the padding, with the same sums.
 */
#ifndef ONNX_TO_C_OC_DW_FAST_H_
#define ONNX_TO_C_OC_DW_FAST_H_

#include "onnx_to_c/oc_dw_tile_fns.h"

/* The extra-wide tiles (OC_DWT_TILE_XL outputs), taken first over a row: the
 * wide ones here. */
#define OC_DWT_TILE_XL OC_TILE_WIDE
#define oc_dw_k3s1x_ oc_dw_k3s1w_
#define oc_dw_k3s2x_ oc_dw_k3s2w_
#define oc_dw_k5s2x_ oc_dw_k5s2w_
#define oc_dw_k5s1x_ oc_dw_k5s1w_
/* oc_dw_row_span_: the row of oc_dw_row_args r with kernel k, stride s, the
 * tiles xl, wide and narrow and the pixels [lo, hi) whose taps are all
 * inside the input, written to y by faster code, then "return" */
#define OC_DW_ROW_FAST(r, k, s, xl, wide, narrow, lo, hi, y)

#endif /* ONNX_TO_C_OC_DW_FAST_H_ */
