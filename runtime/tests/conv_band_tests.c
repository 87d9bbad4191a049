/*
 * oc_conv2d_band_f32 against oc_conv2d_f32, bit for bit, over many shapes:
 * kernels 1..7, strides 1..3, dilations, asymmetric pads (pads larger than
 * the kernel too), groups, rows narrower than a tile, channel blocks of 1..4,
 * activations, and the fallbacks (-0.0 bias, infinite or NaN weight, 3-D,
 * depthwise). Buffers are exact-size heap blocks, so the sanitized build
 * catches any access past the scratch or a tensor; the scratch is filled
 * with NaN first, so a band column read without being written shows up.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_to_c/oc_conv_band.h"
#include "onnx_to_c/oc_kernels.h"
#include "test_check.h"

static uint32_t g_seed = 12345u;

static float rnd(void) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return (float)((int32_t)(g_seed >> 9) % 2001 - 1000) / 256.0f;
}

static int out_len(int in, int pad_begin, int pad_end, int k, int stride, int dil) {
  const int span = (k - 1) * dil + 1, n = in + pad_begin + pad_end - span;
  return n < 0 ? 0 : n / stride + 1;
}

/* neg_zero: bias[0] = -0.0; bad_weight: 1 infinite, 2 NaN weight. Returns
 * whether the two kernels agreed bit for bit (and the band kernel kept to
 * its scratch). */
static int band_case(oc_conv2d_params p, int with_bias, int neg_zero, int bad_weight) {
  const int cig = p.c_in / p.group;
  const int nx = p.n * p.c_in * p.d_in * p.h_in * p.w_in;
  const int ny = p.n * p.c_out * p.d_out * p.h_out * p.w_out;
  const int nw = p.c_out * cig * p.k_d * p.k_h * p.k_w;
  const int ns = oc_conv2d_band_floats(&p);
  float *x = malloc(sizeof(float) * (size_t)nx), *w = malloc(sizeof(float) * (size_t)nw);
  float *b = malloc(sizeof(float) * (size_t)p.c_out);
  float *y = malloc(sizeof(float) * (size_t)ny), *r = malloc(sizeof(float) * (size_t)ny);
  float *s = malloc(sizeof(float) * (size_t)(ns + 1));
  int i, ok;
  for (i = 0; i < nx; i++) x[i] = rnd();
  for (i = 0; i < nw; i++) w[i] = rnd();
  for (i = 0; i < p.c_out; i++) b[i] = rnd();
  /* zeros of both signs in the input and the weights */
  if (nx > 3) x[1] = -0.0f, x[3] = 0.0f;
  if (nw > 2) w[2] = -0.0f;
  if (neg_zero) b[0] = -0.0f;
  if (bad_weight) w[nw / 2] = bad_weight == 1 ? INFINITY : NAN;
  for (i = 0; i <= ns; i++) s[i] = NAN;
  oc_conv2d_f32(&p, x, w, with_bias ? b : NULL, r);
  oc_conv2d_band_f32(&p, x, w, with_bias ? b : NULL, s, y);
  ok = memcmp(y, r, sizeof(float) * (size_t)ny) == 0 && isnan(s[ns]);
  free(x), free(w), free(b), free(y), free(r), free(s);
  return ok;
}

static oc_conv2d_params params(int n, int c_in, int h, int w, int c_out, int kh, int kw, int sh,
                               int sw, int dh, int dw, int pt, int pl, int pb, int pr, int group,
                               int act) {
  oc_conv2d_params p;
  memset(&p, 0, sizeof p);
  p.n = n, p.c_in = c_in, p.h_in = h, p.w_in = w, p.c_out = c_out;
  p.k_h = kh, p.k_w = kw, p.stride_h = sh, p.stride_w = sw, p.dil_h = dh, p.dil_w = dw;
  p.pad_top = pt, p.pad_left = pl, p.group = group;
  p.h_out = out_len(h, pt, pb, kh, sh, dh);
  p.w_out = out_len(w, pl, pr, kw, sw, dw);
  p.act.kind = act == 1 ? OC_ACT_RELU : act == 2 ? OC_ACT_CLIP : OC_ACT_NONE;
  p.act.alpha = -1.5f, p.act.beta = 2.0f;
  p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
  p.pad_front = 0;
  return p;
}

