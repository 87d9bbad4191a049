/*
 * ONNX MaxPool, 2-D, without indices, with channels-last activations: x is
 * NHWC when x_nhwc, else NCHW; y likewise (oc_pool2d_params, n_c = n * c).
 * Each output visits its taps in window order (kh, then kw) with
 * oc_maxpool2d_f32's comparison, skipping the padding, so the value (which
 * NaN, which of +0.0 and -0.0) is the one maxpool2d.c gives.
 *
 * Streaming order: output rows in increasing (n, oy) order, or decreasing
 * with p->reverse_rows; row (n, oy) reads only input rows of item n under
 * its window and writes each of its outputs once, after reading that
 * output's taps. So y may lie below x (increasing) or above it (decreasing),
 * each output row over input rows that neither that row nor a later one
 * reads (the rows overlap contracts, as for oc_conv2d_nhwc_f32). With both sides NHWC the channels of a pixel are
 * contiguous and a lane holds OC_LANE_W of them.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

/* [*lo, *hi): the taps k in [0, k_len) whose position start + k * dil is in [0, len). */
static void mpnhwc_taps_(int32_t start, int32_t dil, int32_t len, int32_t k_len, int32_t *lo,
                         int32_t *hi) {
  int32_t a = start < 0 ? (dil - 1 - start) / dil : 0;
  int32_t b = len - start > 0 ? (len - start + dil - 1) / dil : 0;
  if (b > k_len) b = k_len;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

/* The first NaN, else the first maximum, of the values seen so far. */
OC_LANE_INLINE float mpnhwc_max_(float m, float v) { return v > m || (v != v && m == m) ? v : m; }

OC_API void oc_maxpool2d_nhwc_f32(const oc_pool2d_params *p, int32_t c, const float *x,
                                  float *y, int32_t x_nhwc, int32_t y_nhwc) {
  const int32_t n = c > 0 ? p->n_c / c : 0;
  const ptrdiff_t in_item = (ptrdiff_t)c * p->h_in * p->w_in;
  const ptrdiff_t out_item = (ptrdiff_t)c * p->h_out * p->w_out;
  const int32_t xc = x_nhwc ? 1 : p->h_in * p->w_in, xx = x_nhwc ? c : 1;
  const int32_t xr = x_nhwc ? p->w_in * c : p->w_in;
  const int32_t yc = y_nhwc ? 1 : p->h_out * p->w_out, yx = y_nhwc ? c : 1;
  const int32_t yr = y_nhwc ? p->w_out * c : p->w_out;
  const int32_t lanes = xc == 1 && yc == 1 ? c - c % OC_LANE_W : 0;
  int32_t b, oy, ox, ch, kh, kw, kh0, kh1, kw0, kw1, row;
  for (row = 0; row < n * p->h_out; row++) {
    const int32_t nr = p->reverse_rows ? n * p->h_out - 1 - row : row;
    b = nr / p->h_out;
    oy = nr % p->h_out;
    {
      const int32_t iy0 = oy * p->stride_h - p->pad_top;
      mpnhwc_taps_(iy0, p->dil_h, p->h_in, p->k_h, &kh0, &kh1);
      for (ox = 0; ox < p->w_out; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_left;
        const float *xb = x + b * in_item;
        float *yp = y + b * out_item + (ptrdiff_t)oy * yr + (ptrdiff_t)ox * yx;
        mpnhwc_taps_(ix0, p->dil_w, p->w_in, p->k_w, &kw0, &kw1);
        for (ch = 0; ch < lanes; ch += OC_LANE_W) {
          oc_lane m = oc_lane_splat(-oc_inff());
          for (kh = kh0; kh < kh1; kh++) {
            const float *xk = xb + (ptrdiff_t)(iy0 + kh * p->dil_h) * xr + ch;
            for (kw = kw0; kw < kw1; kw++) {
              m = oc_lane_max(m, oc_lane_load(xk + (ptrdiff_t)(ix0 + kw * p->dil_w) * xx, 1));
            }
          }
          oc_lane_put(yp + ch, m);
        }
        for (; ch < c; ch++) {
          float m = -oc_inff();
          for (kh = kh0; kh < kh1; kh++) {
            const float *xk = xb + (ptrdiff_t)(iy0 + kh * p->dil_h) * xr + (ptrdiff_t)ch * xc;
            for (kw = kw0; kw < kw1; kw++) {
              m = mpnhwc_max_(m, xk[(ptrdiff_t)(ix0 + kw * p->dil_w) * xx]);
            }
          }
          yp[(ptrdiff_t)ch * yc] = m;
        }
      }
    }
  }
}
