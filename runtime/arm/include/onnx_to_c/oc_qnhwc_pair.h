/*
 * onnx-to-c runtime, Armv7E-M: the dense windows of the 8-bit channels-last
 * convolution (qconv2d_nhwc.c) two pixels at a time, for oc_qnhwc_fast.h.
 * A tile of two output channels by two pixels keeps four sums: per step of
 * four input channels one LDR of each pixel's bytes and one of each
 * channel's weights (the four loads back to back), each word unpacked once
 * to the 16-bit lanes (v0, v2) and (v1, v3) by SXTB16/UXTB16 and used by
 * two SMLAD, so 16 multiply-accumulates take 4 loads, 8 unpackings and 8
 * SMLAD, where a pixel at a time takes 5 loads, 10 unpackings and 8 SMLAD
 * (the published inner loop of this shape: CMSIS-NN's
 * arm_nn_mat_mult_kernel_s8_s16, two columns by two rows). The products are
 * exact and the sums wrap like the uint32 ones, so the bits are the
 * reference's. Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QNHWC_PAIR_H_
#define ONNX_TO_C_OC_QNHWC_PAIR_H_

#include "onnx_to_c/oc_q8_dsp.h"

#if OC_Q8_DSP && defined(__OPTIMIZE__)
/* A dense window's geometry, as the pair kernels read it: the second
 * pixel's x and the second channel's weights from the first (xs, wch); per
 * kernel row run4 values in steps of four and tail more, then xstep and
 * wstep to the next row; rows: the window's weights (nkh kernel rows); zt:
 * subtracted from the tail's x (x_zp where the steps take x ^ 0x80). */
typedef struct {
  ptrdiff_t xs, wch, xstep, wstep, rows;
  int32_t run4, tail, zt;
} qnhwc_pair_geo_;

/* One step of four input channels (assembler): the two pixels' words
 * (pixel 1 xsm = xs - 4 past the advanced xp), XF their ^ 0x80 or nothing,
 * unpacked by XS_ to (a02, xa) and (b02, xb); channel 0's word (pa,
 * advancing) unpacked by WS_ into w and t, four SMLAD; channel 1's (wchm =
 * wch - 4 past the advanced pa) the same. 14 registers: the sums, xp, pa,
 * the two steps and six temporaries; the row's end and the parity of its
 * steps are read from the stack. */
#define QNHWC_PAIR_STEP_(XF, XS_, WS_)                                                           \
  "ldr %[xa], [%[xp]], #4\n\t"                                                                   \
  "ldr %[xb], [%[xp], %[xsm]]\n\t"                                                               \
  "ldr %[t], [%[pa]], #4\n\t" XF XS_ " %[a02], %[xa]\n\t" XS_ " %[xa], %[xa], ror #8\n\t"        \
  XS_ " %[b02], %[xb]\n\t" XS_ " %[xb], %[xb], ror #8\n\t"                                       \
  WS_ " %[w], %[t]\n\t"                                                                          \
  "smlad %[s0], %[a02], %[w], %[s0]\n\t"                                                         \
  "smlad %[s1], %[b02], %[w], %[s1]\n\t" WS_ " %[t], %[t], ror #8\n\t"                           \
  "smlad %[s0], %[xa], %[t], %[s0]\n\t"                                                          \
  "smlad %[s1], %[xb], %[t], %[s1]\n\t"                                                          \
  "ldr %[t], [%[pa], %[wchm]]\n\t" WS_ " %[w], %[t]\n\t"                                         \
  "smlad %[s2], %[a02], %[w], %[s2]\n\t"                                                         \
  "smlad %[s3], %[b02], %[w], %[s3]\n\t" WS_ " %[t], %[t], ror #8\n\t"                           \
  "smlad %[s2], %[xa], %[t], %[s2]\n\t"                                                          \
  "smlad %[s3], %[xb], %[t], %[s3]\n\t"
#define QNHWC_PAIR_FLIP_ "eor %[xa], %[xa], #0x80808080\n\teor %[xb], %[xb], #0x80808080\n\t"
/* A kernel row's steps: two per pass, entering at the second where their
 * number is odd. */
#define QNHWC_PAIR_RUN_(XF, XS_, WS_)                                                            \
  {                                                                                              \
    uint32_t xa, a02, xb, b02, w, t;                                                             \
    __asm__("ldr %[t], %[odd]\n\t"                                                               \
            "cmp %[t], #0\n\t"                                                                   \
            "bne 5f\n\t"                                                                         \
            "b 2f\n"                                                                             \
            "1:\n\t" QNHWC_PAIR_STEP_(XF, XS_, WS_) "5:\n\t" QNHWC_PAIR_STEP_(XF, XS_, WS_)       \
            "2:\n\t"                                                                             \
            "ldr %[t], %[xe]\n\t"                                                                \
            "cmp %[xp], %[t]\n\t"                                                                \
            "blo 1b\n\t"                                                                         \
            : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xp] "+r"(xp),         \
              [pa] "+r"(pa), [xa] "=&r"(xa), [a02] "=&r"(a02), [xb] "=&r"(xb), [b02] "=&r"(b02), \
              [w] "=&r"(w), [t] "=&r"(t)                                                         \
            : [xsm] "r"(xsm), [wchm] "r"(wchm), [xe] "m"(xe), [odd] "m"(odd)                     \
            : "cc", "memory");                                                                   \
  }

