/*
 * onnx-to-c runtime: portable single-precision math.
 *
 * Results must be bit-identical on every target (x86-64 glibc, Cortex-M
 * newlib, ...), so nothing here calls expf/logf/tanhf/... from the C library:
 * those differ between libms. Invalid operands give oc_nanf() (a positive
 * quiet NaN) rather than a NaN made by the hardware, whose sign differs
 * between x86 and ARM. Only float arithmetic is used (no double), with
 * round-to-nearest-even and no FMA contraction (-ffp-contract=off), plus the
 * libm functions that are exact on every IEEE-754 implementation: sqrtf,
 * fabsf, floorf (and ceilf in unary.c).
 *
 * Algorithms (all coefficients were fitted for this file, with mpmath's
 * Chebyshev fit, and rounded to float):
 *   exp:  Cody & Waite, "Software Manual for the Elementary Functions" (1980):
 *         x = n ln2 + r with ln2 split in two, exp(r) by a polynomial,
 *         then scaling by 2^n built from its bit pattern.
 *   log:  log(1+f) = 2 atanh(s), s = f / (2 + f) (same book; also used by
 *         fdlibm), atanh by its Taylor series.
 *   pow:  ln|x| in double-float arithmetic (Dekker, "A floating-point
 *         technique for extending the available precision", 1971) with a
 *         small table of ln(1 + i/32), then exp(y ln|x|) of a double-float.
 *   sin/cos: Cody & Waite reduction by pi/2 split in four, polynomials
 *         on [-pi/4, pi/4].
 *   erf:  x + x Q(x^2) on [0, 1); 1 - exp(-x^2) H(1/x) on [1, 3.93).
 *   log1p: Goldberg, "What every computer scientist should know about
 *         floating-point arithmetic" (1991), theorem 4.
 * The max errors in the comments below were measured against double libm
 * over every float (pow: 125M random pairs); kernel_tests.c re-checks them
 * on a sample.
 */
#ifndef ONNX_TO_C_OC_MATH_H_
#define ONNX_TO_C_OC_MATH_H_

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "onnx_to_c/oc_common.h"

/* `unused` keeps clang quiet about the helpers a generated file does not
 * call: there this header is part of the main file, where clang warns about
 * unused static inline functions. */
#ifndef OC_INLINE
#if defined(__GNUC__)
#define OC_INLINE static inline __attribute__((unused))
#else
#define OC_INLINE static inline
#endif
#endif

OC_INLINE uint32_t oc_f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

OC_INLINE float oc_u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

OC_INLINE float oc_inff(void) { return oc_u2f(0x7F800000u); }
OC_INLINE float oc_nanf(void) { return oc_u2f(0x7FC00000u); }

/* Round half to even. Adding and removing 2^23 leaves no fraction bits, so
 * the hardware rounding (to nearest even) does the work. */
OC_INLINE float oc_roundf_even(float x) {
  float ax = fabsf(x);
  if (ax < 8388608.0f) { /* false for NaN and for |x| >= 2^23 (already integral) */
    float r = (ax + 8388608.0f) - 8388608.0f;
    return oc_u2f(oc_f2u(r) | (oc_f2u(x) & 0x80000000u)); /* keep the sign, also of -0 */
  }
  return x;
}

/* Error-free transformations (Knuth two-sum, Dekker two-product without FMA). */
OC_INLINE void oc_two_sum(float a, float b, float *s, float *e) {
  float t = a + b;
  float bb = t - a;
  *s = t;
  *e = (a - (t - bb)) + (b - bb);
}

OC_INLINE void oc_split(float a, float *hi, float *lo) {
  float t = 4097.0f * a; /* 2^12 + 1: splits the 24-bit significand in 12 + 12 */
  *hi = t - (t - a);
  *lo = a - *hi;
}

