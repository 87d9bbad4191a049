/*
 * GridSample (oc_grid_sample_params) as PyTorch's grid_sample computes it:
 * grid coordinates are unnormalized to pixel positions, then
 *   bilinear: the four neighbours weighted by distance,
 *   nearest: the neighbour at round-half-to-even position,
 *   bicubic: 4x4 cubic convolution (A = -0.75), rows then the column;
 * padding: zeros (outside reads 0), border (clamped), reflection (mirrored
 * at the borders, or at the half-pixel edges without align_corners).
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

static float grid_unnormalize_(float v, int32_t size, int32_t align) {
  return align ? (v + 1.0f) * 0.5f * (float)(size - 1) : ((v + 1.0f) * (float)size - 1.0f) * 0.5f;
}

/* mirror v into [lo2 / 2, hi2 / 2] (bounds given doubled) */
static float grid_reflect_(float v, int32_t lo2, int32_t hi2) {
  const float lo = (float)lo2 * 0.5f, span = (float)(hi2 - lo2) * 0.5f;
  float extra, flips;
  if (lo2 == hi2) return 0.0f;
  v = fabsf(v - lo);
  flips = floorf(v / span);
  extra = fmodf(v, span); /* exact */
  return (flips - 2.0f * floorf(flips * 0.5f) == 0.0f) ? extra + lo : span - extra + lo;
}

/* a pixel position under the padding mode (border, reflection) */
static float grid_pad_(const oc_grid_sample_params *p, float v, int32_t size) {
  if (p->padding == OC_GRID_REFLECTION) {
    v = p->align_corners ? grid_reflect_(v, 0, 2 * (size - 1)) : grid_reflect_(v, -1, 2 * size - 1);
  }
  if (p->padding != OC_GRID_ZEROS) v = v < 0.0f ? 0.0f : (v > (float)(size - 1) ? (float)(size - 1) : v);
  return v;
}

static float grid_at_(const oc_grid_sample_params *p, const float *plane, int32_t y, int32_t x) {
  return (y < 0 || y >= p->h_in || x < 0 || x >= p->w_in) ? 0.0f : plane[y * p->w_in + x];
}

/* a tap of bicubic: integer position under the padding mode */
static float grid_tap_(const oc_grid_sample_params *p, const float *plane, int32_t y, int32_t x) {
  const float fy = grid_pad_(p, (float)y, p->h_in), fx = grid_pad_(p, (float)x, p->w_in);
  return grid_at_(p, plane, (int32_t)fy, (int32_t)fx);
}

static void grid_cubic_weights_(float t, float w[4]) {
  const float a = -0.75f, t1 = t + 1.0f, t2 = 1.0f - t, t3 = t2 + 1.0f;
  w[0] = ((a * t1 - 5.0f * a) * t1 + 8.0f * a) * t1 - 4.0f * a;
  w[1] = ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
  w[2] = ((a + 2.0f) * t2 - (a + 3.0f)) * t2 * t2 + 1.0f;
  w[3] = ((a * t3 - 5.0f * a) * t3 + 8.0f * a) * t3 - 4.0f * a;
}

static float grid_sample_one_(const oc_grid_sample_params *p, const float *plane, float gx, float gy) {
  float ix = grid_unnormalize_(gx, p->w_in, p->align_corners);
  float iy = grid_unnormalize_(gy, p->h_in, p->align_corners);
  if (p->mode == OC_GRID_BICUBIC) {
    const float x0 = floorf(ix), y0 = floorf(iy);
    float wx[4], wy[4], sum = 0.0f;
    int32_t i, j;
    grid_cubic_weights_(ix - x0, wx);
    grid_cubic_weights_(iy - y0, wy);
    for (j = 0; j < 4; j++) {
      float row = 0.0f;
      for (i = 0; i < 4; i++) {
        row += wx[i] * grid_tap_(p, plane, (int32_t)y0 - 1 + j, (int32_t)x0 - 1 + i);
      }
      sum += wy[j] * row;
    }
    return sum;
  }
  ix = grid_pad_(p, ix, p->w_in);
  iy = grid_pad_(p, iy, p->h_in);
  if (p->mode == OC_GRID_NEAREST) {
    return grid_at_(p, plane, (int32_t)oc_roundf_even(iy), (int32_t)oc_roundf_even(ix));
  }
  {
    const float x0 = floorf(ix), y0 = floorf(iy), x1 = x0 + 1.0f, y1 = y0 + 1.0f;
    const int32_t xi = (int32_t)x0, yi = (int32_t)y0;
    return grid_at_(p, plane, yi, xi) * ((x1 - ix) * (y1 - iy)) +
           grid_at_(p, plane, yi, xi + 1) * ((ix - x0) * (y1 - iy)) +
           grid_at_(p, plane, yi + 1, xi) * ((x1 - ix) * (iy - y0)) +
           grid_at_(p, plane, yi + 1, xi + 1) * ((ix - x0) * (iy - y0));
  }
}

