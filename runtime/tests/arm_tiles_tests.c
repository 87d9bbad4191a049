/*
 * Tests of the kernels that runtime/arm speeds up on Cortex-M4F/M7: Gemm
 * with B transposed, 1x1 convolutions, and 1x1 convolutions over their own
 * input (oc_conv1x1_overlap_f32); and the 8-bit matrix product, whose
 * M4/M7 build multiplies with the DSP extension's SMLAD (qgemm.c, and
 * qgemm_packed.c for fully connected layers). Also the
 * channels-last convolution (oc_conv2d_nhwc_f32) against oc_conv2d_f32,
 * and the 8-bit one (oc_qconv2d_nhwc, SMLAD on M4/M7) against oc_qconv2d,
 * and the 8-bit channels-last pointwise matrix product (oc_qconv_pw_nhwc)
 * and its NCHW overlap form two pixels at a time (oc_qconv1x1_overlap_pairs),
 * the stems as its sums over gathered windows (oc_qconv_stem_nhwc), and the
 * column products with 4-bit weights (oc_qconv2d_w4_col).
 *
 * The same program runs on the host (the portable tiles) and, under QEMU,
 * on Cortex-M4F and M7 built with OC_ARM_VMLA (the Arm micro-kernels) and on
 * Cortex-M3 (portable, soft float); see run_arm_tiles_tests.cmake. Each case
 * compares the kernel bit for bit with a naive loop that sums in the
 * documented order, then prints a digest of the outputs' bits (NaNs made
 * one NaN: payloads are not specified across targets); the driver checks
 * that every target prints the host's digests. Shapes cover tile tails
 * (sizes not multiples of 4 or 8, input channels not multiples of 2 or 4,
 * planes under a tile), and the data holds NaN, infinities, -0.0,
 * subnormals and values that overflow.
 *
 * The last line is "N passed, M failed"; the exit status is nonzero on
 * failure. No stdio on the firmware: OC_TEST_SEMIHOSTING prints through the
 * test bed's semihosting calls.
 */
#include <stdint.h>
#include <string.h>

#include "onnx_to_c/oc_kernels.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_qlinear_kernels.h"

#if defined(OC_TEST_SEMIHOSTING)
#include "semihosting.h"
static void say(const char *s) { oc_sh_write0(s); }
#else
#include <stdio.h>
static void say(const char *s) { fputs(s, stdout); }
#endif

static int g_pass, g_fail;

static void say_u32(uint32_t v, int hex) {
  char buf[12];
  int n = 11;
  buf[n] = '\0';
  do {
    const uint32_t d = hex ? v % 16u : v % 10u;
    buf[--n] = (char)(d < 10u ? '0' + d : 'a' + d - 10u);
    v = hex ? v / 16u : v / 10u;
  } while (v != 0u);
  say(buf + n);
}

static uint32_t bits_of(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

/* the same bits, or both NaN */
static int same_bits(float a, float b) { return bits_of(a) == bits_of(b) || (a != a && b != b); }

/* FNV-1a over the outputs' bits, every NaN as 0x7fc00000 */
static uint32_t digest(const float *y, int32_t n) {
  uint32_t h = 2166136261u;
  int32_t i, k;
  for (i = 0; i < n; i++) {
    const uint32_t b = y[i] != y[i] ? 0x7fc00000u : bits_of(y[i]);
    for (k = 0; k < 4; k++) {
      h ^= (b >> (8 * k)) & 0xffu;
      h *= 16777619u;
    }
  }
  return h;
}

/* a failed case whose kernel wrote past its output (or scratch) */
static void fail_wrote_past(const char *name, const char *what) {
  say("FAIL: ");
  say(name);
  say(" wrote past its ");
  say(what);
  say("\n");
  g_fail++;
}

/* check got[i] == want[i] bit for bit, then print "case NAME DIGEST" */
static void check_case(const char *name, const float *got, const float *want, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    if (!same_bits(got[i], want[i])) {
      say("FAIL: ");
      say(name);
      say(" at ");
      say_u32((uint32_t)i, 0);
      say(": got 0x");
      say_u32(bits_of(got[i]), 1);
      say(", want 0x");
      say_u32(bits_of(want[i]), 1);
      say("\n");
      g_fail++;
      return;
    }
  }
  g_pass++;
  say("case ");
  say(name);
  say(" ");
  say_u32(digest(got, n), 1);
  say("\n");
}

static uint32_t g_rng = 0x9e3779b9u;

static uint32_t rnd_u32(void) { /* xorshift32 */
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 17;
  g_rng ^= g_rng << 5;
  return g_rng;
}

static float from_bits(uint32_t b) {
  float v;
  memcpy(&v, &b, sizeof v);
  return v;
}

/* Mostly uniform in [-1, 1); with `special`, about one value in 16 is NaN,
 * +-inf, -0.0, +0.0, a subnormal or a value whose products overflow. */
static void fill(float *v, int32_t n, int special) {
  static const uint32_t odd[8] = {0x7fc00000u, 0x7f800000u, 0xff800000u, 0x80000000u,
                                  0x00000000u, 0x00000005u, 0x7f000000u, 0xfe800000u};
  int32_t i;
  for (i = 0; i < n; i++) {
    const uint32_t r = rnd_u32();
    if (special && (r & 15u) == 0u) {
      v[i] = from_bits(odd[(r >> 4) % 8u]);
    } else {
      v[i] = (float)(r >> 8) / 8388608.0f - 1.0f;
    }
  }
}

/* The activation as documented (oc_common.h), ReLU and Clip written out. */
static float ref_act(const oc_act *a, float v) {
  if (a->kind == OC_ACT_NONE) return v;
  if (a->kind == OC_ACT_RELU) return v < 0.0f ? 0.0f : v;
  if (a->kind == OC_ACT_CLIP) {
    v = v < a->alpha ? a->alpha : v;
    return v > a->beta ? a->beta : v;
  }
  return oc_apply_act(a, v);
}

