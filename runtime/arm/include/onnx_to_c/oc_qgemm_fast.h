/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit matrix product (qgemm.c) with SMLAD: A's lanes shared by
 * four columns of B; the interface of the reference oc_qgemm_fast.h. Without
 * the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QGEMM_FAST_H_
#define ONNX_TO_C_OC_QGEMM_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
#define QGEMM_DSP_ 1
#define qgemm_load4_ oc_q8_load4

/* Bytes 0..3 of V as 16-bit lanes (v0, v2) and (v1, v3), sign- or
 * zero-extended by EXT. */
#define QGEMM_EVEN_(V, EXT) ((int32_t)EXT(V))
#define QGEMM_ODD_(V, EXT) ((int32_t)EXT(((V) >> 8) | ((V) << 24)))
/* B's lanes minus its zero point (SUB: QGEMM_ZB_ or nothing when it is 0). */
#define QGEMM_ZB_(X) __ssub16((X), zz)
#define QGEMM_AS_IS_(X) (X)

/* One block of four int8 B columns (trans_b: each column contiguous in k,
 * the next K bytes on), k in steps of 4 while 4 remain: A's lanes are
 * shared by the four columns. */
#define QGEMM_DSP_COLUMN_(S, W4, SUB)                                               \
  S = (uint32_t)__smlad(ao, SUB(QGEMM_ODD_(W4, __sxtb16)),                          \
                        __smlad(ae, SUB(QGEMM_EVEN_(W4, __sxtb16)), (int32_t)S))
#define QGEMM_DSP_LOOP_(AEXT, SUB)                                                  \
  for (k = 0; k + 4 <= q->k; k += 4) {                                              \
    const uint32_t av4 = qgemm_load4_(ap + k);                                      \
    const int8_t *bk = b0 + k;                                                      \
    const int32_t ae = __ssub16(QGEMM_EVEN_(av4, AEXT), za);                        \
    const int32_t ao = __ssub16(QGEMM_ODD_(av4, AEXT), za);                         \
    const uint32_t w0 = qgemm_load4_(bk), w1 = qgemm_load4_(bk + kk);               \
    const uint32_t w2 = qgemm_load4_(bk + 2 * kk), w3 = qgemm_load4_(bk + 3 * kk);  \
    QGEMM_DSP_COLUMN_(s0, w0, SUB);                                                 \
    QGEMM_DSP_COLUMN_(s1, w1, SUB);                                                 \
    QGEMM_DSP_COLUMN_(s2, w2, SUB);                                                 \
    QGEMM_DSP_COLUMN_(s3, w3, SUB);                                                 \
  }

/* A zero point in both 16-bit lanes. */
static __attribute__((unused)) int32_t qgemm_lanes_of_(int32_t z) { return (int32_t)(((uint32_t)z << 16) | ((uint32_t)z & 0xFFFFu)); }
#endif

#if QGEMM_DSP_
/* Four products of raw bytes into S: two SMLAD, A's lanes shared. */
#define QGEMM_RAW4_(S, W, BEXT, BODD) \
  S = (uint32_t)__smlad(ao, (int32_t)BODD(W), __smlad(ae, (int32_t)BEXT(W), (int32_t)(S)))
#define QGEMM_RAW_DSP_LOOP4_(AEXT, AODD, BEXT, BODD)                             \
  for (; k + 4 <= q->k; k += 4) {                                              \
    const uint32_t av4 = qgemm_load4_(ar + k);                                  \
    const int32_t ae = (int32_t)AEXT(av4), ao = (int32_t)AODD(av4);             \
    const uint32_t w0 = qgemm_load4_(b0 + k), w1 = qgemm_load4_(b1 + k);        \
    const uint32_t w2 = qgemm_load4_(b2 + k), w3 = qgemm_load4_(b3 + k);        \
    QGEMM_RAW4_(s0, w0, BEXT, BODD);                                            \
    QGEMM_RAW4_(s1, w1, BEXT, BODD);                                            \
    QGEMM_RAW4_(s2, w2, BEXT, BODD);                                            \
    QGEMM_RAW4_(s3, w3, BEXT, BODD);                                            \
  }
#endif

#if QGEMM_DSP_
#define QGEMM_GENERAL_DSP_                                                                 \
      if (!q->a_float && q->trans_b && q->b_signed && z0 == z1 && z0 == z2 && z0 == z3) {  \
        const uint8_t *ap = (const uint8_t *)a + arow;                                     \
        const int8_t *b0 = (const int8_t *)b + c0;                                         \
        const ptrdiff_t kk = q->k;                                                         \
        const int32_t za = qgemm_lanes_of_(q->a_zp), zz = qgemm_lanes_of_(z0);             \
        if (q->a_signed && z0 == 0) {                                                      \
          QGEMM_DSP_LOOP_(__sxtb16, QGEMM_AS_IS_)                                          \
        } else if (q->a_signed) {                                                          \
          QGEMM_DSP_LOOP_(__sxtb16, QGEMM_ZB_)                                             \
        } else if (z0 == 0) {                                                              \
          QGEMM_DSP_LOOP_(__uxtb16, QGEMM_AS_IS_)                                          \
        } else {                                                                           \
          QGEMM_DSP_LOOP_(__uxtb16, QGEMM_ZB_)                                             \
        }                                                                                  \
      }
