/*
 * Channels-last kernels against their NCHW counterparts, bit for bit, on
 * random shapes: oc_to_nhwc_f32 (in place and not) against a plain
 * transpose, oc_maxpool2d_nhwc_f32 against oc_maxpool2d_f32 (NaN, -0.0 and
 * padding included, each layout pair, rows in either order),
 * oc_conv2d_nhwc_f32 with reverse_rows against increasing rows (1x1
 * kernels also against their sums written out), and
 * oc_global_pool_nhwc_f32 against oc_global_pool_f32. Each rows order is also
 * run with the output overlapping the input as its contract allows (the
 * compiler's displacements, recomputed here from the access order).
 * The last line is "N passed, M failed"; the exit status is nonzero on failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_to_c/oc_kernels.h"
#include "onnx_to_c/oc_math.h"

#include "test_check.h"

static uint32_t g_rng = 0x9e3779b9u;

static uint32_t rnd(void) { /* xorshift32 */
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng;
}

static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

/* Mostly small integers (exact sums), some -0.0, +0.0 and NaN. */
static float rnd_value(void) {
  const uint32_t r = rnd() % 64u;
  if (r == 0) return -0.0f;
  if (r == 1) return 0.0f;
  if (r == 2) return oc_nanf();
  return (float)((int)(rnd() % 17u) - 8);
}

static int same_bits(const float *a, const float *b, int n) {
  return memcmp(a, b, (size_t)n * sizeof(float)) == 0;
}

/* NCHW (n, c, hw) -> NHWC */
static void to_nhwc_ref(const float *x, float *y, int n, int c, int hw) {
  int b, ch, i;
  for (b = 0; b < n; b++) {
    for (ch = 0; ch < c; ch++) {
      for (i = 0; i < hw; i++) y[(b * hw + i) * c + ch] = x[(b * c + ch) * hw + i];
    }
  }
}

static void test_to_nhwc(void) {
  int round;
  for (round = 0; round < 400; round++) {
    const int n = rnd_in(1, 2), c = rnd_in(1, 12), hw = rnd_in(1, 97);
    const int count = n * c * hw;
    float *x = malloc((size_t)count * sizeof(float)), *want = malloc((size_t)count * sizeof(float));
    float *y = malloc((size_t)count * sizeof(float));
    unsigned char *bits = malloc((size_t)(c * hw + 7) / 8);
    int i;
    for (i = 0; i < count; i++) x[i] = (float)i;
    to_nhwc_ref(x, want, n, c, hw);
    oc_to_nhwc_f32(x, y, n, c, hw, bits);
    check(same_bits(y, want, count), "to_nhwc out of place");
    memcpy(y, x, (size_t)count * sizeof(float));
    oc_to_nhwc_f32(y, y, n, c, hw, bits);
    check(same_bits(y, want, count), "to_nhwc in place");
    free(x);
    free(want);
    free(y);
    free(bits);
  }
}

/* The 8-bit relayout against the float one on the same values (bytes 0..255). */
static void test_to_nhwc_8(void) {
  int round;
  for (round = 0; round < 400; round++) {
    const int n = rnd_in(1, 2), c = rnd_in(1, 12), hw = rnd_in(1, 97);
    const int count = n * c * hw;
    float *xf = malloc((size_t)count * sizeof(float)), *want = malloc((size_t)count * sizeof(float));
    uint8_t *x = malloc((size_t)count), *y = malloc((size_t)count);
    unsigned char *bits = malloc((size_t)(c * hw + 7) / 8);
    int i, same_out = 1, same_in = 1;
    for (i = 0; i < count; i++) x[i] = (uint8_t)(rnd() & 0xFFu), xf[i] = (float)x[i];
    to_nhwc_ref(xf, want, n, c, hw);
    oc_to_nhwc_8(x, y, n, c, hw, bits);
    for (i = 0; i < count; i++) same_out = same_out && (float)y[i] == want[i];
    memcpy(y, x, (size_t)count);
    oc_to_nhwc_8(y, y, n, c, hw, bits);
    for (i = 0; i < count; i++) same_in = same_in && (float)y[i] == want[i];
    check(same_out, "to_nhwc_8 out of place");
    check(same_in, "to_nhwc_8 in place");
    free(xf);
    free(want);
    free(x);
    free(y);
    free(bits);
  }
}

