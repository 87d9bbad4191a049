/*
 * onnx-to-c runtime, Armv7E-M with an FPU: one pass of the 8-bit
 * channels-last pointwise convolution (qconv_pw_nhwc.c) over two pixels and
 * every pair of output channels, in assembler: the tiles, sums, values and
 * order of reads and writes of the reference loop, bit for bit (SMLAD's
 * sums wrap like its uint32 ones), with the work outside the dot product
 * cut to a minimum. Per tile (two channels by two pixels): the pair's
 * folded biases with one LDRD into the four sums; per run of four input
 * channels one LDR of each pixel's bytes and of each channel's weights,
 * SXTB16/UXTB16 to 16-bit lanes and eight SMLAD, two runs per pass of the
 * loop (21 instructions per 16 multiply-accumulates, the loop's included);
 * then the four sums to the FPU two at a time (VMOV of a register pair),
 * VCVT, VMUL by the pair's two multipliers (one VLDM), VCVTR (round to
 * nearest, ties to even, the FPSCR's reset mode), back two at a time, QADD
 * of the zero point and SSAT or USAT to 8 bits: oc_requant8_apply's float
 * mode where the bounds are a whole 8-bit type's range (OC_SSAT8_,
 * oc_requant_fast.h); four byte stores. Serves input channel counts that
 * are multiples of four and even output channel counts; qconv_pw_nhwc.c's
 * loop takes the others.
 */
#ifndef ONNX_TO_C_OC_QPW_NHWC_PASS_H_
#define ONNX_TO_C_OC_QPW_NHWC_PASS_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_requant_fast.h"

#if OC_Q8_DSP && defined(OC_REQUANT_SAT8)
#define QPW_NHWC_PASSES_ 1

/* What a pass reads (in this order: the assembler loads it into s8 .. s15,
 * where it keeps and advances it; the struct is not written). */
typedef struct {
  const int32_t *bias; /*  0: the first pair's two folded biases */
  const float *mult;   /*  4: the first pair's two multipliers */
  int32_t mult_step;   /*  8: 8 (per channel) or 0 (mult holds one twice) */
  uint8_t *ya, *yb;    /* 12, 16: the first pair's bytes at each pixel */
  int32_t pairs;       /* 20: pairs of output channels */
  int32_t cin;         /* 24: input channels, a multiple of 4 */
  int32_t zp;          /* 28: the output's zero point */
  int32_t plane;       /* 32: NCHW passes only: bytes from a channel's output to the next's */
} qpw_nhwc_pass;

/* The inner loop's registers: r0, r1 the pixels' bytes, r2 the weights, r3
 * the end of the first pixel's; sums r4 (c, a), r5 (c + 1, a), r6 (c, b),
 * r7 (c + 1, b); lanes r8, r9 (a), r10, r11 (b); r12 and lr the weights'
 * lanes. The stack holds the pixels' starts, s8 .. s15 the pass's fields
 * (VMOV to and from them takes a cycle, a load two). One run of four
 * input channels: its three first words loaded back to back (a load that
 * follows a load is pipelined). */
#define QPW_NHWC_PASS_RUN_(XTB, WTB)                                                              \
  "ldr r9, [r0], #4\n\tldr r11, [r1], #4\n\tldr r12, [r2], #4\n\t" XTB " r8, r9\n\t" XTB       \
  " r9, r9, ror #8\n\t" XTB " r10, r11\n\t" XTB " r11, r11, ror #8\n\t" WTB " lr, r12\n\t"      \
  "smlad r4, r8, lr, r4\n\tsmlad r6, r10, lr, r6\n\t" WTB " r12, r12, ror #8\n\t"               \
  "smlad r4, r9, r12, r4\n\tsmlad r6, r11, r12, r6\n\t"                                        \
  "ldr lr, [r2], #4\n\t" WTB " r12, lr\n\t"                                                    \
  "smlad r5, r8, r12, r5\n\tsmlad r7, r10, r12, r7\n\t" WTB " lr, lr, ror #8\n\t"              \
  "smlad r5, r9, lr, r5\n\tsmlad r7, r11, lr, r7\n\t"