/* A sweep of shapes, each against oc_conv2d_f32. */
static void test_band_shapes(void) {
  int k, s, d, cases = 0, fails = 0;
  for (k = 1; k <= 7; k++) {
    for (s = 1; s <= 3; s++) {
      for (d = 1; d <= 2; d++) {
        const int pad = (k - 1) * d / 2;
        const int sizes[][2] = {{1, 1}, {3, 2}, {5, 9}, {8, 8}, {13, 17}, {2, 31}};
        int z;
        for (z = 0; z < 6; z++) {
          const int h = sizes[z][0], w = sizes[z][1];
          /* c_out 1..6 covers blocks of 4 plus a tail of 1..3, and single channels */
          const int c_out = 1 + (k + s + z) % 6, group = (z % 3 == 2) ? 2 : 1;
          const int c_in = group * (1 + (k + d + z) % 3);
          oc_conv2d_params p = params(1 + z % 2, c_in, h, w, c_out * group, k, k, s, s, d, d, pad,
                                      pad + (z & 1), pad + (k & 1), pad, group, z % 3);
          if (p.h_out < 1 || p.w_out < 1) continue;
          cases++;
          if (!band_case(p, z % 4 != 3, 0, 0)) {
            fails++;
            printf("band: k %d stride %d dil %d size %dx%d c_in %d c_out %d group %d\n", k, s, d, h,
                   w, c_in, c_out * group, group);
          }
        }
      }
    }
  }
  check(fails == 0 && cases > 200, "conv2d band: bit for bit with oc_conv2d_f32 over the sweep");
}

static void test_band_special(void) {
  oc_conv2d_params p;
  /* non-square kernels, asymmetric and oversized pads, different strides per axis */
  p = params(1, 3, 7, 11, 5, 2, 5, 1, 2, 1, 1, 0, 4, 1, 0, 1, 0);
  check(band_case(p, 1, 0, 0), "conv2d band: 2x5 kernel, stride 1x2, pads 0/4/1/0");
  p = params(1, 2, 6, 6, 4, 3, 3, 2, 1, 3, 2, 5, 5, 5, 5, 1, 1);
  check(band_case(p, 1, 0, 0), "conv2d band: pads wider than the input, dilation 3x2");
  p = params(1, 4, 1, 20, 8, 1, 7, 1, 1, 1, 1, 0, 3, 0, 3, 1, 2);
  check(band_case(p, 1, 0, 0), "conv2d band: 1-D (h 1) kernel 7");
  p = params(2, 6, 9, 9, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0);
  check(band_case(p, 1, 0, 0), "conv2d band: 3 groups of 2 -> 3 channels");
  p = params(1, 8, 10, 10, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1);
  check(band_case(p, 1, 0, 0), "conv2d band: 4 groups of 2 -> 2 channels");
  /* fallbacks: the result is still oc_conv2d_f32's (pads of 3 leave pixels
   * with every tap in the padding, where a -0.0 bias would turn into +0.0) */
  p = params(1, 3, 8, 8, 6, 3, 3, 1, 1, 1, 1, 3, 3, 3, 3, 1, 0);
  check(band_case(p, 1, 1, 0), "conv2d band: a -0.0 bias falls back");
  check(band_case(p, 1, 0, 1), "conv2d band: an infinite weight falls back");
  check(band_case(p, 0, 0, 2), "conv2d band: a NaN weight falls back");
  p = params(1, 5, 8, 8, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 1);
  check(band_case(p, 1, 0, 0), "conv2d band: depthwise goes to oc_conv2d_f32");
  p = params(1, 2, 4, 5, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0);
  p.d_in = 3, p.d_out = 3, p.k_d = 3, p.pad_front = 1;
  p.k_h = 3;
  check(band_case(p, 1, 0, 0), "conv2d band: 3-D goes to oc_conv2d_f32");
}

/* conv2d_finite_ finds an infinity or a NaN wherever it is: in a block of
 * 64 weights or in the rest, at either end of either */
static void test_finite(void) {
  static const int at[] = {0, 1, 63, 64, 100, 127, 128, 191, 192, 199};
  float w[200];
  int i, k, bad;
  for (i = 0; i < 200; i++) w[i] = (float)(i % 13) - 6.5f;
  w[7] = -0.0f, w[8] = 3.0e38f, w[9] = 1.0e-45f; /* finite extremes */
  check(conv2d_finite_(w, 200) && conv2d_finite_(w, 0), "conv2d_finite_: finite weights");
  for (bad = 0; bad < 3; bad++) {
    for (k = 0; k < (int)(sizeof at / sizeof at[0]); k++) {
      const float keep = w[at[k]];
      w[at[k]] = bad == 0 ? INFINITY : bad == 1 ? -INFINITY : NAN;
      check(!conv2d_finite_(w, 200), "conv2d_finite_: an infinity or a NaN weight");
      check(conv2d_finite_(w, at[k]), "conv2d_finite_: the weights before it");
      w[at[k]] = keep;
    }
  }
}

int main(void) {
  test_finite();
  test_band_shapes();
  test_band_special();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
