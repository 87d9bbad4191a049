/*
 * The quantized convolution of a small window (a stem's, as a 3x3 kernel
 * over three channels: K = k_h k_w c_in values) with channels-last x (or
 * one input channel, where NCHW is the same bytes), y NHWC or NCHW (y_last
 * 1 or 0), one group, the weights' zero points 0: per pair of consecutive
 * output pixels in the streaming order (a row's last and the next row's
 * first together where a row's length is odd), both windows' bytes
 * gathered on the stack (2 K4 bytes: oc_qconv_stem_nhwc's 128 for K4 up to
 * 64, oc_qconv_stem_nhwc_wide's 576 for K up to 288; the kernel rows back to
 * back in the weights' OHWI order, the taps in the padding as x_zp's byte, K rounded up to K4, a
 * multiple of four, the same way), then the sums of oc_qconv_pw_nhwc over
 * them as two pixels of K4 input channels: the weights packed by the
 * compiler as for it over K4 values, the padding's weights 0
 * (targets/c99/emit_qstem_nhwc.cc), the input's zero point folded into the
 * bias, bias[co] - x_zp sum_k w[co][k] (mod 2^32). A tap in the padding then
 * adds (x_zp - x_zp) w = 0 where the reference leaves it out, so each sum is
 * oc_qconv2d_nhwc's, bit for bit (uint32 sums do not depend on the order);
 * each is requantized by oc_requant8_apply and a tile's values found before
 * its bytes are stored.
 *
 * Streaming order: output rows (n, oy) in increasing order, or decreasing
 * with q->conv.reverse_rows; a row reads only the input rows under its
 * windows and writes only its own outputs, and a pair's two windows are
 * gathered before either output is written (so an output of a row is
 * written only once every earlier row's windows have been read): y may
 * overlap x as for oc_qconv2d_nhwc.
 *
 * On cores with the DSP extension (runtime/arm: oc_qpw_nhwc_pass.h), where
 * the requantization is float onto a whole 8-bit range and c_out is even,
 * each pair of pixels is one pass in assembler over every pair of output
 * channels (SXTB16/UXTB16 and SMLAD, the requantization by VCVTR); the
 * windows are built in the same order there.
 */
#include <string.h>

#include "onnx_to_c/oc_qconv_loops.h"
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qpw_nhwc_fast.h"

/* The most values a window may hold in oc_qconv_stem_nhwc (rounded up to
 * four) and in oc_qconv_stem_nhwc_wide (the compiler's limit too). */
#define OC_QSTEM_K4_SMALL 64
#define OC_QSTEM_K_MAX 288

/* One output row (the row-th in the streaming order): its outputs from y
 * (column 0, channel 0); its windows' kernel rows inside the input
 * [h0, h1), the first one's bytes at x_h0 (column 0), dh_row bytes from one
 * to the next; dense where every kernel row is inside and the dilation
 * along them is 1. */
typedef struct {
  const oc_conv2d_params *p;
  uint8_t *y;
  const uint8_t *x_h0;
  ptrdiff_t dh_row;
  int32_t h0, h1, run, dense;
  uint8_t zb;
} qstem_row_;

static void qstem_row_at_(qstem_row_ *g, const oc_qconv_params *q, const uint8_t *x, uint8_t *y,
                          int32_t y_last, int32_t row) {
  const oc_conv2d_params *const p = &q->conv;
  const int32_t rows = p->n * p->h_out, nr = p->reverse_rows ? rows - 1 - row : row;
  const int32_t n = nr / p->h_out, oy = nr - n * p->h_out, iy = oy * p->stride_h - p->pad_top;
  const ptrdiff_t plane = (ptrdiff_t)p->h_out * p->w_out;
  const ptrdiff_t x_row = (ptrdiff_t)p->w_in * p->c_in;
  oc_qconv_taps(iy, p->dil_h, p->k_h, p->h_in, &g->h0, &g->h1);
  g->p = p;
  g->y = y + (ptrdiff_t)n * p->c_out * plane + (ptrdiff_t)oy * p->w_out * (y_last ? p->c_out : 1);
  g->dh_row = (ptrdiff_t)p->dil_h * x_row;
  g->x_h0 = g->h0 < g->h1 ? x + ((ptrdiff_t)n * p->h_in + iy + (ptrdiff_t)g->h0 * p->dil_h) * x_row : x;
  g->run = p->k_w * p->c_in;
  g->dense = g->h0 == 0 && g->h1 == p->k_h && p->dil_w == 1 && g->run >= 4;
  g->zb = (uint8_t)q->x_zp;
}

/* The window of output column ox as its K bytes at b: the kernel rows back
 * to back, the taps in the padding as x_zp's byte. The bytes past K up to
 * K4 are not written (the caller's x_zp, once per statement: their weights
 * are 0 anyway). A window wholly inside (kernel rows of at least four
 * bytes): each kernel row copied four bytes at a time, its last four as one
 * word too. */
