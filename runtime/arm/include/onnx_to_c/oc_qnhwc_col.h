/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit channels-last convolution
 * (qconv2d_nhwc.c) with a kernel larger than 1x1, one group, the weights'
 * zero points 0 and kernel rows of whole groups of four values (k_w c_in a
 * multiple of 4), given kernel scratch, an output row at a time as column
 * products (im2col). For
 * two output pixels at a time, each window becomes a column of K = k_h k_w
 * c_in values x - x_zp as 16-bit lanes (oc_qcol_pair.h). Then per
 * pair of output channels (their OHWI weights, K bytes apart) four sums,
 * two channels by two pixels: per group six loads back to back, the two
 * weight words unpacked once each, eight SMLAD (the published inner loop
 * of this shape: CMSIS-NN's arm_nn_mat_mult_kernel_s8_s16), then the four
 * requantized into the outputs. An odd last pixel or channel repeats the
 * one before (the same value stored twice). The products are exact and the
 * sums wrap like the reference's uint32 ones, so the same bits.
 *
 * Against the pair windows of oc_qnhwc_pair.h, which unpack each pixel's
 * bytes once per pair of channels, a column is unpacked once for all the
 * channels. The 3-channel stems (kernel rows of 9 bytes) measured slower
 * this way; the compiler gives them oc_qconv_stem_nhwc (qconv_stem_nhwc.c).
 *
 * The two columns and the gathered kernel row live in the statement's
 * kernel scratch (4 K + k_w c_in bytes, word-aligned), which the compiler
 * gives by default only where the plan has free bytes for it
 * (compiler/target/kernel_facts.h); without it the convolution keeps the
 * other paths, whose frames the column functions do not deepen. Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QNHWC_COL_H_
#define ONNX_TO_C_OC_QNHWC_COL_H_

#include "onnx_to_c/oc_qcol_pair.h"

#if OC_Q8_DSP && defined(__OPTIMIZE__)

/* The full groups of a pair of channels (assembler: GCC spills these
 * sums). Per group six loads back to back (they pipeline: 7 cycles on the
 * M4): pixel a's two column words, pixel b's (the next two), the second channel's four weights (k bytes past the first) and
 * the first's; each weight word unpacked by WS to the lanes (w0, w2) and
 * (w1, w3), eight SMLAD: 20 instructions per 16 multiply-accumulates, two
 * groups a pass (entering at the second where their number is odd). 14
 * registers; the end and the parity are read from memory. */
#define QNHWC_COL_GROUP_(WS)                                                                     \
  "ldr %[a02], [%[xa]], #16\n\t"                                                                 \
  "ldr %[a13], [%[xa], #-12]\n\t"                                                                \
  "ldr %[b02], [%[xa], #-8]\n\t"                                                                 \
  "ldr %[b13], [%[xa], #-4]\n\t"                                                                 \
  "ldr %[u], [%[pa], %[k]]\n\t"                                                                  \
  "ldr %[v], [%[pa]], #4\n\t" WS " %[t], %[u], ror #8\n\t" WS " %[u], %[u]\n\t"               \
  "smlad %[s2], %[a02], %[u], %[s2]\n\t"                                                         \
  "smlad %[s2], %[a13], %[t], %[s2]\n\t"                                                         \
  "smlad %[s3], %[b02], %[u], %[s3]\n\t"                                                         \
  "smlad %[s3], %[b13], %[t], %[s3]\n\t" WS " %[t], %[v], ror #8\n\t" WS " %[v], %[v]\n\t"     \
  "smlad %[s0], %[a02], %[v], %[s0]\n\t"                                                         \
  "smlad %[s0], %[a13], %[t], %[s0]\n\t"                                                         \
  "smlad %[s1], %[b02], %[v], %[s1]\n\t"                                                         \
  "smlad %[s1], %[b13], %[t], %[s1]\n\t"
#define QNHWC_COL_ASM_(WS)                                                                       \
  __asm__("ldr %[t], %[odd]\n\t"                                                                 \
          "cmp %[t], #0\n\t"                                                                     \
          "bne 5f\n"                                                                              \
          "1:\n\t" QNHWC_COL_GROUP_(WS) "5:\n\t" QNHWC_COL_GROUP_(WS)                              \
          "ldr %[t], %[end]\n\t"                                                                 \
          "cmp %[xa], %[t]\n\t"                                                                  \
          "blo 1b\n\t"                                                                           \
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xa] "+r"(xa),           \
            [pa] "+r"(pa), [u] "=&r"(u), [v] "=&r"(v), [t] "=&r"(t), [a02] "=&r"(a02),           \
            [a13] "=&r"(a13), [b02] "=&r"(b02), [b13] "=&r"(b13)                                 \
          : [k] "r"(kk), [end] "m"(end), [odd] "m"(odd)                                          \
          : "cc", "memory")

