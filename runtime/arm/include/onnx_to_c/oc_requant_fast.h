/*
 * onnx-to-c runtime, Armv7E-M: the float requantization of oc_qlinear.h
 * with the FPU's VCVTR and, with the DSP extension, QADD and SSAT/USAT: the
 * same values (the interface of include/onnx_to_c/oc_requant_fast.h). Other
 * compilers and cores: nothing, oc_qlinear.h's own code runs.
 */
#ifndef ONNX_TO_C_OC_REQUANT_FAST_H_
#define ONNX_TO_C_OC_REQUANT_FAST_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

#if defined(__GNUC__) && defined(__ARM_FP) && (__ARM_FP & 4) && defined(__thumb2__)
/* A Cortex-M FPU's VCVTR.S32.F32: rounds by the FPSCR's mode, to nearest,
 * ties to even (the reset value, which oc_roundf_even relies on as well),
 * saturating. Then clamping the integer to the integral bounds gives what
 * clamping the rounded float gives. */
#define OC_REQUANT_VCVTR 1
OC_INLINE int32_t oc_round_even_i32(float f) {
  float bits;
  int32_t v;
  __asm__("vcvtr.s32.f32 %0, %1" : "=t"(bits) : "t"(f));
  memcpy(&v, &bits, sizeof v);
  return v;
}
#endif

#if defined(OC_REQUANT_VCVTR) && defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
/* Where the bounds are a whole 8-bit type's range, v + zp clamped to them is
 * QADD (saturating, so an accumulator near the int32 limits stays beyond
 * the bound it passes) and then SSAT or USAT: the value of the integer clamp
 * of oc_requant8_apply in two instructions (oc_requant8_run). */
#define OC_REQUANT_SAT8 1
#define OC_SAT8_WHOLE_(R) (((R)->lo == -128 && (R)->hi == 127) || ((R)->lo == 0 && (R)->hi == 255))
#define OC_SSAT8_(ACC, M, ZP) __ssat(__qadd(oc_round_even_i32((float)(int32_t)(ACC) * (M)), ZP), 8)
#define OC_USAT8_(ACC, M, ZP) __usat(__qadd(oc_round_even_i32((float)(int32_t)(ACC) * (M)), ZP), 8)
#endif

#if defined(OC_REQUANT_VCVTR)
#define OC_REQUANT8_APPLY_FLOAT_(r, i, acc, v)                                        \
    {                                                                                 \
    v = oc_round_even_i32((float)acc * r->mult[i]);                                   \
    v = v > r->hi - r->zp ? r->hi - r->zp : (v < r->lo - r->zp ? r->lo - r->zp : v);  \
    return v + r->zp;                                                                 \
    }
#define OC_REQUANT8_RUN_FLOAT_(acc, n, out, step, m, zp, lo, hi, t, v)  \
    {                                                                   \
    for (t = 0; t < n; t++) {                                           \
      v = oc_round_even_i32((float)acc[t] * m);                         \
      v = v > hi ? hi : (v < lo ? lo : v);                              \
      out[t * step] = (uint8_t)(v + zp);                                \
    }                                                                   \
    }
#if defined(OC_REQUANT_SAT8)
/* Two sums a pass, both read before either byte is stored: a byte store may
 * alias anything, so with one sum a pass the compiler reloads and re-steps
 * after every store. acc is the caller's own array, never y. */
#define OC_REQUANT8_RUN_PAIRS_(SAT, acc, n, out, step, m, zp)                       \
    {                                                                               \
      uint8_t *o_ = out;                                                            \
      for (t = 0; t + 1 < n; t += 2, o_ += 2 * step) {                              \
        const int32_t a_ = SAT(acc[t], m, zp), b_ = SAT(acc[t + 1], m, zp);         \
        o_[0] = (uint8_t)a_, o_[step] = (uint8_t)b_;                                \
      }                                                                             \
      if (t < n) o_[0] = (uint8_t)SAT(acc[t], m, zp);                               \
    }
#define OC_REQUANT8_RUN_SAT8_(r, acc, n, out, step, m, zp)                          \
    if (OC_SAT8_WHOLE_(r)) {                                                        \
      if (r->lo < 0) {                                                              \
        OC_REQUANT8_RUN_PAIRS_(OC_SSAT8_, acc, n, out, step, m, zp)                 \
      } else {                                                                      \
        OC_REQUANT8_RUN_PAIRS_(OC_USAT8_, acc, n, out, step, m, zp)                 \
      }                                                                             \
      return;                                                                       \
    }
#else
#define OC_REQUANT8_RUN_SAT8_(r, acc, n, out, step, m, zp)
#endif
#endif

#endif /* ONNX_TO_C_OC_REQUANT_FAST_H_ */
