/*
 * onnx-to-c runtime: the lanes of the register-tiled kernels (conv2d.c,
 * gemm.c). A tile keeps several independent sums per lane in local
 * variables; a lane holds OC_LANE_W consecutive outputs.
 *
 * With GCC or Clang on a target with 128-bit SIMD (SSE2, NEON) a lane is a
 * 4-float vector of the compilers' generic vector extension (not ISA
 * intrinsics; with AVX enabled, as --target=x86-64-v3 does, the compilers
 * encode them as AVX instructions), or an 8-float one where AVX is enabled
 * and ONNX_TO_C_AVX_LANES is defined (faster on wide feature maps only: rows
 * narrower than a lane take the per-pixel loops); elsewhere, or with
 * -DONNX_TO_C_NO_VECTOR_EXT, it is one float. Either way each output is its own sum, computed with the same
 * single-precision multiplies and adds in the same order, so both give the
 * same bits (-ffp-contract=off keeps the compilers from fusing them).
 *
 * OC_LANES_WIDE / OC_LANES_NARROW list the lanes of a wide and a narrow tile,
 * sized so that 4 output channels x the wide tile fit the register file:
 * 2 vectors (8 SSE registers for 4 channels), or 4 floats (16 of the 32
 * single-precision registers of an Armv7-M FPU).
 */
#ifndef ONNX_TO_C_OC_TILE_H_
#define ONNX_TO_C_OC_TILE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* Always inlined: the lane helpers are a few instructions each,
 * and an outlined store costs a call per lane of every tile. */
#if defined(__GNUC__)
#define OC_LANE_INLINE static inline __attribute__((always_inline, unused))
#else
#define OC_LANE_INLINE OC_INLINE
#endif

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
#else
#define OC_LANE_VECTOR 0
typedef float oc_lane;
#define OC_LANE_W 1
#define OC_LANES_WIDE(M) M(0) M(1) M(2) M(3)
#define OC_LANES_NARROW(M) M(0) M(1)
#endif
/* acc += a * b. On an Armv7E-M single-precision FPU, when the generated code
 * asks for it (OC_ARM_VMLA, set for --target=cortex-m4 and cortex-m7), one
 * VMLA.F32 instruction: it rounds the product and then the sum (it is not
 * fused), so the bits are those of the multiply and the add, in half the
 * instructions. GCC never emits it itself at -ffp-contract=off. */
#if defined(OC_ARM_VMLA) && defined(__GNUC__) && defined(__ARM_FP) && (__ARM_FP & 4) && \
    !OC_LANE_VECTOR
#define OC_MAC(acc, a, b) __asm__("vmla.f32 %0, %1, %2" : "+t"(acc) : "t"(a), "t"(b))
#else
#define OC_MAC(acc, a, b) ((acc) += (a) * (b))
#endif

/* outputs per wide and per narrow tile */
#define OC_TILE_WIDE (OC_LANE_VECTOR ? 2 * OC_LANE_W : 4)
#define OC_TILE_NARROW (OC_LANE_VECTOR ? OC_LANE_W : 2)

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

OC_LANE_INLINE oc_lane oc_lane_splat(float v) {
#if OC_LANE_VECTOR && OC_LANE_W == 8
  const oc_lane r = {v, v, v, v, v, v, v, v};
  return r;
#elif OC_LANE_VECTOR
  const oc_lane r = {v, v, v, v};
  return r;
#else
  return v;
#endif
}

/* OC_LANE_W values p[0], p[s], p[2 s], ... */
OC_LANE_INLINE oc_lane oc_lane_load(const float *p, int32_t s) {
#if OC_LANE_VECTOR
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
#else
  (void)s;
  return p[0];
#endif
}

/* p[o] for o >= 0, +0.0 for o < 0 */
OC_INLINE float oc_tile_pick(const float *p, int32_t o) { return o >= 0 ? p[o] : 0.0f; }

/* OC_LANE_W values oc_tile_pick(p, o[i]) */
OC_LANE_INLINE oc_lane oc_lane_pick(const float *p, const int32_t *o) {
#if OC_LANE_VECTOR && OC_LANE_W == 8
  const oc_lane r = {oc_tile_pick(p, o[0]), oc_tile_pick(p, o[1]), oc_tile_pick(p, o[2]),
                     oc_tile_pick(p, o[3]), oc_tile_pick(p, o[4]), oc_tile_pick(p, o[5]),
                     oc_tile_pick(p, o[6]), oc_tile_pick(p, o[7])};
  return r;
#elif OC_LANE_VECTOR
  const oc_lane r = {oc_tile_pick(p, o[0]), oc_tile_pick(p, o[1]), oc_tile_pick(p, o[2]),
                     oc_tile_pick(p, o[3])};
  return r;
#else
  return oc_tile_pick(p, o[0]);
#endif
}

/* p[i] = lane i */
OC_LANE_INLINE void oc_lane_put(float *p, oc_lane v) {
#if OC_LANE_VECTOR
  memcpy(p, &v, sizeof v);
#else
  p[0] = v;
#endif
}

#if OC_LANE_VECTOR
/* the comparison results of a lane: all ones or all zeros per element */
typedef int oc_lane_mask __attribute__((vector_size(4 * OC_LANE_W)));

/* lane i of a where m is set, of b elsewhere (the bits of either) */
OC_LANE_INLINE oc_lane oc_lane_select(oc_lane_mask m, oc_lane a, oc_lane b) {
  return (oc_lane)(((oc_lane_mask)a & m) | ((oc_lane_mask)b & ~m));
}
#endif

/* ReLU and Clip of a lane, element by element the expressions of
 * oc_tile_act (the same values for NaN and -0.0: a comparison with a NaN is
 * false, and -0.0 < 0.0f is false, so -0.0 stays -0.0). */
OC_LANE_INLINE oc_lane oc_lane_relu(oc_lane v) {
#if OC_LANE_VECTOR
  const oc_lane zero = oc_lane_splat(0.0f);
  return (oc_lane)((oc_lane_mask)v & ~(v < zero)); /* +0.0 where v < 0 */
#else
  return v < 0.0f ? 0.0f : v;
#endif
}

OC_LANE_INLINE oc_lane oc_lane_clip(oc_lane v, float lo, float hi) {
#if OC_LANE_VECTOR
  const oc_lane a = oc_lane_splat(lo), b = oc_lane_splat(hi);
  v = oc_lane_select(v < a, a, v);
  return oc_lane_select(v > b, b, v);
#else
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
#endif
}

/* HardSigmoid and HardSwish of a vector lane: oc_apply_act's expressions, one
 * multiplication, one addition and oc_clamp01's two comparisons per element
 * (no contraction: -ffp-contract=off). */
#if OC_LANE_VECTOR
OC_LANE_INLINE oc_lane oc_lane_hard_sigmoid(oc_lane v, float alpha, float beta) {
  return oc_lane_clip(oc_lane_splat(alpha) * v + oc_lane_splat(beta), 0.0f, 1.0f);
}

OC_LANE_INLINE oc_lane oc_lane_hard_swish(oc_lane v) {
  return v * oc_lane_clip(v * oc_lane_splat(1.0f / 6.0f) + oc_lane_splat(0.5f), 0.0f, 1.0f);
}
#endif

/* p[i] = act(lane i) */
OC_LANE_INLINE void oc_lane_store(float *p, oc_lane v, const oc_act *act) {
#if OC_LANE_VECTOR
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
#else
  p[0] = oc_tile_act(act, v);
#endif
}

#endif /* ONNX_TO_C_OC_TILE_H_ */