/* The sums of a block's four channels (w, w + wch, ...) at pixels (x, x +
 * xs) of one dense window, two channels per pass: s[0] (channel 0, pixel
 * 0), s[1] (0, 1), s[2] (1, 0), s[3] (1, 1), then channels 2 and 3 in s[4]
 * .. s[7]. XS_, WS_: the instructions that unpack x's words (after ^ 0x80
 * with FLIP) and the weights' words. */
#define QNHWC_PAIR_DEFINE(NAME, XT, WT, XS_, WS_, FLIP)                                          \
  static OC_NOINLINE void NAME(const XT *x, const WT *w, const qnhwc_pair_geo_ *g, uint32_t *s) { \
    const ptrdiff_t xs = g->xs, wch = g->wch, xsm = xs - 4, wchm = wch - 4;                      \
    const int32_t odd = (g->run4 & 4) != 0;                                                      \
    int32_t i, c;                                                                                \
    for (c = 0; c < 2; c++, s += 4) {                                                            \
      const XT *xp = x;                                                                          \
      const WT *pa = w + 2 * c * wch, *const pend = pa + g->rows;                                \
      uint32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];                                       \
      while (pa < pend) {                                                                        \
        const XT *const xe = xp + g->run4;                                                       \
        if (FLIP) QNHWC_PAIR_RUN_(QNHWC_PAIR_FLIP_, XS_, WS_)                                    \
        else QNHWC_PAIR_RUN_("", XS_, WS_)                                                       \
        for (i = 0; i < g->tail; i++) {                                                          \
          const int32_t u = (int32_t)xp[i] - g->zt, v = (int32_t)xp[xs + i] - g->zt;             \
          const int32_t w0 = (int32_t)pa[i], w1 = (int32_t)pa[wch + i];                          \
          s0 += (uint32_t)(u * w0), s1 += (uint32_t)(v * w0);                                    \
          s2 += (uint32_t)(u * w1), s3 += (uint32_t)(v * w1);                                    \
        }                                                                                        \
        xp += g->tail + g->xstep, pa += g->tail + g->wstep;                                      \
      }                                                                                          \
      s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
    }                                                                                            \
  }

/* Per pair of x and w types: raw x, and x ^ 0x80 read as the other type
 * (x - x_zp where x_zp is the middle of x's range). */
#define QNHWC_PAIR_TYPES_(P, XT, WT, XS_, XF_, WS_)                                              \
  QNHWC_PAIR_DEFINE(P##_pair, XT, WT, XS_, WS_, 0)                                               \
  QNHWC_PAIR_DEFINE(P##_pair_flip, XT, WT, XF_, WS_, 1)
QNHWC_PAIR_TYPES_(qnhwc_s8s8, int8_t, int8_t, "sxtb16", "uxtb16", "sxtb16")
QNHWC_PAIR_TYPES_(qnhwc_u8s8, uint8_t, int8_t, "uxtb16", "sxtb16", "sxtb16")
QNHWC_PAIR_TYPES_(qnhwc_s8u8, int8_t, uint8_t, "sxtb16", "uxtb16", "uxtb16")
QNHWC_PAIR_TYPES_(qnhwc_u8u8, uint8_t, uint8_t, "uxtb16", "sxtb16", "uxtb16")
#undef QNHWC_PAIR_TYPES_
#undef QNHWC_PAIR_DEFINE
#undef QNHWC_PAIR_RUN_
#undef QNHWC_PAIR_STEP_
#undef QNHWC_PAIR_FLIP_

/* The fewest values in a window (kernel rows times run) for which a pair of
 * pixels pays for its calls: measured on the Cortex-M4F (VWW's 1x1
 * convolutions: 8 to 32 input channels a pixel at a time, 64 and more in
 * pairs). The arm tiles test sets 1 on the M7, so that every span of two or
 * more windows takes pairs there. */
#ifndef OC_QNHWC_PAIR_MIN
#define OC_QNHWC_PAIR_MIN 64
#endif
/* In a span of dense windows (qconv2d_nhwc.c's P##_span: xr, out, j, n,
 * nkh, pat, b0 .. b3, QNHWC_PUT_), the pixels two at a time while two are
 * left and the windows are long enough: the block's eight sums, then each
 * pixel's requantized as the one-pixel windows do. */
#define QNHWC_PAIRS_(P, XT, WT)                                                                  \
  {                                                                                              \
    qnhwc_pair_geo_ g;                                                                           \
    g.xs = xs, g.wch = wch, g.xstep = pat.xstep, g.wstep = pat.wstep;                            \
    g.rows = (const WT *)pat.wend - (const WT *)pat.wr;                                          \
    g.run4 = pat.run4, g.tail = pat.tail;                                                        \
    g.zt = flip ? ((XT)-1 < 0 ? -128 : 128) : 0;                                                 \
    for (; j + 2 <= n && pat.run * nkh >= OC_QNHWC_PAIR_MIN; j += 2, xr += 2 * xs) {           \
      uint32_t t[8];                                                                             \
      int32_t k;                                                                                 \
      t[0] = t[1] = b0, t[2] = t[3] = b1, t[4] = t[5] = b2, t[6] = t[7] = b3;                    \
      (flip ? P##_pair_flip : P##_pair)(xr, (const WT *)pat.wr, &g, t);                          \
      for (k = 0; k < 2; k++, out += y_x) {                                                      \
        const uint32_t s0 = t[k], s1 = t[2 + k], s2 = t[4 + k], s3 = t[6 + k];                   \
        QNHWC_PUT_                                                                               \
      }                                                                                          \
    }                                                                                            \
  }
#endif

#endif /* ONNX_TO_C_OC_QNHWC_PAIR_H_ */
