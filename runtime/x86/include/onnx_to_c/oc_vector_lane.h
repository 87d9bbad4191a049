/*
 * onnx-to-c runtime, x86: the vector lane of the register tiles (oc_tile.h,
 * the lane interface of oc_scalar_lane.h). With GCC or Clang on a target
 * with 128-bit SIMD (SSE2, NEON) a lane is a 4-float vector of the
 * compilers' generic vector extension (not ISA intrinsics; with AVX enabled,
 * as --target=x86-64-v3 does, the compilers encode them as AVX
 * instructions), or an 8-float one where AVX is enabled and
 * ONNX_TO_C_AVX_LANES is defined (faster on wide feature maps only: rows
 * narrower than a lane take the per-pixel loops). Elsewhere, or with
 * -DONNX_TO_C_NO_VECTOR_EXT, this header defines nothing and the lane is
 * oc_scalar_lane.h's one float. Each element is one output's own sum, added
 * to in the order of the scalar lane, so both give the same bits.
 */
#ifndef ONNX_TO_C_OC_VECTOR_LANE_H_
#define ONNX_TO_C_OC_VECTOR_LANE_H_

#include "onnx_to_c/oc_tile.h"

/* OC_LANE_SHUFFLE_W(a, b, i...): the lane {a, b}[i0], {a, b}[i1], ...
 * (elements OC_LANE_W.. are b's). OC_LANE_EVENS(a, b): elements 0, 2, ... of
 * a followed by b loaded OC_LANE_W - 1 further (the even elements of p when a
 * is p[0..] and b p[OC_LANE_W - 1..], reading nothing past the last one).
 * OC_LANE_ZIP_LO / _HI(a, b): a0 b0 a1 b1 ... and its second half. */
#if defined(__clang__)
#define OC_LANE_SHUFFLE_W(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#elif defined(__GNUC__)
#define OC_LANE_SHUFFLE_W(a, b, ...) __builtin_shuffle(a, b, (oc_lane_index){__VA_ARGS__})
#endif
#if !defined(ONNX_TO_C_NO_VECTOR_EXT) && defined(__GNUC__) && \
    defined(__AVX__) && defined(ONNX_TO_C_AVX_LANES)
#define OC_LANE_VECTOR 1
typedef float oc_lane __attribute__((vector_size(32)));
typedef int oc_lane_index __attribute__((vector_size(32)));
#define OC_LANE_W 8
#define OC_LANE_EVENS(a, b) OC_LANE_SHUFFLE_W(a, b, 0, 2, 4, 6, 9, 11, 13, 15)
#define OC_LANE_ZIP_LO(a, b) OC_LANE_SHUFFLE_W(a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define OC_LANE_ZIP_HI(a, b) OC_LANE_SHUFFLE_W(a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#define OC_LANES_WIDE(M) M(0) M(1)
#define OC_LANES_NARROW(M) M(0)
#elif !defined(ONNX_TO_C_NO_VECTOR_EXT) && defined(__GNUC__) && \
    (defined(__SSE2__) || defined(__ARM_NEON))
#define OC_LANE_VECTOR 1
typedef float oc_lane __attribute__((vector_size(16)));
typedef int oc_lane_index __attribute__((vector_size(16)));
#define OC_LANE_W 4
#define OC_LANE_EVENS(a, b) OC_LANE_SHUFFLE_W(a, b, 0, 2, 5, 7)
#define OC_LANE_ZIP_LO(a, b) OC_LANE_SHUFFLE_W(a, b, 0, 4, 1, 5)
#define OC_LANE_ZIP_HI(a, b) OC_LANE_SHUFFLE_W(a, b, 2, 6, 3, 7)
#define OC_LANES_WIDE(M) M(0) M(1)
#define OC_LANES_NARROW(M) M(0)
#endif

#if defined(OC_LANE_W)
/* outputs per wide and per narrow tile */
#define OC_TILE_WIDE (2 * OC_LANE_W)
#define OC_TILE_NARROW OC_LANE_W

OC_LANE_INLINE oc_lane oc_lane_splat(float v) {
#if OC_LANE_W == 8
  const oc_lane r = {v, v, v, v, v, v, v, v};
#else
  const oc_lane r = {v, v, v, v};
#endif
  return r;
}

/* OC_LANE_W values p[0], p[s], p[2 s], ... */
OC_LANE_INLINE oc_lane oc_lane_load(const float *p, int32_t s) {
  oc_lane r;
  if (s == 1) {
    memcpy(&r, p, sizeof r);
  } else if (s == 2) {
    /* p[0..W-1] and p[W-1..2W-2] (nothing past p[2W-2]), the even elements of p */
    oc_lane a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + OC_LANE_W - 1, sizeof b);
    r = OC_LANE_EVENS(a, b);
  } else {
#if OC_LANE_W == 8
    const oc_lane g = {p[0], p[s], p[2 * s], p[3 * s], p[4 * s], p[5 * s], p[6 * s], p[7 * s]};
#else
    const oc_lane g = {p[0], p[s], p[2 * s], p[3 * s]};
#endif
    r = g;
  }
  return r;
}

