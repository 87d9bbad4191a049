/* RoiAlign (oc_roi_align_params), following ONNX Runtime's computation:
 * sample positions outside [-1, size] contribute 0, others are clamped
 * into the image and bilinearly interpolated; max mode takes the largest
 * weighted corner. */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* bilinear sample of plane (h, w) at (y, x) with ONNX Runtime's clamping;
 * is_max returns the largest weighted corner instead of their sum */
static float roi_align_sample_(const oc_roi_align_params *p, const float *plane, float y, float x) {
  int32_t y0, x0, y1, x1;
  float ly, lx, hy, hx, v1, v2, v3, v4;
  if (y < -1.0f || y > (float)p->h || x < -1.0f || x > (float)p->w) return 0.0f;
  y = y <= 0.0f ? 0.0f : y;
  x = x <= 0.0f ? 0.0f : x;
  y0 = (int32_t)y;
  x0 = (int32_t)x;
  if (y0 >= p->h - 1) {
    y0 = y1 = p->h - 1;
    y = (float)y0;
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= p->w - 1) {
    x0 = x1 = p->w - 1;
    x = (float)x0;
  } else {
    x1 = x0 + 1;
  }
  ly = y - (float)y0;
  lx = x - (float)x0;
  hy = 1.0f - ly;
  hx = 1.0f - lx;
  v1 = hy * hx * plane[y0 * p->w + x0];
  v2 = hy * lx * plane[y0 * p->w + x1];
  v3 = ly * hx * plane[y1 * p->w + x0];
  v4 = ly * lx * plane[y1 * p->w + x1];
  if (p->is_max) {
    const float a = v1 > v2 ? v1 : v2, b = v3 > v4 ? v3 : v4;
    return a > b ? a : b;
  }
  return v1 + v2 + v3 + v4;
}

OC_API void oc_roi_align_f32(const oc_roi_align_params *p, const float *x, const float *rois,
                             const int64_t *batch_indices, float *y) {
  const float offset = p->half_pixel ? 0.5f : 0.0f;
  int32_t r, ch, ph, pw, iy, ix;
  for (r = 0; r < p->n_rois; r++) {
    const float *roi = rois + 4 * r;
    const int64_t bi = batch_indices[r];
    const float x1 = roi[0] * p->spatial_scale - offset, y1 = roi[1] * p->spatial_scale - offset;
    float rw = roi[2] * p->spatial_scale - offset - x1, rh = roi[3] * p->spatial_scale - offset - y1;
    float bin_w, bin_h;
    int32_t grid_h, grid_w, count;
    if (!p->half_pixel) {
      rw = rw > 1.0f ? rw : 1.0f;
      rh = rh > 1.0f ? rh : 1.0f;
    }
    bin_h = rh / (float)p->out_h;
    bin_w = rw / (float)p->out_w;
    grid_h = p->sampling_ratio > 0 ? p->sampling_ratio : (int32_t)ceilf(rh / (float)p->out_h);
    grid_w = p->sampling_ratio > 0 ? p->sampling_ratio : (int32_t)ceilf(rw / (float)p->out_w);
    count = grid_h * grid_w > 1 ? grid_h * grid_w : 1;
    for (ch = 0; ch < p->c; ch++) {
      const float *plane = x + ((ptrdiff_t)(bi < 0 || bi >= p->n ? 0 : bi) * p->c + ch) * p->h * p->w;
      float *yo = y + ((ptrdiff_t)r * p->c + ch) * p->out_h * p->out_w;
      for (ph = 0; ph < p->out_h; ph++) {
        for (pw = 0; pw < p->out_w; pw++) {
          float acc = 0.0f;
          int first = 1;
          for (iy = 0; iy < grid_h; iy++) {
            const float sy = y1 + (float)ph * bin_h + ((float)iy + 0.5f) * bin_h / (float)grid_h;
            for (ix = 0; ix < grid_w; ix++) {
              const float sx = x1 + (float)pw * bin_w + ((float)ix + 0.5f) * bin_w / (float)grid_w;
              const float v = roi_align_sample_(p, plane, sy, sx);
              if (p->is_max) {
                acc = (first || v > acc) ? v : acc;
                first = 0;
              } else {
                acc += v;
              }
            }
          }
          yo[ph * p->out_w + pw] = p->is_max ? acc : acc / (float)count;
        }
      }
    }
  }
}
