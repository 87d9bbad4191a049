/*
 * DeformConv (oc_deform_conv_params), 2-D: a grouped convolution whose taps
 * are read at fractional positions. Output pixel (i, j), kernel tap (u, v) of
 * offset group g reads input position
 *   h = i * stride_h - pad_top + u * dilation_h + offset[g, u, v, 0, i, j]
 *   w = j * stride_w - pad_left + v * dilation_w + offset[g, u, v, 1, i, j]
 * bilinearly (a neighbour outside the image reads 0), scaled by mask[g, u, v,
 * i, j] (1 without a mask), times the weight; the bias starts the sum.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* plane (h, w) at the fractional position (y, x), zeros outside */
static float deform_sample_(const float *plane, int32_t h, int32_t w, float y, float x) {
  const float y0f = floorf(y), x0f = floorf(x);
  const float fy = y - y0f, fx = x - x0f;
  const int32_t y0 = (int32_t)y0f, x0 = (int32_t)x0f;
  float sum = 0.0f;
  int32_t dy, dx;
  if (y <= -1.0f || x <= -1.0f || y >= (float)h || x >= (float)w) return 0.0f;
  for (dy = 0; dy < 2; dy++) {
    for (dx = 0; dx < 2; dx++) {
      const int32_t yy = y0 + dy, xx = x0 + dx;
      const float weight = (dy ? fy : 1.0f - fy) * (dx ? fx : 1.0f - fx);
      if (yy >= 0 && yy < h && xx >= 0 && xx < w) sum += weight * plane[yy * w + xx];
    }
  }
  return sum;
}

/* one output pixel (i, j) of output channel oc in batch b */
static float deform_pixel_(const oc_deform_conv_params *p, const float *xb, const float *w,
                           const float *offb, const float *maskb, int32_t oc, int32_t i,
                           int32_t j) {
  const int32_t taps = p->kh * p->kw, out_plane = p->out_h * p->out_w;
  const int32_t c_per_group = p->c / p->group, oc_per_group = p->oc / p->group;
  const int32_t c_per_offset_group = p->c / p->offset_group;
  const int32_t c_first = (oc / oc_per_group) * c_per_group;
  const ptrdiff_t at = (ptrdiff_t)i * p->out_w + j;
  float sum = 0.0f;
  int32_t ci, t;
  for (ci = 0; ci < c_per_group; ci++) {
    const int32_t c = c_first + ci, g = c / c_per_offset_group;
    const float *plane = xb + (ptrdiff_t)c * p->h * p->w;
    const float *wk = w + ((ptrdiff_t)oc * c_per_group + ci) * taps;
    for (t = 0; t < taps; t++) {
      const int32_t u = t / p->kw, v = t % p->kw;
      const float *off = offb + ((ptrdiff_t)(g * taps + t) * 2) * out_plane + at;
      const float y = (float)(i * p->stride_h - p->pad_top + u * p->dilation_h) + off[0];
      const float x = (float)(j * p->stride_w - p->pad_left + v * p->dilation_w) + off[out_plane];
      float tap = deform_sample_(plane, p->h, p->w, y, x);
      if (maskb != NULL) tap *= maskb[(ptrdiff_t)(g * taps + t) * out_plane + at];
      sum += wk[t] * tap;
    }
  }
  return sum;
}

OC_API void oc_deform_conv_f32(const oc_deform_conv_params *p, const float *x, const float *w,
                               const float *offset, const float *bias, const float *mask,
                               float *y) {
  const int32_t taps = p->kh * p->kw, out_plane = p->out_h * p->out_w;
  int32_t b, oc, i, j;
  for (b = 0; b < p->n; b++) {
    const float *xb = x + (ptrdiff_t)b * p->c * p->h * p->w;
    const float *offb = offset + (ptrdiff_t)b * p->offset_group * taps * 2 * out_plane;
    const float *maskb = mask ? mask + (ptrdiff_t)b * p->offset_group * taps * out_plane : NULL;
    for (oc = 0; oc < p->oc; oc++) {
      float *yp = y + ((ptrdiff_t)b * p->oc + oc) * out_plane;
      for (i = 0; i < p->out_h; i++) {
        for (j = 0; j < p->out_w; j++) {
          const float acc = deform_pixel_(p, xb, w, offb, maskb, oc, i, j);
          yp[i * p->out_w + j] = (bias ? bias[oc] : 0.0f) + acc;
        }
      }
    }
  }
}
