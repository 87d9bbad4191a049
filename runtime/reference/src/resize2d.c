/*
 * ONNX Resize of the two innermost dims of (n_c, h, w), as onnxruntime
 * computes it in float:
 *   coordinate transform (output index -> input coordinate):
 *     half_pixel            (o + 0.5) / scale - 0.5
 *     pytorch_half_pixel    same, but 0 when the output length is 1
 *     align_corners         o * (in - 1) / (out - 1), 0 when out is 1
 *     asymmetric            o / scale
 *     tf_half_pixel_for_nn  (o + 0.5) / scale
 *   nearest: round the coordinate (round_prefer_floor/ceil, floor, ceil),
 *     index clamped to [0, in - 1];
 *   linear: coordinate clamped to [0, in - 1]; the two neighbours are
 *     i0 = floor and i1 = min(i0 + 1, in - 1) with weights 1 - f and f
 *     (0.5 and 0.5 when i0 == i1), then
 *     y = w0y*w0x*x00 + w0y*w1x*x01 + w1y*w0x*x10 + w1y*w1x*x11.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

static float resize2d_coord_(int32_t mode, int32_t o, float scale, int32_t len_in,
                             int32_t len_out) {
  const float of = (float)o;
  switch (mode) {
    case OC_COORD_ASYMMETRIC: return of / scale;
    case OC_COORD_ALIGN_CORNERS:
      return len_out == 1 ? 0.0f : of * (float)(len_in - 1) / (float)(len_out - 1);
    case OC_COORD_PYTORCH_HALF_PIXEL:
      return len_out > 1 ? (of + 0.5f) / scale - 0.5f : 0.0f;
    case OC_COORD_TF_HALF_PIXEL_FOR_NN: return (of + 0.5f) / scale;
    default: /* OC_COORD_HALF_PIXEL */ return (of + 0.5f) / scale - 0.5f;
  }
}

static int32_t resize2d_nearest_(int32_t mode, float c, int32_t len_in) {
  const float f = floorf(c), frac = c - f;
  int32_t i;
  if (!(c > -1.0f)) return 0; /* also keeps huge values out of the int conversion */
  if (c > (float)len_in) return len_in - 1;
  switch (mode) {
    case OC_NEAREST_ROUND_PREFER_CEIL: i = (int32_t)f + (frac >= 0.5f); break;
    case OC_NEAREST_FLOOR: i = (int32_t)f; break;
    case OC_NEAREST_CEIL: i = (int32_t)f + (frac > 0.0f); break;
    default: /* OC_NEAREST_ROUND_PREFER_FLOOR */ i = (int32_t)f + (frac > 0.5f); break;
  }
  return i < 0 ? 0 : (i > len_in - 1 ? len_in - 1 : i);
}

/* linear neighbours and weights along one dim */
static void resize2d_linear_(float c, int32_t len_in, int32_t *i0, int32_t *i1, float *w0,
                             float *w1) {
  const float hi = (float)(len_in - 1);
  c = c < 0.0f ? 0.0f : (c > hi ? hi : c);
  *i0 = (int32_t)c;
  *i1 = *i0 + 1 < len_in ? *i0 + 1 : len_in - 1;
  if (*i0 == *i1) {
    *w0 = 0.5f;
    *w1 = 0.5f;
  } else {
    *w1 = c - (float)*i0;
    *w0 = (float)*i1 - c;
  }
}

OC_API void oc_resize2d_f32(const oc_resize2d_params *p, const float *x, float *y) {
  int32_t c, oy, ox;
  for (c = 0; c < p->n_c; c++) {
    const float *xp = x + c * p->h_in * p->w_in;
    for (oy = 0; oy < p->h_out; oy++) {
      const float cy = resize2d_coord_(p->coord_mode, oy, p->scale_h, p->h_in, p->h_out);
      if (p->mode == OC_RESIZE_NEAREST) {
        const float *xr = xp + resize2d_nearest_(p->nearest_mode, cy, p->h_in) * p->w_in;
        for (ox = 0; ox < p->w_out; ox++) {
          const float cx = resize2d_coord_(p->coord_mode, ox, p->scale_w, p->w_in, p->w_out);
          *y++ = xr[resize2d_nearest_(p->nearest_mode, cx, p->w_in)];
        }
      } else {
        int32_t y0, y1, x0, x1;
        float wy0, wy1, wx0, wx1;
        const float *r0, *r1;
        resize2d_linear_(cy, p->h_in, &y0, &y1, &wy0, &wy1);
        r0 = xp + y0 * p->w_in;
        r1 = xp + y1 * p->w_in;
        for (ox = 0; ox < p->w_out; ox++) {
          const float cx = resize2d_coord_(p->coord_mode, ox, p->scale_w, p->w_in, p->w_out);
          resize2d_linear_(cx, p->w_in, &x0, &x1, &wx0, &wx1);
          *y++ = wy0 * wx0 * r0[x0] + wy0 * wx1 * r0[x1] + wy1 * wx0 * r1[x0] +
                 wy1 * wx1 * r1[x1];
        }
      }
    }
  }
}
