/*
 * onnx-to-c runtime: 8-bit quantized layers (int8 or uint8 activations and
 * weights, int32 accumulation with the bias folded in). Each result is
 * requantized to its own scale and zero point in one of two ways:
 *   - float: acc * m in float32, m = (x_scale * w_scale[c]) / y_scale computed
 *     by the compiler in float32 in that order, rounded half to even; this is
 *     how ONNX Runtime requantizes, so the results are the same bit for bit;
 *   - fixed: m as a Q31 multiplier and a power-of-two shift, integer only
 *     (for cores without an FPU); it may differ from float by one step.
 * Then the zero point is added and the result saturates to [lo, hi]: the
 * type's range, narrowed by a fused Relu or Clip.
 */
#ifndef ONNX_TO_C_OC_QLINEAR_H_
#define ONNX_TO_C_OC_QLINEAR_H_

#include <stdint.h>

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_requant_fast.h"

/* The float requantization's rounding and clamping (oc_requant8_apply,
 * oc_requant8_run), unless an optimized folder's oc_requant_fast.h gives
 * other code for the same values (runtime/arm: VCVTR, SSAT/USAT). */
#ifndef OC_REQUANT8_APPLY_FLOAT_
#define OC_REQUANT8_APPLY_FLOAT_(r, i, acc, v)                             \
    {                                                                      \
    const float lo = (float)(r->lo - r->zp), hi = (float)(r->hi - r->zp);  \
    float f = oc_roundf_even((float)acc * r->mult[i]);                     \
    f = f < lo ? lo : (f > hi ? hi : f);                                   \
    return (int32_t)f + r->zp;                                             \
    }
#define OC_REQUANT8_RUN_SAT8_(r, acc, n, out, step, m, zp)
#define OC_REQUANT8_RUN_FLOAT_(acc, n, out, step, m, zp, lo, hi, t, v)  \
    {                                                                   \
    const float flo = (float)lo, fhi = (float)hi;                       \
    for (t = 0; t < n; t++) {                                           \
      float f = oc_roundf_even((float)acc[t] * m);                      \
      f = f < flo ? flo : (f > fhi ? fhi : f);                          \
      out[t * step] = (uint8_t)((int32_t)f + zp);                       \
    }                                                                   \
    }
#endif

typedef struct {
  const float *mult;      /* float mode: the multipliers; NULL in fixed mode */
  const int32_t *q_mult;  /* fixed mode: Q31 multipliers in [2^30, 2^31) (or 0) */
  const int32_t *q_shift; /* fixed mode: left shifts (negative: right shifts) */
  int32_t per_channel;    /* one multiplier per channel, else one for all */
  int32_t zp, lo, hi;     /* output zero point and saturation bounds */
} oc_requant8;

/* 8-bit element i of q (signed or not) as int32. */
OC_INLINE int32_t oc_q8_get(const void *q, int32_t is_signed, ptrdiff_t i) {
  return is_signed ? (int32_t)((const int8_t *)q)[i] : (int32_t)((const uint8_t *)q)[i];
}

OC_INLINE void oc_q8_put(void *q, int32_t is_signed, ptrdiff_t i, int32_t v) {
  if (is_signed) {
    ((int8_t *)q)[i] = (int8_t)v;
  } else {
    ((uint8_t *)q)[i] = (uint8_t)v;
  }
}

OC_INLINE int32_t oc_sat_i32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : (int32_t)v);
}

/* round(a * b / 2^31) to nearest, halves toward +infinity, saturating (the
 * rounding doubling high multiply of gemmlowp / TFLite). */
OC_INLINE int32_t oc_q31_mul(int32_t a, int32_t b) {
  const int64_t ab = (int64_t)a * (int64_t)b;
  const int64_t half = (int64_t)1 << 30;
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return (int32_t)((ab >= 0 ? ab + half : ab - half + 1) / ((int64_t)1 << 31));
}

/* round(x / 2^n), halves away from zero (n in 0..31). */
OC_INLINE int32_t oc_shift_round(int32_t x, int32_t n) {
  uint32_t mag, r;
  if (n <= 0) return x;
  mag = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
  r = (uint32_t)(((uint64_t)mag + ((uint64_t)1 << (n - 1))) >> n);
  return x < 0 ? -(int32_t)r : (int32_t)r;
}