OC_INLINE void oc_two_prod(float a, float b, float *p, float *e) {
  float ah, al, bh, bl;
  oc_split(a, &ah, &al);
  oc_split(b, &bh, &bl);
  *p = a * b;
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* exp(hi + lo) for |lo| <= ~ulp(hi). ln2 = LN2_HI + LN2_LO with
 * LN2_HI = 0.693145751953125 (16 significant bits) and LN2_LO =
 * 1.428606765e-06, so n * LN2_HI is exact for |n| < 256 and
 * hi - n * LN2_HI is exact (Sterbenz). */
OC_INLINE float oc_exp_dd(float hi, float lo) {
  float kf, r, p;
  int32_t n;
  if (!(hi > -104.0f)) /* exp(-104) < 2^-150 rounds to 0; also NaN */
    return (hi != hi) ? hi + hi : 0.0f;
  if (hi > 89.0f) return oc_inff(); /* exp(88.73) > FLT_MAX */
  /* n = round(hi / ln2): adding 1.5 * 2^23 rounds to an integer */
  kf = (hi * 1.44269502f + 12582912.0f) - 12582912.0f;
  n = (int32_t)kf;
  r = ((hi - kf * 0.693145751953125f) - kf * 1.428606765e-06f) + lo;
  /* exp(r) = 1 + r + r^2 Q(r), |r| <= 0.3467: Chebyshev fit, error 6.5e-8 on Q */
  p = 1.0f + (r + (r * r) * (5.000000000e-01f +
                             r * (1.666657627e-01f +
                                  r * (4.166655615e-02f +
                                       r * (8.363194764e-03f + r * 1.392620383e-03f)))));
  /* scale by 2^n in steps whose factors are normal floats: a single rounding */
  if (n > 127) return (p * 1.70141183e+38f) * 2.0f; /* n == 128 */
  if (n < -125) return (p * oc_u2f((uint32_t)(n + 100 + 127) << 23)) * 7.88860905e-31f;
  return p * oc_u2f((uint32_t)(n + 127) << 23);
}

/* exp; max error 1.05 ulp (over every float). */
OC_INLINE float oc_expf(float x) { return oc_exp_dd(x, 0.0f); }

/* Natural log; max error 0.86 ulp (over every float). */
OC_INLINE float oc_logf(float x) {
  uint32_t ix = oc_f2u(x);
  int32_t e = 0;
  float m, f, s, s2, hfsq, r, ef;
  if (x != x) return x + x;
  if (x < 0.0f) return oc_nanf();
  if (x == 0.0f) return -oc_inff();
  if (ix >= 0x7F800000u) return x; /* +inf */
  if (ix < 0x00800000u) { /* subnormal: scale into the normal range */
    x *= 16777216.0f;
    ix = oc_f2u(x);
    e = -24;
  }
  e += (int32_t)(ix >> 23) - 127;
  m = oc_u2f((ix & 0x007FFFFFu) | 0x3F800000u); /* [1, 2) */
  if (m > 1.41421354f) {
    m *= 0.5f;
    e += 1;
  }
  /* m in [sqrt(1/2), sqrt(2)]: log(m) = log(1+f) = 2 atanh(s)
   *   = f - f^2/2 + s (f^2/2 + R), R = 2 s^2 / 3 + 2 s^4 / 5 + ...
   * which keeps the leading term f exact. |s| <= 0.1716. */
  f = m - 1.0f;
  s = f / (2.0f + f);
  s2 = s * s;
  hfsq = 0.5f * f * f;
  r = s2 * (0.666666667f + s2 * (0.4f + s2 * (0.285714286f + s2 * 0.222222222f)));
  ef = (float)e;
  /* ln2 split as in oc_exp_dd; e * LN2_HI is exact */
  return ef * 0.693145751953125f + ((f - (hfsq - (s * (hfsq + r) + ef * 1.428606765e-06f))));
}

/* log(1 + x) for x > -1 (Goldberg's trick: log(u) * x / (u - 1), u = 1 + x);
 * max error 2.5 ulp. */
OC_INLINE float oc_log1pf(float x) {
  float u = 1.0f + x;
  if (u == 1.0f) return x;
  if (u == oc_inff()) return oc_logf(u);
  return oc_logf(u) * (x / (u - 1.0f));
}

/* Hyperbolic tangent; max error 1.47 ulp. */
OC_INLINE float oc_tanhf(float x) {
  float ax = fabsf(x), r;
  if (ax < 0.55f) {
    /* tanh x = x + x^3 P(x^2): Chebyshev fit on [0, 0.55], error 1.3e-8 on P */
    float x2 = x * x;
    return x + (x * x2) * (-3.333333135e-01f +
                           x2 * (1.333311349e-01f +
                                 x2 * (-5.390942842e-02f +
                                       x2 * (2.130938880e-02f + x2 * -6.610227749e-03f))));
  }
  if (ax < 9.1f) { /* beyond, tanh rounds to 1 */
    float t = oc_expf(2.0f * ax);
    r = 1.0f - 2.0f / (t + 1.0f);
  } else if (ax == ax) {
    r = 1.0f;
  } else {
    return x + x; /* NaN */
  }
  return x < 0.0f ? -r : r;
}

/* Logistic sigmoid 1 / (1 + exp(-x)), never forming exp of a large positive;
 * max error 2.4 ulp. */
OC_INLINE float oc_sigmoidf(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + oc_expf(-x));
  {
    float e = oc_expf(x); /* NaN goes here and stays NaN */
    return e / (1.0f + e);
  }
}

