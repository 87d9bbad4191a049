/*
 * The 8-bit channels-last convolution (oc_qconv2d_nhwc, OHWI weights)
 * against oc_qconv2d (NCHW, OIHW weights), byte for byte, on random shapes:
 * one or two items, one group, two, three or depthwise, 1..9 channels per
 * group, kernels 1..5 (not square), strides 1..3, dilations 1..2, pads 0..2
 * on each side (past the kernel too: windows wholly in the padding), each
 * pair of x and w types and y's type, weights' zero points none, one or per
 * channel (zeros too), bias or none, float and fixed-point requantization
 * per tensor or per channel (narrowed bounds too), each (x_last, y_last)
 * pair, rows in either order. Each both-NHWC case is also run with y over x
 * in one exact-size buffer, as tight as the rows contract allows (the
 * compiler's displacements, recomputed here from the access order). Then
 * the dense rows (NHWC x, one group) on shapes of their own.
 * The last line is "N passed, M failed"; the exit status is nonzero on failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_to_c/oc_qlinear_kernels.h"

#include "test_check.h"

static uint32_t g_rng = 0x9e3779b9u;

static uint32_t rnd(void) { /* xorshift32 */
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng;
}

static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

/* A random byte of an 8-bit type (its value as int). */
static int rnd_q8(int is_signed) { return is_signed ? rnd_in(-128, 127) : rnd_in(0, 255); }

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

