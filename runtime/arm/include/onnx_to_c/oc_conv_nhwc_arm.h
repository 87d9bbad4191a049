/*
 * onnx-to-c runtime: the Cortex-M4F/M7 tiles of the channels-last float
 * convolution (conv2d_nhwc.c), in assembler; empty elsewhere (OC_NHWC_ARM 0):
 * 3-wide kernels (nhwc_arm_) and 1x1 kernels (nhwc_pw_).
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_ARM_H_
#define ONNX_TO_C_OC_CONV_NHWC_ARM_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_tile.h"

/* The condition of OC_ARM_TILES in oc_arm_tiles.h: VMLA.F32 asked for, GCC
 * or Clang, a single-precision FPU. */
#if defined(OC_ARM_VMLA) && defined(__GNUC__) && defined(__ARM_FP) && (__ARM_FP & 4)
#define OC_NHWC_ARM 1
#else
#define OC_NHWC_ARM 0
#endif

#if OC_NHWC_ARM
/* Cortex-M4F/M7 (OC_NHWC_ARM), 3-wide kernels of stride 1 or 2 without
 * dilation: blocks of 4 output channels x 4, 2 or 1 pixels whose taps are
 * all inside the input, and x 4 pixels whose first or last one has one
 * kernel column in the padding. Per input channel and kernel row, one VLDR
 * per input column under the tile (neighbouring pixels share them), then per
 * kernel column one VLDMIA of the 4 channels' weights and one VMLA per
 * output that has the tap: the sums of the portable tiles in the same order,
 * kept in s0-s15 (started from the 4 values at b), the weights in s16-s19,
 * the input columns from s20. x at the first pixel's tap (ic 0, first valid
 * row, kw 0; kw 1 where the first pixel is at the left padding), w as for
 * the tiles. Then ReLU when relu != 0 (as oc_tile_act: MI, so NaN and -0.0
 * stay), and the 4 channels of each pixel stored at y, y + yx, ... (bytes)
 * when y is not NULL (an output with contiguous channels), else the sums to
 * acc. The steps are in bytes; nkh, cig >= 1. The asm reads the fields at
 * their offsets on Arm (4 bytes each, checked below). */
typedef struct {
  int32_t xx, xr;   /* input: column, kernel row */
  int32_t wkw;      /* weights: kernel column */
  int32_t xic, wic; /* input channel: in the input, in the weights */
  int32_t nkh, cig, relu, yx;
  float *y;
  const float *b;
} nhwc_arm_args_;
typedef char nhwc_arm_args_check_[offsetof(nhwc_arm_args_, y) == 36 &&
                                          offsetof(nhwc_arm_args_, b) == 40
                                      ? 1
                                      : -1];

/* "vmla.f32 sD, sN, sM": sD += sN * sM */
#define OC_NHWC_MLA_(d, n, m) "vmla.f32 s" #d ", s" #n ", s" #m "\n\t"
/* one tap of one pixel: sA..sD += s16..s19 (4 channels' weights) * sX (its input) */
#define OC_NHWC_MLA4_(a, b, c, d, x) \
  OC_NHWC_MLA_(a, 16, x) OC_NHWC_MLA_(b, 17, x) OC_NHWC_MLA_(c, 18, x) OC_NHWC_MLA_(d, 19, x)
/* sD = +0.0 when sD < 0, with +0.0 in s16 (oc_arm_tiles.h's OC_ARM_RELU_) */
#define OC_NHWC_RELU_(d)                 \
  "vcmp.f32 s" #d ", #0\n\t"             \
  "vmrs APSR_nzcv, fpscr\n\t"            \
  "it mi\n\t"                            \
  "vmovmi.f32 s" #d ", s16\n\t"
typedef void (*nhwc_arm_fn_)(const float *x, const float *w, const nhwc_arm_args_ *k,
                             float *acc);

/* The kernels share all but their inner block: the sums start from the 4
 * values at b, copied for each of NPX pixels; per input channel (k->cig) and
 * kernel row (k->nkh), BODY loads the input columns from p (steps xx) and
 * the 3 kernel columns' weights from q (steps wkw) and multiply-accumulates;
 * p then moves by a kernel row (k->xr), x and w by an input channel (k->xic,
 * k->wic). Then ReLU where k->relu, and the NPX pixels' 4 channels stored at
 * k->y (steps k->yx) when it is not NULL, else all sums to acc. */
