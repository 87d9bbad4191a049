/*
 * onnx-to-c runtime: depthwise convolution rows (one input channel per
 * output channel), square K x K kernels with K = 3 or 5, stride S = 1 or 2,
 * dilation 1; conv2d_row_ (oc_conv_tiles.h) hands them its depthwise rows
 * (the tiles: oc_dw_tile_fns.h; an optimized folder's: oc_dw_fast.h).
 *
 * Each output is the bias plus w * x over the valid kernel rows, then the
 * kernel columns, in increasing order (the order of conv2d.c). Tiles of
 * OC_TILE_WIDE / OC_TILE_NARROW outputs cover the pixels whose kernel
 * columns are all inside the input, reading the input directly (S = 2 reads
 * a lane as two loads and a shuffle, oc_lane_load), over every valid kernel
 * row (the top and bottom rows too). Pixels near the left and right padding
 * go one at a time over their valid taps (runtime/x86 takes them as edge
 * lanes where that gives the same bits, see "Edge lanes" in its
 * oc_dw_fast.h):
 * measured on the public models, that beat running the narrow tile on a
 * zero-padded copy of their input columns, whose copy costs more than the
 * skipped taps (a lane load from the stores just made waits for them).
 */
#ifndef ONNX_TO_C_OC_DW_TILES_H_
#define ONNX_TO_C_OC_DW_TILES_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_dw_tile_fns.h"
#include "onnx_to_c/oc_dw_fast.h"

/* The tiles over the outputs [lo, hi) (hi - lo >= OC_TILE_NARROW) of a row:
 * extra-wide, wide, then narrow tiles, the last one moved back to end at hi
 * (it recomputes a few outputs, with the same bits). */
OC_LANE_INLINE void oc_dw_sweep_(const oc_dw_row_args *r, int32_t s, oc_dw_tile_fn_ xl,
                                 oc_dw_tile_fn_ wide, oc_dw_tile_fn_ narrow, int32_t lo,
                                 int32_t hi, float *y) {
  const int32_t nw = OC_TILE_NARROW;
  int32_t ox = lo;
  while (hi - ox >= OC_DWT_TILE_XL) {
    xl(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
    ox += OC_DWT_TILE_XL;
  }
  while (hi - ox >= OC_TILE_WIDE) {
    wide(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
    ox += OC_TILE_WIDE;
  }
  while (hi - ox >= nw) {
    narrow(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
    ox += nw;
  }
  if (ox < hi) {
    ox = hi - nw;
    narrow(r->xr + (ox * s - r->pad_left), r->w_in, r->w, r->nkh, r->b, r->act, y + ox);
  }
}

/* [lo, hi): the outputs of a row with kernel k, stride s whose kernel
 * columns are all inside the input; the same for every row of a plane. */
OC_LANE_INLINE void oc_dw_span_(const oc_dw_row_args *r, int32_t k, int32_t s, int32_t *lo,
                                int32_t *hi) {
  const int32_t last = r->w_in - k + r->pad_left;
  *lo = (r->pad_left + s - 1) / s;
  *hi = last >= 0 ? last / s + 1 : 0;
  if (*hi > r->w_out) *hi = r->w_out;
  if (*lo > *hi) *lo = *hi;
}

/* The row with the tiles of one K and S over the pixels [lo, hi) whose
 * kernel columns are all inside the input (oc_dw_span_), the edges around:
 * edge lanes where they apply (the row's first and last OC_LANE_W outputs),
 * one output at a time otherwise. Inlined with constant k and s (rows can be
 * a few pixels long: the divisions and loop bounds count). */
OC_LANE_INLINE void oc_dw_row_span_(const oc_dw_row_args *r, int32_t k, int32_t s,
                                    oc_dw_tile_fn_ xl, oc_dw_tile_fn_ wide,
                                    oc_dw_tile_fn_ narrow, int32_t lo, int32_t hi, float *y) {
  OC_DW_ROW_FAST(r, k, s, xl, wide, narrow, lo, hi, y)
  if (hi - lo < OC_TILE_NARROW) {
    oc_dw_edges_(r, k, s, 0, r->w_out, y);
    return;
  }
  oc_dw_sweep_(r, s, xl, wide, narrow, lo, hi, y);
  oc_dw_edges_(r, k, s, 0, lo, y);
  oc_dw_edges_(r, k, s, hi, r->w_out, y);
}

/* Whether the tiles take kernel k, stride s (3x3 or 5x5, stride 1 or 2)
 * with pad_left >= 0. */
OC_LANE_INLINE int oc_dw_rows_apply(const oc_dw_row_args *r) {
  return r->pad_left >= 0 && (r->k == 3 || r->k == 5) && (r->s == 1 || r->s == 2);
}

#endif /* ONNX_TO_C_OC_DW_TILES_H_ */