static void qstem_window_(const qstem_row_ *g, int32_t ox, uint8_t *b) {
  const oc_conv2d_params *const p = g->p;
  const int32_t c_in = p->c_in, run = g->run, ix0 = ox * p->stride_w - p->pad_left;
  const uint8_t zb = g->zb;
  const uint8_t *xr = g->x_h0;
  int32_t kh, kw, i;
  if (g->dense && ix0 >= 0 && ix0 + p->k_w <= p->w_in) {
    const int32_t last = run - 4; /* the last four bytes, overlapping the word before */
    xr += (ptrdiff_t)ix0 * c_in;
    for (kh = p->k_h; kh > 0; kh--, xr += g->dh_row, b += run) {
      for (i = 0; i < last; i += 4) memcpy(b + i, xr + i, 4);
      memcpy(b + last, xr + last, 4);
    }
    return;
  }
  for (i = 0; i < g->h0 * run; i++) *b++ = zb;
  for (kh = g->h0; kh < g->h1; kh++, xr += g->dh_row, b += run) {
    for (kw = 0; kw < p->k_w; kw++) {
      const int32_t ix = ix0 + kw * p->dil_w, in = ix >= 0 && ix < p->w_in;
      for (i = 0; i < c_in; i++) b[kw * c_in + i] = in ? xr[(ptrdiff_t)ix * c_in + i] : zb;
    }
  }
  for (i = 0; i < (p->k_h - g->h1) * run; i++) *b++ = zb;
}

/* Where an optimized folder's passes serve the statement (runtime/arm:
 * oc_qpw_nhwc_pass.h), each pair of windows is one pass (the loop below is
 * skipped); none here. */
