/*
 * onnx-to-c runtime, Armv7E-M: the convolution with 4-bit weights
 * (qconv_w4.c) for x NHWC, one group and kernel rows of whole groups of
 * four values (k_w c_in a multiple of 4), given kernel scratch, an output
 * row at a time as column products: two pixels' windows as columns of
 * 16-bit lanes x - x_zp (oc_qcol_pair.h, as the 8-bit weights' columns),
 * then per pair of output channels (one word of each chunk of a block of
 * oc_w4_at: a nibble of each channel per byte) four sums, two channels by
 * two pixels. Per group of four values five loads back to back (the weight
 * word first, then the pair's four column words), the word's nibbles
 * masked by 0x000F000F after shifts of 0, 8, 4 and 12 bits into the lanes
 * (k, k + 2) and (k + 1, k + 3) of the low channel and then of the high
 * one, each lane pair unpacked once for both pixels: eight SMLAD, 17
 * instructions per 16 multiply-accumulates and a compare and branch per two
 * groups (the windows one pixel at a time: 23). Each sum starts from bias - zu * (the sum of the pixel's
 * column), that sum found once per pair of pixels for all channels, so
 * the sums are qconv_w4.c's, wrapping like them (the products are exact:
 * |x - x_zp| <= 255, nibbles <= 15), and so the same bits. An odd last
 * pixel is taken twice (its values stored twice), an odd last channel
 * beside its block's filler channel (stored once). Without the DSP extension, or at -O0, it defines
 * nothing.
 */
#ifndef ONNX_TO_C_OC_QW4_COL_H_
#define ONNX_TO_C_OC_QW4_COL_H_

#include "onnx_to_c/oc_qcol_pair.h"

#if OC_Q8_DSP && defined(__OPTIMIZE__)

/* One group of a pair of channels: the weight word (the chunk's 8 bytes
 * hold the pair's four k in one word), then pixel a's two column words and
 * pixel b's (they pipeline), then eight SMLAD. */
#define QW4_COL_GROUP_                                                                           \
  "ldr %[w], [%[pa]], #8\n\t"                                                                    \
  "ldr %[a02], [%[xa]], #16\n\t"                                                                 \
  "ldr %[a13], [%[xa], #-12]\n\t"                                                                \
  "ldr %[b02], [%[xa], #-8]\n\t"                                                                 \
  "ldr %[b13], [%[xa], #-4]\n\t"                                                                 \
  "and %[t], %[w], #0x000F000F\n\t"                                                              \
  "smlad %[s0], %[a02], %[t], %[s0]\n\t"                                                         \
  "smlad %[s1], %[b02], %[t], %[s1]\n\t"                                                         \
  "and %[t], %[m], %[w], lsr #8\n\t"                                                             \
  "smlad %[s0], %[a13], %[t], %[s0]\n\t"                                                         \
  "smlad %[s1], %[b13], %[t], %[s1]\n\t"                                                         \
  "and %[t], %[m], %[w], lsr #4\n\t"                                                             \
  "smlad %[s2], %[a02], %[t], %[s2]\n\t"                                                         \
  "smlad %[s3], %[b02], %[t], %[s3]\n\t"                                                         \
  "and %[t], %[m], %[w], lsr #12\n\t"                                                            \
  "smlad %[s2], %[a13], %[t], %[s2]\n\t"                                                         \
  "smlad %[s3], %[b13], %[t], %[s3]\n\t"
/* All groups, two a pass (entering at the second where their number is
 * odd): 14 registers, the parity read from memory. */
#define QW4_COL_ASM_                                                                             \
  __asm__("ldr %[t], %[odd]\n\t"                                                                 \
          "cmp %[t], #0\n\t"                                                                     \
          "bne 5f\n"                                                                             \
          "1:\n\t" QW4_COL_GROUP_ "5:\n\t" QW4_COL_GROUP_                                        \
          "cmp %[xa], %[end]\n\t"                                                                \
          "blo 1b\n\t"                                                                           \
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xa] "+r"(xa),           \
            [pa] "+r"(pa), [w] "=&r"(wv), [t] "=&r"(t), [a02] "=&r"(a02), [a13] "=&r"(a13),      \
            [b02] "=&r"(b02), [b13] "=&r"(b13)                                                   \
          : [m] "r"(m), [end] "r"(end), [odd] "m"(odd)                                           \
          : "cc", "memory")

