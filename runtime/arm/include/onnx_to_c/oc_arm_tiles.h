/*
 * onnx-to-c runtime: micro-kernels for the Armv7E-M single-precision FPU
 * (Cortex-M4F, Cortex-M7), used when the generated code asks for VMLA
 * (OC_ARM_VMLA, see oc_mac.h) and the compiler is GCC or Clang. Elsewhere
 * OC_ARM_TILES is 0 and the reference tiles run.
 *
 * They cut instructions, not arithmetic: one VLDMIA loads up to 8
 * consecutive inputs or weights, the sums stay in the 32 single-precision
 * registers, and every multiply-add is one VMLA.F32 (a rounded multiply, then
 * a rounded add: not fused). Each output is still its own sum, started from
 * the same value and added to in the same order as in the portable tiles,
 * so the bits are the same on every target (runtime/tests/arm_tiles_tests.c checks
 * them under QEMU).
 *
 * Register use is fixed inside each asm statement and declared in its
 * clobber list; GCC saves the callee-saved ones (s16-s31) that a kernel
 * clobbers in the prologue of the function it lands in.
 */
#ifndef ONNX_TO_C_OC_ARM_TILES_H_
#define ONNX_TO_C_OC_ARM_TILES_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_tile.h"

#if defined(OC_ARM_VMLA) && defined(__GNUC__) && defined(__ARM_FP) && (__ARM_FP & 4)
#define OC_ARM_TILES 1
#else
#define OC_ARM_TILES 0
#endif

#if OC_ARM_TILES

/* The kernels stay out of line: the callers (conv2d, gemm) then do not
 * carry their saved registers and spills in their own frames, which would
 * grow the stack of every model, with or without 1x1 convolutions. */
#define OC_ARM_KERNEL static __attribute__((noinline, unused))

/* "vmla.f32 sD, sN, sM": sD += sN * sM */
#define OC_ARM_MLA_(d, n, m) "vmla.f32 s" #d ", s" #n ", s" #m "\n\t"
#define OC_ARM_CLOBBER_S0_15                                                                \
  "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", \
      "s15"
#define OC_ARM_CLOBBER_S16_31                                                                   \
  "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", \
      "s29", "s30", "s31"

/* ------------------------------------------------------------ dot products */

/* sD += a[0..7] * b[0..7] left to right, a in s4-s11, b loaded into
 * s12-s19 */
#define OC_ARM_DOT8_(d, b)                                                                   \
  "vldmia %[" #b "]!, {s12-s19}\n\t"                                                         \
  OC_ARM_MLA_(d, 4, 12) OC_ARM_MLA_(d, 5, 13) OC_ARM_MLA_(d, 6, 14) OC_ARM_MLA_(d, 7, 15)    \
  OC_ARM_MLA_(d, 8, 16) OC_ARM_MLA_(d, 9, 17) OC_ARM_MLA_(d, 10, 18) OC_ARM_MLA_(d, 11, 19)
#define OC_ARM_CLOBBER_DOT8_                                                                \
  "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "s16", "s17", \
      "s18", "s19"

/* sD += a[k] * b[k] for one k, a[k] in s4: b[k] into sB */
#define OC_ARM_DOT1_(d, b, sb) "vldmia %[" #b "]!, {s" #sb "}\n\t" OC_ARM_MLA_(d, 4, sb)

/* y[r] = a[0] * b_r[0] + a[1] * b_r[1] + ... + a[K-1] * b_r[K-1] for r < 4,
 * from +0.0 and added left to right, a and the rows b_r = b0 + r * K
 * contiguous. Per
 * 8 values: one VLDMIA of a, one per row, 32 VMLA; then the last K % 8 one
 * by one. The sums in s0-s3: of the callee-saved s16-s31 only s16-s19 are
 * used. */
