/* Tests of the 8-bit kernels' arithmetic (oc_qlinear.h), of a small
 * quantized convolution and matrix product against a direct computation, and
 * of the kernels with 4-bit weights against the 8-bit ones. */
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

/* Random nibbles and 8-bit values: a linear congruential generator. */
static uint32_t g_seed = 12345u;
static int32_t next_in(int32_t lo, int32_t hi) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return lo + (int32_t)((g_seed >> 8) % (uint32_t)(hi - lo + 1));
}

/* Packs nibble u[co][k] (kk per channel) into the blocks of oc_w4_at. */
static void pack_w4(const uint8_t *u, int32_t channels, int32_t kk, uint8_t *w) {
  const int32_t chunks = (kk + 3) / 4;
  int32_t co, k;
  memset(w, 0, (size_t)((channels + 3) / 4 * chunks * 8));
  for (co = 0; co < channels; co++) {
    for (k = 0; k < kk; k++) {
      uint8_t *b = w + (co / 4 * chunks + k / 4) * 8 + (co % 4) / 2 * 4 + k % 4;
      *b |= (uint8_t)(u[co * kk + k] << ((co & 1) ? 4 : 0));
    }
  }
}

/* oc_qconv2d_w4 against oc_qconv on the same weights as int8 (u - 8, its
 * zero point zu - 8): one shape, x and y NHWC or NCHW. */
