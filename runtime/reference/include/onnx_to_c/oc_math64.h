/*
 * onnx-to-c runtime: portable double-precision exp and log for the float64
 * kernels (the float32 ones never use double; see oc_math.h for the rules).
 * Same algorithms as the float versions: Cody & Waite reduction by ln2 with
 * a Taylor polynomial for exp, log(1+f) = 2 atanh(f / (2 + f)) for log. The
 * series are long enough that truncation stays below 1e-17 relative.
 */
#ifndef ONNX_TO_C_OC_MATH64_H_
#define ONNX_TO_C_OC_MATH64_H_

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "onnx_to_c/oc_math.h"

OC_INLINE double oc_u2d(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

OC_INLINE uint64_t oc_d2u(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

OC_INLINE double oc_inf_f64(void) { return oc_u2d(UINT64_C(0x7FF0000000000000)); }
OC_INLINE double oc_nan_f64(void) { return oc_u2d(UINT64_C(0x7FF8000000000000)); }

/* 2^n for a normal n (-1022 <= n <= 1023). */
OC_INLINE double oc_pow2_f64(int32_t n) { return oc_u2d((uint64_t)(n + 1023) << 52); }

/* ln2 = LN2_HI + LN2_LO; LN2_HI has 32 significant bits, so k * LN2_HI is
 * exact for |k| < 2^20 (fdlibm's split). */
#define OC_LN2_HI_F64 6.93147180369123816490e-01
#define OC_LN2_LO_F64 1.90821492927058770002e-10

OC_INLINE double oc_exp_f64(double x) {
  double k, r, p;
  int32_t n;
  if (!(x > -745.2)) return (x != x) ? x + x : 0.0; /* below the smallest subnormal; NaN */
  if (x > 709.8) return oc_inf_f64();
  k = (x * 1.4426950408889634 + 6755399441055744.0) - 6755399441055744.0; /* round(x / ln2) */
  n = (int32_t)k;
  r = (x - k * OC_LN2_HI_F64) - k * OC_LN2_LO_F64; /* |r| <= 0.347 */
  p = 1.0 + r * (1.0 + r * (1.0 / 2.0 + r * (1.0 / 6.0 + r * (1.0 / 24.0 +
      r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0 + r * (1.0 / 40320.0 +
      r * (1.0 / 362880.0 + r * (1.0 / 3628800.0 + r * (1.0 / 39916800.0 +
      r * (1.0 / 479001600.0 + r * (1.0 / 6227020800.0)))))))))))));
  if (n > 1023) return (p * oc_pow2_f64(1023)) * oc_pow2_f64(n - 1023);
  if (n < -1022) return (p * oc_pow2_f64(n + 1000)) * oc_pow2_f64(-1000);
  return p * oc_pow2_f64(n);
}

OC_INLINE double oc_log_f64(double x) {
  uint64_t ix = oc_d2u(x);
  int32_t e = 0;
  double m, f, s, s2, hfsq, r, ef;
  if (x != x) return x + x;
  if (x < 0.0) return oc_nan_f64();
  if (x == 0.0) return -oc_inf_f64();
  if (ix >= UINT64_C(0x7FF0000000000000)) return x; /* +inf */
  if (ix < UINT64_C(0x0010000000000000)) { /* subnormal */
    x *= 18014398509481984.0; /* 2^54 */
    ix = oc_d2u(x);
    e = -54;
  }
  e += (int32_t)(ix >> 52) - 1023;
  m = oc_u2d((ix & UINT64_C(0x000FFFFFFFFFFFFF)) | UINT64_C(0x3FF0000000000000));
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  f = m - 1.0;
  s = f / (2.0 + f);
  s2 = s * s;
  hfsq = 0.5 * f * f;
  r = s2 * (2.0 / 3.0 + s2 * (2.0 / 5.0 + s2 * (2.0 / 7.0 + s2 * (2.0 / 9.0 +
      s2 * (2.0 / 11.0 + s2 * (2.0 / 13.0 + s2 * (2.0 / 15.0 + s2 * (2.0 / 17.0 +
      s2 * (2.0 / 19.0 + s2 * (2.0 / 21.0))))))))));
  ef = (double)e;
  return ef * OC_LN2_HI_F64 + (f - (hfsq - (s * (hfsq + r) + ef * OC_LN2_LO_F64)));
}

#endif /* ONNX_TO_C_OC_MATH64_H_ */
