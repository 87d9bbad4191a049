/*
 * onnx-to-c runtime, Armv7E-M: the windows of a channels-last depthwise 3x3
 * row (qconv2d_nhwc.c, its depthwise rows) wholly inside the input, as one
 * span: a block of four channels with the weights' zero points 0, all three
 * kernel rows inside, float requantization onto a whole 8-bit range. Per
 * tap one LDR of the four channels' x, SXTB16/UXTB16 into lanes (x0, x2)
 * and (x1, x3), and SMLABB/SMLATT against the tap's weights packed once per
 * row as (w0, w2) and (w1, w3); the sums start from bias - x_zp sum w and
 * are requantized as they are written (VCVTR, QADD, SSAT/USAT: the values of
 * oc_requant8_apply where the bounds are the type's range). Exact products,
 * sums wrapping like the reference's uint32 ones: the same bits. A helper of
 * oc_qnhwc_fast.h (this folder).
 */
#ifndef ONNX_TO_C_OC_QDW_NHWC_FAST_H_
#define ONNX_TO_C_OC_QDW_NHWC_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP && defined(OC_REQUANT_SAT8)
#define OC_QDW_SPAN 1
/* A span of windows: the first's top-left tap and output, their steps. */
typedef struct {
  const void *x;          /* the first window's tap (0, 0), the block's first channel */
  uint8_t *out;           /* its first output */
  ptrdiff_t xs, x_kw, x_kh; /* x: the next window, kernel column, kernel row */
  ptrdiff_t y_x, y_c;     /* y: the next window, the next channel */
  const int32_t *wl;      /* per tap (row-major) the weights (w0, w2) as lanes, then (w1, w3) */
  const float *mult;      /* the four channels' multipliers */
  uint32_t base[4];       /* bias - x_zp sum w per channel */
  int32_t n, zp;          /* windows; the output's zero point */
} oc_qdw_span;

/* Tap K of a kernel row at %[p] (ADDR: its x), XTB16 "sxtb16" or
 * "uxtb16": the weights (w0, w2) at wl[K], (w1, w3) at wl[9 + K]; the
 * three loads in a row (pipelined: 1 cycle each after the first). */
#define OC_QDW_SPAN_TAP_(XTB16, ADDR, K)                                                         \
  "ldr %[xv], " ADDR "\n\tldr %[w], [%[wp], #" #K " * 4]\n\t"                                    \
  "ldr %[v], [%[wp], #36 + " #K " * 4]\n\t"                                                     \
  XTB16 " %[x02], %[xv]\n\t" XTB16 " %[x13], %[xv], ror #8\n\t"                                  \
  "smlabb %[s0], %[x02], %[w], %[s0]\n\tsmlatt %[s2], %[x02], %[w], %[s2]\n\t"                   \
  "smlabb %[s1], %[x13], %[v], %[s1]\n\tsmlatt %[s3], %[x13], %[v], %[s3]\n\t"
#define OC_QDW_SPAN_ROW_(XTB16, K0, K1, K2)                                                      \
  OC_QDW_SPAN_TAP_(XTB16, "[%[p]]", K0)                                                          \
  OC_QDW_SPAN_TAP_(XTB16, "[%[p], %[kw]]", K1)                                                   \
  OC_QDW_SPAN_TAP_(XTB16, "[%[p], %[kw], lsl #1]", K2)
/* The nine taps of the window at p into s0 .. s3, in assembler: GCC keeps
 * the taps' addresses on the stack. */
#define OC_QDW_SPAN_TAPS_(XTB16)                                                                 \
  {                                                                                              \
    const void *p = xr;                                                                          \
    uint32_t xv, x02, x13, w, v;                                                                 \
    __asm__(OC_QDW_SPAN_ROW_(XTB16, 0, 1, 2) "add %[p], %[p], %[kh]\n\t"                         \
            OC_QDW_SPAN_ROW_(XTB16, 3, 4, 5) "add %[p], %[p], %[kh]\n\t"                         \
            OC_QDW_SPAN_ROW_(XTB16, 6, 7, 8)                                                     \
            : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [p] "+r"(p),           \
              [xv] "=&r"(xv), [x02] "=&r"(x02), [x13] "=&r"(x13), [w] "=&r"(w), [v] "=&r"(v)     \
            : [wp] "r"(wl), [kw] "r"(x_kw), [kh] "r"(x_kh)                                       \
            : "memory");                                                                         \
  }
