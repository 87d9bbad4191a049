/*
 * onnx-to-c runtime tests for the kernels of other element types than
 * float32 and for the index-driven kernels: exact integer semantics,
 * float16 conversion, casts, the float64 math, and hand-computed cases.
 * Plain C; the last line is "N passed, M failed", the exit status nonzero on
 * failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "onnx_to_c/oc_kernels.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_math64.h"
#include "onnx_to_c/oc_tensor.h"

#include "test_check.h"

/* A 1-D broadcast of n elements, b a scalar when b_scalar. */
static oc_broadcast_params vec(int32_t n, int b_scalar) {
  oc_broadcast_params p;
  memset(&p, 0, sizeof p);
  p.rank = 1;
  p.dims[0] = n;
  p.a_strides[0] = 1;
  p.b_strides[0] = b_scalar ? 0 : 1;
  return p;
}

static void test_integer_binary(void) {
  const oc_broadcast_params p = vec(6, 0);
  static const int32_t a[6] = {7, -7, 7, -7, INT32_MIN, 5};
  static const int32_t b[6] = {3, 3, -3, -3, -1, 0};
  static const int32_t div[6] = {2, -2, -2, 2, INT32_MIN, 0};
  static const int32_t mod[6] = {1, 2, -2, -1, 0, 0};  /* Python: sign of b */
  static const int32_t fmod[6] = {1, -1, 1, -1, 0, 0}; /* C: sign of a */
  static const int8_t a8[3] = {100, -128, 127}, b8[3] = {100, -1, 1}, sum8[3] = {-56, 127, -128};
  static const uint8_t s[4] = {1, 2, 255, 16}, sh[4] = {1, 7, 1, 8};
  static const uint8_t left[4] = {2, 0, 254, 0}, right[4] = {0, 0, 127, 0};
  static const int64_t base[4] = {2, -3, 5, 2}, ex[4] = {10, 3, 0, -1}, pw[4] = {1024, -27, 1, 0};
  int32_t y[6];
  int8_t y8[3];
  uint8_t yu[4], yb[6];
  int64_t y64[4];
  oc_binary_i32(OC_BINARY_DIV, &p, a, b, y);
  check(memcmp(y, div, sizeof y) == 0, "int32 div truncates, by 0 gives 0, INT_MIN / -1 wraps");
  oc_binary_i32(OC_BINARY_MOD, &p, a, b, y);
  check(memcmp(y, mod, sizeof y) == 0, "int32 mod has the sign of the divisor");
  oc_binary_i32(OC_BINARY_FMOD, &p, a, b, y);
  check(memcmp(y, fmod, sizeof y) == 0, "int32 fmod has the sign of the dividend");
  oc_binary_i32(OC_BINARY_LESS, &p, a, b, yb);
  check(yb[0] == 0 && yb[1] == 1 && yb[4] == 1 && yb[5] == 0, "int32 less gives bool");
  {
    const oc_broadcast_params q = vec(3, 0);
    oc_binary_i8(OC_BINARY_ADD, &q, a8, b8, y8);
    check(memcmp(y8, sum8, sizeof y8) == 0, "int8 add wraps");
  }
  {
    const oc_broadcast_params q = vec(4, 0);
    oc_binary_u8(OC_BINARY_SHIFT_LEFT, &q, s, sh, yu);
    check(memcmp(yu, left, sizeof yu) == 0, "uint8 shift left; shift >= 8 gives 0");
    oc_binary_u8(OC_BINARY_SHIFT_RIGHT, &q, s, sh, yu);
    check(memcmp(yu, right, sizeof yu) == 0, "uint8 shift right");
    oc_binary_i64(OC_BINARY_POW, &q, base, ex, y64);
    check(memcmp(y64, pw, sizeof y64) == 0, "int64 pow, negative exponent truncates");
  }
  {
    const oc_broadcast_params q = vec(4, 1);
    static const uint8_t x[4] = {0, 1, 1, 0}, t = 1, nx[4] = {1, 0, 0, 1};
    oc_binary_bool(OC_BINARY_XOR, &q, x, &t, yu);
    check(memcmp(yu, nx, sizeof yu) == 0, "bool xor true is not");
  }
}