OC_ARM_KERNEL void oc_arm_dot4_(const float *a, const float *b0, int32_t K, float *y) {
  const float *b1 = b0 + K, *b2 = b1 + K, *b3 = b2 + K;
  int32_t n;
  __asm__ volatile(
      "movs %[n], #0\n\t"
      "vmov s0, %[n]\n\t"
      "vmov s1, %[n]\n\t"
      "vmov s2, %[n]\n\t"
      "vmov s3, %[n]\n\t"
      "lsrs %[n], %[K], #3\n\t"
      "beq 2f\n\t"
      "1:\n\t"
      "vldmia %[a]!, {s4-s11}\n\t"
      OC_ARM_DOT8_(0, b0)
      OC_ARM_DOT8_(1, b1)
      OC_ARM_DOT8_(2, b2)
      OC_ARM_DOT8_(3, b3)
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n\t"
      "2:\n\t"
      "ands %[n], %[K], #7\n\t"
      "beq 3f\n\t"
      "4:\n\t"
      "vldmia %[a]!, {s4}\n\t"
      OC_ARM_DOT1_(0, b0, 12) OC_ARM_DOT1_(1, b1, 13) OC_ARM_DOT1_(2, b2, 14)
      OC_ARM_DOT1_(3, b3, 15)
      "subs %[n], %[n], #1\n\t"
      "bne 4b\n\t"
      "3:\n\t"
      "vstmia %[y], {s0-s3}\n\t"
      : [a] "+r"(a), [b0] "+r"(b0), [b1] "+r"(b1), [b2] "+r"(b2), [b3] "+r"(b3),
        [n] "=&r"(n)
      : [K] "r"(K), [y] "r"(y)
      : "cc", "memory", "s0", "s1", "s2", "s3", OC_ARM_CLOBBER_DOT8_);
}

/* One dot product, as oc_arm_dot4_. */
OC_ARM_KERNEL float oc_arm_dot1_(const float *a, const float *b0, int32_t K) {
  float out;
  int32_t n;
  __asm__ volatile(
      "movs %[n], #0\n\t"
      "vmov s0, %[n]\n\t"
      "lsrs %[n], %[K], #3\n\t"
      "beq 2f\n\t"
      "1:\n\t"
      "vldmia %[a]!, {s4-s11}\n\t"
      OC_ARM_DOT8_(0, b0)
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n\t"
      "2:\n\t"
      "ands %[n], %[K], #7\n\t"
      "beq 3f\n\t"
      "4:\n\t"
      "vldmia %[a]!, {s4}\n\t"
      OC_ARM_DOT1_(0, b0, 12)
      "subs %[n], %[n], #1\n\t"
      "bne 4b\n\t"
      "3:\n\t"
      "vmov.f32 %[out], s0\n\t"
      : [a] "+r"(a), [b0] "+r"(b0), [n] "=&r"(n), [out] "=t"(out)
      : [K] "r"(K)
      : "cc", "memory", "s0", OC_ARM_CLOBBER_DOT8_);
  return out;
}

/* y[m * N + n] = sum_k a[m * lda + k] b[n * K + k] for m < M, n < N (B
 * transposed, rows of A contiguous), each sum from +0.0 over k = 0..K-1 in
 * increasing order. */
OC_ARM_KERNEL void oc_arm_gemm_nt(const float *a, int32_t lda, const float *b, int32_t M,
                                  int32_t N, int32_t K, float *y) {
  int32_t m, n;
  for (m = 0; m < M; m++, a += lda) {
    const float *br = b;
    for (n = 0; n + 4 <= N; n += 4, br += 4 * K, y += 4) {
      oc_arm_dot4_(a, br, K, y);
    }
    for (; n < N; n++, br += K) *y++ = oc_arm_dot1_(a, br, K);
  }
}

/* -------------------------------------------------------- 1x1 convolution */

/* "vldmia X, {LIST}" then X += step: one input channel's pixels */
#define OC_ARM_PW_X_(list) "vldmia %[x], {" list "}\n\t" "add %[x], %[x], %[step]\n\t"
/* sD0..sD7 += sW * s16..s23 */
#define OC_ARM_PW_ROW8_(d0, d1, d2, d3, d4, d5, d6, d7, w)                                 \
  OC_ARM_MLA_(d0, w, 16) OC_ARM_MLA_(d1, w, 17) OC_ARM_MLA_(d2, w, 18)                     \
  OC_ARM_MLA_(d3, w, 19) OC_ARM_MLA_(d4, w, 20) OC_ARM_MLA_(d5, w, 21)                     \
  OC_ARM_MLA_(d6, w, 22) OC_ARM_MLA_(d7, w, 23)