/* NAME for x of type XT (XTB16 its bytes to lanes), outputs saturated by
 * SAT (OC_SSAT8_ or OC_USAT8_). */
#define OC_QDW_SPAN_DEFINE(NAME, XT, XTB16, SAT)                                                 \
  static OC_NOINLINE __attribute__((unused)) void NAME(const oc_qdw_span *sp) {                  \
    const XT *xr = (const XT *)sp->x;                                                            \
    uint8_t *out = sp->out;                                                                      \
    const ptrdiff_t xs = sp->xs, x_kw = sp->x_kw, x_kh = sp->x_kh, y_x = sp->y_x, y_c = sp->y_c; \
    const int32_t *const wl = sp->wl;                                                            \
    const float m0 = sp->mult[0], m1 = sp->mult[1], m2 = sp->mult[2], m3 = sp->mult[3];          \
    const uint32_t b0 = sp->base[0], b1 = sp->base[1], b2 = sp->base[2], b3 = sp->base[3];       \
    const int32_t zp = sp->zp;                                                                   \
    int32_t j;                                                                                   \
    for (j = 0; j < sp->n; j++, xr += xs, out += y_x) {                                          \
      uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3;                                               \
      OC_QDW_SPAN_TAPS_(XTB16)                                                                   \
      out[0] = (uint8_t)SAT(s0, m0, zp);                                                         \
      out[y_c] = (uint8_t)SAT(s1, m1, zp);                                                       \
      out[2 * y_c] = (uint8_t)SAT(s2, m2, zp);                                                   \
      out[3 * y_c] = (uint8_t)SAT(s3, m3, zp);                                                   \
    }                                                                                            \
  }
OC_QDW_SPAN_DEFINE(oc_qdw_span_s8_ssat, int8_t, "sxtb16", OC_SSAT8_)
OC_QDW_SPAN_DEFINE(oc_qdw_span_s8_usat, int8_t, "sxtb16", OC_USAT8_)
OC_QDW_SPAN_DEFINE(oc_qdw_span_u8_ssat, uint8_t, "uxtb16", OC_SSAT8_)
OC_QDW_SPAN_DEFINE(oc_qdw_span_u8_usat, uint8_t, "uxtb16", OC_USAT8_)
#undef OC_QDW_SPAN_DEFINE
#undef OC_QDW_SPAN_TAPS_
#undef OC_QDW_SPAN_ROW_
#undef OC_QDW_SPAN_TAP_

/* The span of windows wholly inside a row whose taps are packed, from
 * output column LO to HI (the row function's locals: a, x of type XT);
 * then the row goes on at HI. */
#define OC_QDW_SPAN_RUN_(XT, LO, HI)                                                             \
  {                                                                                              \
    oc_qdw_span sp_;                                                                             \
    const int32_t ssat_ = r->lo < 0;                                                             \
    sp_.x = x + (ptrdiff_t)((LO)*sw - pl) * x_x, sp_.out = (uint8_t *)y + yo + (ptrdiff_t)(LO)*y_x; \
    sp_.xs = (ptrdiff_t)sw * x_x, sp_.x_kw = x_kw, sp_.x_kh = x_kh, sp_.y_x = y_x, sp_.y_c = y_c; \
    sp_.wl = dwl_, sp_.mult = mult, sp_.n = (HI) - (LO), sp_.zp = r->zp;          \
    sp_.base[0] = f0, sp_.base[1] = f1, sp_.base[2] = f2, sp_.base[3] = f3;                      \
    if (a->xmid < 0) { /* int8 x */                                                              \
      if (ssat_) oc_qdw_span_s8_ssat(&sp_); else oc_qdw_span_s8_usat(&sp_);                      \
    } else {                                                                                     \
      if (ssat_) oc_qdw_span_u8_ssat(&sp_); else oc_qdw_span_u8_usat(&sp_);                      \
    }                                                                                            \
  }
#endif

#endif /* ONNX_TO_C_OC_QDW_NHWC_FAST_H_ */
