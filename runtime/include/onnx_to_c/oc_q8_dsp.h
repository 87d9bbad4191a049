/*
 * onnx-to-c runtime: the Cortex-M4/M7 DSP extension for 8-bit kernels (Arm
 * ACLE, arm_acle.h). OC_Q8_DSP is 1 where the extension is there; the
 * kernels keep a plain C loop as the portable path and as the reference.
 * SMLAD adds two 16x16 products to a 32-bit sum that wraps like int32
 * arithmetic, and integer addition does not depend on the order, so both
 * paths give the same bits.
 */
#ifndef ONNX_TO_C_OC_Q8_DSP_H_
#define ONNX_TO_C_OC_Q8_DSP_H_

#include "onnx_to_c/oc_common.h"

#if defined(__GNUC__) && defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>
#define OC_Q8_DSP 1

/* Four bytes at p in one LDR (the M4 and M7 load unaligned words). */
static inline __attribute__((unused)) uint32_t oc_q8_load4(const void *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* Bytes 1 and 3 as 16-bit lanes in one instruction: the rotation is an
 * operand of SXTB16/UXTB16, which GCC does not fold into the intrinsic.
 * Bytes 0 and 2 are __sxtb16(v) / __uxtb16(v). */
static inline __attribute__((unused)) uint32_t oc_sxtb16_odd(uint32_t x) {
  uint32_t v;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(v) : "r"(x));
  return v;
}
static inline __attribute__((unused)) uint32_t oc_uxtb16_odd(uint32_t x) {
  uint32_t v;
  __asm__("uxtb16 %0, %1, ror #8" : "=r"(v) : "r"(x));
  return v;
}

/* The low halves of lo and hi as the lanes of one word: PKHBT (GCC does
 * not form it from the masks and shifts). */
static inline __attribute__((unused)) int32_t oc_pack16(int32_t lo, int32_t hi) {
  int32_t v;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(v) : "r"(lo), "r"(hi));
  return v;
}
#else
#define OC_Q8_DSP 0
#endif

#endif /* ONNX_TO_C_OC_Q8_DSP_H_ */