/* Error function; max error 1.34 ulp (relative 9.5e-8). */
OC_INLINE float oc_erff(float x) {
  float ax = fabsf(x), r;
  if (ax < 1.0f) {
    /* erf x = x + x Q(x^2): Chebyshev fit on [0, 1], error 1.2e-9 on Q; the
     * leading x is exact, which keeps the rounding error small */
    float t = x * x;
    return x + x * (1.283791661e-01f +
                    t * (-3.761262596e-01f +
                         t * (1.128359437e-01f +
                              t * (-2.685421146e-02f +
                                   t * (5.189087242e-03f +
                                        t * (-8.016864303e-04f + t * 7.875874871e-05f))))));
  }
  if (ax < 3.93f) { /* beyond, erf rounds to 1 */
    /* erfc x = exp(-x^2) H(1/x): Chebyshev fit of H on [1/3.93, 1], error 2.1e-8 */
    float t = 1.0f / ax;
    float h = 3.155485902e-04f +
              t * (5.583241582e-01f +
                   t * (4.681356624e-02f +
                        t * (-4.893250167e-01f +
                             t * (5.362009406e-01f +
                                  t * (-2.958871722e-01f +
                                       t * (6.882690638e-02f +
                                            t * (7.612377871e-03f + t * -5.297743715e-03f)))))));
    r = 1.0f - oc_expf(-(ax * ax)) * h;
  } else if (ax == ax) {
    r = 1.0f;
  } else {
    return x + x; /* NaN */
  }
  return x < 0.0f ? -r : r;
}

/* ln(c) for c = 1 + i/32, i = -9..13, as a float pair (hi + lo). */
OC_INLINE float oc_pow_lnc_hi(int32_t i) {
  static const float t[23] = {
      -3.302416801e-01f, -2.876820862e-01f, -2.468600720e-01f, -2.076393664e-01f,
      -1.698990315e-01f, -1.335313916e-01f, -9.844007343e-02f, -6.453852355e-02f,
      -3.174869716e-02f, 0.000000000e+00f,  3.077165782e-02f,  6.062462181e-02f,
      8.961215615e-02f,  1.177830324e-01f,  1.451820135e-01f,  1.718502641e-01f,
      1.978257447e-01f,  2.231435478e-01f,  2.478361577e-01f,  2.719337046e-01f,
      2.954642177e-01f,  3.184537292e-01f,  3.409265876e-01f};
  return t[i + 9];
}

OC_INLINE float oc_pow_lnc_lo(int32_t i) {
  static const float t[23] = {
      -6.725313195e-09f, 1.377754355e-08f,  -5.914809975e-09f, 1.610076406e-09f,
      -5.275507586e-09f, -1.003886640e-09f, 6.172856670e-10f,  2.417230860e-09f,
      -1.152905771e-09f, 0.000000000e+00f,  8.422373909e-10f,  7.905942394e-12f,
      2.536961974e-09f,  3.298690654e-09f,  -3.667159909e-09f, -7.145759096e-09f,
      -1.418195672e-09f, 3.540848503e-09f,  6.225023608e-09f,  1.086900259e-08f,
      -4.768975437e-09f, 1.965855256e-09f,  -6.110413286e-10f};
  return t[i + 9];
}

