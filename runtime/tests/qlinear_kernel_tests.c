/* Tests of the 8-bit kernels' arithmetic (oc_qlinear.h) and of a small
 * quantized convolution and matrix product against a direct computation. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "onnx_to_c/oc_qlinear_kernels.h"
#include "test_check.h"

/* m = q * 2^shift, q in [0.5, 1) as Q31 (as the code generator computes it). */
static void to_q31(double m, int32_t *q, int32_t *shift) {
  int e = 0;
  double f = frexp(m, &e);
  long long qm = llround(f * 2147483648.0);
  if (qm == 2147483648LL) {
    qm /= 2;
    e++;
  }
  *q = (int32_t)qm;
  *shift = e;
}

static void test_fixed_point(void) {
  int32_t q, s, acc, worst = 0;
  check(oc_q31_mul(1 << 30, 1 << 30) == 1 << 29, "q31: 0.5 * 0.5");
  check(oc_q31_mul(-(1 << 30), 1) == 0, "q31: -0.5 rounds toward +infinity");
  check(oc_q31_mul(1 << 30, 1) == 1, "q31: 0.5 rounds up");
  check(oc_q31_mul(INT32_MIN, INT32_MIN) == INT32_MAX, "q31: saturates");
  check(oc_shift_round(3, 1) == 2 && oc_shift_round(-3, 1) == -2, "shift: halves away from 0");
  check(oc_shift_round(5, 2) == 1 && oc_shift_round(-5, 2) == -1, "shift: to nearest");
  check(oc_shift_round(INT32_MIN, 31) == -1, "shift: 31 bits");
  to_q31(0.375, &q, &s);
  check(q == 1610612736 && s == -1, "q31 of 0.375");
  check(oc_requant_fixed(4, q, s) == 2, "fixed: 4 * 0.375 = 1.5 -> 2");
  check(oc_requant_fixed(-4, q, s) == -2, "fixed: -1.5 -> -2");
  /* Against the exact product, for multipliers above and below 1: at most one step off. */
  for (acc = -300000; acc <= 300000; acc += 77) {
    const double ms[3] = {0.0009765625 * 0.731, 0.4999, 3.2};
    int i;
    for (i = 0; i < 3; i++) {
      const double exact = (double)acc * ms[i];
      int32_t d;
      to_q31(ms[i], &q, &s);
      d = oc_requant_fixed(acc, q, s) - (int32_t)floor(exact + 0.5);
      if (d < 0) d = -d;
      if (d > worst) worst = d;
    }
  }
  check(worst <= 1, "fixed: within one step of the exact product");
}

static void test_requant_float(void) {
  const float half = 0.5f;
  const oc_requant8 r = {&half, NULL, NULL, 0, 3, -128, 127};
  const oc_requant8 relu = {&half, NULL, NULL, 0, -10, -10, 127};
  check(oc_requant8_apply(&r, 0, 3) == 2 + 3, "float: 1.5 -> 2 (half to even)");
  check(oc_requant8_apply(&r, 0, 5) == 2 + 3, "float: 2.5 -> 2 (half to even)");
  check(oc_requant8_apply(&r, 0, -5) == -2 + 3, "float: -2.5 -> -2");
  check(oc_requant8_apply(&r, 0, 1000) == 127, "float: saturates high");
  check(oc_requant8_apply(&r, 0, -1000) == -128, "float: saturates low");
  check(oc_requant8_apply(&relu, 0, -40) == -10, "float: a fused Relu bounds at the zero point");
  check(oc_quantize8(0.25f, 0.5f, 0, 1) == 0 && oc_quantize8(0.75f, 0.5f, 0, 1) == 2,
        "quantize: half to even");
  check(oc_quantize8(NAN, 0.5f, 7, 1) == 7, "quantize: NaN gives the zero point");
  check(oc_quantize8(1000.0f, 0.5f, 0, 0) == 255, "quantize: uint8 saturates");
}

/* A 3x3 convolution (2 -> 2 channels, pads 1, stride 2) and a
 * matrix product against direct sums, int8 and uint8 inputs. */
