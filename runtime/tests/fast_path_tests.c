/*
 * onnx-to-c runtime: the fast paths against the general code, bit for bit
 * (the sign of zero included), on the values and shapes where they could
 * differ: NaN, -0.0, infinities, odd row lengths, pads, strides.
 *   - oc_lane_store's vector ReLU / Clip against oc_tile_act;
 *   - MaxPool without indices (the lane path) against MaxPool with indices
 *     (the general loop);
 *   - depthwise 3x3 / 5x5 rows (oc_dw_tiles.h) against a naive convolution
 *     in the documented order, which skips the padding taps.
 * The last line is "N passed, M failed"; the exit status is nonzero on
 * failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_to_c/oc_kernels.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

#include "test_check.h"

/* the same bits, any NaN matching any NaN */
static int same_bits(const float *a, const float *b, int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(a[i] != a[i] && b[i] != b[i])) {
      printf("  [%d] got %.9g want %.9g\n", i, a[i], b[i]);
      return 0;
    }
  }
  return 1;
}

static uint32_t g_rng = 0x9e3779b9u;

static uint32_t rnd_u32(void) { /* xorshift32 */
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng;
}

/* mostly uniform in [-1, 1); with special != 0 also +-0.0, NaN, +-inf and
 * repeated values (ties between +0.0 and -0.0 in a window) */
static float rnd_val(int special) {
  const uint32_t r = rnd_u32();
  if (special) {
    switch (r % 16) {
      case 0: return 0.0f;
      case 1: return -0.0f;
      case 2: return (r >> 8) % 4 == 0 ? NAN : 0.5f;
      case 3: return (r >> 8) % 4 == 0 ? INFINITY : -0.0f;
      case 4: return (r >> 8) % 4 == 0 ? -INFINITY : 0.0f;
      default: break;
    }
  }
  return (float)(r >> 8) / 8388608.0f - 1.0f;
}

static float *exact_vals(int n, int special) {
  float *v = (float *)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  int i;
  if (!v) {
    printf("out of memory\n");
    exit(2);
  }
  for (i = 0; i < n; i++) v[i] = rnd_val(special);
  return v;
}

/* ------------------------------------------------------------ lane store */

static void test_lane_store(void) {
  static const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.25f, -0.25f, 0.5f, -0.5f,
                               INFINITY, -INFINITY, NAN, -NAN, 1e-40f, -1e-40f, 6.0f, 7.0f,
                               3.0f, -3.0f, 2.9999998f, -2.9999998f, 3.0000002f, -3.0000002f,
                               2.5f, -2.5f};
  static const oc_act_kind kinds[] = {OC_ACT_NONE, OC_ACT_RELU, OC_ACT_CLIP, OC_ACT_LEAKY_RELU,
                                      OC_ACT_HARD_SIGMOID, OC_ACT_HARD_SWISH};
  static const float bounds[][2] = {{-0.25f, 0.5f}, {0.0f, 6.0f}, {-0.0f, 0.0f}, {-1.0f, -0.0f}};
  const int nv = (int)(sizeof vals / sizeof vals[0]);
  int kind, bi, i, ok = 1;
  for (kind = 0; kind < (int)(sizeof kinds / sizeof kinds[0]); kind++) {
    for (bi = 0; bi < 4; bi++) {
      oc_act act;
      memset(&act, 0, sizeof act);
      act.kind = kinds[kind];
      act.alpha = bounds[bi][0];
      act.beta = bounds[bi][1];
      for (i = 0; i + OC_LANE_W <= nv; i++) {
        float got[OC_LANE_W], want[OC_LANE_W];
        oc_lane v;
        int j;
        memcpy(&v, vals + i, sizeof v);
        oc_lane_store(got, v, &act);
        for (j = 0; j < OC_LANE_W; j++) want[j] = oc_tile_act(&act, vals[i + j]);
        if (!same_bits(got, want, OC_LANE_W)) ok = 0;
      }
    }
  }
  check(ok, "lane store: none / relu / clip / leaky relu / hard sigmoid / hard swish, bit for bit");
}

