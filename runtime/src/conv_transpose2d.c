/*
 * ONNX ConvTranspose, 2-D (and 3-D, depth taps over 2-D planes): NCHW
 * input, weights (c_in, c_out / group, k_h, k_w).
 *   y[n, g*cog+oc, ih*s_h - pad_top + kh*d_h, iw*s_w - pad_left + kw*d_w]
 *     += x[n, g*cig+ic, ih, iw] * w[g*cig+ic, oc, kh, kw]
 * positions outside the output dropped; y starts from the bias (or 0); the
 * activation is applied at the end.
 *
 * Accumulation order: each output element receives its terms for
 * ic = 0..cig-1, then id, kd, ih, kh, kw, in increasing order.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* [*lo, *hi): the inputs i in [0, len_in) whose output i * stride + off is in
 * [0, len_out). */
static void conv_transpose2d_range_(int32_t off, int32_t stride, int32_t len_out, int32_t len_in,
                                    int32_t *lo, int32_t *hi) {
  int32_t a = off < 0 ? (stride - 1 - off) / stride : 0;
  int32_t b = len_out - off > 0 ? (len_out - off + stride - 1) / stride : 0;
  if (b > len_in) b = len_in;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

/* y plane += scatter of one input plane through one k_h x k_w filter */
static void conv_transpose2d_plane_(const oc_conv_transpose2d_params *p, float *restrict y,
                                    const float *restrict x, const float *restrict w) {
  int32_t ih, kh, kw, iw, i0, i1;
  for (ih = 0; ih < p->h_in; ih++) {
    const float *xrow = x + ih * p->w_in;
    for (kh = 0; kh < p->k_h; kh++) {
      const int32_t oy = ih * p->stride_h - p->pad_top + kh * p->dil_h;
      float *yrow;
      if (oy < 0 || oy >= p->h_out) continue;
      yrow = y + oy * p->w_out;
      for (kw = 0; kw < p->k_w; kw++) {
        const int32_t off = kw * p->dil_w - p->pad_left;
        const float wv = w[kh * p->k_w + kw];
        conv_transpose2d_range_(off, p->stride_w, p->w_out, p->w_in, &i0, &i1);
        if (p->stride_w == 1) {
          float *ys = yrow + (i0 + off);
          const float *xs = xrow + i0;
          for (iw = 0; iw < i1 - i0; iw++) ys[iw] += wv * xs[iw];
        } else {
          for (iw = i0; iw < i1; iw++) yrow[iw * p->stride_w + off] += wv * xrow[iw];
        }
      }
    }
  }
}

OC_API void oc_conv_transpose2d_f32(const oc_conv_transpose2d_params *p, const float *x,
                                    const float *w, const float *bias, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t in_vol = p->d_in * in_plane, out_vol = p->d_out * out_plane;
  const int32_t kk = p->k_h * p->k_w, kvol = p->k_d * kk;
  int32_t n, co, ic, i, id, kd;
  for (n = 0; n < p->n; n++) {
    for (co = 0; co < p->c_out; co++) {
      const int32_t g = co / cog, oc = co - g * cog;
      const float b = bias != NULL ? bias[co] : 0.0f;
      float *yv = y + (n * p->c_out + co) * out_vol;
      for (i = 0; i < out_vol; i++) yv[i] = b;
      for (ic = 0; ic < cig; ic++) {
        const int32_t ci = g * cig + ic;
        const float *xv = x + (n * p->c_in + ci) * in_vol;
        const float *wv = w + (ci * cog + oc) * kvol;
        for (id = 0; id < p->d_in; id++) {
          for (kd = 0; kd < p->k_d; kd++) {
            const int32_t od = id * p->stride_d - p->pad_front + kd * p->dil_d;
            if (od < 0 || od >= p->d_out) continue;
            conv_transpose2d_plane_(p, yv + od * out_plane, xv + id * in_plane, wv + kd * kk);
          }
        }
      }
      if (p->act.kind != OC_ACT_NONE) {
        for (i = 0; i < out_vol; i++) yv[i] = oc_apply_act(&p->act, yv[i]);
      }
    }
  }
}