/* acc * m (fixed point) as int32, without the zero point. */
OC_INLINE int32_t oc_requant_fixed(int32_t acc, int32_t q_mult, int32_t q_shift) {
  int32_t x = acc;
  if (q_shift > 0) x = oc_sat_i32((int64_t)acc * ((int64_t)1 << q_shift));
  x = oc_q31_mul(x, q_mult);
  return q_shift < 0 ? oc_shift_round(x, -q_shift) : x;
}

/* The requantized value of accumulator acc of channel c. */
OC_INLINE int32_t oc_requant8_apply(const oc_requant8 *r, int32_t c, int32_t acc) {
  const int32_t i = r->per_channel ? c : 0;
  int32_t v;
  if (r->mult != NULL) {
    OC_REQUANT8_APPLY_FLOAT_(r, i, acc, v)
  }
  v = oc_requant_fixed(acc, r->q_mult[i], r->q_shift[i]);
  v = v > r->hi - r->zp ? r->hi - r->zp : (v < r->lo - r->zp ? r->lo - r->zp : v);
  return v + r->zp;
}

/* The sums of channels co .. co + 3 requantized into bytes at, at + step,
 * at + 2 step, at + 3 step of y; the values are found before any byte is
 * stored, so r is read once for all four. An int8 and a uint8 value in
 * range have the same byte as their uint8 conversion. */
OC_INLINE void oc_requant8_put4(const oc_requant8 *r, int32_t co, uint32_t s0, uint32_t s1, uint32_t s2,
                                uint32_t s3, void *y, ptrdiff_t at, ptrdiff_t step) {
  const int32_t v0 = oc_requant8_apply(r, co, (int32_t)s0);
  const int32_t v1 = oc_requant8_apply(r, co + 1, (int32_t)s1);
  const int32_t v2 = oc_requant8_apply(r, co + 2, (int32_t)s2);
  const int32_t v3 = oc_requant8_apply(r, co + 3, (int32_t)s3);
  uint8_t *out = (uint8_t *)y + at;
  out[0] = (uint8_t)v0, out[step] = (uint8_t)v1;
  out[2 * step] = (uint8_t)v2, out[3 * step] = (uint8_t)v3;
}

/* Sums acc[0 .. n) of one channel (r's first multiplier) requantized into
 * bytes at, at + step, ... of y: oc_requant8_apply's values, with the mode
 * and the parameters found once. An int8 and a uint8 value in range have the
 * same byte as their uint8 conversion. */
OC_INLINE void oc_requant8_run(const oc_requant8 *r, const int32_t *acc, int32_t n, void *y, ptrdiff_t at,
                               ptrdiff_t step) {
  uint8_t *out = (uint8_t *)y + at;
  const int32_t zp = r->zp, lo = r->lo - zp, hi = r->hi - zp;
  int32_t t, v;
  if (r->mult != NULL) {
    const float m = r->mult[0];
    OC_REQUANT8_RUN_SAT8_(r, acc, n, out, step, m, zp)
    OC_REQUANT8_RUN_FLOAT_(acc, n, out, step, m, zp, lo, hi, t, v)
    return;
  }
  for (t = 0; t < n; t++) {
    v = oc_requant_fixed(acc[t], r->q_mult[0], r->q_shift[0]);
    v = v > hi ? hi : (v < lo ? lo : v);
    out[t * step] = (uint8_t)(v + zp);
  }
}

/* Calls PREFIX_s8s8, _s8u8, _u8s8 or _u8u8 (kernels instantiated per pair
 * of element types) by the signedness of x and w. */
