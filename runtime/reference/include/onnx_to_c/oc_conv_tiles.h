/*
 * onnx-to-c runtime: the register tiles of the 2-D convolution
 * (oc_conv_tile_fns.h) over output rows, shared by oc_conv2d_f32 (conv2d.c)
 * and oc_conv1x1_overlap_f32 (conv1x1_overlap.c) so that both compute every
 * sum the same way (see conv2d.c for the order). An optimized folder adds
 * tiles through oc_conv_fast.h.
 */
#ifndef ONNX_TO_C_OC_CONV_TILES_H_
#define ONNX_TO_C_OC_CONV_TILES_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_dw_tiles.h"
#include "onnx_to_c/oc_conv_fast.h"

/* The tiles of 4 channels (nco4) or 1, stride 1 (s1) or not, 1x1 stride 1
 * (pw, with nco4 and s1), in the order conv2d_tiles_ prefers them: an
 * optimized folder's tiles over wider lanes (OC_CONV_SET_FAST), then the
 * 2-lane and the 1-lane tiles. */
#define OC_CONV_PICK4(kind, sfx) \
  pw ? conv2d_##kind##sfx##_pw_ : s1 ? conv2d_##kind##sfx##_s1_ : conv2d_##kind##sfx##_sn_
OC_INLINE void conv2d_set_init_(conv2d_tile_set_ *s, int nco4, int s1, int pw) {
  const int32_t lanes_wide = OC_TILE_WIDE / OC_LANE_W, lanes_narrow = OC_TILE_NARROW / OC_LANE_W;
  s->n = 0;
  if (nco4) {
    OC_CONV_SET_FAST(s)
    conv2d_set_add_(s, OC_CONV_PICK4(t4w, ), OC_CONV_PICK4(t4o, ), lanes_wide, OC_LANE_W);
    conv2d_set_add_(s, OC_CONV_PICK4(t4n, ), NULL, lanes_narrow, OC_LANE_W);
  } else {
    conv2d_set_add_(s, s1 ? conv2d_t1w_s1_ : conv2d_t1w_sn_, s1 ? conv2d_t1o_s1_ : conv2d_t1o_sn_,
                    lanes_wide, OC_LANE_W);
    conv2d_set_add_(s, s1 ? conv2d_t1n_s1_ : conv2d_t1n_sn_, NULL, lanes_narrow, OC_LANE_W);
  }
}
#undef OC_CONV_PICK4

/* Runs the tiles of set s over the outputs [lo, hi) of a row, tile start
 * ox at input x + (ox - lo) * in_step, output y + ox: the first tile of the
 * set that can cover part of the range, over the whole range if it is that
 * narrow, else as often as it fits, then the narrowest tile that covers
 * the rest, moved back to end at hi (it recomputes a few outputs, with the
 * same bits). Returns the end of the tiled range: lo when the range is
 * narrower than every tile. */
OC_INLINE int32_t conv2d_tiles_(const conv2d_geom_ *g, const conv2d_tile_set_ *s,
                                const float *x, int32_t in_step, const float *w,
                                const float *bias, int32_t nkh, float *y, int32_t lo,
                                int32_t hi) {
  int32_t t = 0, j, ox = lo, r;
  while (t < s->n && s->min[t] > hi - lo) t++;
  if (t == s->n) return lo;
  if (hi - lo < s->width[t]) {
    s->part[t](g, x, w, bias, nkh, hi - lo, y + lo);
    return hi;
  }
  for (; hi - ox >= s->width[t]; ox += s->width[t]) {
    s->fn[t](g, x + (ox - lo) * in_step, w, bias, nkh, s->width[t], y + ox);
  }
  r = hi - ox;
  if (r > 0) {
    for (j = t + 1; j < s->n; j++) {
      if (s->width[j] >= r && s->width[j] < s->width[t]) t = j;
    }
    ox = hi - s->width[t];
    s->fn[t](g, x + (ox - lo) * in_step, w, bias, nkh, s->width[t], y + ox);
  }
  return hi;
}

/* bb[c] = the bias of channel c < nco of a block (0.0f without bias), 0.0f
 * past nco: the tiles read 4 biases whatever the block's size. */