/* Per pair of x and w types (P; X: x's, s8 or u8): the pairs of channels
 * of two pixels (P##_col_pairs), a whole row and the convolution
 * (oc_qcol_pair.h). */
#define QNHWC_COL_DEFINE(P, X, WT, WS)                                                           \
  static OC_NOINLINE void P##_col_pairs(const qnhwc_col_ *g, const oc_requant8 *r,               \
                                        const uint32_t *ca, uint8_t *oa, uint8_t *ob) {          \
    const WT *const w = (const WT *)g->w;                                                        \
    const int32_t k = g->k, c_out = g->c_out, full = g->groups;                                  \
    const ptrdiff_t y_c = g->y_c;                                                                \
    const int32_t *const bias = g->bias;                                                         \
    const uint32_t *const end = ca + 4 * full;                                                   \
    const int32_t odd = full & 1;                                                                \
    const oc_requant8 rl = *r; /* in a local: the byte stores do not make it reloaded */        \
    const int32_t sat = QNHWC_COL_SAT_KIND_(r);                                                  \
    int32_t co;                                                                                  \
    for (co = 0; co < c_out; co += 2) {                                                          \
      const int32_t c1 = co + 1 < c_out ? co + 1 : co;                                           \
      const WT *pa = w + (ptrdiff_t)co * k;                                                      \
      const uint32_t *xa = ca;                                                                   \
      uint32_t s0 = bias != NULL ? (uint32_t)bias[co] : 0u, s1 = s0;                             \
      uint32_t s2 = bias != NULL ? (uint32_t)bias[c1] : 0u, s3 = s2;                             \
      const ptrdiff_t kk = c1 == co ? 0 : k; /* a last channel alone: the second is the first */  \
      {                                                                                          \
        uint32_t u, v, t, a02, a13, b02, b13;                                                    \
        QNHWC_COL_ASM_(WS);                                                                      \
      }                                                                                          \
      QNHWC_COL_PUT_(co, c1, s0, s1, s2, s3)                                                     \
    }                                                                                            \
  }                                                                                              \
  QNHWC_COL_ROWS_DEFINE(P, X)

QNHWC_COL_DEFINE(qnhwc_s8s8, s8, int8_t, "sxtb16")
QNHWC_COL_DEFINE(qnhwc_u8s8, u8, int8_t, "sxtb16")
QNHWC_COL_DEFINE(qnhwc_s8u8, s8, uint8_t, "uxtb16")
QNHWC_COL_DEFINE(qnhwc_u8u8, u8, uint8_t, "uxtb16")
#undef QNHWC_COL_DEFINE
#undef QNHWC_COL_ASM_
#undef QNHWC_COL_GROUP_

/* oc_qconv2d_nhwc_col's convolution as columns where it fits (qconv2d_nhwc.c). */
#define QNHWC_COLUMN_CONV_(X_SIGNED, W_SIGNED, ARGS)                                             \
  ((X_SIGNED) ? ((W_SIGNED) ? qnhwc_s8s8_colconv ARGS : qnhwc_s8u8_colconv ARGS)                 \
              : ((W_SIGNED) ? qnhwc_u8s8_colconv ARGS : qnhwc_u8u8_colconv ARGS))
#endif

#endif /* ONNX_TO_C_OC_QNHWC_COL_H_ */