/* --------------------------------------------------------------- maxpool */

static void maxpool_case(int n_c, int h_in, int w_in, int k_h, int k_w, int stride_h,
                         int stride_w, int pad_t, int pad_l, int extra_b, int extra_r) {
  oc_pool2d_params p;
  float *x, *y, *r;
  int64_t *idx;
  int ny;
  char name[128];
  memset(&p, 0, sizeof p);
  p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
  p.n_c = n_c; p.h_in = h_in; p.w_in = w_in; p.k_h = k_h; p.k_w = k_w;
  p.stride_h = stride_h; p.stride_w = stride_w; p.dil_h = p.dil_w = 1;
  p.pad_top = pad_t; p.pad_left = pad_l; p.pad_bottom = pad_t; p.pad_right = pad_l;
  /* extra_*: one more output, its window clipped at the end (ceil_mode) */
  p.h_out = (h_in + 2 * pad_t - k_h) / stride_h + 1 + extra_b;
  p.w_out = (w_in + 2 * pad_l - k_w) / stride_w + 1 + extra_r;
  ny = n_c * p.h_out * p.w_out;
  x = exact_vals(n_c * h_in * w_in, 1);
  y = exact_vals(ny, 0);
  r = exact_vals(ny, 0);
  idx = (int64_t *)malloc((size_t)ny * sizeof(int64_t));
  if (!idx) exit(2);
  oc_maxpool2d_f32(&p, x, y, NULL);
  oc_maxpool2d_f32(&p, x, r, idx); /* the general loop */
  sprintf(name, "maxpool lanes: %dx%d on %dx%d, stride %d/%d, pads %d/%d%s", k_h, k_w, h_in,
          w_in, stride_h, stride_w, pad_t, pad_l, extra_r ? ", ceil" : "");
  check(same_bits(y, r, ny), name);
  free(x); free(y); free(r); free(idx);
}

static void test_maxpool(void) {
  static const int cases[][9] = {
      /* h w kh kw sh sw pt pl extra */
      {9, 23, 3, 3, 2, 2, 0, 0, 0}, {9, 23, 3, 3, 2, 2, 0, 0, 1}, {12, 12, 3, 3, 2, 2, 1, 1, 0},
      {7, 17, 3, 3, 1, 1, 1, 1, 0}, {6, 13, 2, 2, 2, 2, 0, 0, 0}, {5, 31, 5, 5, 1, 1, 2, 2, 0},
      {8, 19, 3, 2, 3, 3, 1, 1, 1}, {1, 9, 1, 3, 1, 2, 0, 1, 0},  {4, 4, 3, 3, 1, 1, 1, 1, 0},
      {3, 2, 3, 3, 2, 2, 1, 1, 1},  {2, 40, 2, 4, 1, 1, 0, 0, 0}, {11, 11, 3, 3, 2, 2, 1, 1, 1},
  };
  int i;
  for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
    const int *c = cases[i];
    maxpool_case(3, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[8]);
  }
}

/* ------------------------------------------------------------- depthwise */

/* ONNX Conv in the documented order, padding taps skipped */
static void ref_depthwise(const oc_conv2d_params *p, const float *x, const float *w,
                          const float *b, float *y) {
  int c, oy, ox, kh, kw;
  for (c = 0; c < p->c_out; c++)
    for (oy = 0; oy < p->h_out; oy++)
      for (ox = 0; ox < p->w_out; ox++) {
        float acc = b ? b[c] : 0.0f;
        for (kh = 0; kh < p->k_h; kh++)
          for (kw = 0; kw < p->k_w; kw++) {
            const int iy = oy * p->stride_h - p->pad_top + kh;
            const int ix = ox * p->stride_w - p->pad_left + kw;
            if (iy < 0 || iy >= p->h_in || ix < 0 || ix >= p->w_in) continue;
            acc += w[(c * p->k_h + kh) * p->k_w + kw] * x[(c * p->h_in + iy) * p->w_in + ix];
          }
        y[(c * p->h_out + oy) * p->w_out + ox] = oc_apply_act(&p->act, acc);
      }
}