#if defined(QPW_NHWC_PASSES_)
#define QSTEM_LOCALS_(XT, WT, RQ, COUT, K4, BIAS)                                                \
  const int32_t passes_ = (RQ).mult != NULL && OC_SAT8_WHOLE_(&(RQ)) && ((COUT) & 1) == 0;      \
  void (*const pass_)(const void *, const void *, const void *, const qpw_nhwc_pass *) =         \
      y_last ? ((RQ).lo < 0 ? qpw_nhwc_pass_##XT##_##WT##_s : qpw_nhwc_pass_##XT##_##WT##_u)     \
             : ((RQ).lo < 0 ? qpw_nchw_pass_##XT##_##WT##_s : qpw_nchw_pass_##XT##_##WT##_u);    \
  float one_[2];                                                                                 \
  qpw_nhwc_pass s_;                                                                              \
  one_[0] = one_[1] = (RQ).mult != NULL ? (RQ).mult[0] : 0.0f;                                   \
  s_.bias = (BIAS), s_.mult = (RQ).per_channel ? (RQ).mult : one_;                               \
  s_.mult_step = (RQ).per_channel ? 8 : 0, s_.pairs = (COUT) / 2, s_.cin = (K4), s_.zp = (RQ).zp; \
  s_.plane = (int32_t)plane;
#define QSTEM_PASS_CALL_(YA, YB, TWO)                                                            \
  if (passes_) {                                                                                 \
    s_.ya = (YA), s_.yb = (YB);                                                                  \
    pass_(wa, (TWO) ? wb : wa, wpacked, &s_);                                                    \
    continue;                                                                                    \
  }
#else
#define QSTEM_LOCALS_(XT, WT, RQ, COUT, K4, BIAS)
#define QSTEM_PASS_CALL_(YA, YB, TWO)
#endif

/* The streaming order's next pixel (row, ox), its row's geometry g[gi]. */
#define QSTEM_NEXT_PIXEL_                                                                        \
  if (++ox == w_out) {                                                                           \
    ox = 0;                                                                                      \
    if (++row < rows) gi ^= 1, qstem_row_at_(&g[gi], q, (const uint8_t *)x, (uint8_t *)y, y_last, row); \
  }

#define QSTEM_DEFINE_(NAME, XT, WT)                                                              \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x,     \
                               const void *wpacked, const int32_t *bias, void *y, int32_t y_last, \
                               void *windows) {                                                  \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const int32_t k = p->k_h * p->k_w * p->c_in, k4 = (k + 3) & ~3, cout = p->c_out;            \
    const int32_t h_out = p->h_out, w_out = p->w_out, rows = p->n * h_out;                       \
    const ptrdiff_t plane = (ptrdiff_t)h_out * w_out, y_c = y_last ? 1 : plane;                  \
    const ptrdiff_t y_x = y_last ? cout : 1;                                                     \
    const oc_requant8 rq = *r; /* a local copy: the byte stores cannot alias it */               \
    uint8_t *const wa = (uint8_t *)windows, *const wb = wa + k4;                                 \
    int32_t row = 0, ox = 0, gi = 0, c, j;                                                      \
    qstem_row_ g[2]; /* the rows of the pair's two pixels */                                     \
    memset(windows, (uint8_t)q->x_zp, 2 * (size_t)k4); /* the bytes past K */                    \
    QSTEM_LOCALS_(XT, WT, rq, cout, k4, bias)                                                    \
    if (rows > 0 && w_out > 0) qstem_row_at_(&g[0], q, (const uint8_t *)x, (uint8_t *)y, y_last, 0); \
    while (row < rows) {                                                                         \
        uint8_t *const ya = g[gi].y + (ptrdiff_t)ox * y_x;                                       \
        uint8_t *yb = ya;                                                                        \
        int32_t two = 0;                                                                         \
        const WT *w = (const WT *)wpacked;                                                       \
        qstem_window_(&g[gi], ox, wa);                                                           \
        QSTEM_NEXT_PIXEL_                                                                        \
        if (row < rows) {                                                                        \
          yb = g[gi].y + (ptrdiff_t)ox * y_x, two = 1;                                           \
          qstem_window_(&g[gi], ox, wb);                                                         \
          QSTEM_NEXT_PIXEL_                                                                      \
        }                                                                                        \
        QSTEM_PASS_CALL_(ya, yb, two)                                                            \
        for (c = 0; c < cout; c += 2) {                                                          \
          const int32_t pair = c + 1 < cout; /* else an odd last channel, k4 bytes in order */  \
          uint32_t s[4];                                                                         \
          s[0] = s[2] = (uint32_t)bias[c], s[1] = s[3] = pair ? (uint32_t)bias[c + 1] : 0u;      \
          for (j = 0; j < k4; j++) {                                                             \
            const int32_t xa = (XT)wa[j], xb = two ? (XT)wb[j] : 0;                              \
            const int32_t w0 = pair ? w[(j >> 2) * 8 + (j & 3)] : w[j];                         \
            const int32_t w1 = pair ? w[(j >> 2) * 8 + 4 + (j & 3)] : 0;                        \
            s[0] += (uint32_t)(xa * w0), s[1] += (uint32_t)(xa * w1);                            \
            s[2] += (uint32_t)(xb * w0), s[3] += (uint32_t)(xb * w1);                            \
          }                                                                                      \
          w += pair ? 2 * k4 : k4;                                                               \
          {                                                                                      \
            const int32_t v0 = oc_requant8_apply(&rq, c, (int32_t)s[0]);                         \
            const int32_t v2 = two ? oc_requant8_apply(&rq, c, (int32_t)s[2]) : 0;               \
            const int32_t v1 = pair ? oc_requant8_apply(&rq, c + 1, (int32_t)s[1]) : 0;          \
            const int32_t v3 = pair && two ? oc_requant8_apply(&rq, c + 1, (int32_t)s[3]) : 0;   \
            ya[c * y_c] = (uint8_t)v0;                                                           \
            if (two) yb[c * y_c] = (uint8_t)v2;                                                  \
            if (pair) {                                                                          \
              ya[(c + 1) * y_c] = (uint8_t)v1;                                                   \
              if (two) yb[(c + 1) * y_c] = (uint8_t)v3;                                          \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
    }                                                                                            \
  }
QSTEM_DEFINE_(oc_qconv_stem_nhwc_s8s8, int8_t, int8_t)
QSTEM_DEFINE_(oc_qconv_stem_nhwc_s8u8, int8_t, uint8_t)
QSTEM_DEFINE_(oc_qconv_stem_nhwc_u8s8, uint8_t, int8_t)
QSTEM_DEFINE_(oc_qconv_stem_nhwc_u8u8, uint8_t, uint8_t)
#undef QSTEM_DEFINE_
#undef QSTEM_NEXT_PIXEL_
#undef QSTEM_LOCALS_
#undef QSTEM_PASS_CALL_

/* The windows on the stack, sized for the window: an entry each, so a
 * small window's calls hold 128 bytes, not the most a window may take, and
 * in a frame of their own (not the caller's, where an inlined statement
 * would keep them under every other call). A generated file (where OC_API
 * is static) may call only one of the two. */
#if defined(__GNUC__)
#define QSTEM_MAYBE_UNUSED_ __attribute__((unused))
#else
#define QSTEM_MAYBE_UNUSED_
#endif
#define QSTEM_ENTRY_DEFINE_(NAME, FRAME, K4_MAX)                                                  \
  static OC_NOINLINE QSTEM_MAYBE_UNUSED_ void FRAME(const oc_qconv_params *q, const oc_requant8 *r, \
                                                    const void *x, const void *w,                 \
                                                    const int32_t *folded_bias, void *y,          \
                                                    int32_t y_last) {                             \
    uint32_t windows[2 * (K4_MAX) / 4];                                                           \
    OC_Q8_PAIR_CALL(oc_qconv_stem_nhwc, q->x_signed, q->w_signed,                                 \
                    (q, r, x, w, folded_bias, y, y_last, windows));                               \
  }                                                                                               \
  OC_API QSTEM_MAYBE_UNUSED_ void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, \
                                       const void *w, const int32_t *folded_bias, void *y,        \
                                       int32_t y_last) {                                          \
    FRAME(q, r, x, w, folded_bias, y, y_last);                                                    \
  }
QSTEM_ENTRY_DEFINE_(oc_qconv_stem_nhwc, qstem_small_, OC_QSTEM_K4_SMALL)
QSTEM_ENTRY_DEFINE_(oc_qconv_stem_nhwc_wide, qstem_wide_, OC_QSTEM_K_MAX)
#undef QSTEM_ENTRY_DEFINE_
#undef QSTEM_MAYBE_UNUSED_