/* The runs two per pass of the loop, entered at the second where c_in / 4
 * is odd. */
#define QPW_NHWC_PASS_ASM_(XTB, WTB, SAT, STORES)                                                \
  __asm__("push {r0, r1, r3, r4, r5, r6, r7, r8, r9, r10, r11, lr}\n\t"                         \
          "vldmia r3, {s8-s15}\n\t"                                                             \
          "1:\n\t"                                                                              \
          "vmov r12, s8\n\t"                                                                    \
          "ldrd r4, r5, [r12], #8\n\t"                                                          \
          "vmov s8, r12\n\t"                                                                    \
          "mov r6, r4\n\t"                                                                      \
          "mov r7, r5\n\t"                                                                      \
          "vmov r12, s14\n\t"                                                                   \
          "ldrd r0, r1, [sp, #0]\n\t"                                                           \
          "add r3, r0, r12\n\t"                                                                 \
          "tst r12, #4\n\t"                                                                     \
          "bne 3f\n\t"                                                                          \
          "2:\n\t" QPW_NHWC_PASS_RUN_(XTB, WTB) "3:\n\t" QPW_NHWC_PASS_RUN_(XTB, WTB)              \
          "cmp r0, r3\n\t"                                                                      \
          "blo 2b\n\t"                                                                          \
          "vmov r12, lr, s9, s10\n\t"                                                           \
          "vldmia r12, {s0, s1}\n\t"                                                            \
          "add r12, r12, lr\n\t"                                                                \
          "vmov s9, r12\n\t"                                                                    \
          "vmov s2, s3, r4, r5\n\t"                                                             \
          "vmov s4, s5, r6, r7\n\t"                                                             \
          "vcvt.f32.s32 s2, s2\n\t"                                                             \
          "vcvt.f32.s32 s3, s3\n\t"                                                             \
          "vcvt.f32.s32 s4, s4\n\t"                                                             \
          "vcvt.f32.s32 s5, s5\n\t"                                                             \
          "vmul.f32 s2, s2, s0\n\t"                                                             \
          "vmul.f32 s3, s3, s1\n\t"                                                             \
          "vmul.f32 s4, s4, s0\n\t"                                                             \
          "vmul.f32 s5, s5, s1\n\t"                                                             \
          "vcvtr.s32.f32 s2, s2\n\t"                                                            \
          "vcvtr.s32.f32 s3, s3\n\t"                                                            \
          "vcvtr.s32.f32 s4, s4\n\t"                                                            \
          "vcvtr.s32.f32 s5, s5\n\t"                                                            \
          "vmov r4, r5, s2, s3\n\t"                                                             \
          "vmov r6, r7, s4, s5\n\t"                                                             \
          "vmov lr, s15\n\t"                                                                    \
          "qadd r4, r4, lr\n\t"                                                                 \
          "qadd r5, r5, lr\n\t"                                                                 \
          "qadd r6, r6, lr\n\t"                                                                 \
          "qadd r7, r7, lr\n\t" SAT " r4, #8, r4\n\t" SAT " r5, #8, r5\n\t" SAT " r6, #8, r6\n\t" \
          SAT " r7, #8, r7\n\t"                                                                 \
          "vmov r8, r9, s11, s12\n\t" STORES "vmov s11, s12, r8, r9\n\t"                         \
          "vmov r12, s13\n\t"                                                                   \
          "subs r12, r12, #1\n\t"                                                               \
          "vmov s13, r12\n\t"                                                                   \
          "bne 1b\n\t"                                                                          \
          "pop {r0, r1, r3, r4, r5, r6, r7, r8, r9, r10, r11, pc}\n\t")

/* The four bytes of a tile (r4 .. r7) at pixel a's r8 and pixel b's r9,
 * each advanced past the pair of channels: channels-last, adjacent bytes;
 * NCHW, a plane apart (s->plane, read through the struct's pointer, the
 * third word pushed; Thumb-2 has no post-indexed register offset). */