/* NCHW <-> NHWC copies of an (n, c, h, w) tensor of bytes. */
static void relayout(const uint8_t *x, uint8_t *y, int n, int c, int h, int w, int to_nhwc) {
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

/* OIHW -> OHWI (I: the input channels of a group). */
static void to_ohwi(const uint8_t *w, uint8_t *o, int c_out, int cig, int kh, int kw) {
  int co, ic, a, b;
  for (co = 0; co < c_out; co++) {
    for (ic = 0; ic < cig; ic++) {
      for (a = 0; a < kh; a++) {
        for (b = 0; b < kw; b++) {
          o[((co * kh + a) * kw + b) * cig + ic] = w[((co * cig + ic) * kh + a) * kw + b];
        }
      }
    }
  }
}

/* The rows contract's placement of y against x (in bytes): increasing rows,
 * y `d` below x (returns d >= 0); decreasing rows, y `rise` above x (may be
 * negative): the smallest the access order allows. */
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

static int g_overlap_runs;

static void test_qconv_nhwc(int rounds) {
  int round;
  for (round = 0; round < rounds; round++) {
    oc_qconv_params q;
    oc_conv2d_params *p = &q.conv;
    oc_requant8 r;
    float mult[64];
    int32_t q_mult[64], q_shift[64], bias_v[64];
    uint8_t w_zp_v[64];
    const int n = rnd_in(1, 2), kind = rnd_in(0, 3); /* groups 1, 2, 3, depthwise */
    const int h = rnd_in(1, 9), w = rnd_in(1, 9), kh = rnd_in(1, 5), kw = rnd_in(1, 5);
    const int group = kind == 3 ? rnd_in(1, 12) : kind + 1;
    const int cig = kind == 3 ? 1 : rnd_in(1, 9), cog = kind == 3 ? 1 : rnd_in(1, 9);
    const int c_in = cig * group, c_out = cog * group;
    const int pb = rnd_in(0, 2), pr = rnd_in(0, 2), zp_kind = rnd_in(0, 4);
    const int fixed = rnd_in(0, 1), per_ch = rnd_in(0, 1), has_bias = rnd_in(0, 2) != 0;
    int in_count, out_count, w_count, i, x_last, y_last, up;
    uint8_t *x, *xl, *wt, *wl, *want, *wantl, *y;
    memset(&q, 0, sizeof q);
    p->n = n;
    p->c_in = c_in;
    p->c_out = c_out;
    p->group = group;
    p->h_in = h;
    p->w_in = w;
    p->k_h = kh;
    p->k_w = kw;
    p->stride_h = rnd_in(1, 3);
    p->stride_w = rnd_in(1, 3);
    p->dil_h = rnd_in(1, 2);
    p->dil_w = rnd_in(1, 2);
    p->pad_top = rnd_in(0, 2);
    p->pad_left = rnd_in(0, 2);
    if (h + p->pad_top + pb < (kh - 1) * p->dil_h + 1 || w + p->pad_left + pr < (kw - 1) * p->dil_w + 1) {
      round--; /* no output: draw again */
      continue;
    }
    p->h_out = (h + p->pad_top + pb - (kh - 1) * p->dil_h - 1) / p->stride_h + 1;
    p->w_out = (w + p->pad_left + pr - (kw - 1) * p->dil_w - 1) / p->stride_w + 1;
    p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
    q.x_signed = rnd_in(0, 1);
    q.w_signed = rnd_in(0, 1);
    q.y_signed = rnd_in(0, 1);
    q.x_zp = rnd_q8(q.x_signed);
    q.w_zp_per_channel = zp_kind >= 3;
    /* zp_kind: 0 none, 1 one 0, 2 one, 3 per channel with zeros, 4 per channel */
    for (i = 0; i < c_out; i++) {
      w_zp_v[i] = (uint8_t)(zp_kind == 1 || (zp_kind == 3 && rnd_in(0, 1)) ? 0 : rnd_q8(q.w_signed));
      bias_v[i] = rnd_in(0, 15) == 0 ? (int32_t)rnd() : rnd_in(-20000, 20000);
      mult[i] = (float)(rnd_in(1, 1000) * 2e-5);
      to_q31(mult[i], &q_mult[i], &q_shift[i]);
    }
    memset(&r, 0, sizeof r);
    r.per_channel = per_ch;
    if (fixed) {
      r.q_mult = q_mult;
      r.q_shift = q_shift;
    } else {
      r.mult = mult;
    }
    r.zp = rnd_q8(q.y_signed);
    r.lo = q.y_signed ? -128 : 0;
    r.hi = q.y_signed ? 127 : 255;
    if (rnd_in(0, 3) == 0) r.lo = r.zp; /* a fused Relu */
    in_count = n * c_in * h * w;
    out_count = n * c_out * p->h_out * p->w_out;
    w_count = c_out * cig * kh * kw;
    x = malloc((size_t)in_count);
    xl = malloc((size_t)in_count);
    wt = malloc((size_t)w_count);
    wl = malloc((size_t)w_count);
    want = malloc((size_t)out_count);
    wantl = malloc((size_t)out_count);
    y = malloc((size_t)out_count);
    for (i = 0; i < in_count; i++) x[i] = (uint8_t)rnd();
    for (i = 0; i < w_count; i++) wt[i] = (uint8_t)rnd();
    relayout(x, xl, n, c_in, h, w, 1);
    to_ohwi(wt, wl, c_out, cig, kh, kw);
    oc_qconv2d(&q, &r, x, wt, zp_kind == 0 ? NULL : w_zp_v, has_bias ? bias_v : NULL, want);
    relayout(want, wantl, n, c_out, p->h_out, p->w_out, 1);
    for (up = 0; up <= 1; up++) {
      p->reverse_rows = up;
      for (x_last = 0; x_last <= 1; x_last++) {
        for (y_last = 0; y_last <= 1; y_last++) {
          memset(y, 0xa5, (size_t)out_count);
          oc_qconv2d_nhwc(&q, &r, x_last ? xl : x, wl, zp_kind == 0 ? NULL : w_zp_v,
                          has_bias ? bias_v : NULL, y, x_last, y_last);
          check(memcmp(y, y_last ? wantl : want, (size_t)out_count) == 0,
                "qconv2d_nhwc against qconv2d");
        }
      }
      /* Both NHWC: y over x in one exact-size buffer, as tight as the rows
       * contract allows. */
      {
        const int in_row = w * c_in, out_row = p->w_out * c_out;
        const int off = rows_offset(n, h, in_row, p->h_out, out_row, p->stride_h, p->pad_top,
                                    (kh - 1) * p->dil_h, up);
        /* increasing: y at 0, x at d; decreasing: y at rise from x (x at -rise if rise < 0) */
        const int x_at = up ? (off < 0 ? -off : 0) : off;
        const int y_at = up ? (off < 0 ? 0 : off) : 0;
        const int x_end = x_at + in_count, y_end = y_at + out_count;
        const int size = x_end > y_end ? x_end : y_end;
        uint8_t *arena = malloc((size_t)size);
        memset(arena, 0x5a, (size_t)size);
        memcpy(arena + x_at, xl, (size_t)in_count);
        oc_qconv2d_nhwc(&q, &r, arena + x_at, wl, zp_kind == 0 ? NULL : w_zp_v,
                        has_bias ? bias_v : NULL, arena + y_at, 1, 1);
        check(memcmp(arena + y_at, wantl, (size_t)out_count) == 0,
              up ? "qconv2d_nhwc rows_up over its input" : "qconv2d_nhwc rows over its input");
        if (x_at < y_end && y_at < x_end) g_overlap_runs++;
        free(arena);
      }
    }
    free(x);
    free(xl);
    free(wt);
    free(wl);
    free(want);
    free(wantl);
    free(y);
  }
}

/* Larger shapes: the four-channel blocks with long runs of input channels. */
static void test_qconv_nhwc_wide(void) {
  int round;
  for (round = 0; round < 12; round++) {
    oc_qconv_params q;
    oc_conv2d_params *p = &q.conv;
    oc_requant8 r;
    const float mult = 0.0004f;
    const int h = rnd_in(5, 14), w = rnd_in(5, 14), k = rnd_in(1, 3) * 2 - 1;
    const int depthwise = round % 3 == 0, c_in = rnd_in(16, 40);
    const int c_out = depthwise ? c_in : rnd_in(5, 37), group = depthwise ? c_in : 1;
    int in_count, out_count, w_count, i, up;
    uint8_t *x, *xl, *wt, *wl, *want, *wantl, *y;
    int32_t *bias = malloc((size_t)c_out * sizeof(int32_t));
    uint8_t *w_zp = malloc((size_t)c_out);
    memset(&q, 0, sizeof q);
    p->n = 1;
    p->c_in = c_in;
    p->c_out = c_out;
    p->group = group;
    p->h_in = h;
    p->w_in = w;
    p->k_h = p->k_w = k;
    p->stride_h = p->stride_w = rnd_in(1, 2);
    p->dil_h = p->dil_w = 1;
    p->pad_top = p->pad_left = k / 2;
    p->h_out = (h + 2 * (k / 2) - k) / p->stride_h + 1;
    p->w_out = (w + 2 * (k / 2) - k) / p->stride_w + 1;
    p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
    q.x_signed = round & 1;
    q.w_signed = (round >> 1) & 1;
    q.y_signed = 1;
    q.x_zp = rnd_q8(q.x_signed);
    q.w_zp_per_channel = 1;
    for (i = 0; i < c_out; i++) {
      bias[i] = rnd_in(-5000, 5000);
      w_zp[i] = (uint8_t)(round % 4 == 3 ? rnd_q8(q.w_signed) : 0);
    }
    memset(&r, 0, sizeof r);
    r.mult = &mult;
    r.zp = 3;
    r.lo = -128;
    r.hi = 127;
    in_count = c_in * h * w;
    out_count = c_out * p->h_out * p->w_out;
    w_count = c_out * (c_in / group) * k * k;
    x = malloc((size_t)in_count);
    xl = malloc((size_t)in_count);
    wt = malloc((size_t)w_count);
    wl = malloc((size_t)w_count);
    want = malloc((size_t)out_count);
    wantl = malloc((size_t)out_count);
    y = malloc((size_t)out_count);
    for (i = 0; i < in_count; i++) x[i] = (uint8_t)rnd();
    for (i = 0; i < w_count; i++) wt[i] = (uint8_t)rnd();
    relayout(x, xl, 1, c_in, h, w, 1);
    to_ohwi(wt, wl, c_out, c_in / group, k, k);
    oc_qconv2d(&q, &r, x, wt, w_zp, bias, want);
    relayout(want, wantl, 1, c_out, p->h_out, p->w_out, 1);
    for (up = 0; up <= 1; up++) {
      p->reverse_rows = up;
      oc_qconv2d_nhwc(&q, &r, xl, wl, w_zp, bias, y, 1, 1);
      check(memcmp(y, wantl, (size_t)out_count) == 0, "qconv2d_nhwc wide against qconv2d");
    }
    free(x);
    free(xl);
    free(wt);
    free(wl);
    free(want);
    free(wantl);
    free(y);
    free(bias);
    free(w_zp);
  }
}

/* The dense rows (NHWC x, one group, dilation 1 along the width, four
 * channels to a block, the block's weights' zero points 0): 1..32 input
 * channels (kernel rows of every length mod 8, so steps of four in pairs or
 * not and tails of 0..3 bytes, the runs under four too), 4..19 output
 * channels (short last blocks taking the last four), kernels 1..5 per
 * axis, strides 1..3, dilation 1..2 down the height, pads 0..2 per side
 * (clipped windows at both borders, windows wholly in the padding), the
 * input's zero point anywhere, -128 or 128 (the middle of its range) and 0,
 * weights' zero points none, one 0, per channel all 0, or 0 in the first
 * blocks only (dense and other blocks in one convolution), each pair of
 * types, y NHWC or NCHW, rows either way. */
static void test_qconv_nhwc_dense(int rounds) {
  static const int c_ins[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 20, 24, 32};
  int round;
  for (round = 0; round < rounds; round++) {
    oc_qconv_params q;
    oc_conv2d_params *p = &q.conv;
    oc_requant8 r;
    float mult[32];
    int32_t q_mult[32], q_shift[32], bias_v[32];
    uint8_t w_zp_v[32];
    const int n = rnd_in(1, 2), c_in = c_ins[rnd_in(0, (int)(sizeof c_ins / sizeof c_ins[0]) - 1)];
    const int c_out = rnd_in(4, 19), kh = rnd_in(1, 5), kw = rnd_in(1, 5);
    const int h = rnd_in(1, 8), w = rnd_in(1, 10), pb = rnd_in(0, 2), pr = rnd_in(0, 2);
    const int zp_kind = rnd_in(0, 3), zx_kind = rnd_in(0, 3), has_bias = rnd_in(0, 3) != 0;
    int in_count, out_count, w_count, i, y_last, up;
    uint8_t *x, *xl, *wt, *wl, *want, *wantl, *y;
    memset(&q, 0, sizeof q);
    p->n = n;
    p->c_in = c_in;
    p->c_out = c_out;
    p->group = 1;
    p->h_in = h;
    p->w_in = w;
    p->k_h = kh;
    p->k_w = kw;
    p->stride_h = rnd_in(1, 2);
    p->stride_w = rnd_in(1, 3);
    p->dil_h = rnd_in(1, 2);
    p->dil_w = 1;
    p->pad_top = rnd_in(0, 2);
    p->pad_left = rnd_in(0, 2);
    if (h + p->pad_top + pb < (kh - 1) * p->dil_h + 1 || w + p->pad_left + pr < kw) {
      round--; /* no output: draw again */
      continue;
    }
    p->h_out = (h + p->pad_top + pb - (kh - 1) * p->dil_h - 1) / p->stride_h + 1;
    p->w_out = (w + p->pad_left + pr - kw) / p->stride_w + 1;
    p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
    q.x_signed = rnd_in(0, 1);
    q.w_signed = rnd_in(0, 1);
    q.y_signed = rnd_in(0, 1);
    /* zx_kind: 0 any, 1 the middle of x's range, 2 zero, 3 an end of the range */
    q.x_zp = zx_kind == 0   ? rnd_q8(q.x_signed)
             : zx_kind == 1 ? (q.x_signed ? -128 : 128)
             : zx_kind == 2 ? 0
                            : (q.x_signed ? (rnd_in(0, 1) ? -128 : 127) : (rnd_in(0, 1) ? 0 : 255));
    /* zp_kind: 0 none, 1 one 0, 2 per channel, all 0, 3 per channel, 0 in the first blocks */
    q.w_zp_per_channel = zp_kind >= 2;
    for (i = 0; i < c_out; i++) {
      w_zp_v[i] = (uint8_t)(zp_kind == 3 && i >= 4 * (c_out / 8) + 4 ? rnd_q8(q.w_signed) | 1 : 0);
      bias_v[i] = rnd_in(0, 15) == 0 ? (int32_t)rnd() : rnd_in(-20000, 20000);
      mult[i] = (float)(rnd_in(1, 1000) * 2e-5);
      to_q31(mult[i], &q_mult[i], &q_shift[i]);
    }
    memset(&r, 0, sizeof r);
    r.per_channel = rnd_in(0, 1);
    if (rnd_in(0, 2) == 0) {
      r.q_mult = q_mult;
      r.q_shift = q_shift;
    } else {
      r.mult = mult;
    }
    r.zp = rnd_q8(q.y_signed);
    r.lo = q.y_signed ? -128 : 0;
    r.hi = q.y_signed ? 127 : 255;
    if (rnd_in(0, 3) == 0) r.lo = r.zp; /* a fused Relu */
    in_count = n * c_in * h * w;
    out_count = n * c_out * p->h_out * p->w_out;
    w_count = c_out * c_in * kh * kw;
    x = malloc((size_t)in_count);
    xl = malloc((size_t)in_count);
    wt = malloc((size_t)w_count);
    wl = malloc((size_t)w_count);
    want = malloc((size_t)out_count);
    wantl = malloc((size_t)out_count);
    y = malloc((size_t)out_count);
    for (i = 0; i < in_count; i++) x[i] = (uint8_t)rnd();
    for (i = 0; i < w_count; i++) wt[i] = (uint8_t)rnd();
    relayout(x, xl, n, c_in, h, w, 1);
    to_ohwi(wt, wl, c_out, c_in, kh, kw);
    oc_qconv2d(&q, &r, x, wt, zp_kind == 0 ? NULL : w_zp_v, has_bias ? bias_v : NULL, want);
    relayout(want, wantl, n, c_out, p->h_out, p->w_out, 1);
    for (up = 0; up <= 1; up++) {
      p->reverse_rows = up;
      for (y_last = 0; y_last <= 1; y_last++) {
        memset(y, 0xa5, (size_t)out_count);
        oc_qconv2d_nhwc(&q, &r, xl, wl, zp_kind == 0 ? NULL : w_zp_v, has_bias ? bias_v : NULL, y, 1,
                        y_last);
        check(memcmp(y, y_last ? wantl : want, (size_t)out_count) == 0,
              "qconv2d_nhwc dense against qconv2d");
      }
    }
    free(x);
    free(xl);
    free(wt);
    free(wl);
    free(want);
    free(wantl);
    free(y);
  }
}

int main(void) {
  test_qconv_nhwc(400);
  test_qconv_nhwc_wide();
  test_qconv_nhwc_dense(600);
  printf("(%d of the runs over their input overlapped it)\n", g_overlap_runs);
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail != 0;
}
