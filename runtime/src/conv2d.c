/*
 * ONNX Conv, 2-D (1-D is h = k_h = 1) and 3-D (depth taps over 2-D planes):
 * NCHW input, OIHW weights, groups, strides, dilations, begin pads;
 * out-of-range input positions read as 0.
 *
 * Accumulation order (fixed, the same on every target): each output element
 * starts from the bias (or 0) and adds w * x for ic = 0..c_in/group-1, then
 * kd, kh, kw, in increasing order, skipping taps that fall in the padding.
 * Inner loops run over output columns, so they vectorize without
 * reassociating any sum.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* [*lo, *hi): the outputs o in [0, len_out) whose input o * stride + off is
 * in [0, len_in). */
static void conv2d_range_(int32_t off, int32_t stride, int32_t len_in, int32_t len_out,
                          int32_t *lo, int32_t *hi) {
  int32_t a = off < 0 ? (stride - 1 - off) / stride : 0;
  int32_t b = len_in - off > 0 ? (len_in - off + stride - 1) / stride : 0;
  if (b > len_out) b = len_out;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

static void conv2d_axpy_(float *restrict y, const float *restrict x, float a, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) y[i] += a * x[i];
}

/* y (h_out x w_out) += conv(x plane, one k_h x k_w filter) */
static void conv2d_plane_(const oc_conv2d_params *p, float *restrict y, const float *restrict x,
                          const float *restrict w) {
  int32_t oy, kh, kw, ox, x0, x1;
  for (oy = 0; oy < p->h_out; oy++) {
    float *yrow = y + oy * p->w_out;
    for (kh = 0; kh < p->k_h; kh++) {
      const int32_t iy = oy * p->stride_h - p->pad_top + kh * p->dil_h;
      const float *xrow;
      if (iy < 0 || iy >= p->h_in) continue;
      xrow = x + iy * p->w_in;
      for (kw = 0; kw < p->k_w; kw++) {
        const int32_t off = kw * p->dil_w - p->pad_left;
        const float wv = w[kh * p->k_w + kw];
        conv2d_range_(off, p->stride_w, p->w_in, p->w_out, &x0, &x1);
        if (p->stride_w == 1) {
          conv2d_axpy_(yrow + x0, xrow + (x0 + off), wv, x1 - x0);
        } else {
          for (ox = x0; ox < x1; ox++) yrow[ox] += wv * xrow[ox * p->stride_w + off];
        }
      }
    }
  }
}

OC_API void oc_conv2d_f32(const oc_conv2d_params *p, const float *x, const float *w,
                          const float *bias, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t in_vol = p->d_in * in_plane, out_vol = p->d_out * out_plane;
  const int32_t kk = p->k_h * p->k_w, kvol = p->k_d * kk;
  /* 1x1, stride 1, no padding: each volume is one long row (a GEMM); same
   * accumulation order as the general path. */
  const int is_pointwise = kvol == 1 && p->stride_h == 1 && p->stride_w == 1 &&
                           p->stride_d == 1 && p->pad_top == 0 && p->pad_left == 0 &&
                           p->pad_front == 0 && p->h_out == p->h_in && p->w_out == p->w_in &&
                           p->d_out == p->d_in;
  int32_t n, co, ic, i, od, kd;
  for (n = 0; n < p->n; n++) {
    for (co = 0; co < p->c_out; co++) {
      const int32_t g = co / cog;
      const float *xg = x + (n * p->c_in + g * cig) * in_vol;
      const float *wc = w + co * cig * kvol;
      const float b = bias != NULL ? bias[co] : 0.0f;
      float *yv = y + (n * p->c_out + co) * out_vol;
      for (i = 0; i < out_vol; i++) yv[i] = b;
      for (ic = 0; ic < cig; ic++) {
        if (is_pointwise) {
          conv2d_axpy_(yv, xg + ic * in_vol, wc[ic], out_vol);
          continue;
        }
        /* depth taps: each adds one 2-D convolution of an input plane */
        for (od = 0; od < p->d_out; od++) {
          for (kd = 0; kd < p->k_d; kd++) {
            const int32_t id = od * p->stride_d - p->pad_front + kd * p->dil_d;
            if (id < 0 || id >= p->d_in) continue;
            conv2d_plane_(p, yv + od * out_plane, xg + ic * in_vol + id * in_plane,
                          wc + ic * kvol + kd * kk);
          }
        }
      }
      if (p->act.kind != OC_ACT_NONE) {
        for (i = 0; i < out_vol; i++) yv[i] = oc_apply_act(&p->act, yv[i]);
      }
    }
  }
}