#define OC_NHWC_COPY4_(d0, d1, d2, d3) \
  "vmov.f32 s" #d0 ", s0\n\t" "vmov.f32 s" #d1 ", s1\n\t" "vmov.f32 s" #d2 ", s2\n\t" "vmov.f32 s" #d3 ", s3\n\t"
#define OC_NHWC_BIAS_4_ OC_NHWC_COPY4_(4, 5, 6, 7) OC_NHWC_COPY4_(8, 9, 10, 11) OC_NHWC_COPY4_(12, 13, 14, 15)
#define OC_NHWC_BIAS_2_ OC_NHWC_COPY4_(4, 5, 6, 7)
#define OC_NHWC_BIAS_1_
#define OC_NHWC_RELU4_(a, b, c, d) OC_NHWC_RELU_(a) OC_NHWC_RELU_(b) OC_NHWC_RELU_(c) OC_NHWC_RELU_(d)
#define OC_NHWC_RELU_4_ \
  OC_NHWC_RELU4_(0, 1, 2, 3) OC_NHWC_RELU4_(4, 5, 6, 7) OC_NHWC_RELU4_(8, 9, 10, 11) OC_NHWC_RELU4_(12, 13, 14, 15)
#define OC_NHWC_RELU_2_ OC_NHWC_RELU4_(0, 1, 2, 3) OC_NHWC_RELU4_(4, 5, 6, 7)
#define OC_NHWC_RELU_1_ OC_NHWC_RELU4_(0, 1, 2, 3)
#define OC_NHWC_STORE_NEXT_ "add %[t], %[t], %[p]\n\t"
#define OC_NHWC_STORE_4_                                                         \
  "vstmia %[t], {s0-s3}\n\t" OC_NHWC_STORE_NEXT_ "vstmia %[t], {s4-s7}\n\t"      \
  OC_NHWC_STORE_NEXT_ "vstmia %[t], {s8-s11}\n\t" OC_NHWC_STORE_NEXT_            \
  "vstmia %[t], {s12-s15}\n\t" "b 7f\n\t" "6:\n\t" "vstmia %[acc], {s0-s15}\n\t"
#define OC_NHWC_STORE_2_                                                         \
  "vstmia %[t], {s0-s3}\n\t" OC_NHWC_STORE_NEXT_ "vstmia %[t], {s4-s7}\n\t"      \
  "b 7f\n\t" "6:\n\t" "vstmia %[acc], {s0-s7}\n\t"
#define OC_NHWC_STORE_1_ "vstmia %[t], {s0-s3}\n\t" "b 7f\n\t" "6:\n\t" "vstmia %[acc], {s0-s3}\n\t"
#define OC_NHWC_ARM_KERNEL_(NAME, NPX, BODY)                                                      \
  static __attribute__((noinline)) void NAME(const float *x, const float *w,                    \
                                             const nhwc_arm_args_ *k, float *acc) {              \
    const int32_t xx = k->xx, wkw = k->wkw;                                                      \
    const float *p, *q, *t;                                                                      \
    int32_t khc, icc;                                                                            \
    __asm__ volatile(                                                                            \
        "ldr %[t], [%[k], #40]\n\t"                                                              \
        "vldmia %[t], {s0-s3}\n\t" OC_NHWC_BIAS_##NPX##_                                         \
        "ldr %[icc], [%[k], #24]\n\t"                                                            \
        "1:\n\t"                                                                                 \
        "ldr %[khc], [%[k], #20]\n\t"                                                            \
        "mov %[p], %[x]\n\t"                                                                     \
        "mov %[q], %[w]\n\t"                                                                     \
        "2:\n\t" BODY                                                                            \
        "ldr %[t], [%[k], #4]\n\t"                                                               \
        "add %[p], %[p], %[t]\n\t"                                                               \
        "subs %[khc], %[khc], #1\n\t"                                                            \
        "bne 2b\n\t"                                                                             \
        "ldr %[t], [%[k], #12]\n\t"                                                              \
        "add %[x], %[x], %[t]\n\t"                                                               \
        "ldr %[t], [%[k], #16]\n\t"                                                              \
        "add %[w], %[w], %[t]\n\t"                                                               \
        "subs %[icc], %[icc], #1\n\t"                                                            \
        "bne 1b\n\t"                                                                             \
        "ldr %[t], [%[k], #28]\n\t"                                                              \
        "cmp %[t], #0\n\t"                                                                       \
        "beq 5f\n\t"                                                                             \
        "movs %[t], #0\n\t"                                                                      \
        "vmov s16, %[t]\n\t" OC_NHWC_RELU_##NPX##_                                               \
        "5:\n\t"                                                                                 \
        "ldr %[t], [%[k], #36]\n\t"                                                              \
        "cmp %[t], #0\n\t"                                                                       \
        "beq 6f\n\t"                                                                             \
        "ldr %[p], [%[k], #32]\n\t" OC_NHWC_STORE_##NPX##_                                       \
        "7:\n\t"                                                                                 \
        : [x] "+r"(x), [w] "+r"(w), [p] "=&r"(p), [q] "=&r"(q), [t] "=&r"(t), [khc] "=&r"(khc), \
          [icc] "=&r"(icc)                                                                       \
        : [xx] "r"(xx), [wkw] "r"(wkw), [k] "r"(k), [acc] "r"(acc)                               \
        : "cc", "memory", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",      \
          "s11", "s12", "s13", "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22",     \
          "s23", "s24", "s25", "s26", "s27", "s28");                                             \
  }

/* 4 pixels of stride 1 */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s1p4_, 4,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s25, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20) OC_NHWC_MLA4_(4, 5, 6, 7, 21)
      OC_NHWC_MLA4_(8, 9, 10, 11, 22) OC_NHWC_MLA4_(12, 13, 14, 15, 23)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      OC_NHWC_MLA4_(8, 9, 10, 11, 23) OC_NHWC_MLA4_(12, 13, 14, 15, 24)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      OC_NHWC_MLA4_(8, 9, 10, 11, 24) OC_NHWC_MLA4_(12, 13, 14, 15, 25))

