/*
 * oc_conv2d_f32 with a row band in scratch (oc_conv_band.h): for each output
 * row, the input rows it reads are copied once into a zero-padded band, and
 * every output channel block of the group runs the interior tiles over it,
 * with no edge tiles and no per-pixel loop at the padding.
 *
 * Padding taps then add w * (+0.0) instead of being skipped. That gives
 * oc_conv2d_f32's bits when every weight is finite and no bias is -0.0 (the
 * argument above OC_CONV_EDGE_FN in oc_conv_tiles.h); otherwise, for 3-D and
 * for depthwise convolutions, this calls oc_conv2d_f32. scratch holds
 * oc_conv2d_band_floats(p) floats.
 *
 * The output must not overlap the input: the compiler gives no overlap
 * contract to the statements that use this kernel.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_conv_band.h"

/* conv2d.c (embedded before this file) */
OC_API void oc_conv2d_f32(const oc_conv2d_params *p, const float *x, const float *w,
                          const float *bias, float *y);

/* The band saves the edge tiles of rows that read left or right padding; a
 * convolution whose rows read none (a patch's window on the image's top or
 * bottom edge only) runs oc_conv2d_f32's interior tiles with no band to fill. */
static int conv2d_band_pays_(const oc_conv2d_params *p) {
  const int32_t last = (p->w_out - 1) * p->stride_w - p->pad_left + (p->k_w - 1) * p->dil_w;
  return p->pad_left > 0 || last >= p->w_in;
}

OC_API void oc_conv2d_band_f32(const oc_conv2d_params *p, const float *x, const float *w,
                               const float *bias, float *scratch, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t kk = p->k_h * p->k_w;
  conv2d_geom_ g;
  int32_t n, grp, c0, oy;
  if (p->k_d != 1 || p->d_in != 1 || p->d_out != 1 || p->pad_front != 0 ||
      (cig == 1 && cog == 1) || !conv2d_band_pays_(p) || !conv2d_finite_(w, p->c_out * cig * kk) ||
      conv2d_neg_zero_(bias, p->c_out)) {
    oc_conv2d_f32(p, x, w, bias, y);
    return;
  }
  conv2d_band_geom_(p, &g);
  for (n = 0; n < p->n; n++) {
    for (grp = 0; grp < p->group; grp++) {
      const float *xg = x + (n * p->c_in + grp * cig) * in_plane;
      conv2d_band_clear_(p, scratch);
      for (oy = 0; oy < p->h_out; oy++) {
        conv2d_band_fill_(p, xg, oy, scratch);
        for (c0 = 0; c0 < cog; c0 += 4) {
          const int32_t co = grp * cog + c0, nco = cog - c0 < 4 ? cog - c0 : 4;
          conv2d_band_row_(p, &g, scratch, w + co * cig * kk, bias != NULL ? bias + co : NULL,
                           nco, y + (n * p->c_out + co) * out_plane + oy * p->w_out);
        }
      }
    }
  }
}
