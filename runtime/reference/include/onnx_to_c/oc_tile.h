/*
 * onnx-to-c runtime: what the register-tiled kernels (conv2d.c, gemm.c, ...)
 * share besides their lane (oc_lane.h). A tile keeps several independent
 * sums per lane in local variables; a lane holds OC_LANE_W consecutive
 * outputs: one float in the reference kernels, a vector on x86
 * (runtime/x86/include/onnx_to_c/oc_vector_lane.h). Either way each output
 * is its own sum, computed with the same single-precision multiplies and
 * adds (OC_MAC, oc_mac.h) in the same order, so every lane gives the same
 * bits (-ffp-contract=off keeps the compilers from fusing them).
 *
 * OC_LANES_WIDE / OC_LANES_NARROW (oc_lane.h) list the lanes of a wide and a
 * narrow tile, sized so that 4 output channels x the wide tile fit the
 * register file: 4 floats (16 of the 32 single-precision registers of an
 * Armv7-M FPU), or 2 vectors (8 SSE registers for 4 channels);
 * OC_TILE_WIDE / OC_TILE_NARROW are their outputs.
 */
#ifndef ONNX_TO_C_OC_TILE_H_
#define ONNX_TO_C_OC_TILE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_mac.h"

/* Always inlined: the lane helpers are a few instructions each,
 * and an outlined store costs a call per lane of every tile. */
#if defined(__GNUC__)
#define OC_LANE_INLINE static inline __attribute__((always_inline, unused))
#else
#define OC_LANE_INLINE OC_INLINE
#endif

/* The activation: none, ReLU and Clip inline (the same expressions as
 * oc_apply_act, so the same values), the rest through oc_apply_act. */
OC_INLINE float oc_tile_act(const oc_act *a, float v) {
  if (a->kind == OC_ACT_NONE) return v;
  if (a->kind == OC_ACT_RELU) return v < 0.0f ? 0.0f : v;
  if (a->kind == OC_ACT_CLIP) {
    v = v < a->alpha ? a->alpha : v;
    return v > a->beta ? a->beta : v;
  }
  return oc_apply_act(a, v);
}

/* p[o] for o >= 0, +0.0 for o < 0 */
OC_INLINE float oc_tile_pick(const float *p, int32_t o) { return o >= 0 ? p[o] : 0.0f; }

#endif /* ONNX_TO_C_OC_TILE_H_ */