/* Per type of x (X: s8 or u8): the pairs of channels of two pixels
 * (qw4_##X##_col_pairs), a whole row and the convolution (oc_qcol_pair.h). */
#define QW4_COL_DEFINE(X)                                                                        \
  static OC_NOINLINE void qw4_##X##_col_pairs(const qnhwc_col_ *g, const oc_requant8 *r,         \
                                              const uint32_t *ca, uint8_t *oa, uint8_t *ob) {    \
    const uint8_t *const w = (const uint8_t *)g->w, *const zp = g->w_zp;                         \
    const int32_t c_out = g->c_out, full = g->groups;                                            \
    const ptrdiff_t y_c = g->y_c, blk = (ptrdiff_t)8 * full; /* a block: 8 bytes a group */      \
    const int32_t *const bias = g->bias;                                                         \
    const uint32_t *const end = ca + 4 * full;                                                   \
    const uint32_t m = 0x000F000Fu;                                                              \
    const int32_t odd = full & 1;                                                                \
    const oc_requant8 rl = *r; /* in a local: the byte stores do not make it reloaded */        \
    const int32_t sat = QNHWC_COL_SAT_KIND_(r);                                                  \
    uint32_t xs_a = 0u, xs_b = 0u; /* the sums of the columns */                                 \
    int32_t co, i;                                                                               \
    for (i = 0; i < 4 * full; i += 4) {                                                          \
      xs_a = (uint32_t)__smlad((int32_t)ca[i], 0x00010001, (int32_t)xs_a);                       \
      xs_a = (uint32_t)__smlad((int32_t)ca[i + 1], 0x00010001, (int32_t)xs_a);                   \
      xs_b = (uint32_t)__smlad((int32_t)ca[i + 2], 0x00010001, (int32_t)xs_b);                   \
      xs_b = (uint32_t)__smlad((int32_t)ca[i + 3], 0x00010001, (int32_t)xs_b);                   \
    }                                                                                            \
    for (co = 0; co < c_out; co += 2) {                                                          \
      /* a last channel alone: its block's filler channel beside it, its sums kept once */      \
      const int32_t c1 = co + 1 < c_out ? co + 1 : co;                                           \
      const uint8_t *pa = w + (ptrdiff_t)(co >> 2) * blk + (co & 2) * 2;                          \
      const uint32_t *xa = ca;                                                                   \
      const uint32_t b0 = bias != NULL ? (uint32_t)bias[co] : 0u;                                \
      const uint32_t b1 = bias != NULL ? (uint32_t)bias[c1] : 0u;                                \
      uint32_t s0 = b0 - zp[co] * xs_a, s1 = b0 - zp[co] * xs_b;                                 \
      uint32_t s2 = b1 - zp[c1] * xs_a, s3 = b1 - zp[c1] * xs_b;                                 \
      {                                                                                          \
        uint32_t wv, t, a02, a13, b02, b13;                                                      \
        QW4_COL_ASM_;                                                                            \
      }                                                                                          \
      if (c1 == co) s2 = s0, s3 = s1;                                                            \
      QNHWC_COL_PUT_(co, c1, s0, s1, s2, s3)                                                     \
    }                                                                                            \
  }                                                                                              \
  QNHWC_COL_ROWS_DEFINE(qw4_##X, X)

QW4_COL_DEFINE(s8)
QW4_COL_DEFINE(u8)
#undef QW4_COL_DEFINE
#undef QW4_COL_ASM_
#undef QW4_COL_GROUP_

/* oc_qconv2d_w4_col's convolution as columns (qconv_w4.c). */
#define QW4_COLUMN_CONV_(X_SIGNED, ARGS) ((X_SIGNED) ? qw4_s8_colconv ARGS : qw4_u8_colconv ARGS)
#endif

#endif /* ONNX_TO_C_OC_QW4_COL_H_ */
