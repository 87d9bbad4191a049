/*
 * ONNX Conv, 2-D (1-D is h = k_h = 1) and 3-D (depth taps over 2-D planes):
 * NCHW input, OIHW weights, groups, strides, dilations, begin pads;
 * out-of-range input positions read as 0.
 *
 * Accumulation order (fixed, the same on every target and for every tile
 * size): each output element starts from the bias (or 0) and adds w * x for
 * ic = 0..c_in/group-1, then kd, kh, kw, in increasing order, skipping taps
 * that fall in the padding. The activation is applied to the finished sum.
 *
 * 2-D convolutions run register-tiled: a micro-kernel keeps 4 output
 * channels x 4 output pixels of one row (here; x86-64: 8, as two 4-float
 * vectors, runtime/x86) in local accumulators while it walks the taps, so
 * every input value is loaded once per 4 channels and every weight once per
 * tile (oc_tile.h, oc_lane.h). Tiles cover the pixels whose taps are all
 * inside the input (no bounds checks in the inner loops); the pixels near
 * the padding go through a per-pixel loop over the valid taps only. The
 * order of each sum is the one above whatever the tiling, so every tile size
 * gives the same bits. 1x1 stride-1 convolutions tile a whole plane as one
 * row (a GEMM); depthwise 3x3 and 5x5 convolutions of stride 1 or 2 have
 * their own tiles (oc_dw_tiles.h), plane by plane (oc_dw_plane.h). With
 * scratch for a row band, oc_conv2d_band_f32 (conv2d_band.c) gives the same
 * bits without edge handling.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_conv_tiles.h"
#include "onnx_to_c/oc_conv_band.h"
#include "onnx_to_c/oc_dw_plane.h"

static void conv2d_volume_(const oc_conv2d_params *p, const float *x, const float *w,
                           const float *bias, int32_t co, float *y);

OC_API void oc_conv2d_f32(const oc_conv2d_params *p, const float *x, const float *w,
                          const float *bias, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t kk = p->k_h * p->k_w;
  const int is_pointwise = kk == 1 && p->stride_h == 1 && p->stride_w == 1 && p->pad_top == 0 &&
                           p->pad_left == 0 && p->h_out == p->h_in && p->w_out == p->w_in;
  conv2d_geom_ g;
  conv2d_dw_run_ one; /* a depthwise plane at its place */
  int32_t n, grp, c0, oy, finite;
  if (p->k_d != 1 || p->d_in != 1 || p->d_out != 1 || p->pad_front != 0) {
    for (n = 0; n < p->n; n++) {
      for (c0 = 0; c0 < p->c_out; c0++) {
        conv2d_volume_(p, x + n * p->c_in * p->d_in * in_plane, w, bias, c0,
                       y + (n * p->c_out + c0) * p->d_out * out_plane);
      }
    }
    return;
  }
  conv2d_geom_init_(p, &g);
  one.planes = 1;
  one.in_plane = in_plane;
  one.out_plane = out_plane;
  one.scratch = NULL;
  one.below = -1;
  /* only the padded rows read it: a 1x1 has none, and its weights are most of a model's; nor
   * has a window inside its input (a patch's interior window, called once per patch) */
  finite = !is_pointwise && conv2d_reads_padding_(p) && conv2d_finite_(w, p->c_out * cig * kk);
  for (n = 0; n < p->n; n++) {
    for (grp = 0; grp < p->group; grp++) {
      const float *xg = x + (n * p->c_in + grp * cig) * in_plane;
      for (c0 = 0; c0 < cog; c0 += 4) {
        const int32_t co = grp * cog + c0, nco = cog - c0 < 4 ? cog - c0 : 4;
        const float *wc = w + co * cig * kk;
        const float *bc = bias != NULL ? bias + co : NULL;
        float *yc = y + (n * p->c_out + co) * out_plane;
        g.exact_pad = finite && !conv2d_neg_zero_(bc, nco);
        if (is_pointwise) {
          conv2d_pointwise_(&g, xg, wc, bc, nco, in_plane, yc);
          continue;
        }
        if (cig == 1 && cog == 1) {
          conv2d_dw_planes_(p, &g, &one, xg, wc, bc, yc);
          continue;
        }
        for (oy = 0; oy < p->h_out; oy++) conv2d_row_(p, &g, xg, wc, bc, nco, oy, yc);
      }
    }
  }
}

/* 3-D: output channel co of one batch item, x at the batch item. Each depth
 * tap adds one 2-D convolution of an input plane, row by row. */
static void conv2d_volume_(const oc_conv2d_params *p, const float *x, const float *w,
                           const float *bias, int32_t co, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t in_vol = p->d_in * in_plane, out_vol = p->d_out * out_plane;
  const int32_t kk = p->k_h * p->k_w, kvol = p->k_d * kk;
  const float *xg = x + (co / cog) * cig * in_vol;
  const float *wc = w + co * cig * kvol;
  const float b = bias != NULL ? bias[co] : 0.0f;
  int32_t i, ic, od, kd, oy, kh, kw, ox, x0, x1;
  for (i = 0; i < out_vol; i++) y[i] = b;
  for (ic = 0; ic < cig; ic++) {
    for (od = 0; od < p->d_out; od++) {
      for (kd = 0; kd < p->k_d; kd++) {
        const int32_t id = od * p->stride_d - p->pad_front + kd * p->dil_d;
        const float *xp, *wp;
        if (id < 0 || id >= p->d_in) continue;
        xp = xg + ic * in_vol + id * in_plane;
        wp = wc + ic * kvol + kd * kk;
        for (oy = 0; oy < p->h_out; oy++) {
          float *yrow = y + od * out_plane + oy * p->w_out;
          for (kh = 0; kh < p->k_h; kh++) {
            const int32_t iy = oy * p->stride_h - p->pad_top + kh * p->dil_h;
            if (iy < 0 || iy >= p->h_in) continue;
            for (kw = 0; kw < p->k_w; kw++) {
              const int32_t off = kw * p->dil_w - p->pad_left;
              const float wv = wp[kh * p->k_w + kw];
              const float *xrow = xp + iy * p->w_in;
              conv2d_range_(off, p->stride_w, p->w_in, p->w_out, &x0, &x1);
              for (ox = x0; ox < x1; ox++) yrow[ox] += wv * xrow[ox * p->stride_w + off];
            }
          }
        }
      }
    }
  }
  if (p->act.kind != OC_ACT_NONE) {
    for (i = 0; i < out_vol; i++) y[i] = oc_apply_act(&p->act, y[i]);
  }
}