/* NCHW <-> NHWC copies of an (n, c, h, w) tensor. */
static void relayout(const float *x, float *y, int n, int c, int h, int w, int to_nhwc) {
  int b, ch, i;
  for (b = 0; b < n; b++) {
    for (ch = 0; ch < c; ch++) {
      for (i = 0; i < h * w; i++) {
        const int nchw = (b * c + ch) * h * w + i, nhwc = (b * h * w + i) * c + ch;
        if (to_nhwc) {
          y[nhwc] = x[nchw];
        } else {
          y[nchw] = x[nhwc];
        }
      }
    }
  }
}

/* The rows contracts' placement of y against x (in floats, from the arena's
 * start): down (y starts `d` below x) or up (rows last first, y starts
 * `rise` above x), the smallest the access order allows. */
static int rows_offset(int n, int h_in, int in_row, int h_out, int out_row, int stride, int pad,
                       int reach, int up) {
  int b, oy, best = up ? -(1 << 30) : 0;
  for (b = 0; b < n; b++) {
    for (oy = 0; oy < h_out; oy++) {
      if (up) {
        int last = oy * stride - pad + reach;
        int v;
        if (last > h_in - 1) last = h_in - 1;
        if (last < -1) last = -1;
        v = (b * h_in + last + 1) * in_row - (b * h_out + oy) * out_row;
        if (v > best) best = v;
      } else {
        int first = oy * stride - pad;
        int v;
        if (first < 0) first = 0;
        if (first > h_in) first = h_in;
        v = (b * h_out + oy + 1) * out_row - (b * h_in + first) * in_row;
        if (v > best) best = v;
      }
    }
  }
  return best;
}

static void test_maxpool_nhwc(void) {
  int round;
  for (round = 0; round < 600; round++) {
    oc_pool2d_params p;
    const int n = rnd_in(1, 2), c = rnd_in(1, 11), h = rnd_in(1, 9), w = rnd_in(1, 9);
    const int kh = rnd_in(1, 3), kw = rnd_in(1, 3), dil = rnd_in(1, 2);
    const int x_nhwc = rnd_in(0, 1), y_nhwc = rnd_in(0, 1), up = rnd_in(0, 1);
    int in_count, out_count, i, base, overlap_ok;
    float *x, *xl, *want, *wantl, *y, *arena;
    memset(&p, 0, sizeof p);
    p.k_h = kh;
    p.k_w = kw;
    p.stride_h = rnd_in(1, 3);
    p.stride_w = rnd_in(1, 3);
    p.dil_h = p.dil_w = dil;
    p.pad_top = rnd_in(0, kh - 1);
    p.pad_left = rnd_in(0, kw - 1);
    p.pad_bottom = rnd_in(0, kh - 1);
    p.pad_right = rnd_in(0, kw - 1);
    if (h + p.pad_top + p.pad_bottom < (kh - 1) * dil + 1 ||
        w + p.pad_left + p.pad_right < (kw - 1) * dil + 1) {
      continue;
    }
    p.n_c = n * c;
    p.h_in = h;
    p.w_in = w;
    p.h_out = (h + p.pad_top + p.pad_bottom - (kh - 1) * dil - 1) / p.stride_h + 1;
    p.w_out = (w + p.pad_left + p.pad_right - (kw - 1) * dil - 1) / p.stride_w + 1;
    p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
    in_count = n * c * h * w;
    out_count = n * c * p.h_out * p.w_out;
    x = malloc((size_t)in_count * sizeof(float));
    xl = malloc((size_t)in_count * sizeof(float));
    want = malloc((size_t)out_count * sizeof(float));
    wantl = malloc((size_t)out_count * sizeof(float));
    y = malloc((size_t)out_count * sizeof(float));
    for (i = 0; i < in_count; i++) x[i] = rnd_value();
    relayout(x, xl, n, c, h, w, 1);
    oc_maxpool2d_f32(&p, x, want, NULL);
    relayout(want, wantl, n, c, p.h_out, p.w_out, 1);
    p.reverse_rows = up;
    oc_maxpool2d_nhwc_f32(&p, c, x_nhwc ? xl : x, y, x_nhwc, y_nhwc);
    check(same_bits(y, y_nhwc ? wantl : want, out_count), "maxpool_nhwc against maxpool2d");
    /* Both NHWC: the output overlapping the input as its rows contract allows. */
    overlap_ok = 1;
    {
      const int in_row = w * c, out_row = p.w_out * c;
      const int off = rows_offset(n, h, in_row, p.h_out, out_row, p.stride_h, p.pad_top,
                                  (kh - 1) * dil, up);
      const int lo = up ? (off < 0 ? off : 0) : -off;
      const int hi_in = in_count, hi_out = (up ? off : -off) + out_count;
      const int size = (hi_in > hi_out ? hi_in : hi_out) - lo;
      arena = malloc((size_t)size * sizeof(float));
      base = -lo;
      memcpy(arena + base, xl, (size_t)in_count * sizeof(float));
      oc_maxpool2d_nhwc_f32(&p, c, arena + base, arena + base + (up ? off : -off), 1, 1);
      overlap_ok = same_bits(arena + base + (up ? off : -off), wantl, out_count);
      free(arena);
    }
    check(overlap_ok, up ? "maxpool_nhwc rows_up over its input" : "maxpool_nhwc rows over its input");
    free(x);
    free(xl);
    free(want);
    free(wantl);
    free(y);
  }
}