/* 2 pixels of stride 1 */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s1p2_, 2,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20) OC_NHWC_MLA4_(4, 5, 6, 7, 21)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 23))

/* 1 pixel of stride 1 */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s1p1_, 1,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22))

/* 4 pixels of stride 1, the first one without its tap kw 0 (left padding; x at its kw 1) */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s1l4_, 4,
      "vldr s21, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s25, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(4, 5, 6, 7, 21) OC_NHWC_MLA4_(8, 9, 10, 11, 22)
      OC_NHWC_MLA4_(12, 13, 14, 15, 23)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      OC_NHWC_MLA4_(8, 9, 10, 11, 23) OC_NHWC_MLA4_(12, 13, 14, 15, 24)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      OC_NHWC_MLA4_(8, 9, 10, 11, 24) OC_NHWC_MLA4_(12, 13, 14, 15, 25))

/* 4 pixels of stride 1, the last one without its tap kw 2 (right padding) */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s1r4_, 4,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20) OC_NHWC_MLA4_(4, 5, 6, 7, 21)
      OC_NHWC_MLA4_(8, 9, 10, 11, 22) OC_NHWC_MLA4_(12, 13, 14, 15, 23)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      OC_NHWC_MLA4_(8, 9, 10, 11, 23) OC_NHWC_MLA4_(12, 13, 14, 15, 24)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      OC_NHWC_MLA4_(8, 9, 10, 11, 24))

/* 4 pixels of stride 2 */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s2p4_, 4,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s25, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s26, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s27, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s28, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      OC_NHWC_MLA4_(8, 9, 10, 11, 24) OC_NHWC_MLA4_(12, 13, 14, 15, 26)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      OC_NHWC_MLA4_(8, 9, 10, 11, 25) OC_NHWC_MLA4_(12, 13, 14, 15, 27)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 24)
      OC_NHWC_MLA4_(8, 9, 10, 11, 26) OC_NHWC_MLA4_(12, 13, 14, 15, 28))

/* 2 pixels of stride 2 */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s2p2_, 2,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 24))

/* 1 pixel of stride 2 */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s2p1_, 1,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22))

/* 4 pixels of stride 2, the first one without its tap kw 0 (left padding; x at its kw 1) */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s2l4_, 4,
      "vldr s21, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s25, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s26, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s27, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s28, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(4, 5, 6, 7, 22) OC_NHWC_MLA4_(8, 9, 10, 11, 24)
      OC_NHWC_MLA4_(12, 13, 14, 15, 26)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      OC_NHWC_MLA4_(8, 9, 10, 11, 25) OC_NHWC_MLA4_(12, 13, 14, 15, 27)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 24)
      OC_NHWC_MLA4_(8, 9, 10, 11, 26) OC_NHWC_MLA4_(12, 13, 14, 15, 28))