/* 3-D (volumetric) GridSample, linear and nearest: x (n, c, d_in, h_in,
 * w_in) sampled at grid (n, d_out, h_out, w_out, 3) positions (x, y, z). */
static float grid_at3_(const oc_grid_sample_params *p, const float *vol, int32_t z, int32_t y,
                       int32_t x) {
  if (z < 0 || z >= p->d_in) return 0.0f;
  return grid_at_(p, vol + (ptrdiff_t)z * p->h_in * p->w_in, y, x);
}

static float grid_sample3_one_(const oc_grid_sample_params *p, const float *vol, const float *g) {
  const float ix = grid_pad_(p, grid_unnormalize_(g[0], p->w_in, p->align_corners), p->w_in);
  const float iy = grid_pad_(p, grid_unnormalize_(g[1], p->h_in, p->align_corners), p->h_in);
  const float iz = grid_pad_(p, grid_unnormalize_(g[2], p->d_in, p->align_corners), p->d_in);
  const float x0 = floorf(ix), y0 = floorf(iy), z0 = floorf(iz);
  const float fx = ix - x0, fy = iy - y0, fz = iz - z0;
  float sum = 0.0f;
  int32_t corner;
  if (p->mode == OC_GRID_NEAREST) {
    return grid_at3_(p, vol, (int32_t)oc_roundf_even(iz), (int32_t)oc_roundf_even(iy),
                     (int32_t)oc_roundf_even(ix));
  }
  for (corner = 0; corner < 8; corner++) {
    const int32_t dz = corner >> 2, dy = (corner >> 1) & 1, dx = corner & 1;
    const float w = (dz ? fz : 1.0f - fz) * (dy ? fy : 1.0f - fy) * (dx ? fx : 1.0f - fx);
    sum += w * grid_at3_(p, vol, (int32_t)z0 + dz, (int32_t)y0 + dy, (int32_t)x0 + dx);
  }
  return sum;
}

static void grid_sample3d_(const oc_grid_sample_params *p, const float *x, const float *grid,
                           float *y) {
  const int32_t out_vol = p->d_out * p->h_out * p->w_out, in_vol = p->d_in * p->h_in * p->w_in;
  int32_t b, ch, i;
  for (b = 0; b < p->n; b++) {
    const float *gb = grid + (ptrdiff_t)b * out_vol * 3;
    for (ch = 0; ch < p->c; ch++) {
      const float *vol = x + ((ptrdiff_t)b * p->c + ch) * in_vol;
      float *yp = y + ((ptrdiff_t)b * p->c + ch) * out_vol;
      for (i = 0; i < out_vol; i++) yp[i] = grid_sample3_one_(p, vol, gb + 3 * i);
    }
  }
}

OC_API void oc_grid_sample_f32(const oc_grid_sample_params *p, const float *x, const float *grid,
                               float *y) {
  const int32_t out_plane = p->h_out * p->w_out;
  int32_t b, ch, i;
  if (p->d_in > 0) { /* 3-D */
    grid_sample3d_(p, x, grid, y);
    return;
  }
  for (b = 0; b < p->n; b++) {
    const float *gb = grid + (ptrdiff_t)b * out_plane * 2;
    for (ch = 0; ch < p->c; ch++) {
      const float *plane = x + ((ptrdiff_t)b * p->c + ch) * p->h_in * p->w_in;
      float *yp = y + ((ptrdiff_t)b * p->c + ch) * out_plane;
      for (i = 0; i < out_plane; i++) yp[i] = grid_sample_one_(p, plane, gb[2 * i], gb[2 * i + 1]);
    }
  }
}

