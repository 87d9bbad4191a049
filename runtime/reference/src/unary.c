/*
 * Elementwise unary operators (oc_unary_op). y may equal x: every element is
 * read before it is written. One loop per operator, the switch outside.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* softplus(v) = log(1 + exp(v)) without overflow: v + log1p(exp(-v)) for v > 0 */
static float unary_softplus_(float v) {
  return v > 0.0f ? v + oc_log1pf(oc_expf(-v)) : oc_log1pf(oc_expf(v));
}

#define UNARY_LOOP_(EXPR)          \
  for (i = 0; i < n; i++) {        \
    const float v = x[i];          \
    y[i] = (EXPR);                 \
  }                                \
  break

OC_API void oc_unary_f32(int32_t op, float alpha, float beta, const float *x, float *y,
                         int32_t n) {
  int32_t i;
  switch (op) {
    case OC_UNARY_RELU: UNARY_LOOP_(v < 0.0f ? 0.0f : v);
    case OC_UNARY_LEAKY_RELU: UNARY_LOOP_(v < 0.0f ? alpha * v : v);
    case OC_UNARY_CLIP: /* min(max(v, alpha), beta); NaN stays NaN */
      UNARY_LOOP_(v < alpha ? (alpha > beta ? beta : alpha) : (v > beta ? beta : v));
    case OC_UNARY_SIGMOID: UNARY_LOOP_(oc_sigmoidf(v));
    case OC_UNARY_HARD_SIGMOID: UNARY_LOOP_(oc_clamp01(alpha * v + beta));
    case OC_UNARY_HARD_SWISH: UNARY_LOOP_(v * oc_clamp01(v * (1.0f / 6.0f) + 0.5f));
    case OC_UNARY_TANH: UNARY_LOOP_(oc_tanhf(v));
    case OC_UNARY_SQRT: /* same NaN on every target (x86 would make it negative) */
      UNARY_LOOP_(v < 0.0f ? oc_nanf() : sqrtf(v));
    case OC_UNARY_EXP: UNARY_LOOP_(oc_expf(v));
    case OC_UNARY_LOG: UNARY_LOOP_(oc_logf(v));
    case OC_UNARY_ABS: UNARY_LOOP_(fabsf(v));
    case OC_UNARY_NEG: UNARY_LOOP_(-v);
    case OC_UNARY_RECIPROCAL: UNARY_LOOP_(1.0f / v);
    case OC_UNARY_FLOOR: UNARY_LOOP_(floorf(v));
    case OC_UNARY_CEIL: UNARY_LOOP_(ceilf(v));
    case OC_UNARY_ELU: UNARY_LOOP_(v < 0.0f ? alpha * (oc_expf(v) - 1.0f) : v);
    case OC_UNARY_SELU: /* beta is gamma */
      UNARY_LOOP_(beta * (v <= 0.0f ? alpha * (oc_expf(v) - 1.0f) : v));
    case OC_UNARY_SOFTPLUS: UNARY_LOOP_(unary_softplus_(v));
    case OC_UNARY_SOFTSIGN: UNARY_LOOP_(v / (1.0f + fabsf(v)));
    case OC_UNARY_ERF: UNARY_LOOP_(oc_erff(v));
    case OC_UNARY_ROUND: UNARY_LOOP_(oc_roundf_even(v));
    case OC_UNARY_SIGN: UNARY_LOOP_(v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : v));
    case OC_UNARY_SIN: UNARY_LOOP_(oc_sinf(v));
    case OC_UNARY_COS: UNARY_LOOP_(oc_cosf(v));
    case OC_UNARY_THRESHOLDED_RELU: UNARY_LOOP_(v > alpha ? v : 0.0f);
    case OC_UNARY_CELU: UNARY_LOOP_(v > 0.0f ? v : alpha * (oc_expf(v / alpha) - 1.0f));
    case OC_UNARY_GELU: /* 0.5 x (1 + erf(x / sqrt(2))) */
      UNARY_LOOP_((0.5f * v) * (1.0f + oc_erff(v * 0.707106781f)));
    case OC_UNARY_MUL_ADD: UNARY_LOOP_(alpha * v + beta);
    case OC_UNARY_ACOS: UNARY_LOOP_(oc_acosf(v));
    case OC_UNARY_ASIN: UNARY_LOOP_(oc_asinf(v));
    case OC_UNARY_ATAN: UNARY_LOOP_(oc_atanf(v));
    case OC_UNARY_ACOSH: UNARY_LOOP_(oc_acoshf(v));
    case OC_UNARY_ASINH: UNARY_LOOP_(oc_asinhf(v));
    case OC_UNARY_ATANH: UNARY_LOOP_(oc_atanhf(v));
    case OC_UNARY_COSH: UNARY_LOOP_(oc_coshf(v));
    case OC_UNARY_SINH: UNARY_LOOP_(oc_sinhf(v));
    case OC_UNARY_TAN: UNARY_LOOP_(oc_tanf(v));
    case OC_UNARY_MISH: UNARY_LOOP_(v * oc_tanhf(unary_softplus_(v)));
    case OC_UNARY_GELU_TANH:
      /* 0.5 x (1 + tanh(z)) with z = sqrt(2 / pi) (x + 0.044715 x^3), as x sigmoid(2 z):
       * the same value without 1 + tanh's cancellation for negative x */
      UNARY_LOOP_(v * oc_sigmoidf(1.595769122f * (v + 0.044715f * (v * v * v))));
    case OC_UNARY_SWISH: UNARY_LOOP_(v * oc_sigmoidf(alpha * v));
    case OC_UNARY_SHRINK: UNARY_LOOP_(v < -alpha ? v + beta : (v > alpha ? v - beta : 0.0f));
    default: /* OC_UNARY_IDENTITY */
      if (y != x) memmove(y, x, (size_t)n * sizeof *y);
      break;
  }
}

#undef UNARY_LOOP_