/* 4 pixels of stride 2, the last one without its tap kw 2 (right padding) */
OC_NHWC_ARM_KERNEL_(nhwc_arm3_s2r4_, 4,
      "vldr s20, [%[p]]\n\t" "add %[t], %[p], %[xx]\n\t"
      "vldr s21, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s22, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s23, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s24, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s25, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s26, [%[t]]\n\t" "add %[t], %[t], %[xx]\n\t"
      "vldr s27, [%[t]]\n\t"
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 20) OC_NHWC_MLA4_(4, 5, 6, 7, 22)
      OC_NHWC_MLA4_(8, 9, 10, 11, 24) OC_NHWC_MLA4_(12, 13, 14, 15, 26)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 21) OC_NHWC_MLA4_(4, 5, 6, 7, 23)
      OC_NHWC_MLA4_(8, 9, 10, 11, 25) OC_NHWC_MLA4_(12, 13, 14, 15, 27)
      "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wkw]\n\t"
      OC_NHWC_MLA4_(0, 1, 2, 3, 22) OC_NHWC_MLA4_(4, 5, 6, 7, 24)
      OC_NHWC_MLA4_(8, 9, 10, 11, 26))

/* [stride - 1][kind]: kind 0, 1, 2: 4, 2, 1 pixels inside; 3: 4 pixels, the
 * first at the left padding; 4: 4 pixels, the last at the right padding */
static const nhwc_arm_fn_ nhwc_arm_[2][5] = {
    {nhwc_arm3_s1p4_, nhwc_arm3_s1p2_, nhwc_arm3_s1p1_, nhwc_arm3_s1l4_, nhwc_arm3_s1r4_},
    {nhwc_arm3_s2p4_, nhwc_arm3_s2p2_, nhwc_arm3_s2p1_, nhwc_arm3_s2l4_, nhwc_arm3_s2r4_}};

/* Pointwise (1x1 kernels): blocks of 8 or 4 output channels x 2 or 1
 * pixels, with a channels-last input (a pixel's input channels contiguous,
 * any stride) or a planar one (NCHW, stride 1: the pixels' inputs of an
 * input channel contiguous). Per 4 input channels the 4 inputs of each pixel
 * (channels-last: one VLDMIA per pixel, pointers with writeback, pixel 1's
 * input xs bytes after pixel 0's; planar: one VLDMIA of the pixels per input
 * channel, xs bytes apart), then per input channel one VLDMIA of the block's
 * weights (wic bytes apart) and one VMLA per output; the cig % 4 last input
 * channels one at a time. Each sum starts from the value at b and adds its
 * input channels in increasing order, as the portable tiles (a 1x1 kernel
 * has one tap per input channel). The sums in s0-s15 (pixel 0's channels,
 * then pixel 1's), the weights in s16-s23, the inputs in s24-s31; then the
 * sums to acc (pixel-major). When y is not NULL, ReLU where relu (as
 * oc_tile_act: MI, with +0.0 in s16) and the outputs stored at y: when yc
 * is 0 each pixel's channels contiguous, the pixels yx bytes apart
 * (channels-last), else each channel's pixels contiguous, the channels yc
 * bytes apart (planar). The asm reads the fields at their
 * offsets (checked below). */
typedef struct {
  int32_t xs;       /* bytes: channels-last, pixel 0's input to pixel 1's; */
                    /* planar, an input channel's to the next's */
  int32_t wic;      /* bytes between the weights of consecutive input channels */
  int32_t n4, tail; /* cig / 4 and cig % 4 */
  int32_t relu, yx;
  float *y;
  const float *b;
  int32_t yc;
} nhwc_pw_args_;
typedef char nhwc_pw_args_check_[offsetof(nhwc_pw_args_, y) == 24 &&
                                         offsetof(nhwc_pw_args_, b) == 28 &&
                                         offsetof(nhwc_pw_args_, yc) == 32
                                     ? 1
                                     : -1];
typedef void (*nhwc_pw_fn_)(const float *x, const float *w, const nhwc_pw_args_ *k, float *acc);

/* sA..sD += s20..s23 (channels 4-7's weights) * sX */
#define OC_NHWC_MLA4H_(a, b, c, d, x) \
  OC_NHWC_MLA_(a, 20, x) OC_NHWC_MLA_(b, 21, x) OC_NHWC_MLA_(c, 22, x) OC_NHWC_MLA_(d, 23, x)