/* The raw loop for A and B of signedness AS and BS (S or U). */
#define QGEMM_EXT_S __sxtb16
#define QGEMM_ODD_S oc_sxtb16_odd
#define QGEMM_EXT_U __uxtb16
#define QGEMM_ODD_U oc_uxtb16_odd
#define QGEMM_RAW_DSP_LOOP_(AS, BS) \
  QGEMM_RAW_DSP_LOOP4_(QGEMM_EXT_##AS, QGEMM_ODD_##AS, QGEMM_EXT_##BS, QGEMM_ODD_##BS)
#endif

#if OC_Q8_DSP
/* The fully connected layer's runs (oc_qgemm_packed, qgemm_packed.c, through
 * oc_qcol.h's channels): those of oc_qcol_fast.h two per pass, one compare
 * and branch per eight k, then a last run of four alone. Per run one LDR of
 * the row's four bytes unpacked to the lanes (x0, x2), (x1, x3), the block's
 * 16 weights by LOAD2 (LDM where they are word-aligned), SMLAD per lane
 * pair. Returns the weights after the runs. */
#define QGEMM_RUN_(XTB16, WTB16, LOAD2)                                                          \
  OC_Q8_ASM_ROW4_(XTB16) LOAD2 OC_Q8_ASM_CHANNEL_(WTB16, "s0", "wa")                             \
  OC_Q8_ASM_CHANNEL_(WTB16, "s1", "wb") LOAD2 OC_Q8_ASM_CHANNEL_(WTB16, "s2", "wa")              \
  OC_Q8_ASM_CHANNEL_(WTB16, "s3", "wb")
#define QGEMM_LOOP8_(XTB16, WTB16, LOAD2)                                                        \
  __asm__("1:\n\t" QGEMM_RUN_(XTB16, WTB16, LOAD2) QGEMM_RUN_(XTB16, WTB16, LOAD2)               \
          "cmp %[cb], %[end]\n\t"                                                                \
          "blo 1b\n\t"                                                                           \
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [wp] "+r"(wp),           \
            [cb] "+r"(cb), [c02] "=&r"(c02), [c13] "=&r"(c13), [t] "=&r"(t), [wa] "=&r"(wa),     \
            [wb] "=&r"(wb)                                                                       \
          : [end] "r"(end8)                                                                      \
          : "cc", "memory")
#define QGEMM_LDM2_ "ldmia %[wp]!, {%[wa], %[wb]}\n\t"
#define QGEMM_LDR2_ "ldr %[wa], [%[wp]], #4\n\tldr %[wb], [%[wp]], #4\n\t"
#define QGEMM_DOT8_DEFINE(NAME, XT, WT, XTB16, WTB16)                                            \
  static __attribute__((noinline, unused)) const WT *NAME(const XT *cb, const XT *end,          \
                                                          const WT *wp, uint32_t *s) {          \
    const XT *const end8 = cb + ((end - cb) & ~(ptrdiff_t)7);                                    \
    uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                                         \
    if (cb < end8) {                                                                             \
      register uint32_t wa __asm__("r10"), wb __asm__("r11");                                    \
      uint32_t c02, c13, t;                                                                      \
      if (((uintptr_t)wp & 3u) == 0) {                                                           \
        QGEMM_LOOP8_(XTB16, WTB16, QGEMM_LDM2_);                                                 \
      } else {                                                                                   \
        QGEMM_LOOP8_(XTB16, WTB16, QGEMM_LDR2_);                                                 \
      }                                                                                          \
    }                                                                                            \
    OC_Q8_ASM_DOT4_(OC_Q8_ASM_ROW4_(XTB16), OC_Q8_ASM_ROW4_(XTB16), WTB16);                      \
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                  \
    return wp;                                                                                   \
  }
QGEMM_DOT8_DEFINE(oc_qgemm_dot8_s8s8, int8_t, int8_t, "sxtb16", "sxtb16")
QGEMM_DOT8_DEFINE(oc_qgemm_dot8_s8u8, int8_t, uint8_t, "sxtb16", "uxtb16")
QGEMM_DOT8_DEFINE(oc_qgemm_dot8_u8s8, uint8_t, int8_t, "uxtb16", "sxtb16")
QGEMM_DOT8_DEFINE(oc_qgemm_dot8_u8u8, uint8_t, uint8_t, "uxtb16", "uxtb16")
#undef QGEMM_DOT8_DEFINE
#undef QGEMM_LDM2_
#undef QGEMM_LDR2_
#undef QGEMM_LOOP8_
#undef QGEMM_RUN_
#endif

#endif /* ONNX_TO_C_OC_QGEMM_FAST_H_ */