/* one input channel of the 2 x 8 tile, its weights in sWA (channel 0) and sWB */
#define OC_ARM_PW8_IC_(wa, wb)                    \
  OC_ARM_PW_X_("s16-s23")                         \
  OC_ARM_PW_ROW8_(0, 1, 2, 3, 4, 5, 6, 7, wa)     \
  OC_ARM_PW_ROW8_(8, 9, 10, 11, 12, 13, 14, 15, wb)

/* sD = +0.0 when sD < 0 (ReLU as oc_tile_act: NaN and -0.0 stay; MI, not
 * LT, since LT also holds for an unordered compare), with +0.0 in s16 */
#define OC_ARM_RELU_(d)                  \
  "vcmp.f32 s" #d ", #0\n\t"             \
  "vmrs APSR_nzcv, fpscr\n\t"            \
  "it mi\n\t"                            \
  "vmovmi.f32 s" #d ", s16\n\t"
#define OC_ARM_RELU4_(a, b, c, d) OC_ARM_RELU_(a) OC_ARM_RELU_(b) OC_ARM_RELU_(c) OC_ARM_RELU_(d)
/* ReLU on s0-s15 when %[relu] != 0; operand Z is a free register */
#define OC_ARM_RELU_S0_15_(z)                                     \
  "cmp %[relu], #0\n\t"                                           \
  "beq 5f\n\t"                                                    \
  "movs %[" #z "], #0\n\t"                                        \
  "vmov s16, %[" #z "]\n\t"                                       \
  OC_ARM_RELU4_(0, 1, 2, 3) OC_ARM_RELU4_(4, 5, 6, 7)             \
  OC_ARM_RELU4_(8, 9, 10, 11) OC_ARM_RELU4_(12, 13, 14, 15)       \
  "5:\n\t"
/* "vmov.f32 sD, sS" for D in the list */
#define OC_ARM_MOV_(d, src) "vmov.f32 s" #d ", s" #src "\n\t"
#define OC_ARM_MOV3_(a, b, c, src) OC_ARM_MOV_(a, src) OC_ARM_MOV_(b, src) OC_ARM_MOV_(c, src)
#define OC_ARM_MOV7_(a, b, c, d, e, f, g, src) \
  OC_ARM_MOV3_(a, b, c, src) OC_ARM_MOV3_(d, e, f, src) OC_ARM_MOV_(g, src)

/* 2 output channels x 8 pixels of a 1x1 convolution over cig (>= 1) input
 * channels: y_c[j] = bias[c] + w_c[0] x[j] + w_c[1] x[plane + j] + ... in
 * that order, w_c = w + c * ldw, then ReLU when relu != 0. Sums in s0-s15,
 * the 8 inputs of an input channel in s16-s23 (one VLDMIA), the weights of 4
 * input channels per output channel in s24-s27 and s28-s31 (one VLDMIA
 * each): per 4 input channels 10 loads and 64 VMLA. The first cig % 4 input
 * channels go one by one. */
OC_ARM_KERNEL void oc_arm_pw2x8_(const float *x, int32_t plane, const float *w, int32_t ldw,
                                 int32_t cig, const float *bias, int32_t relu, float *y0,
                                 float *y1) {
  const float *w0 = w, *w1 = w + ldw;
  int32_t quads = cig, rest;
  const int32_t step = plane * (int32_t)sizeof(float);
  __asm__ volatile(
      "vldr s0, [%[bias]]\n\t"
      "vldr s8, [%[bias], #4]\n\t"
      OC_ARM_MOV7_(1, 2, 3, 4, 5, 6, 7, 0)
      OC_ARM_MOV7_(9, 10, 11, 12, 13, 14, 15, 8)
      "ands %[rest], %[quads], #3\n\t"
      "beq 2f\n\t"
      "4:\n\t"
      "vldmia %[w0]!, {s24}\n\t"
      "vldmia %[w1]!, {s28}\n\t"
      OC_ARM_PW8_IC_(24, 28)
      "subs %[rest], %[rest], #1\n\t"
      "bne 4b\n\t"
      "2:\n\t"
      "lsrs %[quads], %[quads], #2\n\t"
      "beq 3f\n\t"
      "1:\n\t"
      "vldmia %[w0]!, {s24-s27}\n\t"
      "vldmia %[w1]!, {s28-s31}\n\t"
      OC_ARM_PW8_IC_(24, 28)
      OC_ARM_PW8_IC_(25, 29)
      OC_ARM_PW8_IC_(26, 30)
      OC_ARM_PW8_IC_(27, 31)
      "subs %[quads], %[quads], #1\n\t"
      "bne 1b\n\t"
      "3:\n\t"
      OC_ARM_RELU_S0_15_(rest)
      "vstmia %[y0], {s0-s7}\n\t"
      "vstmia %[y1], {s8-s15}\n\t"
      : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [quads] "+r"(quads), [rest] "=&r"(rest)
      : [step] "r"(step), [bias] "r"(bias), [relu] "r"(relu), [y0] "r"(y0), [y1] "r"(y1)
      : "cc", "memory", OC_ARM_CLOBBER_S0_15, OC_ARM_CLOBBER_S16_31);
}