/* pointwise: 1x1 kernels with more channels (1..17 in, 1..20 out, one
 * group or two; the blocks of 8 and 4 channels and the loop over 4 input
 * channels of the Arm tiles), a begin pad of 0 or 1, and also checked
 * against the sums written out. */
static void test_conv_nhwc_reverse(int pointwise) {
  int round;
  for (round = 0; round < 300; round++) {
    oc_conv2d_params p;
    const int n = rnd_in(1, 2), h = rnd_in(1, 8), w = rnd_in(1, 8), k = pointwise ? 1 : rnd_in(1, 3);
    const int depthwise = pointwise ? 0 : rnd_in(0, 1), groups = pointwise ? rnd_in(1, 2) : 1;
    const int c_in = pointwise ? groups * rnd_in(1, 17) : rnd_in(1, 6);
    const int c_out = depthwise ? c_in : pointwise ? groups * rnd_in(1, 20) : rnd_in(1, 6);
    int in_count, out_count, w_count, i, up;
    float *x, *wt, *bias, *want, *arena;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.c_in = c_in;
    p.c_out = c_out;
    p.group = depthwise ? c_in : groups;
    p.h_in = h;
    p.w_in = w;
    p.k_h = p.k_w = k;
    p.stride_h = p.stride_w = rnd_in(1, 2);
    p.dil_h = p.dil_w = 1;
    p.pad_top = p.pad_left = rnd_in(0, pointwise ? 1 : k - 1);
    if (h + 2 * p.pad_top < k || w + 2 * p.pad_left < k) continue;
    p.h_out = (h + 2 * p.pad_top - k) / p.stride_h + 1;
    p.w_out = (w + 2 * p.pad_left - k) / p.stride_w + 1;
    p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
    in_count = n * c_in * h * w;
    out_count = n * c_out * p.h_out * p.w_out;
    w_count = c_out * (c_in / p.group) * k * k;
    x = malloc((size_t)in_count * sizeof(float));
    wt = malloc((size_t)w_count * sizeof(float));
    bias = malloc((size_t)c_out * sizeof(float));
    want = malloc((size_t)out_count * sizeof(float));
    for (i = 0; i < in_count; i++) x[i] = (float)((int)(rnd() % 9u) - 4);
    for (i = 0; i < w_count; i++) wt[i] = (float)((int)(rnd() % 5u) - 2);
    for (i = 0; i < c_out; i++) bias[i] = (float)i;
    /* Weights are given to both runs as is: the same (HWIO-ordered) array, so
     * the two orders compute the same function whatever it is. */
    oc_conv2d_nhwc_f32(&p, x, wt, bias, want, 1, 1);
    if (pointwise) { /* bias, then the input channels in order; nothing in the padding */
      const int cig = c_in / p.group, cog = c_out / p.group;
      int ok = 1, b, oy, ox, g, c, ic;
      for (b = 0; b < n; b++) {
        for (oy = 0; oy < p.h_out; oy++) {
          for (ox = 0; ox < p.w_out; ox++) {
            const int iy = oy * p.stride_h - p.pad_top, ix = ox * p.stride_w - p.pad_left;
            const int inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
            for (g = 0; g < p.group; g++) {
              for (c = 0; c < cog; c++) {
                const float *xp = x + ((b * h + iy) * w + ix) * c_in + g * cig;
                const float *got = want + ((b * p.h_out + oy) * p.w_out + ox) * c_out + g * cog + c;
                float sum = bias[g * cog + c];
                for (ic = 0; inside && ic < cig; ic++) sum += wt[(g * cig + ic) * cog + c] * xp[ic];
                if (!same_bits(&sum, got, 1)) ok = 0;
              }
            }
          }
        }
      }
      check(ok, "conv_nhwc pointwise against its sums");
    }
    for (up = 0; up <= 1; up++) {
      const int in_row = w * c_in, out_row = p.w_out * c_out;
      const int off = rows_offset(n, h, in_row, p.h_out, out_row, p.stride_h, p.pad_top, k - 1, up);
      const int place = up ? off : -off;
      const int lo = place < 0 ? place : 0;
      const int hi = (in_count > place + out_count ? in_count : place + out_count);
      arena = malloc((size_t)(hi - lo) * sizeof(float));
      memcpy(arena - lo, x, (size_t)in_count * sizeof(float));
      p.reverse_rows = up;
      oc_conv2d_nhwc_f32(&p, arena - lo, wt, bias, arena - lo + place, 1, 1);
      check(same_bits(arena - lo + place, want, out_count),
            up ? "conv_nhwc rows_up over its input" : "conv_nhwc rows over its input");
      free(arena);
    }
    p.reverse_rows = 0;
    free(x);
    free(wt);
    free(bias);
    free(want);
  }
}

static void test_global_pool_nhwc(void) {
  int round;
  for (round = 0; round < 200; round++) {
    const int n = rnd_in(1, 3), c = rnd_in(1, 9), len = rnd_in(1, 50), is_max = rnd_in(0, 1);
    const int count = n * c * len;
    float *x = malloc((size_t)count * sizeof(float)), *xl = malloc((size_t)count * sizeof(float));
    float *want = malloc((size_t)(n * c) * sizeof(float)), *y = malloc((size_t)(n * c) * sizeof(float));
    int i;
    for (i = 0; i < count; i++) x[i] = rnd_value() * 0.37f;
    relayout(x, xl, n, c, 1, len, 1);
    oc_global_pool_f32(x, want, n * c, len, is_max);
    oc_global_pool_nhwc_f32(xl, y, n, c, len, is_max);
    check(same_bits(y, want, n * c), "global_pool_nhwc against global_pool");
    free(x);
    free(xl);
    free(want);
    free(y);
  }
}

int main(void) {
  test_to_nhwc();
  test_to_nhwc_8();
  test_maxpool_nhwc();
  test_conv_nhwc_reverse(0);
  test_conv_nhwc_reverse(1);
  test_global_pool_nhwc();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