/* one input channel of the block: its weights, then pixel 0's input sX0 and pixel 1's sX1 */
#define OC_NHWC_PW_C8P1_(x0, x1)                            \
  "vldmia %[q], {s16-s23}\n\t" "add %[q], %[q], %[wic]\n\t" \
  OC_NHWC_MLA4_(0, 1, 2, 3, x0) OC_NHWC_MLA4H_(4, 5, 6, 7, x0)
#define OC_NHWC_PW_C8P2_(x0, x1) \
  OC_NHWC_PW_C8P1_(x0, x1) OC_NHWC_MLA4_(8, 9, 10, 11, x1) OC_NHWC_MLA4H_(12, 13, 14, 15, x1)
#define OC_NHWC_PW_C4P1_(x0, x1) \
  "vldmia %[q], {s16-s19}\n\t" "add %[q], %[q], %[wic]\n\t" OC_NHWC_MLA4_(0, 1, 2, 3, x0)
#define OC_NHWC_PW_C4P2_(x0, x1) OC_NHWC_PW_C4P1_(x0, x1) OC_NHWC_MLA4_(4, 5, 6, 7, x1)
/* Per input layout and pixels (C: channels-last, P: planar): SETUP (x1:
 * pixel 1's input pointer, or the planar channel step), 4 input channels
 * (LOOP4) and 1 (LOOP1) of BLOCK. */
#define OC_NHWC_PW_SETUP_C1_
#define OC_NHWC_PW_SETUP_C2_ "ldr %[t], [%[k]]\n\t" "add %[x1], %[x], %[t]\n\t"
#define OC_NHWC_PW_SETUP_P1_ "ldr %[x1], [%[k]]\n\t"
#define OC_NHWC_PW_SETUP_P2_ OC_NHWC_PW_SETUP_P1_
#define OC_NHWC_PW_CMAC4_(B) B(24, 28) B(25, 29) B(26, 30) B(27, 31)
#define OC_NHWC_PW_LOOP4_C1_(B) "vldmia %[x]!, {s24-s27}\n\t" OC_NHWC_PW_CMAC4_(B)
#define OC_NHWC_PW_LOOP4_C2_(B) \
  "vldmia %[x]!, {s24-s27}\n\t" "vldmia %[x1]!, {s28-s31}\n\t" OC_NHWC_PW_CMAC4_(B)
#define OC_NHWC_PW_PNEXT_ "add %[x], %[x], %[x1]\n\t"
#define OC_NHWC_PW_LOOP4_P1_(B)                                                             \
  "vldr s24, [%[x]]\n\t" OC_NHWC_PW_PNEXT_ "vldr s25, [%[x]]\n\t" OC_NHWC_PW_PNEXT_           \
  "vldr s26, [%[x]]\n\t" OC_NHWC_PW_PNEXT_ "vldr s27, [%[x]]\n\t" OC_NHWC_PW_PNEXT_           \
  OC_NHWC_PW_CMAC4_(B)
#define OC_NHWC_PW_LOOP4_P2_(B)                                                             \
  "vldmia %[x], {s24-s25}\n\t" OC_NHWC_PW_PNEXT_ "vldmia %[x], {s26-s27}\n\t" OC_NHWC_PW_PNEXT_ \
  "vldmia %[x], {s28-s29}\n\t" OC_NHWC_PW_PNEXT_ "vldmia %[x], {s30-s31}\n\t" OC_NHWC_PW_PNEXT_ \
  B(24, 25) B(26, 27) B(28, 29) B(30, 31)
