/*
 * onnx-to-c runtime, Armv7E-M: the inner loops of the kernels with 4-bit
 * weights (oc_qw4_run.h), the interface of the reference oc_qw4_fast.h.
 * Without the DSP extension, or at -O0 (where GCC finds no registers for
 * the assembler), it defines nothing.
 *
 * A run of values against a block (oc_w4_at): per step one LDR of four
 * values, unpacked to the lanes (x0, x2) and (x1, x3) less x_zp (SXTB16 or
 * UXTB16, SSUB16), then per pair of channels one LDR of the chunk's four
 * bytes, whose nibbles AND 0x000F000F gives, after shifts of 0, 8, 4 and 12
 * bits (an operand of AND), the lanes (k, k + 2) and (k + 1, k + 3) of the
 * low channel and then of the high one, each against its x lanes by SMLAD:
 * 23 instructions per 16 multiply-accumulates, as the 8-bit weights' dense
 * windows (oc_qnhwc_fast.h). SMLAD's sums wrap like the uint32 ones and its
 * products are exact (|x - x_zp| <= 255, nibbles <= 15), so the same bits.
 * The sums of the values: USADA8 adds four bytes per instruction (an int8
 * value v is (uint8)(v ^ 0x80) - 128).
 */
#ifndef ONNX_TO_C_OC_QW4_FAST_H_
#define ONNX_TO_C_OC_QW4_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"

#if OC_Q8_DSP && defined(__OPTIMIZE__)
#define OC_W4_ASM_CHANNELS_(SA, SB)                                                              \
  "ldr %[w], [%[wp]], #4\n\t"                                                                    \
  "and %[t], %[w], #0x000F000F\n\t"                                                              \
  "smlad %[" SA "], %[x02], %[t], %[" SA "]\n\t"                                                 \
  "and %[t], %[m], %[w], lsr #8\n\t"                                                             \
  "smlad %[" SA "], %[x13], %[t], %[" SA "]\n\t"                                                 \
  "and %[t], %[m], %[w], lsr #4\n\t"                                                             \
  "smlad %[" SB "], %[x02], %[t], %[" SB "]\n\t"                                                 \
  "and %[t], %[m], %[w], lsr #12\n\t"                                                            \
  "smlad %[" SB "], %[x13], %[t], %[" SB "]\n\t"
#define OC_W4_FAST_RUN_(XTB16)                                                                   \
  if (left_ >= 4) {                                                                              \
    const uint8_t *xb_ = (const uint8_t *)xp_, *const xe_ = xb_ + (left_ & ~3);                  \
    const uint32_t zx2_ = (uint32_t)(uint16_t)zx * 0x00010001u, m_ = 0x000F000Fu;                \
    uint32_t x02_, x13_, w_, tv_;                                                                \
    __asm__("1:\n\t"                                                                             \
            "ldr %[x13], [%[xp]], #4\n\t" XTB16 " %[x02], %[x13]\n\t"                            \
            XTB16 " %[x13], %[x13], ror #8\n\t"                                                  \
            "ssub16 %[x02], %[x02], %[zx2]\n\t"                                                  \
            "ssub16 %[x13], %[x13], %[zx2]\n\t" OC_W4_ASM_CHANNELS_("s0", "s1")                  \
                OC_W4_ASM_CHANNELS_("s2", "s3") "cmp %[xp], %[xe]\n\t"                           \
            "blo 1b\n\t"                                                                         \
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [xp] "+&r"(xb_),        \
              [wp] "+&r"(wp_), [x02] "=&r"(x02_), [x13] "=&r"(x13_), [w] "=&r"(w_), [t] "=&r"(tv_) \
            : [xe] "r"(xe_), [zx2] "r"(zx2_), [m] "r"(m_)                                        \
            : "cc", "memory");                                                                   \
    xp_ += left_ & ~3;                                                                           \
    left_ &= 3;                                                                                  \
  }
#endif

#if OC_Q8_DSP
#define OC_W4_FAST_XSUM_(FLIP)                                                                   \
  {                                                                                              \
    const int32_t n4_ = left_ & ~3;                                                              \
    uint32_t u_ = 0u;                                                                            \
    for (t_ = 0; t_ < n4_; t_ += 4) u_ = __usada8(oc_q8_load4(xp_ + t_) ^ (FLIP), 0u, u_);       \
    xs += u_ - (uint32_t)n4_ * ((FLIP) != 0u ? 128u : 0u) - (uint32_t)n4_ * (uint32_t)zx;        \
    xp_ += n4_;                                                                                  \
    left_ -= n4_;                                                                                \
  }
#endif

#endif /* ONNX_TO_C_OC_QW4_FAST_H_ */