/* exp(y * ln(x)) for finite x > 0, finite 0 < |y| < 2^32, in double-float
 * arithmetic: ln(x) = e ln2 + ln(c) + 2 atanh((m - c) / (m + c)). */
OC_INLINE float oc_pow_pos(float x, float y) {
  uint32_t ix = oc_f2u(x);
  int32_t e = 0, i;
  float m, c, f, dh, dl, sh, sl, ph, pl, s2, tail, ef, ah, al, h, l, zh, zl, t;
  if (ix < 0x00800000u) {
    x *= 16777216.0f;
    ix = oc_f2u(x);
    e = -24;
  }
  e += (int32_t)(ix >> 23) - 127;
  m = oc_u2f((ix & 0x007FFFFFu) | 0x3F800000u);
  if (m > 1.41421354f) {
    m *= 0.5f;
    e += 1;
  }
  i = (int32_t)((m - 1.0f) * 32.0f + 16.5f) - 16; /* round((m - 1) * 32), in [-9, 13] */
  c = 1.0f + (float)i * 0.03125f;
  f = m - c; /* exact */
  oc_two_sum(m, c, &dh, &dl);
  sh = f / dh; /* s = f / (m + c), |s| < 0.0112, as sh + sl */
  oc_two_prod(sh, dh, &ph, &pl);
  sl = (((f - ph) - pl) - sh * dl) / dh;
  s2 = sh * sh;
  tail = (sh * s2) * (0.666666667f + s2 * (0.4f + s2 * 0.285714286f)); /* 2s^3/3 + ... */
  ef = (float)e;
  oc_two_sum(ef * 0.693145751953125f, oc_pow_lnc_hi(i), &ah, &al);
  oc_two_sum(ah, 2.0f * sh, &h, &l);
  l = l + (al + (ef * 1.428606765e-06f + (oc_pow_lnc_lo(i) + (2.0f * sl + tail))));
  t = h + l; /* renormalize: ln(x) = t + l */
  l = l - (t - h);
  oc_two_prod(y, t, &zh, &zl);
  zl = zl + y * l;
  t = zh + zl;
  zl = zl - (t - zh);
  return oc_exp_dd(t, zl);
}

/* pow with the special cases of C99 Annex F (F.9.4.4). y = 2, 3, -1 use
 * x * x, x * x * x, 1 / x (what most runtimes do for these), y = 0.5 uses
 * sqrtf. Other integers take the general path, which is more accurate than
 * repeated squaring, whose error grows with the exponent (already 1.9 ulp
 * for x^4). Negative x with an integer y: pow(|x|, y) with the sign of y's
 * parity. Max error: 1.25 ulp over 125M random (x, y). */
OC_INLINE float oc_powf(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y), r;
  int32_t yint; /* 0: not an integer, 1: odd integer, 2: even integer */
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x) return x + x; /* not x + y: with two NaNs the payload would depend */
  if (y != y) return y + y; /* on the operand order the compiler picks */
  if (ay == oc_inff()) {
    if (ax == 1.0f) return 1.0f; /* x == -1 */
    return ((ax > 1.0f) == (y > 0.0f)) ? oc_inff() : 0.0f;
  }
  if (ay >= 16777216.0f) {
    yint = 2; /* every float >= 2^24 is an even integer */
  } else if (floorf(y) == y) {
    yint = ((uint32_t)(int32_t)ay & 1u) ? 1 : 2;
  } else {
    yint = 0;
  }
  if (ax == 0.0f) {
    if (y < 0.0f) return yint == 1 ? 1.0f / x : oc_inff(); /* +-inf */
    return yint == 1 ? x : 0.0f;
  }
  if (ax == oc_inff()) {
    if (x > 0.0f) return y < 0.0f ? 0.0f : x;
    if (y < 0.0f) return yint == 1 ? -0.0f : 0.0f;
    return yint == 1 ? x : -x;
  }
  if (x < 0.0f && yint == 0) return oc_nanf();
  if (y == 2.0f) return x * x;
  if (y == 0.5f) return sqrtf(x); /* x > 0 here */
  if (y == 1.0f) return x;
  if (y == -1.0f) return 1.0f / x;
  if (y == 3.0f) return (x * x) * x;
  if (ax == 1.0f) { /* x == -1 */
    r = 1.0f;
  } else if (ay > 4294967296.0f) { /* |y ln|x|| > 256: certain overflow or underflow */
    r = ((ax > 1.0f) == (y > 0.0f)) ? oc_inff() : 0.0f;
  } else {
    r = oc_pow_pos(ax, y);
  }
  return (x < 0.0f && yint == 1) ? -r : r;
}