#define OC_NHWC_PW_LOOP1_C1_(B) "vldmia %[x]!, {s24}\n\t" B(24, 28)
#define OC_NHWC_PW_LOOP1_C2_(B) "vldmia %[x]!, {s24}\n\t" "vldmia %[x1]!, {s28}\n\t" B(24, 28)
#define OC_NHWC_PW_LOOP1_P1_(B) "vldr s24, [%[x]]\n\t" OC_NHWC_PW_PNEXT_ B(24, 28)
#define OC_NHWC_PW_LOOP1_P2_(B) "vldmia %[x], {s24-s25}\n\t" OC_NHWC_PW_PNEXT_ B(24, 25)
/* the sums from b (in t) */
#define OC_NHWC_PW_BIAS_C8P1_ "vldmia %[t], {s0-s7}\n\t"
#define OC_NHWC_PW_BIAS_C8P2_ OC_NHWC_PW_BIAS_C8P1_ "vldmia %[t], {s8-s15}\n\t"
#define OC_NHWC_PW_BIAS_C4P1_ "vldmia %[t], {s0-s3}\n\t"
#define OC_NHWC_PW_BIAS_C4P2_ OC_NHWC_PW_BIAS_C4P1_ "vldmia %[t], {s4-s7}\n\t"
#define OC_NHWC_PW_RELU_C4P1_ OC_NHWC_RELU4_(0, 1, 2, 3)
#define OC_NHWC_PW_RELU_C4P2_ OC_NHWC_PW_RELU_C4P1_ OC_NHWC_RELU4_(4, 5, 6, 7)
#define OC_NHWC_PW_RELU_C8P1_ OC_NHWC_PW_RELU_C4P2_
#define OC_NHWC_PW_RELU_C8P2_ OC_NHWC_PW_RELU_C8P1_ OC_NHWC_RELU4_(8, 9, 10, 11) OC_NHWC_RELU4_(12, 13, 14, 15)
/* the sums to y (in t; the step in n): channels-last (STORE), planar (PLANAR), or to acc (ACC) */
#define OC_NHWC_PW_YNEXT_ "add %[t], %[t], %[n]\n\t"
#define OC_NHWC_PW_STORE_C8P1_ "vstmia %[t], {s0-s7}\n\t"
#define OC_NHWC_PW_STORE_C8P2_ \
  OC_NHWC_PW_STORE_C8P1_ OC_NHWC_PW_YNEXT_ "vstmia %[t], {s8-s15}\n\t"
#define OC_NHWC_PW_STORE_C4P1_ "vstmia %[t], {s0-s3}\n\t"
#define OC_NHWC_PW_STORE_C4P2_ \
  OC_NHWC_PW_STORE_C4P1_ OC_NHWC_PW_YNEXT_ "vstmia %[t], {s4-s7}\n\t"
/* one channel's 2 pixels (sA, sB) or 1 (sA), then the next channel */
#define OC_NHWC_PW_PL2_(a, b) "vstr s" #a ", [%[t]]\n\t" "vstr s" #b ", [%[t], #4]\n\t" OC_NHWC_PW_YNEXT_
#define OC_NHWC_PW_PL1_(a) "vstr s" #a ", [%[t]]\n\t" OC_NHWC_PW_YNEXT_
#define OC_NHWC_PW_PLANAR_C4P1_ OC_NHWC_PW_PL1_(0) OC_NHWC_PW_PL1_(1) OC_NHWC_PW_PL1_(2) OC_NHWC_PW_PL1_(3)
#define OC_NHWC_PW_PLANAR_C8P1_ \
  OC_NHWC_PW_PLANAR_C4P1_ OC_NHWC_PW_PL1_(4) OC_NHWC_PW_PL1_(5) OC_NHWC_PW_PL1_(6) OC_NHWC_PW_PL1_(7)
#define OC_NHWC_PW_PLANAR_C4P2_ \
  OC_NHWC_PW_PL2_(0, 4) OC_NHWC_PW_PL2_(1, 5) OC_NHWC_PW_PL2_(2, 6) OC_NHWC_PW_PL2_(3, 7)
#define OC_NHWC_PW_PLANAR_C8P2_                                                           \
  OC_NHWC_PW_PL2_(0, 8) OC_NHWC_PW_PL2_(1, 9) OC_NHWC_PW_PL2_(2, 10) OC_NHWC_PW_PL2_(3, 11) \
  OC_NHWC_PW_PL2_(4, 12) OC_NHWC_PW_PL2_(5, 13) OC_NHWC_PW_PL2_(6, 14) OC_NHWC_PW_PL2_(7, 15)
#define OC_NHWC_PW_ACC_C8P1_ "vstmia %[acc], {s0-s7}\n\t"
#define OC_NHWC_PW_ACC_C8P2_ "vstmia %[acc], {s0-s15}\n\t"
#define OC_NHWC_PW_ACC_C4P1_ "vstmia %[acc], {s0-s3}\n\t"
#define OC_NHWC_PW_ACC_C4P2_ "vstmia %[acc], {s0-s7}\n\t"
#define OC_NHWC_PW_LOAD_C8P1_ "vldmia %[acc], {s0-s7}\n\t"
#define OC_NHWC_PW_LOAD_C8P2_ "vldmia %[acc], {s0-s15}\n\t"
#define OC_NHWC_PW_LOAD_C4P1_ "vldmia %[acc], {s0-s3}\n\t"
#define OC_NHWC_PW_LOAD_C4P2_ "vldmia %[acc], {s0-s7}\n\t"
/* Two asm statements (one would pass the 4095 characters of a C99 string
 * literal): the sums to acc, then, when y is not NULL, from acc through
 * ReLU to y. */