/* OC_LANE_W values oc_tile_pick(p, o[i]) */
OC_LANE_INLINE oc_lane oc_lane_pick(const float *p, const int32_t *o) {
#if OC_LANE_W == 8
  const oc_lane r = {oc_tile_pick(p, o[0]), oc_tile_pick(p, o[1]), oc_tile_pick(p, o[2]),
                     oc_tile_pick(p, o[3]), oc_tile_pick(p, o[4]), oc_tile_pick(p, o[5]),
                     oc_tile_pick(p, o[6]), oc_tile_pick(p, o[7])};
#else
  const oc_lane r = {oc_tile_pick(p, o[0]), oc_tile_pick(p, o[1]), oc_tile_pick(p, o[2]),
                     oc_tile_pick(p, o[3])};
#endif
  return r;
}

/* The lane of F(x, i0 + i step, n) for i < OC_LANE_W (an expression) */
#if OC_LANE_W == 8
#define OC_LANE_GATHER(F, x, i0, step, n)                                                     \
  ((oc_lane){F(x, i0, n), F(x, (i0) + (step), n), F(x, (i0) + 2 * (step), n),                   \
             F(x, (i0) + 3 * (step), n), F(x, (i0) + 4 * (step), n), F(x, (i0) + 5 * (step), n), \
             F(x, (i0) + 6 * (step), n), F(x, (i0) + 7 * (step), n)})
#else
#define OC_LANE_GATHER(F, x, i0, step, n)                                                     \
  ((oc_lane){F(x, i0, n), F(x, (i0) + (step), n), F(x, (i0) + 2 * (step), n),                  \
             F(x, (i0) + 3 * (step), n)})
#endif

/* p[i] = lane i */
OC_LANE_INLINE void oc_lane_put(float *p, oc_lane v) { memcpy(p, &v, sizeof v); }

/* the comparison results of a lane: all ones or all zeros per element */
typedef int oc_lane_mask __attribute__((vector_size(4 * OC_LANE_W)));

/* lane i of a where m is set, of b elsewhere (the bits of either) */
OC_LANE_INLINE oc_lane oc_lane_select(oc_lane_mask m, oc_lane a, oc_lane b) {
  return (oc_lane)(((oc_lane_mask)a & m) | ((oc_lane_mask)b & ~m));
}

/* ReLU and Clip of a lane, element by element the expressions of
 * oc_tile_act (the same values for NaN and -0.0: a comparison with a NaN is
 * false, and -0.0 < 0.0f is false, so -0.0 stays -0.0). */
OC_LANE_INLINE oc_lane oc_lane_relu(oc_lane v) {
  const oc_lane zero = oc_lane_splat(0.0f);
  return (oc_lane)((oc_lane_mask)v & ~(v < zero)); /* +0.0 where v < 0 */
}

OC_LANE_INLINE oc_lane oc_lane_clip(oc_lane v, float lo, float hi) {
  const oc_lane a = oc_lane_splat(lo), b = oc_lane_splat(hi);
  v = oc_lane_select(v < a, a, v);
  return oc_lane_select(v > b, b, v);
}

/* Element by element, v where v > m or where v is NaN and m is not, else m */
OC_LANE_INLINE oc_lane oc_lane_max(oc_lane m, oc_lane v) {
  return oc_lane_select((v > m) | ((v != v) & (m == m)), v, m);
}

/* HardSigmoid and HardSwish of a vector lane: oc_apply_act's expressions, one
 * multiplication, one addition and oc_clamp01's two comparisons per element
 * (no contraction: -ffp-contract=off). */
OC_LANE_INLINE oc_lane oc_lane_hard_sigmoid(oc_lane v, float alpha, float beta) {
  return oc_lane_clip(oc_lane_splat(alpha) * v + oc_lane_splat(beta), 0.0f, 1.0f);
}

OC_LANE_INLINE oc_lane oc_lane_hard_swish(oc_lane v) {
  return v * oc_lane_clip(v * oc_lane_splat(1.0f / 6.0f) + oc_lane_splat(0.5f), 0.0f, 1.0f);
}

/* p[i] = act(lane i) */
OC_LANE_INLINE void oc_lane_store(float *p, oc_lane v, const oc_act *act) {
  if (act->kind == OC_ACT_NONE) {
    oc_lane_put(p, v);
  } else if (act->kind == OC_ACT_RELU) {
    oc_lane_put(p, oc_lane_relu(v));
  } else if (act->kind == OC_ACT_CLIP) {
    oc_lane_put(p, oc_lane_clip(v, act->alpha, act->beta));
  } else if (act->kind == OC_ACT_HARD_SWISH) {
    oc_lane_put(p, oc_lane_hard_swish(v));
  } else if (act->kind == OC_ACT_HARD_SIGMOID) {
    oc_lane_put(p, oc_lane_hard_sigmoid(v, act->alpha, act->beta));
  } else {
    float t[OC_LANE_W];
    int32_t i;
    memcpy(t, &v, sizeof v);
    for (i = 0; i < OC_LANE_W; i++) p[i] = oc_apply_act(act, t[i]);
  }
}

/* p[2 i] = act(lane i of a), p[2 i + 1] = act(lane i of e) */
OC_LANE_INLINE void oc_lane_store_pairs(float *p, oc_lane a, oc_lane e, const oc_act *act) {
  oc_lane_store(p, OC_LANE_ZIP_LO(a, e), act);
  oc_lane_store(p + OC_LANE_W, OC_LANE_ZIP_HI(a, e), act);
}
#endif

#endif /* ONNX_TO_C_OC_VECTOR_LANE_H_ */