static void test_half(void) {
  uint32_t h;
  int ok = 1;
  /* every half survives half -> float -> half (NaNs stay NaNs) */
  for (h = 0; h < 0x10000u; h++) {
    const float f = oc_h2f((uint16_t)h);
    const uint16_t back = oc_f2h(f);
    const int nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
    if (nan ? (back & 0x7C00u) != 0x7C00u || (back & 0x3FFu) == 0 : back != h) ok = 0;
  }
  check(ok, "float16 round trip of every half");
  /* rounding to nearest even, overflow, subnormals */
  check(oc_f2h(1.0f + 1.0f / 2048.0f) == 0x3C00u, "f2h tie to even (down)");
  check(oc_f2h(1.0f + 3.0f / 2048.0f) == 0x3C02u, "f2h tie to even (up)");
  check(oc_f2h(65519.0f) == 0x7BFFu && oc_f2h(65520.0f) == 0x7C00u, "f2h overflow at 65520");
  check(oc_f2h(2.98023224e-08f) == 0x0000u && oc_f2h(2.98023259e-08f) == 0x0001u,
        "f2h smallest subnormal rounds at half of it");
  check(oc_h2f(0x8001u) == -5.96046448e-08f, "h2f negative subnormal");
}

static void test_cast(void) {
  static const float f[5] = {-1.5f, 300.0f, -300.0f, 2.9f, NAN};
  static const int8_t i8[5] = {-1, 127, -128, 2, 0};
  static const uint8_t u8[5] = {0, 255, 0, 2, 0};
  static const int64_t big[2] = {INT64_MAX, -3};
  static const double d[3] = {0.1, 65520.0, 1.0 + 1.0 / 2048.0 + 1e-12};
  int8_t yi[5];
  uint8_t yu[5];
  int16_t ys[2];
  uint16_t yh[3];
  float yf[2];
  oc_cast(OC_F32, OC_I8, f, yi, 5);
  check(memcmp(yi, i8, sizeof yi) == 0, "cast f32 -> i8 truncates and saturates, NaN -> 0");
  oc_cast(OC_F32, OC_U8, f, yu, 5);
  check(memcmp(yu, u8, sizeof yu) == 0, "cast f32 -> u8 saturates");
  oc_cast(OC_I64, OC_I16, big, ys, 2);
  check(ys[0] == -1 && ys[1] == -3, "cast i64 -> i16 wraps");
  oc_cast(OC_I64, OC_F32, big, yf, 2);
  check(yf[0] == 9223372036854775808.0f && yf[1] == -3.0f, "cast i64 -> f32 rounds");
  oc_cast(OC_F32, OC_BOOL, f, yu, 5);
  check(yu[0] == 1 && yu[4] == 1, "cast to bool: NaN is true");
  oc_cast_f64(OC_F64, OC_F16, d, yh, 3);
  /* 1 + 2^-11 + tiny must round up: a single rounding, not via a float tie */
  check(yh[0] == 0x2E66u && yh[1] == 0x7C00u && yh[2] == 0x3C01u, "cast f64 -> f16 rounds once");
}

static void test_where(void) {
  /* c (2,1), a (1,3), b scalar -> y (2,3) */
  static const uint8_t c[2] = {1, 0};
  static const int16_t a[3] = {1, 2, 3}, b = -1, want[6] = {1, 2, 3, -1, -1, -1};
  int16_t y[6];
  oc_where_params p;
  memset(&p, 0, sizeof p);
  p.rank = 2;
  p.elem_size = 2;
  p.dims[0] = 2;
  p.dims[1] = 3;
  p.c_strides[0] = 1;
  p.a_strides[1] = 1;
  oc_where(&p, c, a, &b, y);
  check(memcmp(y, want, sizeof y) == 0, "where with three-way broadcasting");
}

static void test_math(void) {
  /* the float64 exp and log against libm on a sample; 1 ulp allowed */
  double worst = 0.0;
  int i;
  for (i = 0; i < 20000; i++) {
    const double x = -700.0 + 1400.0 * (double)i / 20000.0;
    const double e = exp(x), l = log(e);
    const double ue = fabs(nextafter(e, INFINITY) - e), ul = fabs(nextafter(l, INFINITY) - l);
    const double de = fabs(oc_exp_f64(x) - e) / ue, dl = fabs(oc_log_f64(e) - l) / (ul > 0 ? ul : 1);
    worst = de > worst ? de : worst;
    worst = dl > worst ? dl : worst;
  }
  check(worst <= 1.0, "float64 exp and log within 1 ulp");
  /* the float inverse trigonometric and hyperbolic functions: 4 ulp */
  worst = 0.0;
  for (i = -20000; i <= 20000; i++) {
    const float x = (float)i / 20000.0f, x10 = 10.0f * x, x5 = 5.0f * x, x1 = 0.999f * x;
    const float got[6] = {oc_asinf(x), oc_acosf(x), oc_atanf(x10), oc_sinhf(x5), oc_atanhf(x1),
                          oc_tanf(x)};
    const double want[6] = {asin((double)x),  acos((double)x),  atan((double)x10),
                            sinh((double)x5), atanh((double)x1), tan((double)x)};
    int k;
    for (k = 0; k < 6; k++) {
      const float wf = (float)want[k];
      const double ulp = fabs((double)nextafterf(wf, INFINITY) - (double)wf);
      const double err = fabs((double)got[k] - want[k]) / ulp;
      worst = err > worst ? err : worst;
    }
  }
  check(worst <= 4.0, "asin, acos, atan, sinh, atanh, tan within 4 ulp");
}