#define QPW_NHWC_STORES_                                                                          \
  "strb r4, [r8], #1\n\tstrb r5, [r8], #1\n\tstrb r6, [r9], #1\n\tstrb r7, [r9], #1\n\t"
#define QPW_NCHW_STORES_                                                                          \
  "ldr r10, [sp, #8]\n\tldr r10, [r10, #32]\n\tstrb r4, [r8]\n\tstrb r5, [r8, r10]\n\t"       \
  "strb r6, [r9]\n\tstrb r7, [r9, r10]\n\tadd r8, r8, r10, lsl #1\n\tadd r9, r9, r10, lsl #1\n\t"

/* A pass over pixels xa and xb (the same pixel for a row's odd last one,
 * its bytes then stored twice at the same place) and every pair of output
 * channels; w the packed weights, s the rest. GCC also takes noipa (no
 * assumption from the body it cannot see into); clang has no such
 * attribute and makes none for a naked function. */
#if defined(__clang__)
#define QPW_NHWC_NAKED_ __attribute__((naked, unused))
#else
#define QPW_NHWC_NAKED_ __attribute__((naked, noipa, unused))
#endif
#define QPW_NHWC_PASS_DEFINE_(NAME, XTB, WTB, SAT, STORES)                                       \
  static void QPW_NHWC_NAKED_                                                                    \
  NAME(const void *xa __attribute__((unused)), const void *xb __attribute__((unused)),         \
       const void *w __attribute__((unused)), const qpw_nhwc_pass *s __attribute__((unused))) {       \
    QPW_NHWC_PASS_ASM_(XTB, WTB, SAT, STORES);                                                  \
  }