#define OC_NHWC_PW_KERNEL_(NAME, CP, XP, BLOCK)                                                    \
  static __attribute__((noinline)) void NAME(const float *x, const float *w,                     \
                                             const nhwc_pw_args_ *k, float *acc) {               \
    const int32_t wic = k->wic;                                                                   \
    const float *x1, *t;                                                                          \
    int32_t n;                                                                                    \
    __asm__ volatile(                                                                             \
        "ldr %[t], [%[k], #28]\n\t" OC_NHWC_PW_BIAS_##CP##_ OC_NHWC_PW_SETUP_##XP##_               \
        "ldr %[n], [%[k], #8]\n\t"                                                                \
        "cmp %[n], #0\n\t"                                                                        \
        "beq 3f\n\t"                                                                              \
        "1:\n\t" OC_NHWC_PW_LOOP4_##XP##_(BLOCK)                                                  \
        "subs %[n], %[n], #1\n\t"                                                                 \
        "bne 1b\n\t"                                                                              \
        "3:\n\t"                                                                                  \
        "ldr %[n], [%[k], #12]\n\t"                                                               \
        "cmp %[n], #0\n\t"                                                                        \
        "beq 5f\n\t"                                                                              \
        "4:\n\t" OC_NHWC_PW_LOOP1_##XP##_(BLOCK)                                                  \
        "subs %[n], %[n], #1\n\t"                                                                 \
        "bne 4b\n\t"                                                                              \
        "5:\n\t" OC_NHWC_PW_ACC_##CP##_                                                           \
        : [x] "+r"(x), [q] "+r"(w), [x1] "=&r"(x1), [t] "=&r"(t), [n] "=&r"(n)                    \
        : [wic] "r"(wic), [k] "r"(k), [acc] "r"(acc)                                              \
        : "cc", "memory", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",       \
          "s11", "s12", "s13", "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22",      \
          "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31");                          \
    if (k->y == NULL) return;                                                                     \
    __asm__ volatile(                                                                             \
        OC_NHWC_PW_LOAD_##CP##_                                                                   \
        "ldr %[t], [%[k], #16]\n\t"                                                               \
        "cmp %[t], #0\n\t"                                                                        \
        "beq 6f\n\t"                                                                              \
        "movs %[t], #0\n\t"                                                                       \
        "vmov s16, %[t]\n\t" OC_NHWC_PW_RELU_##CP##_                                              \
        "6:\n\t"                                                                                  \
        "ldr %[t], [%[k], #24]\n\t"                                                               \
        "ldr %[n], [%[k], #32]\n\t"                                                               \
        "cmp %[n], #0\n\t"                                                                        \
        "bne 7f\n\t"                                                                              \
        "ldr %[n], [%[k], #20]\n\t" OC_NHWC_PW_STORE_##CP##_                                      \
        "b 9f\n\t"                                                                                \
        "7:\n\t" OC_NHWC_PW_PLANAR_##CP##_                                                        \
        "9:\n\t"                                                                                  \
        : [t] "=&r"(t), [n] "=&r"(n)                                                              \
        : [k] "r"(k), [acc] "r"(acc)                                                              \
        : "cc", "memory", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",       \
          "s11", "s12", "s13", "s14", "s15", "s16");                                              \
  }

OC_NHWC_PW_KERNEL_(nhwc_pw_c8p2_, C8P2, C2, OC_NHWC_PW_C8P2_)
OC_NHWC_PW_KERNEL_(nhwc_pw_c8p1_, C8P1, C1, OC_NHWC_PW_C8P1_)
OC_NHWC_PW_KERNEL_(nhwc_pw_c4p2_, C4P2, C2, OC_NHWC_PW_C4P2_)
OC_NHWC_PW_KERNEL_(nhwc_pw_c4p1_, C4P1, C1, OC_NHWC_PW_C4P1_)
OC_NHWC_PW_KERNEL_(nhwc_pw_p8p2_, C8P2, P2, OC_NHWC_PW_C8P2_)
OC_NHWC_PW_KERNEL_(nhwc_pw_p8p1_, C8P1, P1, OC_NHWC_PW_C8P1_)
OC_NHWC_PW_KERNEL_(nhwc_pw_p4p2_, C4P2, P2, OC_NHWC_PW_C4P2_)
OC_NHWC_PW_KERNEL_(nhwc_pw_p4p1_, C4P1, P1, OC_NHWC_PW_C4P1_)

/* [planar input][8 channels ? 0 : 1][pixels - 1] */
static const nhwc_pw_fn_ nhwc_pw_[2][2][2] = {
    {{nhwc_pw_c8p1_, nhwc_pw_c8p2_}, {nhwc_pw_c4p1_, nhwc_pw_c4p2_}},
    {{nhwc_pw_p8p1_, nhwc_pw_p8p2_}, {nhwc_pw_p4p1_, nhwc_pw_p4p2_}}};

#undef OC_NHWC_MLA4H_
#undef OC_NHWC_PW_C8P1_
#undef OC_NHWC_PW_C8P2_
#undef OC_NHWC_PW_C4P1_
#undef OC_NHWC_PW_C4P2_
#undef OC_NHWC_PW_SETUP_C1_
#undef OC_NHWC_PW_SETUP_C2_
#undef OC_NHWC_PW_SETUP_P1_
#undef OC_NHWC_PW_SETUP_P2_
#undef OC_NHWC_PW_CMAC4_
#undef OC_NHWC_PW_LOOP4_C1_
#undef OC_NHWC_PW_LOOP4_C2_
#undef OC_NHWC_PW_PNEXT_
#undef OC_NHWC_PW_LOOP4_P1_
#undef OC_NHWC_PW_LOOP4_P2_
#undef OC_NHWC_PW_LOOP1_C1_
#undef OC_NHWC_PW_LOOP1_C2_
#undef OC_NHWC_PW_LOOP1_P1_
#undef OC_NHWC_PW_LOOP1_P2_
#undef OC_NHWC_PW_BIAS_C8P1_
#undef OC_NHWC_PW_BIAS_C8P2_
#undef OC_NHWC_PW_BIAS_C4P1_
#undef OC_NHWC_PW_BIAS_C4P2_
#undef OC_NHWC_PW_RELU_C4P1_
#undef OC_NHWC_PW_RELU_C4P2_
#undef OC_NHWC_PW_RELU_C8P1_
#undef OC_NHWC_PW_RELU_C8P2_
#undef OC_NHWC_PW_YNEXT_
#undef OC_NHWC_PW_STORE_C8P1_
#undef OC_NHWC_PW_STORE_C8P2_
#undef OC_NHWC_PW_STORE_C4P1_
#undef OC_NHWC_PW_STORE_C4P2_
#undef OC_NHWC_PW_PL2_
#undef OC_NHWC_PW_PL1_
#undef OC_NHWC_PW_PLANAR_C4P1_
#undef OC_NHWC_PW_PLANAR_C8P1_
#undef OC_NHWC_PW_PLANAR_C4P2_
#undef OC_NHWC_PW_PLANAR_C8P2_
#undef OC_NHWC_PW_ACC_C8P1_
#undef OC_NHWC_PW_ACC_C8P2_
#undef OC_NHWC_PW_ACC_C4P1_
#undef OC_NHWC_PW_ACC_C4P2_
#undef OC_NHWC_PW_LOAD_C8P1_
#undef OC_NHWC_PW_LOAD_C8P2_
#undef OC_NHWC_PW_LOAD_C4P1_
#undef OC_NHWC_PW_LOAD_C4P2_
#undef OC_NHWC_PW_KERNEL_
#undef OC_NHWC_MLA_
#undef OC_NHWC_MLA4_
#undef OC_NHWC_RELU_
#undef OC_NHWC_COPY4_
#undef OC_NHWC_BIAS_4_
#undef OC_NHWC_BIAS_2_
#undef OC_NHWC_BIAS_1_
#undef OC_NHWC_RELU4_
#undef OC_NHWC_RELU_4_
#undef OC_NHWC_RELU_2_
#undef OC_NHWC_RELU_1_
#undef OC_NHWC_STORE_NEXT_
#undef OC_NHWC_STORE_4_
#undef OC_NHWC_STORE_2_
#undef OC_NHWC_STORE_1_
#undef OC_NHWC_ARM_KERNEL_
#endif /* OC_NHWC_ARM */

#endif /* ONNX_TO_C_OC_CONV_NHWC_ARM_H_ */