/* sD0..sD3 += sW * s16..s19 */
#define OC_ARM_PW_ROW4_(d0, d1, d2, d3, w) \
  OC_ARM_MLA_(d0, w, 16) OC_ARM_MLA_(d1, w, 17) OC_ARM_MLA_(d2, w, 18) OC_ARM_MLA_(d3, w, 19)
/* one input channel of the 4 x 4 tile, the weights of channel c in sW(c) */
#define OC_ARM_PW4_IC_(wa, wb, wc, wd)         \
  OC_ARM_PW_X_("s16-s19")                      \
  OC_ARM_PW_ROW4_(0, 1, 2, 3, wa)              \
  OC_ARM_PW_ROW4_(4, 5, 6, 7, wb)              \
  OC_ARM_PW_ROW4_(8, 9, 10, 11, wc)            \
  OC_ARM_PW_ROW4_(12, 13, 14, 15, wd)

/* 4 output channels x 4 pixels, as oc_arm_pw2x8_, rows y + c * ldy: sums in
 * s0-s15, inputs in s16-s19, the weights of 2 input channels per output
 * channel in s24-s31. */
OC_ARM_KERNEL void oc_arm_pw4x4_(const float *x, int32_t plane, const float *w, int32_t ldw,
                                 int32_t cig, const float *bias, int32_t relu, float *y,
                                 int32_t ldy) {
  const float *w0 = w, *w1 = w + ldw, *w2 = w + 2 * ldw, *w3 = w + 3 * ldw;
  int32_t pairs = cig;
  const int32_t step = plane * (int32_t)sizeof(float), ystep = ldy * (int32_t)sizeof(float);
  __asm__ volatile(
      "vldmia %[bias], {s0-s3}\n\t"
      OC_ARM_MOV3_(13, 14, 15, 3) OC_ARM_MOV_(12, 3)
      OC_ARM_MOV3_(9, 10, 11, 2) OC_ARM_MOV_(8, 2)
      OC_ARM_MOV3_(5, 6, 7, 1) OC_ARM_MOV_(4, 1)
      OC_ARM_MOV3_(1, 2, 3, 0)
      "lsrs %[pairs], %[pairs], #1\n\t" /* the carry is the odd input channel */
      "bcc 2f\n\t"
      "vldmia %[w0]!, {s24}\n\t"
      "vldmia %[w1]!, {s26}\n\t"
      "vldmia %[w2]!, {s28}\n\t"
      "vldmia %[w3]!, {s30}\n\t"
      OC_ARM_PW4_IC_(24, 26, 28, 30)
      "2:\n\t"
      "cmp %[pairs], #0\n\t"
      "beq 3f\n\t"
      "1:\n\t"
      "vldmia %[w0]!, {s24-s25}\n\t"
      "vldmia %[w1]!, {s26-s27}\n\t"
      "vldmia %[w2]!, {s28-s29}\n\t"
      "vldmia %[w3]!, {s30-s31}\n\t"
      OC_ARM_PW4_IC_(24, 26, 28, 30)
      OC_ARM_PW4_IC_(25, 27, 29, 31)
      "subs %[pairs], %[pairs], #1\n\t"
      "bne 1b\n\t"
      "3:\n\t"
      OC_ARM_RELU_S0_15_(pairs)
      "vstmia %[y], {s0-s3}\n\t"
      "add %[w0], %[y], %[ystep]\n\t"
      "vstmia %[w0], {s4-s7}\n\t"
      "add %[w0], %[w0], %[ystep]\n\t"
      "vstmia %[w0], {s8-s11}\n\t"
      "add %[w0], %[w0], %[ystep]\n\t"
      "vstmia %[w0], {s12-s15}\n\t"
      : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3),
        [pairs] "+r"(pairs)
      : [step] "r"(step), [bias] "r"(bias), [relu] "r"(relu), [y] "r"(y), [ystep] "r"(ystep)
      : "cc", "memory", OC_ARM_CLOBBER_S0_15, OC_ARM_CLOBBER_S16_31);
}

