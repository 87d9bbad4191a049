/*
 * onnx-to-c runtime: the row band of the padded 2-D convolution
 * (conv2d_band.c) and the test that decides whether padding may be read as
 * +0.0 (shared with conv2d.c).
 *
 * For one output row, the band holds the k_h input rows every kernel row
 * reads, for each input channel of a group, with the padding written out as
 * +0.0: band row (ic, kh) is input row oy * stride_h - pad_top + kh * dil_h,
 * shifted right by pad_left, band_w = (w_out - 1) * stride_w +
 * (k_w - 1) * dil_w + 1 columns wide (every column an output reads). Rows
 * and columns outside the input are zeros. Over the band every tap of every
 * pixel is inside, so the interior tiles alone cover the row.
 */
#ifndef ONNX_TO_C_OC_CONV_BAND_H_
#define ONNX_TO_C_OC_CONV_BAND_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_conv_tiles.h"

/* every w[i] is finite. It reads all of a convolution's weights at every
 * call, so blocks of 64 test their exponent bits (all ones: an infinity or
 * a NaN) without a branch per weight, which compilers vectorize. */
OC_INLINE int conv2d_finite_(const float *w, int32_t n) {
  int32_t i = 0, j;
  for (; i + 64 <= n; i += 64) {
    uint32_t bad = 0;
    for (j = 0; j < 64; j++) {
      uint32_t bits;
      memcpy(&bits, w + i + j, sizeof bits);
      bad |= (uint32_t)((bits & 0x7f800000u) == 0x7f800000u);
    }
    if (bad) return 0;
  }
  for (; i < n; i++) {
    if (!(w[i] - w[i] == 0.0f)) return 0;
  }
  return 1;
}

/* some b[i] is -0.0 */
OC_INLINE int conv2d_neg_zero_(const float *b, int32_t n) {
  int32_t i;
  for (i = 0; b != NULL && i < n; i++) {
    uint32_t bits;
    memcpy(&bits, &b[i], sizeof bits);
    if (bits == 0x80000000u) return 1;
  }
  return 0;
}

/* some output's taps reach past the input: padding on some side (the 2-D case) */
OC_INLINE int conv2d_reads_padding_(const oc_conv2d_params *p) {
  return p->pad_top > 0 || p->pad_left > 0 ||
         (p->h_out - 1) * p->stride_h + (p->k_h - 1) * p->dil_h + 1 - p->pad_top > p->h_in ||
         (p->w_out - 1) * p->stride_w + (p->k_w - 1) * p->dil_w + 1 - p->pad_left > p->w_in;
}

/* Columns of a band row. */
OC_INLINE int32_t conv2d_band_width_(const oc_conv2d_params *p) {
  return (p->w_out - 1) * p->stride_w + (p->k_w - 1) * p->dil_w + 1;
}

/* Floats of scratch oc_conv2d_band_f32 needs: one group's band. */
OC_INLINE int32_t oc_conv2d_band_floats(const oc_conv2d_params *p) {
  return p->c_in / p->group * p->k_h * conv2d_band_width_(p);
}

/* Zeros the band's left and right padding columns once: the per-row fill
 * writes only the columns that hold input (or whole rows of zeros). */
OC_INLINE void conv2d_band_clear_(const oc_conv2d_params *p, float *band) {
  const int32_t bw = conv2d_band_width_(p), rows = p->c_in / p->group * p->k_h;
  const int32_t c0 = p->pad_left < bw ? p->pad_left : bw;
  const int32_t c1 = p->pad_left + p->w_in < bw ? p->pad_left + p->w_in : bw;
  int32_t r, c;
  for (r = 0; r < rows; r++, band += bw) {
    for (c = 0; c < c0; c++) band[c] = 0.0f;
    for (c = c1; c < bw; c++) band[c] = 0.0f;
  }
}

/* Fills the band of output row oy from xg (the group's first input
 * channel). Padding columns stay as conv2d_band_clear_ left them. */
OC_INLINE void conv2d_band_fill_(const oc_conv2d_params *p, const float *xg, int32_t oy,
                                 float *band) {
  const int32_t bw = conv2d_band_width_(p), cig = p->c_in / p->group;
  const int32_t c0 = p->pad_left < bw ? p->pad_left : bw;
  const int32_t c1 = p->pad_left + p->w_in < bw ? p->pad_left + p->w_in : bw;
  const int32_t in_plane = p->h_in * p->w_in;
  int32_t ic, kh, c;
  for (ic = 0; ic < cig; ic++) {
    for (kh = 0; kh < p->k_h; kh++, band += bw) {
      const int32_t iy = oy * p->stride_h - p->pad_top + kh * p->dil_h;
      if (iy < 0 || iy >= p->h_in) {
        for (c = 0; c < bw; c++) band[c] = 0.0f;
        continue;
      }
      if (c1 > c0) {
        memcpy(band + c0, xg + ic * in_plane + iy * p->w_in + (c0 - p->pad_left),
               (size_t)(c1 - c0) * sizeof(float));
      }
    }
  }
}

/* One output row of nco (1..4) channels over the band (geometry gb, see
 * conv2d_band_geom_): interior tiles, a pixel loop over all taps when the
 * row is narrower than a tile. */
OC_INLINE void conv2d_band_row_(const oc_conv2d_params *p, const conv2d_geom_ *gb,
                                const float *band, const float *w, const float *bias,
                                int32_t nco, float *y) {
  const int32_t sw = p->stride_w;
  int32_t t1 = 0, ox;
  float bb[4];
  conv2d_tile_set_ s;
  conv2d_bias4_(bias, nco, bb);
  conv2d_set_init_(&s, nco == 4, sw == 1, 0);
  if (nco == 4) {
    t1 = conv2d_tiles_(gb, &s, band, sw, w, bb, p->k_h, y, 0, p->w_out);
  } else {
    int32_t c;
    for (c = 0; c < nco; c++) {
      t1 = conv2d_tiles_(gb, &s, band, sw, w + c * gb->w_co, bb + c, p->k_h, y + c * gb->y_co,
                         0, p->w_out);
    }
  }
  for (ox = t1; ox < p->w_out; ox++) {
    conv2d_pixel_(gb, band, w, bb, nco, p->k_h, ox * sw, 0, p->k_w, y + ox);
  }
}

/* The tiles' geometry over a band: channels k_h rows apart, kernel rows one
 * band row apart (the band already holds the dilated rows). */
OC_INLINE void conv2d_band_geom_(const oc_conv2d_params *p, conv2d_geom_ *g) {
  conv2d_geom_init_(p, g);
  g->w_in = conv2d_band_width_(p);
  g->in_plane = p->k_h * g->w_in;
  g->row_step = g->w_in;
  g->exact_pad = 1;
}

#endif /* ONNX_TO_C_OC_CONV_BAND_H_ */