OC_INLINE void conv2d_bias4_(const float *bias, int32_t nco, float *bb) {
  int32_t c;
  for (c = 0; c < 4; c++) bb[c] = bias != NULL && c < nco ? bias[c] : 0.0f;
}

/* One pixel of nco (1..4) output channels, over the valid taps: kernel rows
 * 0..nkh-1 from x (ic 0, first valid row, column 0) and w (channel 0, ic 0,
 * first valid row), kernel columns [kw0, kw1) at input column ix + kw * dil_w. */
OC_INLINE void conv2d_pixel_(const conv2d_geom_ *g, const float *x, const float *w,
                          const float *bias, int32_t nco, int32_t nkh, int32_t ix, int32_t kw0,
                          int32_t kw1, float *y) {
  const int32_t ws = g->w_co;
  int32_t ic, kh, kw, c;
  if (nco == 4) {
    float a0 = bias != NULL ? bias[0] : 0.0f, a1 = bias != NULL ? bias[1] : 0.0f;
    float a2 = bias != NULL ? bias[2] : 0.0f, a3 = bias != NULL ? bias[3] : 0.0f;
    for (ic = 0; ic < g->cig; ic++) {
      const float *xr = x + ic * g->in_plane;
      const float *wr = w + ic * g->kk;
      for (kh = 0; kh < nkh; kh++, xr += g->row_step, wr += g->k_w) {
        for (kw = kw0; kw < kw1; kw++) {
          const float xv = xr[ix + kw * g->dil_w];
          OC_MAC(a0, wr[kw], xv);
          OC_MAC(a1, wr[ws + kw], xv);
          OC_MAC(a2, wr[2 * ws + kw], xv);
          OC_MAC(a3, wr[3 * ws + kw], xv);
        }
      }
    }
    y[0] = oc_tile_act(g->act, a0);
    y[g->y_co] = oc_tile_act(g->act, a1);
    y[2 * g->y_co] = oc_tile_act(g->act, a2);
    y[3 * g->y_co] = oc_tile_act(g->act, a3);
    return;
  }
  for (c = 0; c < nco; c++) {
    const float *wc = w + c * ws;
    float a = bias != NULL ? bias[c] : 0.0f;
    for (ic = 0; ic < g->cig; ic++) {
      const float *xr = x + ic * g->in_plane;
      const float *wr = wc + ic * g->kk;
      for (kh = 0; kh < nkh; kh++, xr += g->row_step, wr += g->k_w) {
        for (kw = kw0; kw < kw1; kw++) OC_MAC(a, wr[kw], xr[ix + kw * g->dil_w]);
      }
    }
    y[c * g->y_co] = oc_tile_act(g->act, a);
  }
}

/* One output row (oy) of nco output channels: tiles over the pixels whose
 * kernel columns are all inside the input, edge tiles or the per-pixel loop
 * elsewhere (depthwise planes take the rows of oc_dw_tiles.h first:
 * conv2d_dw_planes_, oc_dw_plane.h). */