static void test_index_kernels(void) {
  {
    /* TopK k = 2 of rows {3, 1, 3, 2} and {NaN, 0, 5, 5} */
    const float x[8] = {3, 1, 3, 2, NAN, 0, 5, 5};
    float v[4];
    int64_t ix[4];
    oc_topk_f32(x, v, ix, 2, 4, 1, 2, 1);
    check(v[0] == 3 && ix[0] == 0 && v[1] == 3 && ix[1] == 2 && v[2] != v[2] && ix[2] == 0 &&
              v[3] == 5 && ix[3] == 2,
          "topk largest, ties by index, NaN first");
    oc_topk_f32(x, v, ix, 2, 4, 1, 2, 0);
    check(v[0] == 1 && ix[0] == 1 && v[1] == 2 && ix[1] == 3, "topk smallest");
  }
  {
    /* OneHot depth 3 on axis -1, float indices, negative from the end */
    static const float idx[3] = {0.0f, -1.0f, 7.0f};
    static const int32_t values[2] = {-1, 9};
    static const int32_t want[9] = {9, -1, -1, -1, -1, 9, -1, -1, -1};
    int32_t y[9];
    oc_onehot(idx, OC_F32, values, y, 3, 3, 1, 4);
    check(memcmp(y, want, sizeof y) == 0, "onehot with negative and out-of-range indices");
  }
  {
    static const float m[8] = {2, 1, 4, 3, 0, 1, 1, 5};
    float y[2], scratch[4];
    oc_det_f32(m, y, 2, 2, scratch);
    check(y[0] == 2.0f && y[1] == -1.0f, "det of 2x2 matrices with a pivot swap");
  }
  {
    /* GatherND, batch_dims 1: data (2, 2, 2), indices (2, 1) */
    static const int32_t data[8] = {0, 1, 2, 3, 4, 5, 6, 7}, want[4] = {2, 3, 4, 5};
    static const int64_t idx[2] = {1, 0};
    int32_t y[4];
    oc_nd_params p;
    memset(&p, 0, sizeof p);
    p.batch = 2;
    p.n_tuples = 1;
    p.k = 1;
    p.inner = 2;
    p.data_batch = 4;
    p.elem_size = 4;
    p.index_is64 = 1;
    p.dims[0] = 2;
    p.strides[0] = 2;
    oc_gather_nd(&p, data, idx, y);
    check(memcmp(y, want, sizeof y) == 0, "gathernd batch_dims 1");
  }
  {
    /* ScatterElements with add and a duplicate index */
    static const float data[3] = {1, 2, 3}, upd[2] = {10, 20};
    static const int64_t idx[2] = {1, -2};
    float y[3];
    oc_scatter_elements_params p;
    memset(&p, 0, sizeof p);
    p.rank = 1;
    p.elem_size = 4;
    p.axis_len = 3;
    p.index_is64 = 1;
    p.reduction = OC_SCATTER_ADD;
    p.data_size = 3;
    p.dims[0] = 2;
    p.y_strides[0] = 1;
    oc_scatter_elements(&p, data, idx, upd, y);
    check(y[0] == 1 && y[1] == 32 && y[2] == 3, "scatter_elements add with a duplicate");
  }
  {
    /* exclusive reverse CumSum on int64 with a run-time axis */
    static const int64_t x[4] = {1, 2, 3, 4}, want[4] = {9, 7, 4, 0};
    static const int32_t axis = -1;
    int64_t y[4];
    oc_cumsum_params p;
    memset(&p, 0, sizeof p);
    p.rank = 1;
    p.dims[0] = 4;
    p.axis = -1;
    p.exclusive = 1;
    p.reverse = 1;
    oc_cumsum_i64(&p, x, &axis, y);
    check(memcmp(y, want, sizeof y) == 0, "cumsum exclusive reverse, run-time axis");
  }
}

int main(void) {
  test_integer_binary();
  test_half();
  test_cast();
  test_where();
  test_math();
  test_index_kernels();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