#define QPW_PASSES_DEFINE_(LAYOUT, STORES)                                                        \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_int8_t_int8_t_s, "sxtb16", "sxtb16", "ssat", STORES)     \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_int8_t_int8_t_u, "sxtb16", "sxtb16", "usat", STORES)     \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_int8_t_uint8_t_s, "sxtb16", "uxtb16", "ssat", STORES)    \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_int8_t_uint8_t_u, "sxtb16", "uxtb16", "usat", STORES)    \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_uint8_t_int8_t_s, "uxtb16", "sxtb16", "ssat", STORES)    \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_uint8_t_int8_t_u, "uxtb16", "sxtb16", "usat", STORES)    \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_uint8_t_uint8_t_s, "uxtb16", "uxtb16", "ssat", STORES)   \
  QPW_NHWC_PASS_DEFINE_(qpw_##LAYOUT##_pass_uint8_t_uint8_t_u, "uxtb16", "uxtb16", "usat", STORES)
QPW_PASSES_DEFINE_(nhwc, QPW_NHWC_STORES_)
QPW_PASSES_DEFINE_(nchw, QPW_NCHW_STORES_)
#undef QPW_PASSES_DEFINE_
#undef QPW_NHWC_PASS_DEFINE_
#undef QPW_NHWC_NAKED_

/* The whole statement in passes where they serve it (float requantization,
 * bounds a whole 8-bit range, c_in a multiple of 4, c_out even): 1, else 0
 * and nothing done. Rows in qconv_pw_nhwc.c's order, pixels two by two. */
#define QPW_NHWC_WHOLE_(XT, WT, Q, R, X, W, BIAS, Y)                                              \
  qpw_nhwc_whole_(Q, R, X, W, BIAS, Y,                                                          \
                  (R)->lo < 0 ? qpw_nhwc_pass_##XT##_##WT##_s : qpw_nhwc_pass_##XT##_##WT##_u)
OC_INLINE int32_t qpw_nhwc_whole_(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                  const void *w, const int32_t *bias, void *y,
                                  void (*pass)(const void *, const void *, const void *, const qpw_nhwc_pass *)) {
  const oc_conv2d_params *p = &q->conv;
  const ptrdiff_t rows = (ptrdiff_t)p->n * p->d_in * p->h_in, width = p->w_in;
  const int32_t cin = p->c_in, cout = p->c_out;
  float one[2];
  qpw_nhwc_pass s;
  ptrdiff_t row, col;
  if (r->mult == NULL || !OC_SAT8_WHOLE_(r) || cin < 4 || (cin & 3) != 0 || cout < 2 || (cout & 1) != 0) {
    return 0;
  }
  one[0] = one[1] = r->mult[0];
  s.bias = bias, s.mult = r->per_channel ? r->mult : one, s.mult_step = r->per_channel ? 8 : 0;
  s.pairs = cout / 2, s.cin = cin, s.zp = r->zp;
  for (row = 0; row < rows; row++) {
    const ptrdiff_t first = (p->reverse_rows ? rows - 1 - row : row) * width;
    for (col = 0; col < width; col += 2) {
      const uint8_t *const xa = (const uint8_t *)x + (first + col) * cin;
      const int32_t two = col + 1 < width;
      s.ya = (uint8_t *)y + (first + col) * cout, s.yb = two ? s.ya + cout : s.ya;
      pass(xa, two ? xa + cin : xa, w, &s);
    }
  }
  return 1;
}

/* qconv1x1_overlap_pairs.c's statement (x, y NCHW) in passes where they
 * serve it, as QPW_NHWC_WHOLE_: 1, else 0 and nothing done. Per item, pixels
 * two by two in increasing order, both pixels' bytes gathered into column
 * before the pass stores their outputs a plane apart. */
#define QPW_NCHW_WHOLE_(XT, WT, Q, R, X, W, BIAS, Y, COLUMN)                                      \
  qpw_nchw_whole_(Q, R, X, W, BIAS, Y, COLUMN,                                                  \
                  (R)->lo < 0 ? qpw_nchw_pass_##XT##_##WT##_s : qpw_nchw_pass_##XT##_##WT##_u)
OC_INLINE int32_t qpw_nchw_whole_(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                  const void *w, const int32_t *bias, void *y, void *column,
                                  void (*pass)(const void *, const void *, const void *, const qpw_nhwc_pass *)) {
  const oc_conv2d_params *p = &q->conv;
  const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in;
  const int32_t cin = p->c_in, cout = p->c_out;
  uint8_t *const col = (uint8_t *)column;
  float one[2];
  qpw_nhwc_pass s;
  int32_t n, ic;
  ptrdiff_t px;
  if (r->mult == NULL || !OC_SAT8_WHOLE_(r) || cin < 4 || (cin & 3) != 0 || cout < 2 || (cout & 1) != 0) {
    return 0;
  }
  one[0] = one[1] = r->mult[0];
  s.bias = bias, s.mult = r->per_channel ? r->mult : one, s.mult_step = r->per_channel ? 8 : 0;
  s.pairs = cout / 2, s.cin = cin, s.zp = r->zp, s.plane = (int32_t)vol;
  for (n = 0; n < p->n; n++) {
    const uint8_t *const xn = (const uint8_t *)x + (ptrdiff_t)n * cin * vol;
    uint8_t *const yn = (uint8_t *)y + (ptrdiff_t)n * cout * vol;
    for (px = 0; px + 1 < vol; px += 2) {
      const uint8_t *xp = xn + px;
      for (ic = 0; ic < cin; ic++, xp += vol) col[ic] = xp[0], col[cin + ic] = xp[1];
      s.ya = yn + px, s.yb = s.ya + 1;
      pass(col, col + cin, w, &s);
    }
    if (px < vol) { /* an odd last pixel, with itself as the second */
      const uint8_t *xp = xn + px;
      for (ic = 0; ic < cin; ic++, xp += vol) col[ic] = xp[0];
      s.ya = s.yb = yn + px;
      pass(col, col, w, &s);
    }
  }
  return 1;
}
#endif

#endif /* ONNX_TO_C_OC_QPW_NHWC_PASS_H_ */
