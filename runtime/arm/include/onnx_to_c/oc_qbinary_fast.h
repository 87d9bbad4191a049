/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit Add in float mode with VCVTR
 * (oc_requant_fast.h); the interface of the reference oc_qbinary_fast.h.
 * Add in float32 with the input types fixed and the parameters in
 * registers, rounded by VCVTR and bounded as an integer: the values of
 * oc_qadd_float (the rounded quotient plus the zero point is exact in float
 * below 2^24, and beyond that both ways give a bound; an int8 and a uint8
 * value in range have the same byte as their uint8 conversion).
 */
#ifndef ONNX_TO_C_OC_QBINARY_FAST_H_
#define ONNX_TO_C_OC_QBINARY_FAST_H_

#include "onnx_to_c/oc_qlinear.h"

#if defined(OC_REQUANT_VCVTR)
#define OC_QADD_FLOAT_DEFINE(NAME, AT, BT) \
  static OC_NOINLINE void NAME(const oc_qbinary_params *q, const oc_requant8 *r, const AT *a, \
                               const BT *b, uint8_t *y) { \
    const float as = q->a_scale, bs = q->b_scale, ys = q->y_scale; \
    const int32_t azp = q->a_zp, bzp = q->b_zp, zp = r->zp, lo = r->lo - zp, hi = r->hi - zp; \
    const int32_t count = q->count; \
    int32_t i; \
    for (i = 0; i < count; i++) { \
      const float va = (float)((int32_t)a[i] - azp) * as, vb = (float)((int32_t)b[i] - bzp) * bs; \
      int32_t v = oc_round_even_i32((va + vb) / ys); \
      v = v > hi ? hi : (v < lo ? lo : v); \
      y[i] = (uint8_t)(v + zp); \
    } \
  }
#define OC_QBINARY_FNS_FAST \
OC_QADD_FLOAT_DEFINE(oc_qadd_float_s8s8, int8_t, int8_t) \
OC_QADD_FLOAT_DEFINE(oc_qadd_float_s8u8, int8_t, uint8_t) \
OC_QADD_FLOAT_DEFINE(oc_qadd_float_u8s8, uint8_t, int8_t) \
OC_QADD_FLOAT_DEFINE(oc_qadd_float_u8u8, uint8_t, uint8_t)
#define OC_QBINARY_FAST(q, r, a, b, y) \
  if (!q->is_mul && r->mult != NULL) { \
    OC_Q8_PAIR_CALL(oc_qadd_float, q->a_signed, q->b_signed, (q, r, a, b, (uint8_t *)y)); \
    return; \
  }
#else
#define OC_QBINARY_FNS_FAST
#define OC_QBINARY_FAST(q, r, a, b, y)
#endif

#endif /* ONNX_TO_C_OC_QBINARY_FAST_H_ */
