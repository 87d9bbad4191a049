/*
 * ONNX MaxPool, 2-D (1-D is h = k_h = 1) and 3-D, with strides, dilations
 * and pads. Padding positions are ignored (a window entirely in the padding,
 * which valid pads never produce, gives -inf). NaN propagates. indices (or
 * NULL) receives the flat input position of each maximum, the first one in
 * window order (oc_pool2d_params).
 *
 * 2-D pools without indices or dilation take a fast path: lanes of
 * OC_LANE_W outputs of a row at once, branch-free (oc_lane_max),
 * reading -inf for padding taps (maxpool2d_lane_pick_). Every output still
 * visits its taps in window order with the same comparison, so the value
 * (which NaN, which of +0.0 and -0.0) is the one the general loop gives.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

/* [*lo, *hi): the taps k in [0, k_len) whose position start + k * dil is in
 * [0, len). */
static void maxpool2d_taps_(int32_t start, int32_t dil, int32_t len, int32_t k_len, int32_t *lo,
                            int32_t *hi) {
  int32_t a = start < 0 ? (dil - 1 - start) / dil : 0;
  int32_t b = len - start > 0 ? (len - start + dil - 1) / dil : 0;
  if (b > k_len) b = k_len;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

/* m = v where v > m, or where v is NaN and m is not: the first NaN, else the
 * first maximum, of the values seen so far (oc_lane_max on a lane). */
OC_LANE_INLINE float maxpool2d_max_(float m, float v) {
  return v > m || (v != v && m == m) ? v : m;
}

/* The lane of OC_LANE_W values x[ix0 + i * sw] (i = 0, 1, ...), -inf where
 * ix0 + i * sw is outside [0, w_in). A -inf tap never changes the maximum
 * (it is not greater than anything, and not NaN), so reading -inf for a
 * padding position gives the bits of skipping it. */
OC_LANE_INLINE float maxpool2d_pick_(const float *x, int32_t ix, int32_t w_in) {
  return ix >= 0 && ix < w_in ? x[ix] : -oc_inff();
}

OC_LANE_INLINE oc_lane maxpool2d_lane_pick_(const float *x, int32_t ix0, int32_t sw,
                                            int32_t w_in) {
  if (ix0 >= 0 && ix0 + (OC_LANE_W - 1) * sw < w_in) return oc_lane_load(x + ix0, sw);
  return OC_LANE_GATHER(maxpool2d_pick_, x, ix0, sw, w_in);
}

/* One output row of a 2-D pool with dilation 1 and w_out >= OC_LANE_W:
 * input rows [iy0 + kh0, iy0 + kh1) of plane xc. Lanes of outputs, the last
 * one moved back to end at w_out (it recomputes a few outputs, with the same
 * bits); a lane whose windows reach the padding picks its taps with -inf
 * there. */
static void maxpool2d_row_fast_(const oc_pool2d_params *p, const float *xc, int32_t iy0,
                                int32_t kh0, int32_t kh1, float *y) {
  const int32_t sw = p->stride_w, kw_n = p->k_w, w_in = p->w_in;
  int32_t lo, hi, ox, kh, kw;
  const float *x0 = xc + (kh0 < kh1 ? (ptrdiff_t)(iy0 + kh0) * w_in : 0);
  /* [lo, hi): the outputs whose window columns are all inside the input */
  lo = p->pad_left > 0 ? (p->pad_left + sw - 1) / sw : 0;
  hi = w_in - kw_n + p->pad_left >= 0 ? (w_in - kw_n + p->pad_left) / sw + 1 : 0;
  if (hi > p->w_out) hi = p->w_out;
  if (lo > hi) lo = hi;
  for (ox = 0;; ox += OC_LANE_W) {
    const float *xs = x0;
    oc_lane m = oc_lane_splat(-oc_inff());
    int32_t ix0;
    if (ox + OC_LANE_W > p->w_out) ox = p->w_out - OC_LANE_W;
    ix0 = ox * sw - p->pad_left;
    if (ox >= lo && ox + OC_LANE_W <= hi) {
      for (kh = kh0; kh < kh1; kh++, xs += w_in) {
        for (kw = 0; kw < kw_n; kw++) {
          m = oc_lane_max(m, oc_lane_load(xs + ix0 + kw, sw));
        }
      }
    } else {
      for (kh = kh0; kh < kh1; kh++, xs += w_in) {
        for (kw = 0; kw < kw_n; kw++) {
          m = oc_lane_max(m, maxpool2d_lane_pick_(xs, ix0 + kw, sw, w_in));
        }
      }
    }
    oc_lane_put(y + ox, m);
    if (ox + OC_LANE_W == p->w_out) break;
  }
}

/* The same for any w_out, one output at a time. */
static void maxpool2d_row_(const oc_pool2d_params *p, const float *xc, int32_t iy0, int32_t kh0,
                           int32_t kh1, float *y) {
  const int32_t w_in = p->w_in;
  const float *x0 = xc + (kh0 < kh1 ? (ptrdiff_t)(iy0 + kh0) * w_in : 0);
  int32_t ox, kh, kw, kw0, kw1;
  for (ox = 0; ox < p->w_out; ox++) {
    const int32_t ix0 = ox * p->stride_w - p->pad_left;
    const float *xs = x0;
    float m = -oc_inff();
    maxpool2d_taps_(ix0, 1, w_in, p->k_w, &kw0, &kw1);
    for (kh = kh0; kh < kh1; kh++, xs += w_in) {
      for (kw = kw0; kw < kw1; kw++) m = maxpool2d_max_(m, xs[ix0 + kw]);
    }
    y[ox] = m;
  }
}

OC_API void oc_maxpool2d_f32(const oc_pool2d_params *p, const float *x, float *y,
                             int64_t *indices) {
  const int32_t plane = p->h_in * p->w_in;
  int32_t c, od, oy, ox, kd, kh, kw, kd0, kd1, kh0, kh1, kw0, kw1;
  if (indices == NULL && p->d_in == 1 && p->d_out == 1 && p->k_d == 1 && p->pad_front == 0 &&
      p->dil_h == 1 && p->dil_w == 1) {
    for (c = 0; c < p->n_c; c++) {
      for (oy = 0; oy < p->h_out; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_top;
        maxpool2d_taps_(iy0, 1, p->h_in, p->k_h, &kh0, &kh1);
        (p->w_out >= OC_LANE_W ? maxpool2d_row_fast_ : maxpool2d_row_)(
            p, x + (ptrdiff_t)c * plane, iy0, kh0, kh1,
            y + ((ptrdiff_t)c * p->h_out + oy) * p->w_out);
      }
    }
    return;
  }
  for (c = 0; c < p->n_c; c++) {
    const float *xc = x + (ptrdiff_t)c * p->d_in * plane;
    for (od = 0; od < p->d_out; od++) {
      const int32_t id0 = od * p->stride_d - p->pad_front;
      maxpool2d_taps_(id0, p->dil_d, p->d_in, p->k_d, &kd0, &kd1);
      for (oy = 0; oy < p->h_out; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_top;
        maxpool2d_taps_(iy0, p->dil_h, p->h_in, p->k_h, &kh0, &kh1);
        for (ox = 0; ox < p->w_out; ox++) {
          const int32_t ix0 = ox * p->stride_w - p->pad_left;
          float m = -oc_inff();
          int32_t at_d = 0, at_y = 0, at_x = 0;
          maxpool2d_taps_(ix0, p->dil_w, p->w_in, p->k_w, &kw0, &kw1);
          for (kd = kd0; kd < kd1; kd++) {
            const int32_t iz = id0 + kd * p->dil_d;
            for (kh = kh0; kh < kh1; kh++) {
              const int32_t iy = iy0 + kh * p->dil_h;
              const float *xr = xc + (ptrdiff_t)iz * plane + (ptrdiff_t)iy * p->w_in;
              for (kw = kw0; kw < kw1; kw++) {
                const float v = xr[ix0 + kw * p->dil_w];
                if (v > m || (v != v && m == m)) {
                  m = v;
                  at_d = iz;
                  at_y = iy;
                  at_x = ix0 + kw * p->dil_w;
                }
              }
            }
          }
          *y++ = m;
          if (indices != NULL) {
            const int64_t base = ((int64_t)c * p->d_in + at_d) * plane;
            *indices++ = base + (p->storage_order ? (int64_t)at_x * p->h_in + at_y
                                                  : (int64_t)at_y * p->w_in + at_x);
          }
        }
      }
    }
  }
}