static void case_name(char *out, const char *what, const int32_t *nums, int count) {
  int i;
  size_t len = strlen(what);
  memcpy(out, what, len);
  for (i = 0; i < count; i++) {
    int32_t v = nums[i];
    char digits[12];
    int n = 0;
    out[len++] = i == 0 ? ' ' : 'x';
    do {
      digits[n++] = (char)('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) out[len++] = digits[--n];
  }
  out[len] = '\0';
}

static const oc_act kActs[4] = {
    {OC_ACT_NONE, 0.0f, 0.0f},
    {OC_ACT_RELU, 0.0f, 0.0f},
    {OC_ACT_CLIP, -0.5f, 0.75f},
    {OC_ACT_LEAKY_RELU, 0.125f, 0.0f},
};

/* ------------------------------------------------------------------ Gemm */

#define GEMM_MAX 2048
static float g_a[GEMM_MAX], g_b[GEMM_MAX], g_c[GEMM_MAX], g_y[GEMM_MAX], g_r[GEMM_MAX];

/* Y = act(alpha * A B^T + beta * C), each dot product from +0.0 over k in
 * increasing order (gemm.c) */
static void ref_gemm_nt(const oc_gemm_params *p, const float *a, const float *b, const float *c,
                        float *y) {
  int32_t m, n, k;
  for (m = 0; m < p->m; m++) {
    for (n = 0; n < p->n; n++) {
      float s = 0.0f, v;
      for (k = 0; k < p->k; k++) {
        const float av = p->trans_a ? a[k * p->m + m] : a[m * p->k + k];
        s += av * b[n * p->k + k];
      }
      v = p->alpha * s;
      if (c != NULL) v += p->beta * c[m * p->c_stride_m + n * p->c_stride_n];
      y[m * p->n + n] = ref_act(&p->act, v);
    }
  }
}

static void test_gemm_nt(void) {
  static const int32_t ms[3] = {1, 2, 3};
  static const int32_t ns[7] = {1, 3, 4, 5, 8, 12, 13};
  static const int32_t ks[8] = {1, 5, 7, 8, 9, 16, 23, 40};
  int32_t mi, ni, ki;
  char name[96];
  for (mi = 0; mi < 3; mi++) {
    for (ni = 0; ni < 7; ni++) {
      for (ki = 0; ki < 8; ki++) {
        oc_gemm_params p;
        const int32_t shape[3] = {ms[mi], ns[ni], ks[ki]};
        const int variant = (int)((mi + ni + ki) % 4);
        memset(&p, 0, sizeof p);
        p.m = ms[mi];
        p.n = ns[ni];
        p.k = ks[ki];
        p.trans_a = variant == 3;
        p.trans_b = 1;
        p.alpha = variant == 2 ? 0.5f : 1.0f;
        p.beta = variant == 1 ? -2.0f : 1.0f;
        p.c_stride_m = variant == 0 ? 0 : p.n;
        p.c_stride_n = 1;
        p.act = kActs[(mi + ki) % 4];
        fill(g_a, p.m * p.k, ki % 2);
        fill(g_b, p.n * p.k, ni % 2);
        fill(g_c, p.m * p.n, 0);
        oc_gemm_f32(&p, g_a, g_b, variant == 2 ? NULL : g_c, g_y);
        ref_gemm_nt(&p, g_a, g_b, variant == 2 ? NULL : g_c, g_r);
        case_name(name, variant == 3 ? "gemm A^T B^T" : "gemm A B^T", shape, 3);
        check_case(name, g_y, g_r, p.m * p.n);
      }
    }
  }
}

/* --------------------------------------------------------- 1x1 convolution */

#define PW_MAX 4096
static float g_x[PW_MAX], g_w[PW_MAX], g_bias[64], g_py[PW_MAX], g_pr[PW_MAX],
    g_scratch[PW_MAX];

static void pw_params(oc_conv2d_params *p, int32_t c_in, int32_t c_out, int32_t h, int32_t w,
                      const oc_act *act) {
  memset(p, 0, sizeof *p);
  p->n = 1;
  p->c_in = c_in;
  p->c_out = c_out;
  p->h_in = p->h_out = h;
  p->w_in = p->w_out = w;
  p->k_h = p->k_w = 1;
  p->stride_h = p->stride_w = 1;
  p->dil_h = p->dil_w = 1;
  p->group = 1;
  p->act = *act;
  p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
}

/* y[co][i] = act(bias[co] (or +0.0) + w[co][0] x[0][i] + w[co][1] x[1][i] +
 * ...), input channels in increasing order (conv2d.c) */
static void ref_pointwise(const oc_conv2d_params *p, const float *x, const float *w,
                          const float *bias, float *y) {
  const int32_t vol = p->h_in * p->w_in;
  int32_t co, ic, i;
  for (co = 0; co < p->c_out; co++) {
    for (i = 0; i < vol; i++) {
      float s = bias != NULL ? bias[co] : 0.0f;
      for (ic = 0; ic < p->c_in; ic++) s += w[co * p->c_in + ic] * x[ic * vol + i];
      y[co * vol + i] = ref_act(&p->act, s);
    }
  }
}

static void test_pointwise(void) {
  static const int32_t cins[9] = {1, 2, 3, 4, 5, 7, 8, 9, 16};
  static const int32_t couts[4] = {4, 8, 5, 12};
  static const int32_t planes[12][2] = {{1, 1}, {1, 3}, {2, 2}, {1, 5}, {2, 3}, {1, 7},
                                        {2, 4}, {3, 3}, {13, 1}, {4, 4}, {5, 5}, {25, 5}};
  int32_t ci, oi, pi;
  char name[96];
  for (ci = 0; ci < 9; ci++) {
    for (oi = 0; oi < 4; oi++) {
      for (pi = 0; pi < 12; pi++) {
        oc_conv2d_params p;
        const int32_t h = planes[pi][0], w = planes[pi][1];
        const int32_t shape[4] = {cins[ci], couts[oi], h, w};
        const int with_bias = (ci + pi) % 3 != 0;
        pw_params(&p, cins[ci], couts[oi], h, w, &kActs[(ci + oi + pi) % 4]);
        if (p.c_in * h * w > PW_MAX || p.c_out * h * w > PW_MAX) continue;
        fill(g_x, p.c_in * h * w, pi % 2);
        fill(g_w, p.c_out * p.c_in, ci % 2);
        fill(g_bias, p.c_out, oi % 2);
        if (with_bias) g_bias[0] = from_bits(0x80000000u); /* -0.0 */
        oc_conv2d_f32(&p, g_x, g_w, with_bias ? g_bias : NULL, g_py);
        ref_pointwise(&p, g_x, g_w, with_bias ? g_bias : NULL, g_pr);
        case_name(name, with_bias ? "conv 1x1 bias" : "conv 1x1", shape, 4);
        check_case(name, g_py, g_pr, p.c_out * h * w);
      }
    }
  }
}

/* oc_conv1x1_overlap_f32 with y == x: blocks of 8 pixels (the Arm block
 * copy) and of other sizes, a last block shorter than the rest. */
static void test_pointwise_overlap(void) {
  static const int32_t shapes[6][4] = {{8, 8, 16, 8}, {8, 4, 13, 8}, {16, 16, 125, 8},
                                       {12, 8, 20, 4}, {4, 4, 9, 5}, {9, 8, 24, 8}};
  int32_t si;
  char name[96];
  for (si = 0; si < 6; si++) {
    oc_conv2d_params p;
    const int32_t c_in = shapes[si][0], c_out = shapes[si][1], vol = shapes[si][2];
    const int32_t block = shapes[si][3];
    const int32_t n_in = c_in * vol, n_out = c_out * vol;
    pw_params(&p, c_in, c_out, 1, vol, &kActs[si % 4]);
    fill(g_x, n_in, si % 2);
    fill(g_w, c_out * c_in, 1);
    fill(g_bias, c_out, 0);
    ref_pointwise(&p, g_x, g_w, g_bias, g_pr);
    memcpy(g_py, g_x, (size_t)n_in * sizeof(float));
    oc_conv1x1_overlap_f32(&p, g_py, g_w, g_bias, g_py, g_scratch, block);
    case_name(name, "conv 1x1 overlap", shapes[si], 4);
    check_case(name, g_py, g_pr, n_out);
  }
}

/* ------------------------------------------------------ 8-bit matrix product */

#define QG_MAX 2048
static uint8_t g_qa[QG_MAX], g_qb[QG_MAX], g_qzp[64], g_qy[256];
static int32_t g_qbias[64], g_qfolded[64];
static float g_qaf[QG_MAX], g_qyf[256], g_qwant[256], g_qgot[256], g_qmult[64];

/* The sums one column at a time in k order, as int32 with wrap-around. */
static void ref_qgemm(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const uint8_t *b,
                      const uint8_t *b_zp, const int32_t *bias, float *want) {
  int32_t i, j, k;
  for (i = 0; i < q->m; i++) {
    for (j = 0; j < q->n; j++) {
      const int32_t zb = b_zp == NULL ? 0 : oc_q8_get(b_zp, q->b_signed, q->b_zp_per_col ? j : 0);
      uint32_t sum = bias != NULL ? (uint32_t)bias[j] : 0u;
      int32_t v;
      for (k = 0; k < q->k; k++) {
        const int32_t av = q->a_float ? oc_quantize8(((const float *)a)[i * q->k + k], q->a_scale, q->a_zp,
                                                     q->a_signed)
                                      : oc_q8_get(a, q->a_signed, i * q->k + k);
        const int32_t bv = oc_q8_get(b, q->b_signed, q->trans_b ? j * q->k + k : k * q->n + j);
        sum += (uint32_t)((av - q->a_zp) * (bv - zb));
      }
      v = oc_requant8_apply(r, j, (int32_t)sum);
      want[i * q->n + j] = q->y_float ? (float)(v - r->zp) * q->y_scale : (float)v;
    }
  }
}

/* The bias with the zero points' constant terms folded in, as the compiler
 * computes it (oc_qgemm_params.zp_folded). */
static void fold_qgemm_bias(const oc_qgemm_params *q, const uint8_t *b, const uint8_t *b_zp,
                            const int32_t *bias, int32_t *folded) {
  int32_t j, k;
  for (j = 0; j < q->n; j++) {
    const uint32_t zb = b_zp == NULL ? 0u : (uint32_t)oc_q8_get(b_zp, q->b_signed, q->b_zp_per_col ? j : 0);
    uint32_t sum_b = 0u;
    for (k = 0; k < q->k; k++) {
      sum_b += (uint32_t)oc_q8_get(b, q->b_signed, q->trans_b ? j * q->k + k : k * q->n + j);
    }
    folded[j] = (int32_t)((bias != NULL ? (uint32_t)bias[j] : 0u) + (uint32_t)q->k * (uint32_t)q->a_zp * zb -
                          (uint32_t)q->a_zp * sum_b);
  }
}

static void test_qgemm(void) {
  static const int32_t ms[2] = {1, 2};
  static const int32_t ns[6] = {1, 3, 4, 5, 8, 13};
  static const int32_t ks[7] = {1, 3, 4, 5, 8, 9, 40};
  int32_t mi, ni, ki, i;
  char name[96];
  for (i = 0; i < 64; i++) g_qmult[i] = 0.001f + 0.0005f * (float)(rnd_u32() % 16u);
  for (mi = 0; mi < 2; mi++) {
    for (ni = 0; ni < 6; ni++) {
      for (ki = 0; ki < 7; ki++) {
        const int32_t variant = (mi * 6 + ni) * 7 + ki;
        const int32_t shape[3] = {ms[mi], ns[ni], ks[ki]};
        oc_qgemm_params q;
        oc_requant8 r;
        const void *a = g_qa;
        const uint8_t *zp = NULL;
        memset(&q, 0, sizeof q);
        q.m = ms[mi], q.n = ns[ni], q.k = ks[ki];
        q.trans_b = variant % 3 != 0;
        q.a_signed = variant % 2, q.b_signed = (variant / 2) % 4 != 3, q.y_signed = variant % 5 != 0;
        q.a_zp = q.a_signed ? (int32_t)(rnd_u32() % 11u) - 5 : (int32_t)(rnd_u32() % 256u);
        q.a_float = variant % 7 == 6;
        q.y_float = variant % 11 == 10;
        q.a_scale = 0.05f, q.y_scale = 0.125f;
        q.b_zp_per_col = variant % 4 == 1;
        for (i = 0; i < q.m * q.k; i++) g_qa[i] = (uint8_t)rnd_u32();
        for (i = 0; i < q.m * q.k; i++) g_qaf[i] = (float)((int32_t)(rnd_u32() % 2001u) - 1000) / 100.0f;
        for (i = 0; i < q.n * q.k; i++) g_qb[i] = (uint8_t)rnd_u32();
        for (i = 0; i < q.n; i++) g_qzp[i] = (uint8_t)(variant % 4 == 0 ? 0u : rnd_u32() % 7u);
        for (i = 0; i < q.n; i++) g_qbias[i] = (int32_t)(rnd_u32() % 20001u) - 10000;
        if (variant % 4 != 0) zp = g_qzp;
        if (q.a_float) a = g_qaf;
        memset(&r, 0, sizeof r);
        r.mult = g_qmult, r.per_channel = 1;
        r.zp = q.y_signed ? 3 : 120, r.lo = q.y_signed ? -128 : 0, r.hi = q.y_signed ? 127 : 255;
        oc_qgemm(&q, &r, a, g_qb, zp, variant % 6 == 5 ? NULL : g_qbias, q.y_float ? (void *)g_qyf : (void *)g_qy);
        ref_qgemm(&q, &r, a, g_qb, zp, variant % 6 == 5 ? NULL : g_qbias, g_qwant);
        for (i = 0; i < q.m * q.n; i++) {
          g_qgot[i] = q.y_float ? g_qyf[i] : (float)oc_q8_get(g_qy, q.y_signed, i);
        }
        case_name(name, q.trans_b ? "qgemm A B^T" : "qgemm A B", shape, 3);
        check_case(name, g_qgot, g_qwant, q.m * q.n);
        if (!q.a_float) { /* the same product with the zero points folded into the bias */
          fold_qgemm_bias(&q, g_qb, zp, variant % 6 == 5 ? NULL : g_qbias, g_qfolded);
          q.zp_folded = 1;
          oc_qgemm(&q, &r, a, g_qb, zp, g_qfolded, q.y_float ? (void *)g_qyf : (void *)g_qy);
          for (i = 0; i < q.m * q.n; i++) {
            g_qgot[i] = q.y_float ? g_qyf[i] : (float)oc_q8_get(g_qy, q.y_signed, i);
          }
          case_name(name, q.trans_b ? "qgemm folded A B^T" : "qgemm folded A B", shape, 3);
          check_case(name, g_qgot, g_qwant, q.m * q.n);
        }
      }
    }
  }
}

/* OIHW weights (c_out rows of kk) packed for oc_qconv_column: per group,
 * blocks of four channels with k in runs of four (each run: four bytes of
 * each channel in turn), then the block's kk % 4 last bytes channel by
 * channel; the group's last cog % 4 channels as plain rows. */
static void pack_column_weights(const uint8_t *w, int32_t c_out, int32_t group, int32_t kk, uint8_t *out) {
  const int32_t cog = c_out / group, tail = kk % 4;
  int32_t g, j, k, c, t, at = 0;
  for (g = 0; g < group; g++) {
    const uint8_t *wg = w + g * cog * kk;
    for (j = 0; j + 4 <= cog; j += 4) {
      for (k = 0; k + 4 <= kk; k += 4) {
        for (c = 0; c < 4; c++) {
          for (t = 0; t < 4; t++) out[at++] = wg[(j + c) * kk + k + t];
        }
      }
      for (c = 0; c < 4; c++) {
        for (t = 0; t < tail; t++) out[at++] = wg[(j + c) * kk + kk - tail + t];
      }
    }
    for (; j < cog; j++) {
      for (k = 0; k < kk; k++) out[at++] = wg[j * kk + k];
    }
  }
}

/* The fully connected kernel with packed weights (oc_qgemm_packed: SMLAD on
 * M4/M7, four outputs per pass over a row), against the sums one column at a
 * time; B transposed with zero points 0, A's zero point folded into the bias.
 * Rows of odd k start unaligned; k with runs of four in pairs (M4/M7: eight k
 * per pass), with a last run alone, or a run alone. */
static uint8_t g_qpacked[QG_MAX];
static void test_qgemm_packed(void) {
  static const int32_t ms[3] = {1, 2, 3};
  static const int32_t ns[7] = {1, 3, 4, 5, 8, 13, 16};
  static const int32_t ks[10] = {1, 3, 4, 5, 8, 9, 12, 40, 44, 64};
  int32_t mi, ni, ki, i;
  char name[96];
  for (mi = 0; mi < 3; mi++) {
    for (ni = 0; ni < 7; ni++) {
      for (ki = 0; ki < 10; ki++) {
        const int32_t variant = (mi * 7 + ni) * 10 + ki;
        const int32_t shape[3] = {ms[mi], ns[ni], ks[ki]};
        oc_qgemm_params q;
        oc_requant8 r;
        memset(&q, 0, sizeof q);
        q.m = ms[mi], q.n = ns[ni], q.k = ks[ki], q.trans_b = 1, q.zp_folded = 1;
        q.a_signed = variant % 2, q.b_signed = (variant / 2) % 4 != 3, q.y_signed = variant % 5 != 0;
        q.a_zp = q.a_signed ? (int32_t)(rnd_u32() % 255u) - 127 : (int32_t)(rnd_u32() % 256u);
        for (i = 0; i < q.m * q.k; i++) g_qa[i] = (uint8_t)rnd_u32();
        for (i = 0; i < q.n * q.k; i++) g_qb[i] = (uint8_t)rnd_u32();
        for (i = 0; i < q.n; i++) g_qbias[i] = (int32_t)(rnd_u32() % 20001u) - 10000;
        memset(&r, 0, sizeof r);
        r.mult = g_qmult, r.per_channel = 1;
        r.zp = q.y_signed ? 3 : 120, r.lo = q.y_signed ? -128 : 0, r.hi = q.y_signed ? 127 : 255;
        fold_qgemm_bias(&q, g_qb, NULL, g_qbias, g_qfolded);
        pack_column_weights(g_qb, q.n, 1, q.k, g_qpacked);
        oc_qgemm_packed(&q, &r, g_qa, g_qpacked, g_qfolded, g_qy);
        ref_qgemm(&q, &r, g_qa, g_qb, NULL, g_qbias, g_qwant);
        for (i = 0; i < q.m * q.n; i++) g_qgot[i] = (float)oc_q8_get(g_qy, q.y_signed, i);
        case_name(name, "qgemm packed A B^T", shape, 3);
        check_case(name, g_qgot, g_qwant, q.m * q.n);
      }
    }
  }
}

/* OIHW weights packed for oc_qconv2d_packed: per group, blocks of four
 * channels (the last padded with zeros), tap by tap the four channels' bytes. */
static void pack_taps_by_four(const uint8_t *w, int32_t c_out, int32_t group, int32_t kk, uint8_t *out) {
  const int32_t cog = c_out / group, blocks = (cog + 3) / 4;
  int32_t g, j, t, c, at = 0;
  for (g = 0; g < group; g++) {
    for (j = 0; j < blocks; j++) {
      for (t = 0; t < kk; t++) {
        for (c = 0; c < 4; c++) {
          const int32_t ch = 4 * j + c;
          out[at++] = ch < cog ? w[(g * cog + ch) * kk + t] : 0u;
        }
      }
    }
  }
}

/* bias[co] - x_zp * sum_k w[co][k] (mod 2^32), as the compiler folds it. */
static void fold_column_bias(const oc_qconv_params *q, const uint8_t *w, int32_t c_out, int32_t kk,
                             const int32_t *bias, int32_t *folded) {
  int32_t co, k;
  for (co = 0; co < c_out; co++) {
    uint32_t wsum = 0u;
    for (k = 0; k < kk; k++) wsum += (uint32_t)oc_q8_get(w, q->w_signed, co * kk + k);
    folded[co] = (int32_t)((uint32_t)bias[co] - (uint32_t)q->x_zp * wsum);
  }
}

/* The 8-bit pointwise convolutions: oc_qconv's 1x1 path and the overlap
 * contract's kernel (SMLAD on M4/M7), against the sums in channel order. */
static void test_qpointwise(void) {
  static const int32_t shapes[6][3] = {{1, 1, 1}, {4, 4, 7}, {5, 3, 9}, {8, 8, 13}, {16, 12, 5}, {9, 9, 4}};
  static int16_t column[66];
  int32_t si, i;
  char name[96];
  for (si = 0; si < 6; si++) {
    const int32_t cin = shapes[si][0], cout = shapes[si][1], vol = shapes[si][2];
    int32_t variant;
    for (variant = 0; variant < 4; variant++) {
      oc_qconv_params q;
      oc_requant8 r;
      int32_t co, px, ic;
      const int32_t shape[4] = {cin, cout, vol, variant};
      memset(&q, 0, sizeof q);
      q.conv.n = 1, q.conv.c_in = cin, q.conv.c_out = cout, q.conv.group = 1;
      q.conv.h_in = q.conv.h_out = 1, q.conv.w_in = q.conv.w_out = vol;
      q.conv.k_h = q.conv.k_w = q.conv.stride_h = q.conv.stride_w = q.conv.dil_h = q.conv.dil_w = 1;
      q.conv.d_in = q.conv.d_out = q.conv.k_d = q.conv.stride_d = q.conv.dil_d = 1;
      q.x_signed = variant & 1, q.w_signed = 1, q.y_signed = 1;
      q.x_zp = q.x_signed ? (int32_t)(rnd_u32() % 9u) - 4 : (int32_t)(rnd_u32() % 256u);
      q.w_zp_per_channel = variant == 3;
      for (i = 0; i < cin * vol; i++) g_qa[i] = (uint8_t)rnd_u32();
      for (i = 0; i < cout * cin; i++) g_qb[i] = (uint8_t)rnd_u32();
      for (i = 0; i < cout; i++) g_qzp[i] = (uint8_t)(rnd_u32() % 5u);
      for (i = 0; i < cout; i++) g_qbias[i] = (int32_t)(rnd_u32() % 2001u) - 1000;
      memset(&r, 0, sizeof r);
      r.mult = g_qmult, r.per_channel = 1, r.zp = -2, r.lo = -128, r.hi = 127;
      for (co = 0; co < cout; co++) {
        const int32_t zw = variant >= 2 ? oc_q8_get(g_qzp, 1, variant == 3 ? co : 0) : 0;
        for (px = 0; px < vol; px++) {
          uint32_t sum = (uint32_t)g_qbias[co];
          for (ic = 0; ic < cin; ic++) {
            sum += (uint32_t)((oc_q8_get(g_qa, q.x_signed, ic * vol + px) - q.x_zp) *
                              (oc_q8_get(g_qb, 1, co * cin + ic) - zw));
          }
          g_qwant[co * vol + px] = (float)oc_requant8_apply(&r, co, (int32_t)sum);
        }
      }
      oc_qconv(&q, &r, g_qa, g_qb, variant >= 2 ? g_qzp : NULL, g_qbias, g_qy);
      for (i = 0; i < cout * vol; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
      case_name(name, "qconv 1x1 general", shape, 4);
      check_case(name, g_qgot, g_qwant, cout * vol);
      oc_qconv_pointwise(&q, &r, g_qa, g_qb, variant >= 2 ? g_qzp : NULL, g_qbias, g_qy);
      for (i = 0; i < cout * vol; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
      case_name(name, "qconv 1x1", shape, 4);
      check_case(name, g_qgot, g_qwant, cout * vol);
      oc_qconv1x1_overlap(&q, &r, g_qa, g_qb, variant >= 2 ? g_qzp : NULL, g_qbias, g_qy, column);
      for (i = 0; i < cout * vol; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
      case_name(name, "qconv 1x1 overlap kernel", shape, 4);
      check_case(name, g_qgot, g_qwant, cout * vol);
      if (variant < 2) { /* weights' zero points 0: packed, the input's folded into the bias */
        /* Variant 1 with the weights and the column off the word boundary
         * (the DSP path's loads without LDM and LDRD). */
        static uint32_t packed_words[QG_MAX / 4 + 1];
        uint8_t *packed = (uint8_t *)packed_words + variant;
        fold_column_bias(&q, g_qb, cout, cin, g_qbias, g_qfolded);
        pack_column_weights(g_qb, cout, 1, cin, packed);
        oc_qconv1x1_overlap_packed(&q, &r, g_qa, packed, g_qfolded, g_qy, column + variant);
        for (i = 0; i < cout * vol; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
        case_name(name, "qconv 1x1 overlap packed", shape, 4);
        check_case(name, g_qgot, g_qwant, cout * vol);
      }
    }
  }
}

/* The 8-bit 2-D convolution (interior windows without bounds checks, the
 * border ones with; on M4/M7 the packed kernel's pairs of 3 x 3 windows
 * too), against the sums in the documented order. */
static void test_qconv2d(void) {
  /* c_in, c_out, group, h, w, k_h, k_w, stride, dilation, pad */
  static const int32_t cases[13][10] = {{1, 1, 1, 5, 7, 3, 3, 1, 1, 1}, {2, 4, 1, 6, 6, 3, 3, 2, 1, 1},
                                        {4, 4, 4, 5, 5, 3, 3, 1, 1, 1}, {3, 2, 1, 7, 4, 10, 4, 2, 1, 5},
                                        {2, 2, 2, 6, 9, 3, 2, 1, 2, 2}, {6, 3, 3, 4, 4, 1, 3, 1, 1, 0},
                                        {8, 7, 1, 5, 5, 3, 3, 1, 1, 1}, {6, 10, 2, 4, 5, 3, 3, 1, 1, 1},
                                        {5, 5, 5, 6, 7, 3, 3, 2, 1, 1}, {1, 4, 1, 12, 10, 10, 4, 2, 1, 5},
                                        {2, 5, 1, 6, 7, 3, 4, 1, 1, 1}, {16, 4, 1, 5, 10, 3, 3, 1, 1, 1},
                                        {3, 5, 1, 4, 11, 3, 3, 1, 1, 1}};
  int32_t ci, i;
  char name[96];
  for (ci = 0; ci < 13; ci++) {
    const int32_t *c = cases[ci];
    oc_qconv_params q;
    oc_requant8 r;
    int32_t co, oy, ox, ic, kh, kw, cig, at = 0;
    memset(&q, 0, sizeof q);
    q.conv.n = 1, q.conv.c_in = c[0], q.conv.c_out = c[1], q.conv.group = c[2];
    q.conv.h_in = c[3], q.conv.w_in = c[4], q.conv.k_h = c[5], q.conv.k_w = c[6];
    q.conv.stride_h = q.conv.stride_w = c[7], q.conv.dil_h = q.conv.dil_w = c[8];
    q.conv.pad_top = q.conv.pad_left = c[9];
    q.conv.h_out = (c[3] + 2 * c[9] - c[8] * (c[5] - 1) - 1) / c[7] + 1;
    q.conv.w_out = (c[4] + 2 * c[9] - c[8] * (c[6] - 1) - 1) / c[7] + 1;
    q.conv.d_in = q.conv.d_out = q.conv.k_d = q.conv.stride_d = q.conv.dil_d = 1;
    q.x_signed = ci % 2, q.w_signed = ci != 12, q.y_signed = 1;
    q.x_zp = q.x_signed ? 3 : 128;
    cig = c[0] / c[2];
    for (i = 0; i < c[0] * c[3] * c[4]; i++) g_qa[i] = (uint8_t)rnd_u32();
    for (i = 0; i < c[1] * cig * c[5] * c[6]; i++) g_qb[i] = (uint8_t)rnd_u32();
    for (i = 0; i < c[1]; i++) g_qbias[i] = (int32_t)(rnd_u32() % 2001u) - 1000;
    g_qzp[0] = (uint8_t)(ci % 3);
    memset(&r, 0, sizeof r);
    r.mult = g_qmult, r.per_channel = 1, r.zp = 1, r.lo = -128, r.hi = 127;
    for (co = 0; co < c[1]; co++) {
      for (oy = 0; oy < q.conv.h_out; oy++) {
        for (ox = 0; ox < q.conv.w_out; ox++, at++) {
          uint32_t sum = (uint32_t)g_qbias[co];
          for (ic = 0; ic < cig; ic++) {
            for (kh = 0; kh < c[5]; kh++) {
              for (kw = 0; kw < c[6]; kw++) {
                const int32_t iy = oy * c[7] - c[9] + kh * c[8], ix = ox * c[7] - c[9] + kw * c[8];
                const int32_t in = (co / (c[1] / c[2])) * cig + ic;
                if (iy < 0 || iy >= c[3] || ix < 0 || ix >= c[4]) continue;
                sum += (uint32_t)((oc_q8_get(g_qa, q.x_signed, (in * c[3] + iy) * c[4] + ix) - q.x_zp) *
                                  (oc_q8_get(g_qb, q.w_signed, ((co * cig + ic) * c[5] + kh) * c[6] + kw) -
                                   g_qzp[0]));
              }
            }
          }
          g_qwant[at] = (float)oc_requant8_apply(&r, co, (int32_t)sum);
        }
      }
    }
    oc_qconv(&q, &r, g_qa, g_qb, g_qzp, g_qbias, g_qy);
    for (i = 0; i < at; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
    case_name(name, "qconv 2-D general", c, 10);
    check_case(name, g_qgot, g_qwant, at);
    oc_qconv2d(&q, &r, g_qa, g_qb, g_qzp, g_qbias, g_qy);
    for (i = 0; i < at; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
    case_name(name, "qconv 2-D", c, 10);
    check_case(name, g_qgot, g_qwant, at);
    /* Through a column, the weights' zero points 0 and the input's folded into
     * the bias, against oc_qconv (checked above) with the same weights. */
    {
      const int32_t kk = cig * c[5] * c[6];
      static uint32_t packed_words[QG_MAX / 4]; /* word-aligned like the compiler's tables */
      static uint8_t col[512];
      uint8_t *packed = (uint8_t *)packed_words;
      fold_column_bias(&q, g_qb, c[1], kk, g_qbias, g_qfolded);
      oc_qconv(&q, &r, g_qa, g_qb, NULL, g_qbias, g_qy);
      for (i = 0; i < at; i++) g_qwant[i] = (float)oc_q8_get(g_qy, 1, i);
      memset(g_qy, 0, (size_t)at);
      pack_column_weights(g_qb, c[1], c[2], kk, packed);
      oc_qconv_column(&q, &r, g_qa, packed, g_qfolded, col, g_qy);
      for (i = 0; i < at; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
      case_name(name, "qconv 2-D column", c, 10);
      check_case(name, g_qgot, g_qwant, at);
      pack_taps_by_four(g_qb, c[1], c[2], kk, packed);
      memset(g_qy, 0, (size_t)at);
      oc_qconv2d_packed(&q, &r, g_qa, packed, g_qbias, g_qy);
      for (i = 0; i < at; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
      case_name(name, "qconv 2-D packed", c, 10);
      check_case(name, g_qgot, g_qwant, at);
      if (c[6] == 4 && c[8] == 1) { /* rows of four taps unrolled */
        memset(g_qy, 0, (size_t)at);
        oc_qconv2d_packed4(&q, &r, g_qa, packed, g_qbias, g_qy);
        for (i = 0; i < at; i++) g_qgot[i] = (float)oc_q8_get(g_qy, 1, i);
        case_name(name, "qconv 2-D packed rows of four", c, 10);
        check_case(name, g_qgot, g_qwant, at);
      }
    }
  }
}

/* The 8-bit depthwise 3x3 convolution (lines along rows, along columns,
 * or window by window; padding on every side) against the sums in the
 * documented order. */
static void test_qdw3x3(void) {
  /* channels, h, w, stride_h, stride_w, pad_top, pad_left, pad_bottom, pad_right */
  /* 0, 1 and 10 to 13: short planes at stride 1 padded by one (on SMLAD
   * cores column by column, oc_qdw3x3_plane.h, up to 32 rows: 12 has 33) */
  static const int32_t cases[14][9] = {{2, 25, 5, 1, 1, 1, 1, 1, 1}, {2, 5, 9, 1, 1, 1, 1, 1, 1},
                                       {2, 4, 4, 1, 1, 0, 0, 0, 0}, {3, 7, 3, 1, 2, 2, 1, 0, 2},
                                       {2, 6, 8, 2, 1, 1, 2, 2, 0}, {2, 7, 7, 2, 2, 1, 1, 1, 1},
                                       {1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 3, 20, 1, 1, 2, 2, 2, 2},
                                       {4, 17, 2, 1, 1, 1, 0, 1, 1}, {2, 9, 9, 3, 1, 1, 1, 1, 1},
                                       {3, 1, 3, 1, 1, 1, 1, 1, 1}, {2, 32, 3, 1, 1, 1, 1, 1, 1},
                                       {1, 33, 4, 1, 1, 1, 1, 1, 1}, {3, 6, 7, 1, 1, 1, 1, 1, 1}};
  static const float mult[4] = {0.031f, 0.047f, 0.023f, 0.053f};
  int32_t ci, i;
  char name[96];
  for (ci = 0; ci < 14; ci++) {
    const int32_t *c = cases[ci];
    oc_qconv_params q;
    oc_requant8 r;
    int32_t co, oy, ox, kh, kw, at = 0;
    memset(&q, 0, sizeof q);
    q.conv.n = 1, q.conv.c_in = q.conv.c_out = q.conv.group = c[0];
    q.conv.h_in = c[1], q.conv.w_in = c[2], q.conv.k_h = q.conv.k_w = 3;
    q.conv.stride_h = c[3], q.conv.stride_w = c[4], q.conv.dil_h = q.conv.dil_w = 1;
    q.conv.pad_top = c[5], q.conv.pad_left = c[6];
    q.conv.h_out = (c[1] + c[5] + c[7] - 3) / c[3] + 1;
    q.conv.w_out = (c[2] + c[6] + c[8] - 3) / c[4] + 1;
    q.conv.d_in = q.conv.d_out = q.conv.k_d = q.conv.stride_d = q.conv.dil_d = 1;
    q.x_signed = ci % 2, q.w_signed = ci % 3 != 1, q.y_signed = ci % 4 < 2;
    q.x_zp = q.x_signed ? -7 : 131;
    q.w_zp_per_channel = ci % 2;
    for (i = 0; i < c[0] * c[1] * c[2]; i++) g_qa[i] = (uint8_t)rnd_u32();
    /* Small weights and multipliers near 0.04 keep most outputs off the
     * bounds, so a sum off by one shows in some output. */
    for (i = 0; i < c[0] * 9; i++) g_qb[i] = (uint8_t)(rnd_u32() % 17u - 8u);
    for (i = 0; i < c[0]; i++) g_qzp[i] = (uint8_t)(rnd_u32() % 7u);
    for (i = 0; i < c[0]; i++) g_qbias[i] = (int32_t)(rnd_u32() % 2001u) - 1000;
    memset(&r, 0, sizeof r);
    r.mult = mult, r.per_channel = 1, r.zp = q.y_signed ? 3 : 120;
    r.lo = q.y_signed ? -128 : 0, r.hi = q.y_signed ? 127 : 255;
    if (ci >= 5 && ci != 10 && ci != 11) { /* fixed mode, a Relu's bounds */
      static int32_t q_mult[4], q_shift[4];
      for (i = 0; i < 4; i++) q_mult[i] = (int32_t)(0x40000000u + rnd_u32() % 0x3FFFFFFFu), q_shift[i] = -6 + i;
      r.mult = NULL, r.q_mult = q_mult, r.q_shift = q_shift, r.lo = r.zp;
    }
    for (co = 0; co < c[0]; co++) {
      const int32_t zw = oc_q8_get(g_qzp, q.w_signed, q.w_zp_per_channel ? co : 0);
      for (oy = 0; oy < q.conv.h_out; oy++) {
        for (ox = 0; ox < q.conv.w_out; ox++, at++) {
          uint32_t sum = (uint32_t)g_qbias[co];
          for (kh = 0; kh < 3; kh++) {
            for (kw = 0; kw < 3; kw++) {
              const int32_t iy = oy * c[3] - c[5] + kh, ix = ox * c[4] - c[6] + kw;
              if (iy < 0 || iy >= c[1] || ix < 0 || ix >= c[2]) continue;
              sum += (uint32_t)((oc_q8_get(g_qa, q.x_signed, (co * c[1] + iy) * c[2] + ix) - q.x_zp) *
                                (oc_q8_get(g_qb, q.w_signed, co * 9 + kh * 3 + kw) - zw));
            }
          }
          g_qwant[at] = (float)oc_requant8_apply(&r, co, (int32_t)sum);
        }
      }
    }
    memset(g_qy, 0, (size_t)at);
    oc_qconv_dw3x3(&q, &r, g_qa, g_qb, g_qzp, g_qbias, g_qy);
    for (i = 0; i < at; i++) g_qgot[i] = (float)oc_q8_get(g_qy, q.y_signed, i);
    case_name(name, "qconv depthwise 3x3", c, 9);
    check_case(name, g_qgot, g_qwant, at);
  }
}

/* Quantized Add in float mode (oc_qbinary) against the ONNX definition:
 * both inputs dequantized in float32, added, divided by the output scale,
 * rounded half to even, plus the zero point, saturated; every pair of input
 * types, the whole output range and a Relu's. */
static void test_qadd(void) {
  static const float scales[4][3] = {{0.05f, 0.07f, 0.09f}, {0.013f, 0.2f, 0.031f},
                                     {0.5f, 0.25f, 0.011f}, {0.003f, 0.004f, 0.5f}};
  int32_t ci, i;
  char name[96];
  for (ci = 0; ci < 8; ci++) {
    oc_qbinary_params q;
    oc_requant8 r;
    const int32_t count = 37 + 50 * (ci % 4);
    float one = 1.0f;
    memset(&q, 0, sizeof q);
    q.count = count, q.a_signed = ci & 1, q.b_signed = (ci >> 1) & 1, q.y_signed = ci % 3 != 0;
    q.a_zp = q.a_signed ? -5 : 130, q.b_zp = q.b_signed ? 9 : 121;
    q.a_scale = scales[ci % 4][0], q.b_scale = scales[ci % 4][1], q.y_scale = scales[ci % 4][2];
    memset(&r, 0, sizeof r);
    r.mult = &one, r.zp = q.y_signed ? -3 : 128;
    r.lo = q.y_signed ? -128 : 0, r.hi = q.y_signed ? 127 : 255;
    if (ci >= 4) r.lo = r.zp; /* a fused Relu */
    for (i = 0; i < count; i++) g_qa[i] = (uint8_t)rnd_u32(), g_qb[i] = (uint8_t)rnd_u32();
    for (i = 0; i < count; i++) {
      const float va = (float)(oc_q8_get(g_qa, q.a_signed, i) - q.a_zp) * q.a_scale;
      const float vb = (float)(oc_q8_get(g_qb, q.b_signed, i) - q.b_zp) * q.b_scale;
      float f = oc_roundf_even((va + vb) / q.y_scale) + (float)r.zp;
      f = f < (float)r.lo ? (float)r.lo : (f > (float)r.hi ? (float)r.hi : f);
      g_qwant[i] = f;
    }
    memset(g_qy, 0, (size_t)count);
    oc_qbinary(&q, &r, g_qa, g_qb, g_qy);
    for (i = 0; i < count; i++) g_qgot[i] = (float)oc_q8_get(g_qy, q.y_signed, i);
    {
      const int32_t nums[4] = {count, q.a_signed, q.b_signed, q.y_signed};
      case_name(name, "qadd float", nums, 4);
    }
    check_case(name, g_qgot, g_qwant, count);
  }
}

/* ------------------------------------------- channels-last convolution */

#define NHWC_MAX 8192
static float g_nx[NHWC_MAX], g_nxt[NHWC_MAX], g_nw[NHWC_MAX], g_nwt[NHWC_MAX], g_nb[64],
    g_ny[NHWC_MAX + 8], g_nyt[NHWC_MAX], g_nr[NHWC_MAX];

/* NCHW <-> NHWC of n items of c channels and `plane` pixels: to_nhwc
 * reads NCHW src, else NHWC src. */
static void nhwc_transpose(const float *src, float *dst, int32_t n, int32_t c, int32_t plane,
                           int to_nhwc) {
  int32_t i, ch, px;
  for (i = 0; i < n; i++) {
    for (ch = 0; ch < c; ch++) {
      for (px = 0; px < plane; px++) {
        const int32_t nchw = (i * c + ch) * plane + px, nhwc = (i * plane + px) * c + ch;
        if (to_nhwc) {
          dst[nhwc] = src[nchw];
        } else {
          dst[nchw] = src[nhwc];
        }
      }
    }
  }
}

/* OIHW weights to per-group HWIO: wt[(((g k_h + kh) k_w + kw) cig + ic) cog + c]
 * = w[(((g cog + c) cig + ic) k_h + kh) k_w + kw] */
static void nhwc_weights(const oc_conv2d_params *p, const float *w, float *wt) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  int32_t g, c, ic, kh, kw;
  for (g = 0; g < p->group; g++) {
    for (c = 0; c < cog; c++) {
      for (ic = 0; ic < cig; ic++) {
        for (kh = 0; kh < p->k_h; kh++) {
          for (kw = 0; kw < p->k_w; kw++) {
            wt[(((g * p->k_h + kh) * p->k_w + kw) * cig + ic) * cog + c] =
                w[(((g * cog + c) * cig + ic) * p->k_h + kh) * p->k_w + kw];
          }
        }
      }
    }
  }
}

static const oc_act kNhwcActs[6] = {
    {OC_ACT_NONE, 0.0f, 0.0f},         {OC_ACT_RELU, 0.0f, 0.0f},
    {OC_ACT_CLIP, -0.5f, 0.75f},       {OC_ACT_LEAKY_RELU, 0.125f, 0.0f},
    {OC_ACT_HARD_SIGMOID, 0.2f, 0.5f}, {OC_ACT_HARD_SWISH, 0.0f, 0.0f},
};

/* oc_conv2d_nhwc_f32 against oc_conv2d_f32 (NCHW, OIHW) with the same data,
 * bit for bit but for NaN payloads (which NaN a NaN + NaN keeps depends on
 * the operand order the compiler picks: oc_conv2d_f32's own NaNs differ
 * between its vector and scalar builds), for each of the four layouts:
 * kernels 1x1, 3x3, 5x5, 3x1, strides 1 and 2, begin pads 0..2 with various
 * end pads (rows and columns wholly in the padding included), dilations 1
 * and 2, one group, two, and depthwise, channel counts off the vector
 * blocks, two batch items, a -0.0 bias. The output buffer starts as garbage
 * and has a guard past its end. */
static void test_conv_nhwc(void) {
  static const int32_t kernels[4][2] = {{1, 1}, {3, 3}, {5, 5}, {3, 1}};
  static const int32_t couts1[4] = {5, 13, 17, 20}, cogs2[3] = {5, 9, 13}, dws[3] = {5, 13, 17};
  int32_t ki, si, pi, di, gt, lay, i, at = 0;
  char name[96];
  for (ki = 0; ki < 4; ki++) {
    for (si = 1; si <= 2; si++) {
      for (pi = 0; pi <= 2; pi++) {
        for (di = 1; di <= 2; di++) {
          for (gt = 0; gt < 3; gt++, at++) {
            oc_conv2d_params p;
            const int32_t end = (pi + si + di + ki) % 3;
            const int with_bias = at % 3 != 0;
            int32_t nx, ny, nw;
            memset(&p, 0, sizeof p);
            p.n = 2;
            p.k_h = kernels[ki][0], p.k_w = kernels[ki][1];
            p.stride_h = p.stride_w = si;
            p.dil_h = p.dil_w = di;
            p.pad_top = p.pad_left = pi;
            p.h_in = (p.k_h - 1) * di + 3;
            p.w_in = (p.k_w - 1) * di + 7;
            p.h_out = (p.h_in + pi + end - (p.k_h - 1) * di - 1) / si + 1;
            p.w_out = (p.w_in + pi + end - (p.k_w - 1) * di - 1) / si + 1;
            if (gt == 0) {
              p.group = 1, p.c_in = 2 + at % 2, p.c_out = couts1[at % 4];
            } else if (gt == 1) {
              p.group = 2, p.c_in = 2 * (2 + at % 2), p.c_out = 2 * cogs2[at % 3];
            } else {
              p.group = p.c_in = p.c_out = dws[at % 3];
            }
            p.act = kNhwcActs[at % 6];
            p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
            nx = p.n * p.c_in * p.h_in * p.w_in;
            ny = p.n * p.c_out * p.h_out * p.w_out;
            nw = p.c_out * (p.c_in / p.group) * p.k_h * p.k_w;
            if (nx > NHWC_MAX || ny > NHWC_MAX || nw > NHWC_MAX || p.c_out > 64) {
              say("FAIL: conv nhwc buffers too small\n");
              g_fail++;
              continue;
            }
            fill(g_nx, nx, at % 2);
            fill(g_nw, nw, at % 4 < 2);
            fill(g_nb, p.c_out, at % 5 == 0);
            if (with_bias) g_nb[0] = from_bits(0x80000000u); /* -0.0 */
            oc_conv2d_f32(&p, g_nx, g_nw, with_bias ? g_nb : NULL, g_nr);
            nhwc_weights(&p, g_nw, g_nwt);
            nhwc_transpose(g_nx, g_nxt, p.n, p.c_in, p.h_in * p.w_in, 1);
            for (lay = 0; lay < 4; lay++) {
              const int32_t x_nhwc = lay & 1, y_nhwc = lay >> 1;
              const int32_t shape[12] = {x_nhwc, y_nhwc, p.c_in, p.c_out, p.group, p.h_in, p.w_in,
                                         p.k_h, p.k_w, si, di, pi * 10 + end};
              fill(g_ny, ny, 1);
              for (i = 0; i < 8; i++) g_ny[ny + i] = from_bits(0x7fa5a5a5u);
              oc_conv2d_nhwc_f32(&p, x_nhwc ? g_nxt : g_nx, g_nwt, with_bias ? g_nb : NULL, g_ny,
                                 x_nhwc, y_nhwc);
              case_name(name, "conv nhwc", shape, 12);
              for (i = 0; i < 8; i++) {
                if (bits_of(g_ny[ny + i]) != 0x7fa5a5a5u) break;
              }
              if (i < 8) {
                fail_wrote_past(name, "output");
                continue;
              }
              if (y_nhwc) {
                nhwc_transpose(g_ny, g_nyt, p.n, p.c_out, p.h_out * p.w_out, 0);
              } else {
                memcpy(g_nyt, g_ny, (size_t)ny * sizeof(float));
              }
              check_case(name, g_nyt, g_nr, ny);
            }
          }
        }
      }
    }
  }
}

/* NHWC in and out over one buffer, y starting pad_top + 1 rows before x (a
 * row is w * c floats on both sides): the streaming order lets each output
 * row overwrite an input row that no later output row reads. */
static void test_conv_nhwc_overlap(void) {
  /* k_h, k_w, dilation, channels, depthwise */
  static const int32_t cases[6][5] = {{3, 3, 1, 13, 0}, {5, 5, 1, 6, 0}, {1, 1, 1, 9, 0},
                                      {3, 1, 1, 13, 1}, {3, 3, 2, 5, 0}, {3, 3, 1, 17, 1}};
  int32_t ci;
  char name[96];
  for (ci = 0; ci < 6; ci++) {
    const int32_t *c = cases[ci];
    oc_conv2d_params p;
    int32_t plane, nx, row;
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.c_in = p.c_out = c[3];
    p.group = c[4] ? c[3] : 1;
    p.k_h = c[0], p.k_w = c[1];
    p.stride_h = p.stride_w = 1;
    p.dil_h = p.dil_w = c[2];
    p.pad_top = (p.k_h - 1) * c[2] / 2, p.pad_left = (p.k_w - 1) * c[2] / 2;
    p.h_in = p.h_out = 6, p.w_in = p.w_out = 9;
    p.act = kNhwcActs[ci % 3];
    p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
    plane = p.h_in * p.w_in;
    nx = p.n * p.c_in * plane;
    row = p.w_in * p.c_in;
    fill(g_nx, nx, ci % 2);
    fill(g_nw, p.c_out * (p.c_in / p.group) * p.k_h * p.k_w, 0);
    fill(g_nb, p.c_out, 0);
    oc_conv2d_f32(&p, g_nx, g_nw, g_nb, g_nr);
    nhwc_weights(&p, g_nw, g_nwt);
    nhwc_transpose(g_nx, g_ny + (p.pad_top + 1) * row, p.n, p.c_in, plane, 1);
    oc_conv2d_nhwc_f32(&p, g_ny + (p.pad_top + 1) * row, g_nwt, g_nb, g_ny, 1, 1);
    nhwc_transpose(g_ny, g_nyt, p.n, p.c_out, plane, 0);
    case_name(name, "conv nhwc overlap", c, 5);
    check_case(name, g_nyt, g_nr, nx);
  }
}

/* 1x1 kernels (on M4F/M7 the pointwise tiles of oc_conv_nhwc_arm.h, each
 * input and output layout) against oc_conv2d_f32 as test_conv_nhwc: input
 * channels per group 1..17 (multiples of 4 and not: the loop over 4 input
 * channels and the last cig % 4 one at a time), output channels per group
 * in blocks of 8, 4 and the rest, rows of 1..7 pixels (2-pixel tiles and a
 * last single one), strides 1 and 2, a begin pad of 0 or 1 (columns and
 * rows wholly in the padding), one group or two, each layout and
 * activation. */
static void test_conv_nhwc_pointwise(void) {
  static const int32_t cigs[11] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17};
  static const int32_t cogs[9] = {4, 8, 12, 13, 16, 20, 24, 3, 7};
  static const int32_t widths[6] = {1, 2, 3, 5, 6, 7};
  int32_t at, lay, i;
  char name[96];
  for (at = 0; at < 66; at++) {
    oc_conv2d_params p;
    const int32_t pad = at % 5 == 4, end = (at / 3) % 2;
    const int with_bias = at % 3 != 1;
    int32_t nx, ny, nw;
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.k_h = p.k_w = 1;
    p.stride_h = p.stride_w = 1 + (at / 2) % 2;
    p.dil_h = p.dil_w = 1;
    p.pad_top = p.pad_left = pad;
    p.group = 1 + (at / 11) % 2;
    p.c_in = p.group * cigs[at % 11];
    p.c_out = p.group * cogs[at % 9];
    p.h_in = 2 + at % 2;
    p.w_in = widths[at % 6];
    p.h_out = (p.h_in + pad + end - 1) / p.stride_h + 1;
    p.w_out = (p.w_in + pad + end - 1) / p.stride_w + 1;
    p.act = kNhwcActs[(at / 6) % 6];
    p.d_in = p.d_out = p.k_d = p.stride_d = p.dil_d = 1;
    nx = p.n * p.c_in * p.h_in * p.w_in;
    ny = p.n * p.c_out * p.h_out * p.w_out;
    nw = p.c_out * (p.c_in / p.group);
    if (nx > NHWC_MAX || ny > NHWC_MAX || nw > NHWC_MAX || p.c_out > 64) {
      say("FAIL: conv nhwc pointwise buffers too small\n");
      g_fail++;
      continue;
    }
    fill(g_nx, nx, at % 2);
    fill(g_nw, nw, at % 4 < 2);
    fill(g_nb, p.c_out, at % 5 == 0);
    if (with_bias) g_nb[0] = from_bits(0x80000000u); /* -0.0 */
    oc_conv2d_f32(&p, g_nx, g_nw, with_bias ? g_nb : NULL, g_nr);
    nhwc_weights(&p, g_nw, g_nwt);
    nhwc_transpose(g_nx, g_nxt, p.n, p.c_in, p.h_in * p.w_in, 1);
    for (lay = 0; lay < 4; lay++) {
      const int32_t x_nhwc = lay & 1, y_nhwc = lay >> 1;
      const int32_t shape[10] = {x_nhwc, y_nhwc, p.c_in, p.c_out, p.group, p.h_in, p.w_in,
                                 p.stride_w, pad * 10 + end, p.act.kind};
      fill(g_ny, ny, 1);
      for (i = 0; i < 8; i++) g_ny[ny + i] = from_bits(0x7fa5a5a5u);
      oc_conv2d_nhwc_f32(&p, x_nhwc ? g_nxt : g_nx, g_nwt, with_bias ? g_nb : NULL, g_ny, x_nhwc,
                         y_nhwc);
      case_name(name, "conv nhwc pointwise", shape, 10);
      for (i = 0; i < 8; i++) {
        if (bits_of(g_ny[ny + i]) != 0x7fa5a5a5u) break;
      }
      if (i < 8) {
        fail_wrote_past(name, "output");
        continue;
      }
      if (y_nhwc) {
        nhwc_transpose(g_ny, g_nyt, p.n, p.c_out, p.h_out * p.w_out, 0);
      } else {
        memcpy(g_nyt, g_ny, (size_t)ny * sizeof(float));
      }
      check_case(name, g_nyt, g_nr, ny);
    }
  }
}

/* ------------------------------------- 8-bit channels-last convolution */

#define QN_X_MAX 2048
#define QN_Y_MAX 2048
#define QN_W_MAX 2048
/* word-aligned storage; the kernels get pointers 0..3 bytes past a word */
static uint32_t g_qn_xw[QN_X_MAX / 4 + 1], g_qn_xlw[QN_X_MAX / 4 + 1], g_qn_wlw[QN_W_MAX / 4 + 1];
static uint8_t g_qn_w[QN_W_MAX], g_qn_want[QN_Y_MAX], g_qn_y[QN_Y_MAX + 8], g_qn_yt[QN_Y_MAX];
static uint8_t g_qn_wzp[64];
static int32_t g_qn_bias[64], g_qn_qmult[64], g_qn_qshift[64];
static float g_qn_mult[64], g_qn_got_f[QN_Y_MAX], g_qn_want_f[QN_Y_MAX];
/* oc_qconv2d_nhwc_col's scratch (4 K + k_w c_in bytes, K <= QN_W_MAX) and a guard past it */
#define QN_COL_MAX (5 * QN_W_MAX + 16)
static uint32_t g_qn_colw[QN_COL_MAX / 4];

/* NCHW <-> NHWC copies of an (n, c, plane) tensor of bytes: to_nhwc reads
 * NCHW src, else NHWC src. */
static void q8_relayout(const uint8_t *src, uint8_t *dst, int32_t n, int32_t c, int32_t plane, int to_nhwc) {
  int32_t b, ch, px;
  for (b = 0; b < n; b++) {
    for (ch = 0; ch < c; ch++) {
      for (px = 0; px < plane; px++) {
        const int32_t nchw = (b * c + ch) * plane + px, nhwc = (b * plane + px) * c + ch;
        if (to_nhwc) {
          dst[nhwc] = src[nchw];
        } else {
          dst[nchw] = src[nhwc];
        }
      }
    }
  }
}

/* OIHW -> OHWI: per output channel [kh][kw][ic within the group]. */
static void q8_to_ohwi(const uint8_t *w, uint8_t *o, int32_t c_out, int32_t cig, int32_t k_h, int32_t k_w) {
  int32_t co, ic, a, b;
  for (co = 0; co < c_out; co++) {
    for (ic = 0; ic < cig; ic++) {
      for (a = 0; a < k_h; a++) {
        for (b = 0; b < k_w; b++) {
          o[((co * k_h + a) * k_w + b) * cig + ic] = w[((co * cig + ic) * k_h + a) * k_w + b];
        }
      }
    }
  }
}

static int32_t rnd_in(int32_t lo, int32_t hi) { return lo + (int32_t)(rnd_u32() % (uint32_t)(hi - lo + 1)); }

/* A multiplier of about 40 over a sum of kk products's size (its mean, kk
 * times the means' product mx mw, and its spread, sqrt(kk) times the
 * values' sizes, xx and ww their mean squares), times 0.75 .. 1.1875: most
 * outputs off the bounds, so a sum off by one product shows in some
 * output. */
static float sum_mult(int32_t kk, float mx, float xx, float mw, float ww) {
  return 40.0f / (sqrtf((float)kk * xx * ww) + (float)kk * fabsf(mx * mw) + 1.0f) *
         (0.75f + (float)(rnd_u32() % 8u) * 0.0625f);
}

/* The mean and mean square of n 8-bit values less zp. */
static void q8_moments(const uint8_t *v, int32_t is_signed, int32_t zp, int32_t n, float *mean, float *sq) {
  int32_t s = 0, ss = 0, i;
  for (i = 0; i < n; i++) {
    const int32_t d = oc_q8_get(v, is_signed, i) - zp;
    s += d, ss += d * d;
  }
  *mean = (float)s / (float)n, *sq = (float)ss / (float)n;
}

/* Channel co's requantization for the multiplier m: g_qn_mult (float), its
 * Q31 form and shift (fixed point), and a bias within 20 / m, or any int32
 * (the sums wrap around) now and then. */
static void channel_requant(int32_t co, float m) {
  int32_t shift = 0;
  g_qn_mult[co] = m;
  g_qn_bias[co] = rnd_u32() % 16u == 0u ? (int32_t)rnd_u32() : (int32_t)((float)rnd_in(-1000, 1000) * 0.02f / m);
  while (m < 0.5f) m *= 2.0f, shift--;
  while (m >= 1.0f) m *= 0.5f, shift++;
  g_qn_qmult[co] = (int32_t)(m * 2147483648.0f), g_qn_qshift[co] = shift;
}

/* The requantization of g_qn_mult (fixed: g_qn_qmult and g_qn_qshift), per
 * channel or the first for all, onto y's type's range about a zero point
 * drawn near its middle, or from that zero point up (a fused Relu). */
static void qn_requant(oc_requant8 *r, int32_t per_channel, int32_t fixed, int32_t y_signed, int32_t relu) {
  memset(r, 0, sizeof *r);
  r->per_channel = per_channel;
  if (fixed) {
    r->q_mult = g_qn_qmult, r->q_shift = g_qn_qshift;
  } else {
    r->mult = g_qn_mult;
  }
  r->zp = y_signed ? rnd_in(-20, 20) : rnd_in(108, 148);
  r->lo = y_signed ? -128 : 0, r->hi = y_signed ? 127 : 255;
  if (relu) r->lo = r->zp;
}

/* A convolution's output in g_qn_y (y_last: NHWC) against g_qn_want_f
 * (NCHW), after its guard (8 bytes of 0xa5) and the scratch's (16 bytes of
 * 0x5a past col_bytes) are found intact. */
static void check_qconv_out(const char *name, const oc_qconv_params *q, int32_t y_last, const uint8_t *col,
                            int32_t col_bytes) {
  const oc_conv2d_params *p = &q->conv;
  const int32_t ny = p->n * p->c_out * p->h_out * p->w_out;
  int32_t i, j;
  for (i = 0; i < 8; i++) {
    if (g_qn_y[ny + i] != 0xa5u) break;
  }
  for (j = 0; j < 16 && i == 8; j++) {
    if (col[col_bytes + j] != 0x5au) i = 0;
  }
  if (i < 8) {
    fail_wrote_past(name, "output or scratch");
    return;
  }
  if (y_last) {
    q8_relayout(g_qn_y, g_qn_yt, p->n, p->c_out, p->h_out * p->w_out, 0);
  } else {
    memcpy(g_qn_yt, g_qn_y, (size_t)ny);
  }
  for (i = 0; i < ny; i++) g_qn_got_f[i] = (float)oc_q8_get(g_qn_yt, q->y_signed, i);
  check_case(name, g_qn_got_f, g_qn_want_f, ny);
}

/* oc_qconv2d_nhwc (OHWI weights; on M4/M7 SMLAD over runs of input
 * channels contiguous in x and w) against oc_qconv2d (NCHW, OIHW) with the
 * same data, byte for byte, each case in the four (x_last, y_last) layouts
 * and both row orders: one group with 1..9 input channels (odd and even,
 * so runs with tails of 1..3 and runs under four), 3-channel first layers,
 * 16 and 24 channels (long runs), depthwise, grouped (with 1..9 channels
 * per group); blocks of 1..4 output channels; strides 1..2 and dilations
 * 1..2 per axis (dilation 2 along the width: one run per tap); random
 * kernels 1..5, sizes and pads 0..2 per side (windows clipped or wholly in
 * the padding); one or two items; each pair of x and w types; the weights'
 * zero points none, one 0, one, per channel with zeros, per channel; bias
 * or none; float and fixed-point requantization, per tensor or per
 * channel, a Relu's bounds sometimes; x and w 0..3 bytes past a word. Then
 * the dense rows (on M4/M7 in assembler): one group, 4..16 output channels
 * (short last blocks), kernel rows of every length mod 8 (tails of 0..3
 * bytes, runs under four), the weights' zero points 0, x_zp -128 or 128
 * (the middle of x's range: x ^ 0x80) or not; then depthwise 3x3 kernels with
 * the weights' zero points 0 (on M4/M7 the windows inside the input by
 * SMLABB/SMLATT, with float requantization onto the type's range as one span
 * in assembler), channels not a multiple of four among them, widths up to 16;
 * then 3x3 kernels of one group with 3 to 33 input channels (on M4/M7 column
 * products up to 288 values a window). The output buffer starts as garbage
 * and has a guard past its end. */
static void test_qconv_nhwc(void) {
  /* group (0: depthwise, cig channels), cig, cog, stride, dilation */
  static const int32_t kinds[93][5] = {
      {1, 1, 4, 1, 1},  {1, 2, 5, 1, 1},  {1, 3, 3, 1, 1},  {1, 4, 8, 1, 1},  {1, 5, 2, 1, 1},
      {1, 6, 7, 1, 1},  {1, 7, 4, 1, 1},  {1, 8, 6, 1, 1},  {1, 9, 9, 1, 1},  {1, 1, 3, 2, 2},
      {1, 2, 4, 2, 1},  {1, 3, 5, 1, 2},  {1, 4, 2, 2, 1},  {1, 5, 6, 1, 2},  {1, 6, 1, 2, 1},
      {1, 7, 8, 1, 2},  {1, 8, 3, 2, 2},  {1, 9, 5, 2, 1},  {1, 3, 8, 2, 1},  {1, 3, 16, 2, 1},
      {1, 3, 4, 1, 1},  {1, 16, 12, 1, 1}, {1, 24, 5, 2, 1}, {0, 1, 1, 1, 1},  {0, 3, 1, 1, 1},
      {0, 4, 1, 2, 1},  {0, 5, 1, 1, 2},  {0, 8, 1, 1, 1},  {0, 9, 1, 2, 2},  {0, 12, 1, 1, 1},
      {0, 16, 1, 2, 1}, {2, 4, 3, 1, 1},  {2, 5, 4, 2, 1},  {3, 8, 2, 1, 2},  {2, 9, 5, 1, 1},
      {4, 2, 3, 1, 1},  {2, 6, 6, 2, 2},  {3, 7, 4, 1, 1},  {2, 1, 4, 1, 1},  {2, 3, 2, 2, 1},
      {3, 4, 5, 1, 1},
      /* dense rows (one group, four channels to a block): kernel rows of 3 * cig bytes in
       * steps of four, paired or not, with tails of 0..3, or tails alone */
      {1, 3, 16, 1, 1}, {1, 4, 7, 1, 1},  {1, 6, 5, 2, 1},  {1, 16, 8, 1, 1}, {1, 2, 6, 1, 1},
      {1, 1, 5, 1, 1},  {1, 5, 4, 2, 1},  {1, 3, 16, 1, 1}, {1, 4, 7, 1, 1},  {1, 6, 5, 2, 1},
      {1, 16, 8, 1, 1}, {1, 2, 6, 1, 1},  {1, 1, 5, 1, 1},  {1, 5, 4, 2, 1},  {1, 8, 13, 1, 1},
      /* depthwise 3x3 (on M4/M7 the windows inside by SMLABB/SMLATT), fixed-point then float
       * requantization */
      {0, 8, 1, 1, 1},  {0, 16, 1, 2, 1}, {0, 12, 1, 1, 1}, {0, 4, 1, 2, 1},  {0, 8, 1, 2, 1},
      {0, 16, 1, 1, 1}, {0, 4, 1, 1, 1},  {0, 12, 1, 2, 1}, {0, 8, 1, 1, 1},  {0, 16, 1, 2, 1},
      {0, 12, 1, 1, 1}, {0, 4, 1, 1, 1},  {0, 8, 1, 1, 1},  {0, 16, 1, 2, 1}, {0, 12, 1, 1, 1},
      {0, 4, 1, 2, 1},
      /* depthwise 3x3 with channels not a multiple of four (a short last block), wider
       * spans of windows inside, fixed-point then float requantization */
      {0, 6, 1, 1, 1},  {0, 10, 1, 2, 1}, {0, 20, 1, 1, 1}, {0, 7, 1, 1, 1},  {0, 8, 1, 1, 1},
      {0, 16, 1, 2, 1}, {0, 5, 1, 1, 1},  {0, 12, 1, 1, 1}, {0, 6, 1, 1, 1},  {0, 10, 1, 2, 1},
      {0, 20, 1, 1, 1}, {0, 7, 1, 1, 1},  {0, 8, 1, 1, 1},  {0, 16, 1, 2, 1}, {0, 5, 1, 1, 1},
      {0, 12, 1, 1, 1},
      /* 3x3 columns of one group (on M4/M7 oc_qnhwc_col.h where k_w c_in is a multiple of 4):
       * 16 channels (K 144), 32 (K 288, the most the columns take) strided, 4 (K 36); odd
       * output channel counts; a 3-channel stem and 33 channels (K 297) keep the other paths */
      {1, 16, 13, 1, 1}, {1, 32, 7, 2, 1}, {1, 4, 7, 2, 1}, {1, 3, 7, 2, 1}, {1, 33, 2, 1, 1}};
  int32_t ci, i;
  char name[160];
  for (ci = 0; ci < 93; ci++) {
    const int32_t *kd = kinds[ci];
    const int32_t group = kd[0] == 0 ? kd[1] : kd[0], cig = kd[0] == 0 ? 1 : kd[1];
    const int32_t cog = kd[2], c_in = group * cig, c_out = group * cog;
    /* 0 none, 1 one 0, 2 one, 3 per channel with zeros, 4 per channel (dense: 0 or 1) */
    const int32_t zp_kind = ci >= 41 ? ci % 2 : ci % 5;
    const int with_bias = ci % 3 != 2;
    const int32_t x_off = ci % 4, w_off = (ci / 2) % 4;
    uint8_t *const x = (uint8_t *)g_qn_xw + x_off, *const xl = (uint8_t *)g_qn_xlw + x_off;
    uint8_t *const wl = (uint8_t *)g_qn_wlw + w_off;
    oc_qconv_params q;
    oc_conv2d_params *p = &q.conv;
    oc_requant8 r;
    int32_t nx, ny, nw, kk, lay, pb, pr;
    float mx, xx;
    memset(&q, 0, sizeof q);
    p->group = group, p->c_in = c_in, p->c_out = c_out;
    p->stride_h = kd[3], p->stride_w = rnd_u32() % 3u == 0u ? 3 - kd[3] : kd[3];
    p->dil_h = kd[4], p->dil_w = rnd_u32() % 3u == 0u ? 3 - kd[4] : kd[4];
    p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
    for (;;) { /* sizes drawn until the output is not empty and the buffers hold them */
      p->n = rnd_in(1, 2);
      p->k_h = rnd_in(1, p->dil_h == 2 ? 3 : 5), p->k_w = rnd_in(1, p->dil_w == 2 ? 3 : 5);
      if (ci >= 56) p->k_h = p->k_w = 3;
      p->h_in = rnd_in(1, 9), p->w_in = rnd_in(1, ci >= 72 ? 16 : 9);
      p->pad_top = rnd_in(0, 2), p->pad_left = rnd_in(0, 2), pb = rnd_in(0, 2), pr = rnd_in(0, 2);
      if (p->h_in + p->pad_top + pb < (p->k_h - 1) * p->dil_h + 1) continue;
      if (p->w_in + p->pad_left + pr < (p->k_w - 1) * p->dil_w + 1) continue;
      p->h_out = (p->h_in + p->pad_top + pb - (p->k_h - 1) * p->dil_h - 1) / p->stride_h + 1;
      p->w_out = (p->w_in + p->pad_left + pr - (p->k_w - 1) * p->dil_w - 1) / p->stride_w + 1;
      nx = p->n * c_in * p->h_in * p->w_in;
      ny = p->n * c_out * p->h_out * p->w_out;
      nw = c_out * cig * p->k_h * p->k_w;
      if (nx <= QN_X_MAX && ny <= QN_Y_MAX && nw <= QN_W_MAX) break;
    }
    q.x_signed = ci & 1, q.w_signed = (ci >> 1) & 1, q.y_signed = (int32_t)(rnd_u32() & 1u);
    if (ci >= 41 && (ci / 2) % 2 == 0) { /* the middle of the range (dense: x ^ 0x80) */
      q.x_zp = q.x_signed ? -128 : 128;
    } else if (ci % 9 == 4) { /* the zero point at an end of the range */
      q.x_zp = q.x_signed ? (ci % 2 ? -128 : 127) : (ci % 2 ? 0 : 255);
    } else {
      q.x_zp = q.x_signed ? rnd_in(-40, 40) : rnd_in(88, 168);
    }
    q.w_zp_per_channel = zp_kind >= 3;
    for (i = 0; i < nx; i++) x[i] = (uint8_t)rnd_u32();
    for (i = 0; i < nw; i++) g_qn_w[i] = (uint8_t)rnd_u32();
    kk = cig * p->k_h * p->k_w;
    q8_moments(x, q.x_signed, q.x_zp, nx, &mx, &xx);
    for (i = 0; i < c_out; i++) {
      const uint32_t z = rnd_u32();
      g_qn_wzp[i] = (uint8_t)(zp_kind == 1 || (zp_kind == 3 && (z & 1u)) ? 0u : (z >> 8));
    }
    /* Multipliers of about 40 over a sum's size (its mean, kk times the
     * means' product, and its spread, sqrt(kk) times the values' sizes)
     * keep most outputs off the bounds, so a sum off by one product shows
     * in some output; biases within 20 / multiplier, or any int32 (the
     * sums wrap around) now and then. */
    for (i = 0; i < c_out; i++) {
      const int32_t zw = zp_kind == 0 ? 0 : oc_q8_get(g_qn_wzp, q.w_signed, q.w_zp_per_channel ? i : 0);
      float mw, ww;
      q8_moments(g_qn_w + i * kk, q.w_signed, zw, kk, &mw, &ww);
      channel_requant(i, sum_mult(kk, mx, xx, mw, ww));
    }
    qn_requant(&r, (ci >> 2) & 1, (ci >> 3) & 1, q.y_signed, ci % 7 == 3);
    q8_relayout(x, xl, p->n, c_in, p->h_in * p->w_in, 1);
    q8_to_ohwi(g_qn_w, wl, c_out, cig, p->k_h, p->k_w);
    oc_qconv2d(&q, &r, x, g_qn_w, zp_kind == 0 ? NULL : g_qn_wzp, with_bias ? g_qn_bias : NULL, g_qn_want);
    for (i = 0; i < ny; i++) g_qn_want_f[i] = (float)oc_q8_get(g_qn_want, q.y_signed, i);
    for (lay = 0; lay < 8; lay++) {
      const int32_t x_last = lay & 1, y_last = (lay >> 1) & 1;
      /* the column products (x NHWC, the weights' zero points none or 0, one group, a kernel
       * larger than 1x1 of kernel rows of whole groups of four; the column cases: all but
       * one such layout; else every other) */
      const int32_t use_col = x_last && zp_kind <= 1 && group == 1 && p->k_h * p->k_w > 1 &&
                              p->k_w * c_in % 4 == 0 && (ci >= 88 ? lay != 7 : (ci + (lay >> 1)) % 2 == 0);
      /* the pads as one number (top, left, bottom, right), the types, zero
       * points and bias as another, then x_last, y_last, reverse_rows */
      const int32_t shape[14] = {ci, p->n, group, cig, cog, p->h_in, p->w_in, p->k_h, p->k_w,
                                 p->stride_h * 10 + p->stride_w,
                                 p->dil_h * 10 + p->dil_w,
                                 ((p->pad_top * 10 + p->pad_left) * 10 + pb) * 10 + pr,
                                 ((q.x_signed * 10 + q.w_signed) * 10 + zp_kind) * 10 + with_bias,
                                 ((x_last * 10 + y_last) * 10 + (lay >> 2)) * 10 + use_col};
      /* the scratch: garbage, then a guard of 16 bytes */
      const int32_t col_bytes = 4 * kk + p->k_w * c_in;
      uint8_t *const col = (uint8_t *)g_qn_colw;
      p->reverse_rows = lay >> 2;
      memset(g_qn_y, 0xa5, (size_t)ny + 8u);
      memset(col, 0x5a, (size_t)col_bytes + 16u);
      if (use_col) {
        oc_qconv2d_nhwc_col(&q, &r, xl, wl, with_bias ? g_qn_bias : NULL, g_qn_y, y_last, col);
      } else {
        oc_qconv2d_nhwc(&q, &r, x_last ? xl : x, wl, zp_kind == 0 ? NULL : g_qn_wzp,
                        with_bias ? g_qn_bias : NULL, g_qn_y, x_last, y_last);
      }
      case_name(name, "qconv nhwc", shape, 14);
      check_qconv_out(name, &q, y_last, col, col_bytes);
    }
    p->reverse_rows = 0;
  }
}

/* oc_qconv2d_w4_col (4-bit weights in oc_w4_at's blocks, x NHWC, one
 * group, kernel rows of whole groups of four values; on M4/M7 two pixels'
 * columns in the scratch against each weight word's nibbles, oc_qw4_col.h)
 * against the sums of the nibbles less their zero points taken tap by tap
 * here: 3x3 kernels of 4 to 32 input channels, kernel rows of 2, 3 and 6
 * channels (k_w c_in 4, 12), a 1x4 kernel of one channel, dilation 2 along
 * the width (gathered rows), a 5x5 kernel (K 400); 1 to 16 output channels
 * (odd counts: a block's last channel alone); rows of an odd number of
 * pixels (a pixel alone at their end) in every other case, odd row counts,
 * one pixel alone (a 3x3 input without padding); int8 and uint8 x, x_zp at
 * the middle or an end of the range, both y types; zero points 8 (int4
 * weights) or any per channel; bias or none; float and fixed-point
 * requantization, per tensor or per channel, a Relu's bounds sometimes; x
 * and the blocks 0..3 bytes past a word; both y layouts and row orders.
 * The output and the scratch start as garbage and have guards. */
#define QW4_CO_MAX 16
#define QW4_K_MAX 400
static uint8_t g_w4_nib[QW4_CO_MAX * QW4_K_MAX], g_w4_zp[QW4_CO_MAX];
static uint32_t g_w4_blockw[QW4_CO_MAX / 4 * QW4_K_MAX * 2 / 4 + 1];

/* the nibbles u[co][k] as oc_w4_at's blocks (kk a multiple of 4) */
static void pack_w4_blocks(const uint8_t *u, int32_t c_out, int32_t kk, uint8_t *out) {
  int32_t co, k, pair, t, at = 0;
  for (co = 0; co < c_out; co += 4) {
    for (k = 0; k < kk; k += 4) {
      for (pair = 0; pair < 4; pair += 2) {
        for (t = 0; t < 4; t++) {
          const int32_t c0 = co + pair, c1 = c0 + 1;
          const uint8_t lo = c0 < c_out ? u[c0 * kk + k + t] : 0u, hi = c1 < c_out ? u[c1 * kk + k + t] : 0u;
          out[at++] = (uint8_t)(lo | hi << 4);
        }
      }
    }
  }
}

static void test_qconv_w4_col(void) {
  /* c_in, c_out, k_h, k_w, stride, dilation along the width (one pixel alone: stride 0) */
  static const int32_t kinds[14][6] = {
      {4, 4, 3, 3, 1, 1},   {8, 5, 3, 3, 1, 1},  {16, 13, 3, 3, 1, 1}, {32, 7, 3, 3, 2, 1},
      {16, 16, 3, 3, 2, 1}, {4, 1, 3, 3, 1, 1},  {2, 6, 3, 2, 1, 1},   {6, 3, 2, 2, 1, 1},
      {1, 9, 1, 4, 1, 1},   {12, 10, 3, 3, 1, 2}, {8, 4, 3, 3, 0, 1},  {16, 3, 3, 3, 0, 1},
      {16, 11, 5, 5, 1, 1}, {32, 2, 3, 3, 1, 1}};
  int32_t ci, i;
  char name[160];
  for (ci = 0; ci < 14; ci++) {
    const int32_t *kd = kinds[ci];
    const int32_t c_in = kd[0], c_out = kd[1], alone = kd[4] == 0;
    const int32_t x_off = ci % 4, w_off = (ci / 2) % 4;
    uint8_t *const xl = (uint8_t *)g_qn_xlw + x_off, *const blocks = (uint8_t *)g_w4_blockw + w_off;
    oc_qconv_params q;
    oc_conv2d_params *p = &q.conv;
    oc_requant8 r;
    int32_t nx, ny, kk, lay, pb, pr, n, co, oy, ox, kh, kw, ic;
    float mx, xx;
    memset(&q, 0, sizeof q);
    p->group = 1, p->c_in = c_in, p->c_out = c_out, p->k_h = kd[2], p->k_w = kd[3];
    p->stride_h = p->stride_w = alone ? 1 : kd[4], p->dil_h = 1, p->dil_w = kd[5];
    p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
    for (;;) { /* sizes drawn until the output is not empty, the buffers hold them and the rows are odd */
      p->n = alone ? 1 : rnd_in(1, 2);
      p->h_in = alone ? p->k_h : rnd_in(1, 7), p->w_in = alone ? p->k_w : rnd_in(1, 9);
      p->pad_top = p->pad_left = pb = pr = 0;
      if (!alone) p->pad_top = rnd_in(0, 2), p->pad_left = rnd_in(0, 2), pb = rnd_in(0, 2), pr = rnd_in(0, 2);
      if (p->h_in + p->pad_top + pb < p->k_h || p->w_in + p->pad_left + pr < (p->k_w - 1) * p->dil_w + 1) continue;
      p->h_out = (p->h_in + p->pad_top + pb - p->k_h) / p->stride_h + 1;
      p->w_out = (p->w_in + p->pad_left + pr - (p->k_w - 1) * p->dil_w - 1) / p->stride_w + 1;
      nx = p->n * c_in * p->h_in * p->w_in, ny = p->n * c_out * p->h_out * p->w_out;
      if (nx > QN_X_MAX || ny > QN_Y_MAX) continue;
      if (ci % 2 == 0 && (p->w_out % 2 == 0 || p->h_out % 2 == 0)) continue;
      break;
    }
    q.x_signed = ci & 1, q.w_signed = 0, q.y_signed = (int32_t)(rnd_u32() & 1u);
    if (ci % 5 == 2) {
      q.x_zp = q.x_signed ? -128 : 128;
    } else if (ci % 5 == 4) {
      q.x_zp = q.x_signed ? 127 : 0;
    } else {
      q.x_zp = q.x_signed ? rnd_in(-40, 40) : rnd_in(88, 168);
    }
    q.w_zp_per_channel = 1;
    kk = c_in * p->k_h * p->k_w;
    for (i = 0; i < nx; i++) xl[i] = (uint8_t)rnd_u32();
    for (i = 0; i < c_out * kk; i++) g_w4_nib[i] = (uint8_t)(rnd_u32() % 16u);
    for (co = 0; co < c_out; co++) g_w4_zp[co] = (uint8_t)(ci % 3 == 0 ? rnd_u32() % 16u : 8u);
    pack_w4_blocks(g_w4_nib, c_out, kk, blocks);
    q8_moments(xl, q.x_signed, q.x_zp, nx, &mx, &xx);
    for (co = 0; co < c_out; co++) { /* nibbles are uint8 values */
      float mw, ww;
      q8_moments(g_w4_nib + co * kk, 0, g_w4_zp[co], kk, &mw, &ww);
      channel_requant(co, sum_mult(kk, mx, xx, mw, ww));
    }
    qn_requant(&r, ci % 4 != 1, ci % 4 == 3, q.y_signed, ci % 7 == 3);
    /* the sums tap by tap, NCHW */
    for (n = 0; n < p->n; n++) {
      for (co = 0; co < c_out; co++) {
        for (oy = 0; oy < p->h_out; oy++) {
          for (ox = 0; ox < p->w_out; ox++) {
            uint32_t sum = ci % 3 != 2 ? (uint32_t)g_qn_bias[co] : 0u;
            for (kh = 0; kh < p->k_h; kh++) {
              const int32_t iy = oy * p->stride_h - p->pad_top + kh;
              for (kw = 0; kw < p->k_w; kw++) {
                const int32_t ix = ox * p->stride_w - p->pad_left + kw * p->dil_w;
                if (iy < 0 || iy >= p->h_in || ix < 0 || ix >= p->w_in) continue;
                for (ic = 0; ic < c_in; ic++) {
                  const int32_t v = oc_q8_get(xl, q.x_signed, ((n * p->h_in + iy) * p->w_in + ix) * c_in + ic);
                  const int32_t u = g_w4_nib[co * kk + (kh * p->k_w + kw) * c_in + ic];
                  sum += (uint32_t)((v - q.x_zp) * (u - (int32_t)g_w4_zp[co]));
                }
              }
            }
            g_qn_want_f[((n * c_out + co) * p->h_out + oy) * p->w_out + ox] =
                (float)oc_requant8_apply(&r, co, (int32_t)sum);
          }
        }
      }
    }
    for (lay = 0; lay < 4; lay++) {
      const int32_t y_last = lay & 1, col_bytes = 4 * kk + p->k_w * c_in;
      /* the pads as one number (top, left, bottom, right), then the types, zero points and
       * bias, then y_last and reverse_rows, then x_zp + 128 */
      const int32_t shape[13] = {ci, p->n, c_in, c_out, p->h_in, p->w_in, p->k_h, p->k_w,
                                 p->stride_w * 10 + p->dil_w,
                                 ((p->pad_top * 10 + p->pad_left) * 10 + pb) * 10 + pr,
                                 ((q.x_signed * 10 + q.y_signed) * 10 + ci % 3) * 10 + r.per_channel,
                                 y_last * 10 + (lay >> 1), q.x_zp + 128};
      uint8_t *const col = (uint8_t *)g_qn_colw;
      p->reverse_rows = lay >> 1;
      memset(g_qn_y, 0xa5, (size_t)ny + 8u);
      memset(col, 0x5a, (size_t)col_bytes + 16u);
      oc_qconv2d_w4_col(&q, &r, xl, blocks, g_w4_zp, ci % 3 != 2 ? g_qn_bias : NULL, g_qn_y, y_last, col);
      case_name(name, "qconv w4 column", shape, 13);
      check_qconv_out(name, &q, y_last, col, col_bytes);
    }
  }
}

/* oc_qconv_pw_nhwc (one matrix product per statement; on M4/M7 SMLAD over
 * runs of four input channels, tiles of two channels by two pixels) against
 * the sums in channel order: odd and even pixels per row, odd channel
 * counts, c_in % 4 from 0 to 3, the four pairs of x and w types, both row
 * orders, x off the word boundary, the int8 and uint8 output ranges and
 * zero points (the type's least value in variants 2 and 3), one multiplier
 * for all channels (variant 4), a fused Relu (6, 7) and the fixed-point
 * requantization (5). On M4/M7 the whole-range float cases with c_in a
 * multiple of 4 and c_out even run oc_qpw_nhwc_pass.h's assembler, small
 * c_in (4, 8, 12) and odd row lengths included. */
#define QPW_X_MAX 2048
#define QPW_Y_MAX 512
static void pack_pw_nhwc_weights(const uint8_t *w, int32_t cout, int32_t cin, uint8_t *out) {
  const int32_t c4 = cin & ~3;
  int32_t c = 0, ch, k, t, at = 0;
  for (; c + 2 <= cout; c += 2) {
    for (k = 0; k < c4; k += 4) {
      for (ch = c; ch < c + 2; ch++) {
        for (t = 0; t < 4; t++) out[at++] = w[ch * cin + k + t];
      }
    }
    for (ch = c; ch < c + 2; ch++) {
      for (k = c4; k < cin; k++) out[at++] = w[ch * cin + k];
    }
  }
  for (; c < cout; c++) {
    for (k = 0; k < cin; k++) out[at++] = w[c * cin + k];
  }
}

static void test_qpw_nhwc(void) {
  static const int32_t shapes[11][4] = {{1, 1, 1, 1},  {4, 2, 1, 2},  {3, 3, 2, 3},   {8, 5, 3, 5},
                                        {13, 7, 2, 4}, {16, 16, 3, 3}, {36, 6, 1, 7},  {64, 12, 2, 6},
                                        {6, 9, 1, 1},  {8, 16, 3, 5},  {12, 4, 1, 1}};
  static uint8_t x_bytes[QPW_X_MAX + 4], y_bytes[QPW_Y_MAX];
  static uint32_t packed_words[QPW_X_MAX / 4];
  static float mult[16], want[QPW_Y_MAX], got[QPW_Y_MAX];
  static int32_t q_mult[16], q_shift[16];
  int32_t si, variant, i;
  char name[96];
  for (si = 0; si < 11; si++) {
    const int32_t cin = shapes[si][0], cout = shapes[si][1], rows = shapes[si][2], width = shapes[si][3];
    const int32_t pixels = rows * width;
    for (variant = 0; variant < 8; variant++) {
      const int32_t shape[5] = {cin, cout, rows, width, variant};
      uint8_t *const x = x_bytes + (variant & 4 ? 1 : 0);
      oc_qconv_params q;
      oc_requant8 r;
      int32_t co, px, ic;
      memset(&q, 0, sizeof q);
      q.conv.n = 1, q.conv.c_in = cin, q.conv.c_out = cout, q.conv.group = 1;
      q.conv.h_in = q.conv.h_out = rows, q.conv.w_in = q.conv.w_out = width;
      q.conv.k_h = q.conv.k_w = q.conv.stride_h = q.conv.stride_w = q.conv.dil_h = q.conv.dil_w = 1;
      q.conv.d_in = q.conv.d_out = q.conv.k_d = q.conv.stride_d = q.conv.dil_d = 1;
      q.conv.reverse_rows = (variant >> 1) & 1;
      q.x_signed = variant & 1, q.w_signed = ((variant >> 1) ^ variant) & 1, q.y_signed = variant & 1;
      q.x_zp = q.x_signed ? (int32_t)(rnd_u32() % 256u) - 128 : (int32_t)(rnd_u32() % 256u);
      for (i = 0; i < cin * pixels; i++) x[i] = (uint8_t)rnd_u32();
      for (i = 0; i < cout * cin; i++) g_qb[i] = (uint8_t)rnd_u32();
      for (i = 0; i < cout; i++) g_qbias[i] = (int32_t)(rnd_u32() % 20001u) - 10000;
      for (i = 0; i < cout; i++) mult[i] = 0.0005f + 0.00025f * (float)(rnd_u32() % 16u);
      memset(&r, 0, sizeof r);
      r.mult = mult, r.per_channel = variant != 4; /* variant 4: one multiplier for all */
      if (variant == 5) { /* fixed point: Q31 multipliers in [2^30, 2^31), right shifts */
        for (i = 0; i < cout; i++) q_mult[i] = (int32_t)(0x40000000u + rnd_u32() % 0x3fffffffu);
        for (i = 0; i < cout; i++) q_shift[i] = -(int32_t)(9u + rnd_u32() % 4u);
        r.mult = NULL, r.q_mult = q_mult, r.q_shift = q_shift;
      }
      r.zp = q.y_signed ? (variant == 3 ? -128 : -3) : (variant == 2 ? 0 : 120);
      r.lo = q.y_signed ? -128 : 0, r.hi = q.y_signed ? 127 : 255;
      if (variant >= 6) r.lo = r.zp; /* a fused Relu */
      for (px = 0; px < pixels; px++) {
        for (co = 0; co < cout; co++) {
          uint32_t sum = (uint32_t)g_qbias[co];
          for (ic = 0; ic < cin; ic++) {
            sum += (uint32_t)((oc_q8_get(x, q.x_signed, px * cin + ic) - q.x_zp) *
                              oc_q8_get(g_qb, q.w_signed, co * cin + ic));
          }
          want[px * cout + co] = (float)oc_requant8_apply(&r, co, (int32_t)sum);
        }
      }
      fold_column_bias(&q, g_qb, cout, cin, g_qbias, g_qfolded);
      pack_pw_nhwc_weights(g_qb, cout, cin, (uint8_t *)packed_words);
      memset(y_bytes, 0x5a, sizeof y_bytes);
      oc_qconv_pw_nhwc(&q, &r, x, packed_words, g_qfolded, y_bytes);
      for (i = 0; i < cout * pixels; i++) got[i] = (float)oc_q8_get(y_bytes, q.y_signed, i);
      case_name(name, "qconv pointwise nhwc", shape, 5);
      check_case(name, got, want, cout * pixels);
    }
  }
}

/* oc_qconv_stem_nhwc and, for windows over 64 values, oc_qconv_stem_nhwc_wide
 * (a small window's convolution: each pair of pixels' windows gathered, then oc_qconv_pw_nhwc's sums over K rounded up to four
 * values; on M4/M7 oc_qpw_nhwc_pass.h's assembler for the whole-range
 * float cases with c_out even) against oc_qconv2d with the same data: 1..12
 * input channels (x NHWC), kernels 1..5 by 1..5 up to 288 values (K mod 4
 * from 0 to 3), strides and dilations 1..2, pads 0..2 per side (windows
 * clipped or wholly in the padding), one or two items, 1..9 output channels
 * (odd ones), each pair of x and w types, x_zp anywhere or the middle of
 * x's range, bias or none, float or fixed-point requantization, per tensor
 * or per channel, a Relu's bounds sometimes; y NHWC and NCHW, both row
 * orders. The weights are packed and the bias folded as the compiler does
 * (targets/c99/emit_qstem_nhwc.cc). */
static void test_qconv_stem(void) {
  static uint8_t padded[QN_W_MAX];
  static uint32_t packed_words[QN_W_MAX / 4];
  static int32_t zero_bias[64], folded[64];
  int32_t ci, i, lay;
  char name[160];
  for (ci = 0; ci < 96; ci++) {
    uint8_t *const x = (uint8_t *)g_qn_xw + ci % 4, *const xl = (uint8_t *)g_qn_xlw + ci % 4;
    uint8_t *const wl = (uint8_t *)g_qn_wlw;
    const int with_bias = ci % 3 != 2;
    oc_qconv_params q;
    oc_conv2d_params *p = &q.conv;
    oc_requant8 r;
    int32_t nx, ny, kk, k4, pb, pr, co;
    float mx, xx;
    memset(&q, 0, sizeof q);
    p->group = 1, p->c_in = rnd_in(1, 12), p->c_out = rnd_in(1, 9);
    p->stride_h = rnd_in(1, 2), p->stride_w = rnd_in(1, 2), p->dil_h = rnd_in(1, 2), p->dil_w = rnd_in(1, 2);
    p->d_in = p->d_out = p->k_d = p->stride_d = p->dil_d = 1;
    for (;;) { /* sizes drawn until the window fits, the output is not empty and the buffers hold them */
      p->n = rnd_in(1, 2), p->k_h = rnd_in(1, 5), p->k_w = rnd_in(1, 5);
      p->h_in = rnd_in(1, 9), p->w_in = rnd_in(1, 9);
      p->pad_top = rnd_in(0, 2), p->pad_left = rnd_in(0, 2), pb = rnd_in(0, 2), pr = rnd_in(0, 2);
      kk = p->k_h * p->k_w * p->c_in;
      if (kk > 288 || kk < 2) continue;
      if (p->h_in + p->pad_top + pb < (p->k_h - 1) * p->dil_h + 1) continue;
      if (p->w_in + p->pad_left + pr < (p->k_w - 1) * p->dil_w + 1) continue;
      p->h_out = (p->h_in + p->pad_top + pb - (p->k_h - 1) * p->dil_h - 1) / p->stride_h + 1;
      p->w_out = (p->w_in + p->pad_left + pr - (p->k_w - 1) * p->dil_w - 1) / p->stride_w + 1;
      nx = p->n * p->c_in * p->h_in * p->w_in, ny = p->n * p->c_out * p->h_out * p->w_out;
      k4 = (kk + 3) & ~3;
      if (nx <= QN_X_MAX && ny <= QN_Y_MAX && p->c_out * k4 <= QN_W_MAX) break;
    }
    q.x_signed = ci & 1, q.w_signed = (ci >> 1) & 1, q.y_signed = (int32_t)(rnd_u32() & 1u);
    q.x_zp = ci % 5 == 0 ? (q.x_signed ? -128 : 128) : q.x_signed ? rnd_in(-40, 40) : rnd_in(88, 168);
    for (i = 0; i < nx; i++) x[i] = (uint8_t)rnd_u32();
    for (i = 0; i < p->c_out * kk; i++) g_qn_w[i] = (uint8_t)rnd_u32();
    q8_moments(x, q.x_signed, q.x_zp, nx, &mx, &xx);
    for (co = 0; co < p->c_out; co++) {
      float mw, ww;
      q8_moments(g_qn_w + co * kk, q.w_signed, 0, kk, &mw, &ww);
      channel_requant(co, sum_mult(kk, mx, xx, mw, ww));
    }
    qn_requant(&r, (ci >> 2) & 1, ci % 6 == 5, q.y_signed, ci % 7 == 3);
    q8_relayout(x, xl, p->n, p->c_in, p->h_in * p->w_in, 1);
    q8_to_ohwi(g_qn_w, wl, p->c_out, p->c_in, p->k_h, p->k_w);
    oc_qconv2d(&q, &r, x, g_qn_w, NULL, with_bias ? g_qn_bias : NULL, g_qn_want);
    for (i = 0; i < ny; i++) g_qn_want_f[i] = (float)oc_q8_get(g_qn_want, q.y_signed, i);
    /* as the compiler emits them: the bias folded over the K weights, the weights packed over K4 */
    fold_column_bias(&q, wl, p->c_out, kk, with_bias ? g_qn_bias : zero_bias, folded);
    memset(padded, 0, sizeof padded);
    for (co = 0; co < p->c_out; co++) memcpy(padded + co * k4, wl + co * kk, (size_t)kk);
    pack_pw_nhwc_weights(padded, p->c_out, k4, (uint8_t *)packed_words);
    for (lay = 0; lay < 4; lay++) {
      const int32_t y_last = lay & 1;
      /* the pads as one number (top, left, bottom, right), then the types, x_zp + 128 and bias,
       * then y_last and reverse_rows */
      const int32_t shape[13] = {ci, p->n, p->c_in, p->c_out, p->h_in, p->w_in, p->k_h, p->k_w,
                                 (p->stride_h * 10 + p->stride_w) * 100 + p->dil_h * 10 + p->dil_w,
                                 ((p->pad_top * 10 + p->pad_left) * 10 + pb) * 10 + pr,
                                 ((q.x_signed * 10 + q.w_signed) * 1000 + q.x_zp + 128) * 10 + with_bias,
                                 r.mult != NULL ? 1 + r.per_channel : 0, y_last * 10 + (lay >> 1)};
      p->reverse_rows = lay >> 1;
      memset(g_qn_y, 0xa5, (size_t)ny + 8u);
      memset(g_qn_colw, 0x5a, 16u);
      if (k4 <= 64) {
        oc_qconv_stem_nhwc(&q, &r, xl, packed_words, folded, g_qn_y, y_last);
      } else {
        oc_qconv_stem_nhwc_wide(&q, &r, xl, packed_words, folded, g_qn_y, y_last);
      }
      case_name(name, "qconv stem", shape, 13);
      check_qconv_out(name, &q, y_last, (const uint8_t *)g_qn_colw, 0);
    }
    p->reverse_rows = 0;
  }
}

/* oc_qconv1x1_overlap_pairs (NCHW, two pixels per pass, the weights packed
 * as for oc_qconv_pw_nhwc) against the sums in channel order, run in place
 * as the overlap contract runs it (y starting at x, c_out above, equal to or
 * below c_in): odd and even pixel counts, one pixel, c_in % 4 from 0 to 3
 * and odd c_out (the C tiles), the four pairs of x and w types, the int8
 * and uint8 ranges with the least value as the zero point (2, 3), one
 * multiplier for all (4), fixed point (5), a fused Relu (6, 7: not a whole
 * range), the column off the word boundary (odd variants), two items (the
 * last shape, out of place). On M4/M7 the whole-range float cases with c_in
 * a multiple of 4 and c_out even run oc_qpw_nhwc_pass.h's NCHW passes. */
static void test_qpw_nchw_pairs(void) {
  static const int32_t shapes[10][4] = {{4, 2, 1, 1},   {8, 8, 7, 1},   {16, 12, 6, 1}, {12, 16, 5, 1},
                                        {64, 32, 11, 1}, {5, 6, 3, 1},   {8, 7, 4, 1},   {3, 3, 9, 1},
                                        {36, 10, 2, 1},  {8, 6, 5, 2}};
  static uint8_t x_bytes[QPW_X_MAX], buf[QPW_X_MAX];
  static uint32_t packed_words[QPW_X_MAX], column_words[40];
  static float mult[64], want[QPW_X_MAX], got[QPW_X_MAX];
  static int32_t q_mult[64], q_shift[64];
  int32_t si, variant, i;
  char name[96];
  for (si = 0; si < 10; si++) {
    const int32_t cin = shapes[si][0], cout = shapes[si][1], vol = shapes[si][2], items = shapes[si][3];
    for (variant = 0; variant < 8; variant++) {
      const int32_t shape[5] = {cin, cout, vol, items, variant};
      uint8_t *const column = (uint8_t *)column_words + (variant & 1);
      oc_qconv_params q;
      oc_requant8 r;
      int32_t co, px, ic, n;
      memset(&q, 0, sizeof q);
      q.conv.n = items, q.conv.c_in = cin, q.conv.c_out = cout, q.conv.group = 1;
      q.conv.h_in = q.conv.h_out = 1, q.conv.w_in = q.conv.w_out = vol;
      q.conv.k_h = q.conv.k_w = q.conv.stride_h = q.conv.stride_w = q.conv.dil_h = q.conv.dil_w = 1;
      q.conv.d_in = q.conv.d_out = q.conv.k_d = q.conv.stride_d = q.conv.dil_d = 1;
      q.x_signed = variant & 1, q.w_signed = ((variant >> 1) ^ variant) & 1, q.y_signed = variant & 1;
      q.x_zp = q.x_signed ? (int32_t)(rnd_u32() % 256u) - 128 : (int32_t)(rnd_u32() % 256u);
      for (i = 0; i < items * cin * vol; i++) x_bytes[i] = (uint8_t)rnd_u32();
      for (i = 0; i < cout * cin; i++) g_qb[i] = (uint8_t)rnd_u32();
      for (i = 0; i < cout; i++) g_qbias[i] = (int32_t)(rnd_u32() % 20001u) - 10000;
      for (i = 0; i < cout; i++) mult[i] = 0.0005f + 0.00025f * (float)(rnd_u32() % 16u);
      memset(&r, 0, sizeof r);
      r.mult = mult, r.per_channel = variant != 4;
      if (variant == 5) {
        for (i = 0; i < cout; i++) q_mult[i] = (int32_t)(0x40000000u + rnd_u32() % 0x3fffffffu);
        for (i = 0; i < cout; i++) q_shift[i] = -(int32_t)(9u + rnd_u32() % 4u);
        r.mult = NULL, r.q_mult = q_mult, r.q_shift = q_shift;
      }
      r.zp = q.y_signed ? (variant == 3 ? -128 : -3) : (variant == 2 ? 0 : 120);
      r.lo = q.y_signed ? -128 : 0, r.hi = q.y_signed ? 127 : 255;
      if (variant >= 6) r.lo = r.zp;
      for (n = 0; n < items; n++) {
        for (co = 0; co < cout; co++) {
          for (px = 0; px < vol; px++) {
            uint32_t sum = (uint32_t)g_qbias[co];
            for (ic = 0; ic < cin; ic++) {
              sum += (uint32_t)((oc_q8_get(x_bytes, q.x_signed, (n * cin + ic) * vol + px) - q.x_zp) *
                                oc_q8_get(g_qb, q.w_signed, co * cin + ic));
            }
            want[(n * cout + co) * vol + px] = (float)oc_requant8_apply(&r, co, (int32_t)sum);
          }
        }
      }
      fold_column_bias(&q, g_qb, cout, cin, g_qbias, g_qfolded);
      pack_pw_nhwc_weights(g_qb, cout, cin, (uint8_t *)packed_words);
      memset(buf, 0x5a, sizeof buf);
      if (items == 1) { /* in place, as the contract runs it */
        memcpy(buf, x_bytes, (size_t)(cin * vol));
        oc_qconv1x1_overlap_pairs(&q, &r, buf, packed_words, g_qfolded, buf, column);
      } else {
        oc_qconv1x1_overlap_pairs(&q, &r, x_bytes, packed_words, g_qfolded, buf, column);
      }
      for (i = 0; i < items * cout * vol; i++) got[i] = (float)oc_q8_get(buf, q.y_signed, i);
      case_name(name, "qconv 1x1 overlap pairs", shape, 5);
      check_case(name, got, want, items * cout * vol);
    }
  }
}

int main(void) {
  test_gemm_nt();
  test_qgemm();
  test_qgemm_packed();
  test_qpointwise();
  test_qconv2d();
  test_qdw3x3();
  test_qadd();
  test_pointwise();
  test_pointwise_overlap();
  test_conv_nhwc();
  test_conv_nhwc_overlap();
  test_conv_nhwc_pointwise();
  test_qconv_nhwc();
  test_qconv_w4_col();
  test_qpw_nhwc();
  test_qconv_stem();
  test_qpw_nchw_pairs();
  say_u32((uint32_t)g_pass, 0);
  say(" passed, ");
  say_u32((uint32_t)g_fail, 0);
  say(" failed\n");
  return g_fail == 0 && g_pass > 0 ? 0 : 1;
}