static int conv_w4_case(int32_t c_in, int32_t c_out, int32_t group, int32_t k, int32_t stride, int32_t dil,
                        int32_t pad, int32_t x_last, int32_t y_last, int32_t x_signed) {
  enum { H = 7, W = 6, MAXC = 12 };
  static uint8_t x[MAXC * H * W], xt[MAXC * H * W], u[MAXC * MAXC * 9], zu[MAXC], w4[1024];
  static int8_t w8[MAXC * MAXC * 9], z8[MAXC], y8[MAXC * H * W], y4[MAXC * H * W];
  static int32_t bias[MAXC];
  static float mult[MAXC];
  const int32_t cig = c_in / group, kk = cig * k * k;
  const int32_t out = (H + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  const int32_t outw = (W + 2 * pad - dil * (k - 1) - 1) / stride + 1;
  const oc_requant8 r = {mult, NULL, NULL, 1, 3, -128, 127};
  oc_qconv_params q;
  int32_t i, co, c, t, p, same = 1;
  for (i = 0; i < c_in * H * W; i++) x[i] = (uint8_t)next_in(0, 255);
  for (c = 0; c < c_in; c++) {
    for (p = 0; p < H * W; p++) xt[p * c_in + c] = x[c * H * W + p];
  }
  for (co = 0; co < c_out; co++) {
    zu[co] = (uint8_t)next_in(0, 15), z8[co] = (int8_t)(zu[co] - 8);
    bias[co] = next_in(-300, 300), mult[co] = 0.01f * (float)next_in(1, 9);
    for (i = 0; i < kk; i++) {  /* u: [kh][kw][ic]; w8: OIHW */
      const int32_t ic = i % cig, tap = i / cig;
      u[co * kk + i] = (uint8_t)next_in(0, 15);
      w8[co * kk + ic * k * k + tap] = (int8_t)(u[co * kk + i] - 8);
    }
  }
  pack_w4(u, c_out, kk, w4);
  memset(&q, 0, sizeof(q));
  q.conv.n = 1, q.conv.c_in = c_in, q.conv.h_in = H, q.conv.w_in = W, q.conv.c_out = c_out;
  q.conv.h_out = out, q.conv.w_out = outw, q.conv.k_h = k, q.conv.k_w = k, q.conv.stride_h = stride;
  q.conv.stride_w = stride, q.conv.dil_h = dil, q.conv.dil_w = dil, q.conv.pad_top = pad;
  q.conv.pad_left = pad, q.conv.group = group, q.conv.d_in = 1, q.conv.d_out = 1, q.conv.k_d = 1;
  q.conv.stride_d = 1, q.conv.dil_d = 1, q.x_signed = x_signed, q.w_signed = 1, q.y_signed = 1;
  q.x_zp = x_signed ? -3 : 131, q.w_zp_per_channel = 1;
  oc_qconv(&q, &r, x, w8, z8, bias, y8);
  q.conv.reverse_rows = x_last;  /* either order gives the same outputs */
  oc_qconv2d_w4(&q, &r, x_last ? xt : x, w4, zu, bias, y4, x_last, y_last);
  for (co = 0; co < c_out; co++) {
    for (t = 0; t < out * outw; t++) {
      same &= y8[co * out * outw + t] == y4[y_last ? t * c_out + co : co * out * outw + t];
    }
  }
  return same;
}

/* oc_qconv1x1_w4_pixels, its output over its input (the pixels contract),
 * against oc_qconv2d_w4 on a copy of the input. */
static int pixels_w4_case(int32_t x_signed) {
  enum { CI = 10, CO = 7, PX = 12 };
  static uint8_t buf[CI * PX], x[CI * PX], u[CO * CI], zu[CO], w4[64], column[2 * CI], y4[CO * PX];
  static int32_t bias[CO];
  static float mult[CO];
  const oc_requant8 r = {mult, NULL, NULL, 1, -2, -128, 127};
  oc_qconv_params q;
  int32_t i, same = 1;
  for (i = 0; i < CI * PX; i++) x[i] = (uint8_t)next_in(0, 255);
  for (i = 0; i < CO * CI; i++) u[i] = (uint8_t)next_in(0, 15);
  for (i = 0; i < CO; i++) zu[i] = (uint8_t)next_in(0, 15), bias[i] = next_in(-99, 99), mult[i] = 0.02f * (float)(i + 1);
  pack_w4(u, CO, CI, w4);
  memset(&q, 0, sizeof(q));
  q.conv.n = 1, q.conv.c_in = CI, q.conv.h_in = 3, q.conv.w_in = 4, q.conv.c_out = CO, q.conv.h_out = 3;
  q.conv.w_out = 4, q.conv.k_h = 1, q.conv.k_w = 1, q.conv.stride_h = 1, q.conv.stride_w = 1, q.conv.dil_h = 1;
  q.conv.dil_w = 1, q.conv.group = 1, q.conv.d_in = 1, q.conv.d_out = 1, q.conv.k_d = 1, q.conv.stride_d = 1;
  q.conv.dil_d = 1, q.x_signed = x_signed, q.w_signed = 1, q.y_signed = 1, q.x_zp = x_signed ? 5 : 120;
  q.w_zp_per_channel = 1;
  oc_qconv2d_w4(&q, &r, x, w4, zu, bias, y4, 0, 0);
  memcpy(buf, x, sizeof(buf));  /* CO < CI: the output over the input's first bytes */
  oc_qconv1x1_w4_pixels(&q, &r, buf, w4, zu, bias, buf, column);
  for (i = 0; i < CO * PX; i++) same &= buf[i] == y4[i];
  return same;
}

static void test_four_bit_weights(void) {
  static const uint8_t a[3 * 10] = {0, 255, 7, 128, 200, 13, 99, 1, 254, 60, 3, 3, 250, 128, 127,
                                    126, 0, 9, 77, 201, 140, 33, 66, 99, 132, 165, 198, 231, 8, 16};
  static uint8_t u[10 * 7], zu[7], w4[64];
  static int8_t b8[10 * 7], z8[7], y8[3 * 7], y4[3 * 7];
  const float mult[7] = {0.02f, 0.03f, 0.05f, 0.07f, 0.011f, 0.013f, 0.017f};
  const oc_requant8 r = {mult, NULL, NULL, 1, -5, -128, 127};
  oc_qgemm_params g;
  int32_t i, j, same = 1;
  check(conv_w4_case(8, 6, 1, 3, 1, 1, 1, 1, 1, 1), "qconv w4: 3x3 NHWC dense, int8 x, 6 channels");
  check(conv_w4_case(12, 5, 1, 3, 2, 1, 1, 1, 0, 0), "qconv w4: 3x3 stride 2 NHWC to NCHW, uint8 x");
  check(conv_w4_case(6, 8, 1, 3, 1, 1, 1, 1, 1, 1), "qconv w4: 6 input channels (tap by tap)");
  check(conv_w4_case(8, 8, 2, 3, 1, 2, 2, 1, 1, 0), "qconv w4: 2 groups, dilation 2, uint8 x");
  check(conv_w4_case(8, 8, 8, 3, 1, 1, 1, 0, 0, 1), "qconv w4: depthwise NCHW");
  check(conv_w4_case(4, 9, 1, 1, 1, 1, 0, 0, 1, 1), "qconv w4: pointwise NCHW to NHWC");
  check(pixels_w4_case(1), "qconv1x1 w4 pixels: int8 x, 10 -> 7 channels, in place");
  check(pixels_w4_case(0), "qconv1x1 w4 pixels: uint8 x, 10 -> 7 channels, in place");
  for (j = 0; j < 7; j++) zu[j] = (uint8_t)(j * 2 + 1), z8[j] = (int8_t)(zu[j] - 8);
  for (i = 0; i < 10; i++) {
    for (j = 0; j < 7; j++) u[j * 10 + i] = (uint8_t)next_in(0, 15), b8[i * 7 + j] = (int8_t)(u[j * 10 + i] - 8);
  }
  pack_w4(u, 7, 10, w4);
  memset(&g, 0, sizeof(g));
  g.m = 3, g.n = 7, g.k = 10, g.b_signed = 1, g.y_signed = 1, g.a_zp = 120, g.b_zp_per_col = 1;
  oc_qgemm(&g, &r, a, b8, z8, NULL, y8);
  oc_qgemm_w4(&g, &r, a, w4, zu, NULL, y4);
  for (i = 0; i < 3 * 7; i++) same &= y8[i] == y4[i];
  check(same, "qgemm w4: 7 columns, k 10, per-column zero points, uint8 A");
}

int main(void) {
  test_fixed_point();
  test_requant_float();
  test_conv_and_gemm();
  test_four_bit_weights();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
