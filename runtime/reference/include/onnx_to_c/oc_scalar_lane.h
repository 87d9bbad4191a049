/*
 * onnx-to-c runtime: the one-float lane of the register tiles (oc_tile.h):
 * the reference kernels' lane, and an optimized folder's where its own
 * oc_lane.h defines none (that header includes its lane first, then this
 * one, which then leaves it alone).
 *
 * The lane interface: oc_lane (OC_LANE_W floats), OC_LANE_VECTOR,
 * OC_LANES_WIDE / OC_LANES_NARROW and OC_TILE_WIDE / OC_TILE_NARROW, and the
 * helpers below.
 */
#ifndef ONNX_TO_C_OC_SCALAR_LANE_H_
#define ONNX_TO_C_OC_SCALAR_LANE_H_

#include "onnx_to_c/oc_tile.h"

#ifndef OC_LANE_W
#define OC_LANE_VECTOR 0
typedef float oc_lane;
#define OC_LANE_W 1
#define OC_LANES_WIDE(M) M(0) M(1) M(2) M(3)
#define OC_LANES_NARROW(M) M(0) M(1)
#define OC_TILE_WIDE 4
#define OC_TILE_NARROW 2

/* OC_LANE_W copies of v */
OC_LANE_INLINE oc_lane oc_lane_splat(float v) { return v; }

/* OC_LANE_W values p[0], p[s], p[2 s], ... */
OC_LANE_INLINE oc_lane oc_lane_load(const float *p, int32_t s) {
  (void)s;
  return p[0];
}

/* OC_LANE_W values oc_tile_pick(p, o[i]) */
OC_LANE_INLINE oc_lane oc_lane_pick(const float *p, const int32_t *o) { return oc_tile_pick(p, o[0]); }

/* The lane of F(x, i0 + i step, n) for i < OC_LANE_W (an expression) */
#define OC_LANE_GATHER(F, x, i0, step, n) F(x, i0, n)

/* p[i] = lane i */
OC_LANE_INLINE void oc_lane_put(float *p, oc_lane v) { p[0] = v; }

/* ReLU and Clip of a lane, the expressions of oc_tile_act */
OC_LANE_INLINE oc_lane oc_lane_relu(oc_lane v) { return v < 0.0f ? 0.0f : v; }

OC_LANE_INLINE oc_lane oc_lane_clip(oc_lane v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

/* Element by element, v where v > m or where v is NaN and m is not, else m:
 * over a window, the first NaN, else the first maximum. */
OC_LANE_INLINE float oc_lane_max1_(float m, float v) { return v > m || (v != v && m == m) ? v : m; }

OC_LANE_INLINE oc_lane oc_lane_max(oc_lane m, oc_lane v) { return oc_lane_max1_(m, v); }

/* p[i] = act(lane i) */
OC_LANE_INLINE void oc_lane_store(float *p, oc_lane v, const oc_act *act) {
  p[0] = oc_tile_act(act, v);
}

/* p[2 i] = act(lane i of a), p[2 i + 1] = act(lane i of e) */
OC_LANE_INLINE void oc_lane_store_pairs(float *p, oc_lane a, oc_lane e, const oc_act *act) {
  oc_lane_store(p, a, act);
  oc_lane_store(p + 1, e, act);
}
#endif

#endif /* ONNX_TO_C_OC_SCALAR_LANE_H_ */