static void test_conv_and_gemm(void) {
  static const int8_t x[2 * 5 * 5] = {
      1,  -2, 3,  4,   -5, 6,  7,  -8, 9,  10, -11, 12, 13, -14, 15, 16, -17,
      18, 19, -20, 21, 22, -23, 24, 25, -1, 2,  -3, 4,   5,  -6, 7,  8,  -9,
      10, 11, -12, 13, 14, -15, 16, 17, -18, 19, 20, -21, 22, 23, -24, 25};
  static const int8_t w[2 * 2 * 9] = {1, 2, 3, -1, -2, -3, 4, 5, 6, 0, 1, 0, 1, 0, 1, 0, 1, 0,
                                      -7, 8, -9, 1, 1, 1, 2, 2, 2, 3, -3, 3, -3, 3, -3, 3, -3, 3};
  static const int32_t bias[2] = {100, -50};
  const float mult[2] = {0.25f, 0.125f};
  const oc_requant8 r = {mult, NULL, NULL, 1, 1, -128, 127};
  oc_qconv_params q;
  int8_t y[2 * 3 * 3];
  int co, oy, ox, ok = 1;
  memset(&q, 0, sizeof(q));
  q.conv.n = 1, q.conv.c_in = 2, q.conv.h_in = 5, q.conv.w_in = 5, q.conv.c_out = 2;
  q.conv.h_out = 3, q.conv.w_out = 3, q.conv.k_h = 3, q.conv.k_w = 3, q.conv.stride_h = 2;
  q.conv.stride_w = 2, q.conv.dil_h = 1, q.conv.dil_w = 1, q.conv.pad_top = 1;
  q.conv.pad_left = 1, q.conv.group = 1, q.conv.d_in = 1, q.conv.d_out = 1, q.conv.k_d = 1;
  q.conv.stride_d = 1, q.conv.dil_d = 1, q.x_signed = 1, q.w_signed = 1, q.y_signed = 1;
  q.x_zp = -2;
  oc_qconv(&q, &r, x, w, NULL, bias, y);
  for (co = 0; co < 2; co++) {
    for (oy = 0; oy < 3; oy++) {
      for (ox = 0; ox < 3; ox++) {
        int32_t acc = bias[co], ic, kh, kw;
        float f;
        for (ic = 0; ic < 2; ic++) {
          for (kh = 0; kh < 3; kh++) {
            for (kw = 0; kw < 3; kw++) {
              const int iy = oy * 2 - 1 + kh, ix = ox * 2 - 1 + kw;
              if (iy < 0 || iy >= 5 || ix < 0 || ix >= 5) continue;
              acc += (x[(ic * 5 + iy) * 5 + ix] + 2) * w[((co * 2 + ic) * 3 + kh) * 3 + kw];
            }
          }
        }
        f = oc_roundf_even((float)acc * mult[co]) + 1.0f;
        f = f < -128.0f ? -128.0f : (f > 127.0f ? 127.0f : f);
        ok &= y[(co * 3 + oy) * 3 + ox] == (int8_t)f;
      }
    }
  }
  check(ok, "qconv: 3x3, pads 1, stride 2, per-channel multipliers, bias");
  {
    static const uint8_t a[2 * 3] = {130, 7, 255, 0, 128, 64};
    static const int8_t b[3 * 2] = {1, -2, 3, 4, -5, 6};
    const oc_requant8 rg = {mult, NULL, NULL, 1, 0, -128, 127};
    oc_qgemm_params g;
    int8_t yg[4];
    int i, j, good = 1;
    memset(&g, 0, sizeof(g));
    g.m = 2, g.n = 2, g.k = 3, g.b_signed = 1, g.y_signed = 1, g.a_zp = 128;
    oc_qgemm(&g, &rg, a, b, NULL, NULL, yg);
    for (i = 0; i < 2; i++) {
      for (j = 0; j < 2; j++) {
        int32_t acc = 0, k;
        float f;
        for (k = 0; k < 3; k++) acc += (a[i * 3 + k] - 128) * b[k * 2 + j];
        f = oc_roundf_even((float)acc * mult[j]);
        f = f < -128.0f ? -128.0f : (f > 127.0f ? 127.0f : f);
        good &= yg[i * 2 + j] == (int8_t)f;
      }
    }
    check(good, "qgemm: uint8 A, int8 B, per-column multipliers");
  }
}

int main(void) {
  test_fixed_point();
  test_requant_float();
  test_conv_and_gemm();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