/* sin and cos share the reduction x = k pi/2 + r, |r| <= pi/4 (slightly more
 * after rounding). pi/2 = C1 + C2 + C3 + C4 where C1, C2, C3 have at most 11
 * significant bits, so k * C1, k * C2, k * C3 are exact for |k| < 2^13, i.e.
 * |x| < 12867. Beyond that the absolute error grows like |x| * 2^-24, and
 * for |x| >= 2^22 a pass leaves |r| up to about |x| * 2^-23, so passes repeat
 * (at most 6) until |r| <= 0.79: the result is then garbage but deterministic
 * and in [-1, 1].
 * Returns the quadrant k mod 4. */
OC_INLINE uint32_t oc_trig_reduce(float x, float *r) {
  uint32_t q = 0u;
  int32_t pass = 0;
  do {
    float k = x * 0.636619747f;
    if (fabsf(k) < 4194304.0f) {
      k = (k + 12582912.0f) - 12582912.0f; /* round to an integer */
    } else { /* no room for the trick above; k has at most one fraction bit */
      const float a = floorf(fabsf(k) + 0.5f);
      k = k < 0.0f ? -a : a; /* symmetric, so sin stays odd */
    }
    x = (((x - k * 1.5703125f) - k * 4.83751297e-04f) - k * 7.54953362e-08f) -
        k * 2.563344068e-12f;
    q += (uint32_t)(int32_t)(k - 4.0f * floorf(k * 0.25f)); /* k mod 4, exact */
  } while (++pass < 8 && fabsf(x) > 0.79f);
  *r = x;
  return q & 3u;
}

OC_INLINE float oc_sin_poly(float r) {
  float t = r * r;
  return r + (r * t) * (-1.666666716e-01f +
                        t * (8.333331905e-03f + t * (-1.984003902e-04f + t * 2.724381147e-06f)));
}

OC_INLINE float oc_cos_poly(float r) {
  float t = r * r;
  return (1.0f - 0.5f * t) +
         (t * t) * (4.166666791e-02f +
                    t * (-1.388888806e-03f + t * (2.480055991e-05f + t * -2.729585731e-07f)));
}

/* sin; max error 2.4 ulp for |x| < 12867 (see oc_trig_reduce beyond). */
OC_INLINE float oc_sinf(float x) {
  float r;
  uint32_t q;
  if (fabsf(x) <= 0.785398163f) return oc_sin_poly(x);
  if (x != x) return x + x;
  if (fabsf(x) == oc_inff()) return oc_nanf();
  q = oc_trig_reduce(x, &r);
  switch (q) {
    case 0u: return oc_sin_poly(r);
    case 1u: return oc_cos_poly(r);
    case 2u: return -oc_sin_poly(r);
    default: return -oc_cos_poly(r);
  }
}

/* cos; same accuracy as oc_sinf. */
OC_INLINE float oc_cosf(float x) {
  float r;
  uint32_t q;
  if (fabsf(x) <= 0.785398163f) return oc_cos_poly(x);
  if (x != x) return x + x;
  if (fabsf(x) == oc_inff()) return oc_nanf();
  q = oc_trig_reduce(x, &r);
  switch (q) {
    case 0u: return oc_cos_poly(r);
    case 1u: return -oc_sin_poly(r);
    case 2u: return -oc_cos_poly(r);
    default: return oc_sin_poly(r);
  }
}