OC_INLINE void conv2d_row_(const oc_conv2d_params *p, const conv2d_geom_ *g, const float *x,
                        const float *w, const float *bias, int32_t nco, int32_t oy, float *y) {
  const int32_t sw = p->stride_w, span = (p->k_w - 1) * p->dil_w;
  int32_t kh0 = 0, nkh = 0, kh, lo, hi, ox, t1;
  const float *xr;
  float bb[4];
  conv2d_bias4_(bias, nco, bb);
  bias = bb;
  for (kh = 0; kh < p->k_h; kh++) {
    const int32_t iy = oy * p->stride_h - p->pad_top + kh * p->dil_h;
    if (iy < 0 || iy >= p->h_in) continue;
    if (nkh == 0) kh0 = kh;
    nkh++;
  }
  xr = x + (nkh > 0 ? (oy * p->stride_h - p->pad_top + kh0 * p->dil_h) * p->w_in : 0);
  w += kh0 * p->k_w;
  y += oy * p->w_out;
  conv2d_range_(-p->pad_left, sw, p->w_in - span, p->w_out, &lo, &hi);
  if (g->exact_pad && nco == 4 && p->k_w <= OC_CONV_EDGE_KW && p->w_out >= OC_TILE_NARROW) {
    /* edge tiles from each end up to a multiple of their width, inner tiles
     * over the pixels between, edge tiles again over what those leave */
    const int32_t nw = OC_TILE_NARROW;
    const int32_t a = (lo + nw - 1) / nw * nw, b = p->w_out - (p->w_out - hi + nw - 1) / nw * nw;
    if (a >= b) {
      conv2d_edges_(p, g, xr, w, bias, nkh, 0, p->w_out, y);
      return;
    }
    conv2d_edges_(p, g, xr, w, bias, nkh, 0, a, y);
    conv2d_edges_(p, g, xr, w, bias, nkh, b, p->w_out, y);
    lo = a;
    hi = b;
  }
  t1 = lo; /* [lo, t1): the tiled pixels */
  if (lo == hi) {
    /* no pixel has all its kernel columns inside the input */
  } else {
    /* tile start ox reads from input column ox * sw - pad_left >= 0 */
    const float *x0 = xr + (lo * sw - p->pad_left);
    conv2d_tile_set_ s;
    conv2d_set_init_(&s, nco == 4, sw == 1, 0);
    if (nco == 4) {
      t1 = conv2d_tiles_(g, &s, x0, sw, w, bias, nkh, y, lo, hi);
    } else {
      int32_t c;
      for (c = 0; c < nco; c++) {
        t1 = conv2d_tiles_(g, &s, x0, sw, w + c * g->w_co, bias != NULL ? bias + c : NULL, nkh,
                           y + c * g->y_co, lo, hi);
      }
    }
  }
  if (g->exact_pad && nco == 4 && p->k_w <= OC_CONV_EDGE_KW && p->w_out >= OC_TILE_NARROW) {
    if (t1 < hi) conv2d_edges_(p, g, xr, w, bias, nkh, lo, hi, y); /* fewer than a tile */
    return;
  }
  for (ox = 0; ox < p->w_out; ox++) {
    const int32_t ix = ox * sw - p->pad_left;
    int32_t kw0 = 0, kw1 = p->k_w;
    if (ox == lo && lo < t1) {
      ox = t1 - 1; /* tiled above */
      continue;
    }
    while (kw0 < kw1 && ix + kw0 * p->dil_w < 0) kw0++;
    while (kw1 > kw0 && ix + (kw1 - 1) * p->dil_w >= p->w_in) kw1--;
    conv2d_pixel_(g, xr, w, bias, nco, nkh, ix, kw0, kw1, y + ox);
  }
}

/* 1x1, stride 1, no padding: the plane is one row of vol pixels. */
OC_INLINE void conv2d_pointwise_(const conv2d_geom_ *g, const float *x, const float *w,
                              const float *bias, int32_t nco, int32_t vol, float *y) {
  int32_t i = 0, c;
  float bb[4];
  conv2d_tile_set_ s;
  conv2d_bias4_(bias, nco, bb);
  bias = bb;
  conv2d_set_init_(&s, nco == 4, 1, 1);
  if (nco == 4) {
    OC_CONV_POINTWISE4_FAST(g, x, w, bias, vol, y, i)
    i = conv2d_tiles_(g, &s, x, 1, w, bias, 1, y, 0, vol);
  } else {
    for (c = 0; c < nco; c++) {
      i = conv2d_tiles_(g, &s, x, 1, w + c * g->w_co, bias != NULL ? bias + c : NULL, 1,
                        y + c * g->y_co, 0, vol);
    }
  }
  for (; i < vol; i++) conv2d_pixel_(g, x + i, w, bias, nco, 1, 0, 0, 1, y + i);
}


OC_INLINE void conv2d_geom_init_(const oc_conv2d_params *p, conv2d_geom_ *g) {
  g->cig = p->c_in / p->group;
  g->in_plane = p->h_in * p->w_in;
  g->w_in = p->w_in;
  g->row_step = p->dil_h * p->w_in;
  g->dil_w = p->dil_w;
  g->stride_w = p->stride_w;
  g->k_w = p->k_w;
  g->kk = p->k_h * p->k_w;
  g->w_co = g->cig * g->kk;
  g->y_co = p->h_out * p->w_out;
  g->act = &p->act;
  g->exact_pad = 0;
}

#endif /* ONNX_TO_C_OC_CONV_TILES_H_ */
