/*
 * onnx-to-c runtime: the wide lane of the convolution tiles (oc_conv_tiles.h)
 * where AVX is enabled (--target=x86-64-v3) and the tiles' own lanes
 * (oc_tile.h) are 4 floats: 8 floats, one AVX register, which multiplies and
 * adds at the cost of 4. The tiles use it on rows of at least 8 pixels and
 * keep the 4-float lanes for narrower ones and for the rest of a row, so
 * small feature maps lose nothing. Each output is still its own sum of the
 * same multiplies and adds in the same order: the same bits as the 4-float
 * and the scalar lanes.
 *
 * OC_WLANE is 1 when the wide lane exists (oc_wlane, OC_WLANE_W floats),
 * 0 elsewhere.
 */
#ifndef ONNX_TO_C_OC_WIDE_LANE_H_
#define ONNX_TO_C_OC_WIDE_LANE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_lane.h"

#if OC_LANE_VECTOR && OC_LANE_W == 4 && defined(__AVX__)
#define OC_WLANE 1
#define OC_WLANE_W 8
typedef float oc_wlane __attribute__((vector_size(32)));

OC_LANE_INLINE oc_wlane oc_wlane_splat(float v) {
  const oc_wlane r = {v, v, v, v, v, v, v, v};
  return r;
}

/* OC_WLANE_W values p[0], p[s], p[2 s], ... (as oc_lane_load) */
OC_LANE_INLINE oc_wlane oc_wlane_load(const float *p, int32_t s) {
  oc_wlane r;
  if (s == 1) {
    memcpy(&r, p, sizeof r);
  } else if (s == 2) {
    /* the even elements of p[0..7] and of p[7..14] shifted by one */
    oc_wlane a, b;
    typedef int oc_wlane_index __attribute__((vector_size(32)));
    const oc_wlane_index evens = {0, 2, 4, 6, 9, 11, 13, 15};
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + OC_WLANE_W - 1, sizeof b);
#if defined(__clang__)
    r = __builtin_shufflevector(a, b, 0, 2, 4, 6, 9, 11, 13, 15);
    (void)evens;
#else
    r = __builtin_shuffle(a, b, evens);
#endif
  } else {
    const oc_wlane g = {p[0], p[s], p[2 * s], p[3 * s], p[4 * s], p[5 * s], p[6 * s], p[7 * s]};
    r = g;
  }
  return r;
}

/* p[i] = act(lane i), as two 4-float lanes (oc_lane_store) */
OC_LANE_INLINE void oc_wlane_store(float *p, oc_wlane v, const oc_act *act) {
  oc_lane h[2];
  memcpy(h, &v, sizeof v);
  oc_lane_store(p, h[0], act);
  oc_lane_store(p + OC_LANE_W, h[1], act);
}
#else
#define OC_WLANE 0
#endif

#endif /* ONNX_TO_C_OC_WIDE_LANE_H_ */