/* y[c * ldy + j] = act(y[c * ldy + j]) for c < nc, j < tw: the
 * activations other than ReLU, after a tile stored its sums */
OC_INLINE void oc_arm_pw_act_(int32_t nc, int32_t tw, float *y, int32_t ldy, const oc_act *act) {
  int32_t c, j;
  for (c = 0; c < nc; c++, y += ldy) {
    for (j = 0; j < tw; j++) y[j] = oc_tile_act(act, y[j]);
  }
}

/* The pixels [0, vol) of 4 output channels of a 1x1 stride-1 convolution
 * when vol >= 4: y[c * ldy + i] = act(bias[c] + sum over ic = 0..cig-1 in
 * increasing order of w[c * ldw + ic] x[ic * plane + i]), the sums of
 * oc_conv2d_f32. 2 x 8 tiles when vol >= 8, else 4 x 4 tiles; the last
 * tile moves back to end at vol (recomputing a few outputs with the same
 * bits), except that a fifth pixel is left to the caller's per-pixel loop
 * (cheaper than a second 4 x 4 tile). Returns the pixels [0, n) done: vol,
 * 4 when vol is 5, 0 when vol < 4. */
OC_INLINE int32_t oc_arm_pointwise4(const float *x, int32_t plane, const float *w, int32_t ldw,
                                    int32_t cig, const float *bias, int32_t vol, float *y,
                                    int32_t ldy, const oc_act *act) {
  const int32_t tw = vol >= 8 ? 8 : 4, relu = act->kind == OC_ACT_RELU;
  const int32_t other = act->kind != OC_ACT_NONE && !relu, n = vol == 5 ? 4 : vol;
  int32_t i;
  if (vol < 4 || cig < 1) return 0;
  for (i = 0;; i += tw) {
    float *yi;
    if (i + tw > n) i = n - tw;
    yi = y + i;
    if (tw == 8) {
      oc_arm_pw2x8_(x + i, plane, w, ldw, cig, bias, relu, yi, yi + ldy);
      oc_arm_pw2x8_(x + i, plane, w + 2 * ldw, ldw, cig, bias + 2, relu, yi + 2 * ldy,
                    yi + 3 * ldy);
    } else {
      oc_arm_pw4x4_(x + i, plane, w, ldw, cig, bias, relu, yi, ldy);
    }
    if (other) oc_arm_pw_act_(4, tw, yi, ldy, act);
    if (i + tw == n) break;
  }
  return n;
}

/* dst[r * ldd + j] = src[r * 8 + j] for r < rows (>= 1), j < 8: the
 * blocks of 8 pixels of oc_conv1x1_overlap_f32 from scratch to their place,
 * with one VLDMIA and one VSTMIA per row (bit copies: VLDM/VSTM do no
 * arithmetic, so NaN payloads survive). */
OC_ARM_KERNEL void oc_arm_copy_rows8(const float *src, float *dst, int32_t ldd, int32_t rows) {
  const int32_t step = ldd * (int32_t)sizeof(float);
  __asm__ volatile(
      "1:\n\t"
      "vldmia %[src]!, {s0-s7}\n\t"
      "vstmia %[dst], {s0-s7}\n\t"
      "add %[dst], %[dst], %[step]\n\t"
      "subs %[rows], %[rows], #1\n\t"
      "bne 1b\n\t"
      : [src] "+r"(src), [dst] "+r"(dst), [rows] "+r"(rows)
      : [step] "r"(step)
      : "cc", "memory", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7");
}

#endif /* OC_ARM_TILES */

#endif /* ONNX_TO_C_OC_ARM_TILES_H_ */