#define OC_Q8_PAIR_CALL(PREFIX, X_SIGNED, W_SIGNED, ARGS)                                       \
  ((X_SIGNED) ? ((W_SIGNED) ? PREFIX##_s8s8 ARGS : PREFIX##_s8u8 ARGS)                          \
              : ((W_SIGNED) ? PREFIX##_u8s8 ARGS : PREFIX##_u8u8 ARGS))

/* QuantizeLinear of one float: round(x / scale) half to even, plus the zero
 * point, saturated (NaN: the zero point). */
OC_INLINE int32_t oc_quantize8(float x, float scale, int32_t zp, int32_t is_signed) {
  const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
  float v = oc_roundf_even(x / scale) + (float)zp;
  v = v != v ? (float)zp : (v < lo ? lo : (v > hi ? hi : v));
  return (int32_t)v;
}

/* Convolution (NCHW, OIHW weights, 3-D view as oc_conv2d_params): x has
 * one zero point, w one or one per output channel. */
typedef struct {
  oc_conv2d_params conv;
  int32_t x_signed, w_signed, y_signed;
  int32_t x_zp;
  int32_t w_zp_per_channel;
} oc_qconv_params;

/* y[m, n] = a[m, k] b[k, n] (b[n, k] when trans_b), channels along n. At a
 * model's edges a may be float (quantized as it is read, QuantizeLinear
 * folded in) and y float (dequantized as it is written: (q - zp) * y_scale).
 * zp_folded (integer a, constant b): the compiler has folded the zero points'
 * constant terms into the bias, bias[j] + k a_zp zb[j] - a_zp sum_k b[k, j]
 * (mod 2^32), so the kernel multiplies the raw values and subtracts
 * zb[j] sum_k a[i, k] once per row and column: the same sums mod 2^32. */
typedef struct {
  int32_t m, n, k, trans_b;
  int32_t a_signed, b_signed, y_signed;
  int32_t a_zp;
  int32_t b_zp_per_col;
  int32_t a_float, y_float;
  float a_scale, y_scale;
  int32_t zp_folded;
} oc_qgemm_params;

/* Elementwise Add or Mul of two tensors of one shape. Add, float mode:
 * dequantize both in float32, add, quantize (the ONNX definition); fixed
 * mode: both rescaled to a common Q20 scale (TFLite's method). Mul: the
 * integer product requantized with (a_scale * b_scale) / y_scale. */
typedef struct {
  int32_t count, is_mul;
  int32_t a_signed, b_signed, y_signed;
  int32_t a_zp, b_zp;
  float a_scale, b_scale, y_scale;        /* Add, float mode */
  int32_t a_mult, a_shift, b_mult, b_shift; /* Add, fixed mode: to the common scale */
} oc_qbinary_params;

/* Average pooling (3-D view as oc_pool_params). Float mode follows ONNX
 * Runtime: the dequantized values summed in float32, divided by the count,
 * then quantized as QuantizeLinear defines it. Fixed mode: the integer sum requantized by x_scale /
 * y_scale with 8 extra bits, then divided by the count with rounding. */
typedef struct {
  int32_t n, c, d_in, h_in, w_in, d_out, h_out, w_out;
  int32_t k_d, k_h, k_w, stride_d, stride_h, stride_w, pad_front, pad_top, pad_left;
  int32_t count_include_pad;
  int32_t x_signed, y_signed, x_zp;
  float x_scale, y_scale;
} oc_qpool_params;

/* One 8-bit value moved to another scale and zero point as DequantizeLinear
 * then QuantizeLinear define it: in float mode (r->mult != NULL) exactly so,
 * (x - x_zp) * x_scale in float32, then divided by y_scale, rounded half to
 * even; in fixed mode (x - x_zp) times the Q31 form of x_scale / y_scale.
 * `same` (equal scales and zero points): x itself. */
typedef struct {
  int32_t same, x_signed, y_signed, x_zp;
  float x_scale, y_scale;
} oc_qconvert_params;

OC_INLINE int32_t oc_qconvert(const oc_qconvert_params *c, const oc_requant8 *r, int32_t x) {
  int32_t v;
  if (c->same) return x;
  if (r->mult != NULL) {
    v = oc_quantize8((float)(x - c->x_zp) * c->x_scale, c->y_scale, r->zp, c->y_signed);
  } else {
    v = oc_requant_fixed(x - c->x_zp, r->q_mult[0], r->q_shift[0]) + r->zp;
  }
  return v < r->lo ? r->lo : (v > r->hi ? r->hi : v);
}

/* Max pooling (the window fields of oc_qpool_params; padding never wins),
 * the maximum then converted to the output's scale. */
typedef struct {
  oc_qpool_params pool;
  int32_t dil_d, dil_h, dil_w;
  oc_qconvert_params convert;
} oc_qmaxpool_params;

/* One input of a Concat: `outer` rows of `row` elements copied, converted,
 * to rows of `y_row` elements starting at element `offset`. */
typedef struct {
  int32_t outer, row, y_row, offset;
  oc_qconvert_params convert;
} oc_qconcat_params;

#endif /* ONNX_TO_C_OC_QLINEAR_H_ */