/* special: 0 plain values, 1 NaN / inf / +-0.0 inputs, 2 a -0.0 bias and zero
 * inputs (the edges skip the padding taps), 3 an infinite weight */
static void dw_case(int c, int h_in, int w_in, int k, int stride, int pad, int pad_end,
                    int act, int special) {
  oc_conv2d_params p;
  float *x, *w, *b, *y, *r;
  int ny, i;
  char name[128];
  memset(&p, 0, sizeof p);
  p.n = 1; p.c_in = p.c_out = p.group = c; p.h_in = h_in; p.w_in = w_in;
  p.k_h = p.k_w = k; p.stride_h = p.stride_w = stride; p.dil_h = p.dil_w = 1;
  p.pad_top = p.pad_left = pad;
  p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
  p.h_out = (h_in + pad + pad_end - k) / stride + 1;
  p.w_out = (w_in + pad + pad_end - k) / stride + 1;
  p.act.kind = act == 0 ? OC_ACT_NONE : act == 1 ? OC_ACT_RELU
               : act == 2 ? OC_ACT_CLIP : OC_ACT_HARD_SWISH;
  p.act.alpha = -0.25f;
  p.act.beta = 0.5f;
  if (p.h_out < 1 || p.w_out < 1) return;
  ny = c * p.h_out * p.w_out;
  x = exact_vals(c * h_in * w_in, special == 1);
  w = exact_vals(c * k * k, 0);
  b = exact_vals(c, 0);
  y = exact_vals(ny, 0);
  r = exact_vals(ny, 0);
  if (special == 2) {
    for (i = 0; i < c * h_in * w_in; i++) x[i] = i % 5 == 0 ? x[i] : 0.0f;
    b[c - 1] = -0.0f;
  }
  if (special == 3) w[k * k / 2] = INFINITY;
  oc_conv2d_f32(&p, x, w, special == 0 && act == 3 ? NULL : b, y);
  ref_depthwise(&p, x, w, special == 0 && act == 3 ? NULL : b, r);
  sprintf(name, "depthwise %dx%d stride %d on %dx%d, pads %d/%d, act %d, case %d", k, k, stride,
          h_in, w_in, pad, pad_end, act, special);
  check(same_bits(y, r, ny), name);
  free(x); free(w); free(b); free(y); free(r);
}

static void test_depthwise(void) {
  static const int widths[] = {1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 17, 24, 31, 45};
  int k, s, wi, pad, special;
  for (k = 3; k <= 5; k += 2) {
    for (s = 1; s <= 2; s++) {
      for (wi = 0; wi < (int)(sizeof widths / sizeof widths[0]); wi++) {
        const int w_in = widths[wi];
        for (pad = 0; pad < k; pad++) {
          const int pad_end = (pad + wi) % k;
          if (w_in + pad + pad_end < k) continue;
          for (special = 0; special < 4; special++) {
            dw_case(special == 0 ? 3 : 2, 2 + (wi + pad) % 7, w_in, k, s, pad, pad_end,
                    (wi + special + pad) % 4, special);
          }
        }
      }
    }
  }
  /* "same" padding: the edge lanes, on rows of every width around one and
   * two lanes */
  for (k = 3; k <= 5; k += 2) {
    for (s = 1; s <= 2; s++) {
      for (wi = 1; wi <= 10 * s; wi++) {
        for (special = 0; special < 4; special++) {
          dw_case(special == 0 ? 3 : 2, 1 + wi % 6, wi, k, s, k / 2, k / 2, (wi + special) % 4,
                  special);
        }
      }
    }
  }
}

int main(void) {
  test_lane_store();
  test_maxpool();
  test_depthwise();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