/* tan = sin / cos on the reduced argument; max error about 3 ulp. */
OC_INLINE float oc_tanf(float x) {
  float r;
  uint32_t q;
  if (fabsf(x) <= 0.785398163f) return oc_sin_poly(x) / oc_cos_poly(x);
  if (x != x) return x + x;
  if (fabsf(x) == oc_inff()) return oc_nanf();
  q = oc_trig_reduce(x, &r);
  return (q & 1u) ? -oc_cos_poly(r) / oc_sin_poly(r) : oc_sin_poly(r) / oc_cos_poly(r);
}

/* pi/2, pi/4 and pi as float hi + lo pairs. */
#define OC_PIO2_HI 1.57079637f
#define OC_PIO2_LO (-4.37113883e-08f)
#define OC_PIO4_HI 0.785398185f
#define OC_PIO4_LO (-2.18556941e-08f)
#define OC_PI_HI 3.14159274f
#define OC_PI_LO (-8.74227766e-08f)
#define OC_LN2 0.693147182f

OC_INLINE float oc_copysign_of(float r, float x) { /* |r| with the sign bit of x */
  return oc_u2f((oc_f2u(r) & 0x7FFFFFFFu) | (oc_f2u(x) & 0x80000000u));
}

/* atan on [-tan(pi/8), tan(pi/8)]: x + x^3 P(x^2), least-squares fit on
 * Chebyshev nodes, relative error 4.8e-8 on P. */
OC_INLINE float oc_atan_poly(float x) {
  const float t = x * x;
  return x + (x * t) * (-3.333333174e-01f +
                        t * (1.999953657e-01f +
                             t * (-1.426384336e-01f + t * (1.074269575e-01f + t * -6.448931836e-02f))));
}

/* atan with the reductions atan(x) = pi/2 - atan(1/x) and
 * pi/4 + atan((x - 1) / (x + 1)); about 2 ulp. */
OC_INLINE float oc_atanf(float x) {
  const float ax = fabsf(x);
  float r;
  if (x != x) return x + x;
  if (ax > 2.41421356f) {
    r = OC_PIO2_HI + (OC_PIO2_LO - oc_atan_poly(1.0f / ax));
  } else if (ax > 0.414213562f) {
    r = OC_PIO4_HI + (OC_PIO4_LO + oc_atan_poly((ax - 1.0f) / (ax + 1.0f)));
  } else {
    r = oc_atan_poly(ax);
  }
  return oc_copysign_of(r, x);
}

/* asin on [-1/2, 1/2]: x + x^3 P(x^2), relative error 2.2e-8 on P. */
OC_INLINE float oc_asin_poly(float x) {
  const float t = x * x;
  return x + (x * t) * (1.666666634e-01f +
                        t * (7.500094320e-02f +
                             t * (4.459947375e-02f +
                                  t * (3.109985128e-02f + t * (1.715295401e-02f + t * 3.368489652e-02f)))));
}

/* asin; beyond 1/2, asin(x) = pi/2 - 2 asin(sqrt((1 - x) / 2)). About 2 ulp. */
OC_INLINE float oc_asinf(float x) {
  const float ax = fabsf(x);
  if (!(ax <= 1.0f)) return (x != x) ? x + x : oc_nanf();
  if (ax <= 0.5f) return oc_asin_poly(x);
  return oc_copysign_of(OC_PIO2_HI - (2.0f * oc_asin_poly(sqrtf(0.5f * (1.0f - ax))) - OC_PIO2_LO),
                        x);
}

/* acos by the same reductions as asin. About 2 ulp. */
OC_INLINE float oc_acosf(float x) {
  const float ax = fabsf(x);
  float a;
  if (!(ax <= 1.0f)) return (x != x) ? x + x : oc_nanf();
  if (ax <= 0.5f) return OC_PIO2_HI - (oc_asin_poly(x) - OC_PIO2_LO);
  a = 2.0f * oc_asin_poly(sqrtf(0.5f * (1.0f - ax)));
  return x > 0.0f ? a : OC_PI_HI - (a - OC_PI_LO);
}

