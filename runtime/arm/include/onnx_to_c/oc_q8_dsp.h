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
/* The high halves of lo and hi as the lanes of one word: PKHTB. */
static inline __attribute__((unused)) int32_t oc_pack16_top(int32_t lo, int32_t hi) {
  int32_t v;
  __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(v) : "r"(lo), "r"(hi));
  return v;
}

/* The dot products of one column with a block of four channels' weights,
 * in assembler: GCC issues a load and a pointer update per word where LDM
 * and post-indexed loads do both, and an LDM of two words costs what two
 * LDR cost. Per run of four values: COLUMN loads the column's values into
 * the lanes %[c02] = (x0, x2) and %[c13] = (x1, x3), advancing %[cb]; then
 * the sums %[s0] .. %[s3] += the block's 16 weights at %[wp] (four per
 * channel, 8-bit, XTB16 "sxtb16" or "uxtb16"), SMLAD per lane pair, %[wp]
 * advancing by 16. LDM and LDRD need word-aligned addresses:
 * OC_Q8_ASM_DOT4_ takes them where the words are aligned, LDR (which the
 * M4 and M7 do unaligned) elsewhere. Declares its operands' variables;
 * s0 .. s3, cb, end and wp are the caller's. */
/* A run's four input bytes: one LDR from cb (advancing it), unpacked to the
 * lanes (x0, x2) in c02 and (x1, x3) in c13. */
#define OC_Q8_ASM_ROW4_(XTB16) \
  "ldr %[c13], [%[cb]], #4\n\t" XTB16 " %[c02], %[c13]\n\t" XTB16 " %[c13], %[c13], ror #8\n\t"
#define OC_Q8_ASM_CHANNEL_(XTB16, S, W)                                     \
  XTB16 " %[t], %[" W "]\n\t"                                              \
  "smlad %[" S "], %[c02], %[t], %[" S "]\n\t"                             \
  XTB16 " %[" W "], %[" W "], ror #8\n\t"                                  \
  "smlad %[" S "], %[c13], %[" W "], %[" S "]\n\t"
#define OC_Q8_ASM_LOOP_(COLUMN, XTB16, LOAD2)                                                  \
  __asm__("1:\n\t" COLUMN LOAD2 OC_Q8_ASM_CHANNEL_(XTB16, "s0", "wa")                          \
              OC_Q8_ASM_CHANNEL_(XTB16, "s1", "wb") LOAD2 OC_Q8_ASM_CHANNEL_(XTB16, "s2", "wa") \
                  OC_Q8_ASM_CHANNEL_(XTB16, "s3", "wb") "cmp %[cb], %[end]\n\t"                 \
          "blo 1b\n\t"                                                                        \
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [wp] "+r"(wp),          \
            [cb] "+r"(cb), [c02] "=&r"(c02), [c13] "=&r"(c13), [t] "=&r"(t), [wa] "=&r"(wa),    \
            [wb] "=&r"(wb)                                                                      \
          : [end] "r"(end)                                                                      \
          : "cc", "memory")
/* COLUMN_ALIGNED: COLUMN for a word-aligned column, or COLUMN itself. The
 * weight words in an ascending register pair, as LDM wants. */
#define OC_Q8_ASM_DOT4_(COLUMN_ALIGNED, COLUMN, XTB16)                                          \
  do {                                                                                         \
    register uint32_t wa __asm__("r10"), wb __asm__("r11");                                    \
    uint32_t c02, c13, t;                                                                      \
    if (cb >= end) break;                                                                      \
    if ((((uintptr_t)cb | (uintptr_t)wp) & 3u) == 0) {                                         \
      OC_Q8_ASM_LOOP_(COLUMN_ALIGNED, XTB16, "ldmia %[wp]!, {%[wa], %[wb]}\n\t");              \
    } else {                                                                                   \
      OC_Q8_ASM_LOOP_(COLUMN, XTB16, "ldr %[wa], [%[wp]], #4\n\tldr %[wb], [%[wp]], #4\n\t"); \
    }                                                                                          \
  } while (0)
#else
#define OC_Q8_DSP 0
#endif

#endif /* ONNX_TO_C_OC_Q8_DSP_H_ */
