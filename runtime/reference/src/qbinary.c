/* Quantized elementwise Add and Mul of two tensors of one shape
 * (oc_qbinary_params, oc_qlinear.h); r holds the output's requantization
 * (Mul: (a_scale * b_scale) / y_scale; Add, fixed mode: from the common Q20
 * scale to y_scale). */
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qbinary_fast.h"

/* Add in float32: dequantize, add, quantize as QuantizeLinear does. */
static int32_t oc_qadd_float(const oc_qbinary_params *q, const oc_requant8 *r, int32_t a,
                             int32_t b) {
  const float va = (float)(a - q->a_zp) * q->a_scale, vb = (float)(b - q->b_zp) * q->b_scale;
  float f = oc_roundf_even((va + vb) / q->y_scale) + (float)r->zp;
  f = f < (float)r->lo ? (float)r->lo : (f > (float)r->hi ? (float)r->hi : f);
  return (int32_t)f;
}

/* Add in fixed point: each input shifted left by 20 bits and rescaled to
 * the common scale 2 * max(a_scale, b_scale) / 2^20, summed, requantized. */
static int32_t oc_qadd_fixed(const oc_qbinary_params *q, const oc_requant8 *r, int32_t a,
                             int32_t b) {
  const int32_t sa = oc_requant_fixed((a - q->a_zp) * (1 << 20), q->a_mult, q->a_shift);
  const int32_t sb = oc_requant_fixed((b - q->b_zp) * (1 << 20), q->b_mult, q->b_shift);
  return oc_requant8_apply(r, 0, oc_sat_i32((int64_t)sa + sb));
}

OC_QBINARY_FNS_FAST

OC_API void oc_qbinary(const oc_qbinary_params *q, const oc_requant8 *r, const void *a,
                       const void *b, void *y) {
  int32_t i;
  OC_QBINARY_FAST(q, r, a, b, y)
  for (i = 0; i < q->count; i++) {
    const int32_t av = oc_q8_get(a, q->a_signed, i), bv = oc_q8_get(b, q->b_signed, i);
    int32_t v;
    if (q->is_mul) {
      v = oc_requant8_apply(r, 0, (av - q->a_zp) * (bv - q->b_zp));
    } else if (r->mult != NULL) {
      v = oc_qadd_float(q, r, av, bv);
    } else {
      v = oc_qadd_fixed(q, r, av, bv);
    }
    oc_q8_put(y, q->y_signed, i, v);
  }
}