/* sinh: x + x^3 P(x^2) below 1 (relative error 1.2e-9 on P), else from exp;
 * exp(|x| / 2)^2 / 2 where exp(|x|) would overflow. */
OC_INLINE float oc_sinhf(float x) {
  const float ax = fabsf(x);
  float r;
  if (ax < 1.0f) {
    const float t = x * x;
    return x + (x * t) * (1.666666665e-01f +
                          t * (8.333339596e-03f + t * (1.983812358e-04f + t * 2.806135232e-06f)));
  }
  if (ax < 88.0f) {
    const float e = oc_expf(ax);
    r = 0.5f * (e - 1.0f / e);
  } else {
    const float e = oc_expf(0.5f * ax); /* NaN stays NaN */
    r = (0.5f * e) * e;
  }
  return oc_copysign_of(r, x);
}

OC_INLINE float oc_coshf(float x) {
  const float ax = fabsf(x);
  if (ax < 88.0f) {
    const float e = oc_expf(ax);
    return 0.5f * (e + 1.0f / e);
  } else {
    const float e = oc_expf(0.5f * ax);
    return (0.5f * e) * e;
  }
}

/* asinh = log(x + sqrt(x^2 + 1)), through log1p near 0. */
OC_INLINE float oc_asinhf(float x) {
  const float ax = fabsf(x);
  float r;
  if (ax > 4096.0f) {
    r = oc_logf(ax) + OC_LN2;
  } else if (ax > 2.0f) {
    r = oc_logf(2.0f * ax + 1.0f / (sqrtf(ax * ax + 1.0f) + ax));
  } else {
    const float t = ax * ax;
    r = oc_log1pf(ax + t / (1.0f + sqrtf(1.0f + t))); /* NaN stays NaN */
  }
  return oc_copysign_of(r, x);
}

/* acosh = log(x + sqrt(x^2 - 1)), through log1p near 1. */
OC_INLINE float oc_acoshf(float x) {
  float t;
  if (!(x >= 1.0f)) return (x != x) ? x + x : oc_nanf();
  if (x > 4096.0f) return oc_logf(x) + OC_LN2;
  if (x > 2.0f) return oc_logf(2.0f * x - 1.0f / (x + sqrtf(x * x - 1.0f)));
  t = x - 1.0f;
  return oc_log1pf(t + sqrtf(2.0f * t + t * t));
}

/* atanh = log1p(2x / (1 - x)) / 2. */
OC_INLINE float oc_atanhf(float x) {
  const float ax = fabsf(x);
  float r;
  if (!(ax <= 1.0f)) return (x != x) ? x + x : oc_nanf();
  if (ax < 0.5f) {
    const float t = ax + ax;
    r = 0.5f * oc_log1pf(t + t * ax / (1.0f - ax));
  } else {
    r = 0.5f * oc_log1pf((ax + ax) / (1.0f - ax)); /* ax == 1: inf */
  }
  return oc_copysign_of(r, x);
}

/* Epilogue activation of Conv/ConvTranspose/Gemm/MatMul (oc_act_kind).
 * NaN inputs stay NaN for every kind. */
OC_INLINE float oc_clamp01(float v) {
  v = v < 0.0f ? 0.0f : v;
  return v > 1.0f ? 1.0f : v;
}

OC_INLINE float oc_apply_act(const oc_act *a, float v) {
  switch (a->kind) {
    case OC_ACT_RELU: return v < 0.0f ? 0.0f : v;
    case OC_ACT_CLIP:
      v = v < a->alpha ? a->alpha : v;
      return v > a->beta ? a->beta : v;
    case OC_ACT_LEAKY_RELU: return v < 0.0f ? a->alpha * v : v;
    case OC_ACT_HARD_SIGMOID: return oc_clamp01(a->alpha * v + a->beta);
    case OC_ACT_HARD_SWISH: return v * oc_clamp01(v * (1.0f / 6.0f) + 0.5f);
    case OC_ACT_SIGMOID: return oc_sigmoidf(v);
    case OC_ACT_TANH: return oc_tanhf(v);
    default: return v;
  }
}

#endif /* ONNX_TO_C_OC_MATH_H_ */
