/*
 * onnx-to-c runtime, Armv7E-M: the channels-last convolution's blocks in the
 * assembler tiles of oc_conv_nhwc_arm.h (the interface of the reference
 * oc_conv_nhwc_fast.h). On a Cortex-M4F/M7 (OC_ARM_VMLA with GCC or Clang),
 * 3-wide kernels of stride 1 or 2 take their blocks of 4 channels through
 * them (4, 2 or 1 pixels, and 4 pixels with the first or last one at the
 * padding): the same sums in the same order, as VMLA.F32. So do 1x1 kernels
 * (not depthwise) in their rows inside the input, blocks of 8 or 4 channels
 * x 2 or 1 pixels (nhwc_pw_row_), with the input channels-last or planar and
 * the output either; a group's last count % 4 channels and the columns in
 * the padding stay with the reference tiles.
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_FAST_H_
#define ONNX_TO_C_OC_CONV_NHWC_FAST_H_

#include "onnx_to_c/oc_tile.h"
#include "onnx_to_c/oc_conv_nhwc_arm.h"

#if OC_NHWC_ARM
/* a 3-wide kernel of stride 1 or 2, no dilation: the Arm tiles take the blocks */
#define OC_NHWC_GEOM_FAST int32_t arm3;
#define OC_NHWC_TILE_FNS_FAST                                                                \
/* The block of 4 channels x np pixels of a row (kind as above), the first                   \
 * pixel's tap kw 0 at input column ix (-1 for kind 3). */                                   \
static void nhwc_arm3_(const nhwc_geom_ *g, const float *x, int32_t ix, const float *w,      \
                       const float *bias, int32_t kind, int32_t np, float *y) {              \
  static const float zeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};                                    \
  const int32_t act = g->act->kind;                                                          \
  float acc[16];                                                                             \
  int32_t j, l;                                                                              \
  if (g->nkh > 0) {                                                                          \
    nhwc_arm_args_ a;                                                                        \
    a.xx = g->xx * (int32_t)sizeof(float);                                                   \
    a.xr = g->xr * (int32_t)sizeof(float);                                                   \
    a.wkw = g->cig * g->cog * (int32_t)sizeof(float);                                        \
    a.xic = g->xc * (int32_t)sizeof(float);                                                  \
    a.wic = g->cog * (int32_t)sizeof(float);                                                 \
    a.nkh = g->nkh;                                                                          \
    a.cig = g->cig;                                                                          \
    a.y = g->yc == 1 && (act == OC_ACT_NONE || act == OC_ACT_RELU) ? y : NULL;               \
    a.relu = a.y != NULL && act == OC_ACT_RELU;                                              \
    a.yx = g->yx * (int32_t)sizeof(float);                                                   \
    a.b = bias != NULL ? bias : zeros;                                                       \
    nhwc_arm_[g->stride_w - 1][kind](x + (kind == 3 ? ix + 1 : ix) * g->xx, w, &a, acc);     \
    if (a.y != NULL) return;                                                                 \
  } else {                                                                                   \
    for (j = 0; j < np; j++) {                                                               \
      for (l = 0; l < 4; l++) acc[4 * j + l] = bias != NULL ? bias[l] : 0.0f;                \
    }                                                                                        \
  }                                                                                          \
  for (j = 0; j < np; j++) {                                                                 \
    for (l = 0; l < 4; l++) y[j * g->yx + l * g->yc] = oc_tile_act(g->act, acc[4 * j + l]);  \
  }                                                                                          \
}

#define OC_NHWC_PIXELS_FAST(p, g, tile, x, ix, w, bias, y, ox)                             \
    if (g->arm3 && tile == nhwc_pb_) {                                                     \
      if (ox == 0 && ix == -1 && g->lo == 1 && g->hi >= 4) {                               \
        nhwc_arm3_(g, x, ix, w, bias, 3, 4, y);                                            \
        ox += 4;                                                                           \
        continue;                                                                          \
      }                                                                                    \
      if (ox >= g->lo && ox == p->w_out - 4 && g->hi == p->w_out - 1 &&                    \
          ix + 3 * p->stride_w + 2 == p->w_in) {                                           \
        nhwc_arm3_(g, x, ix, w, bias, 4, 4, y + ox * g->yx);                               \
        ox += 4;                                                                           \
        continue;                                                                          \
      }                                                                                    \
      if (ox >= g->lo && ox < g->hi) {                                                     \
        const int32_t np = g->hi - ox >= 4 ? 4 : g->hi - ox >= 2 ? 2 : 1;                  \
        nhwc_arm3_(g, x, ix, w, bias, np == 4 ? 0 : np == 2 ? 1 : 2, np, y + ox * g->yx);  \
        ox += np;                                                                          \
        continue;                                                                          \
      }                                                                                    \
    }

#define OC_NHWC_ROW_FNS_FAST                                                                         \
/* Pointwise (1x1 kernel), a row inside the input: the first count - count                           \
 * % 4 channels of one output row of a group through the Arm tiles of                                \
 * oc_conv_nhwc_arm.h, blocks of 8 channels, then 4, x 2 pixels (1 with a                            \
 * planar input of stride 2), then 1; the columns in the padding (no tap) take                       \
 * the bias alone. x at the group's first input channel, w at its first                              \
 * weight. Returns the channels done. */                                                             \
static __attribute__((noinline)) int32_t nhwc_pw_row_(const oc_conv2d_params *p,                     \
                                                      const nhwc_geom_ *g, const float *x,           \
                                                      const float *w, const float *bias,             \
                                                      int32_t count, float *y) {                     \
  static const float zeros[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};                    \
  const int32_t direct = g->act->kind == OC_ACT_NONE || g->act->kind == OC_ACT_RELU;                 \
  const int32_t planar = g->xc != 1, pairs = !planar || p->stride_w == 1;                            \
  nhwc_pw_args_ a;                                                                                   \
  float acc[16];                                                                                     \
  int32_t c = 0, nc, ox, np, j, l;                                                                   \
  a.xs = (planar ? g->xc : p->stride_w * g->xx) * (int32_t)sizeof(float);                            \
  a.wic = g->cog * (int32_t)sizeof(float);                                                           \
  a.n4 = g->cig / 4;                                                                                 \
  a.tail = g->cig % 4;                                                                               \
  a.relu = g->act->kind == OC_ACT_RELU;                                                              \
  a.yx = g->yx * (int32_t)sizeof(float);                                                             \
  a.yc = g->yc == 1 ? 0 : g->yc * (int32_t)sizeof(float); /* else g->yx is 1 */                      \
  for (; count - c >= 4; c += nc) {                                                                  \
    nc = count - c >= 8 ? 8 : 4;                                                                     \
    a.b = bias != NULL ? bias + c : zeros;                                                           \
    for (ox = 0; ox < p->w_out; ox += np) {                                                          \
      float *yp = y + ox * g->yx + c * g->yc;                                                        \
      np = 1;                                                                                        \
      if (ox < g->lo || ox >= g->hi) {                                                               \
        for (l = 0; l < nc; l++) {                                                                   \
          yp[l * g->yc] = oc_tile_act(g->act, bias != NULL ? bias[c + l] : 0.0f);                    \
        }                                                                                            \
        continue;                                                                                    \
      }                                                                                              \
      if (pairs && g->hi - ox >= 2) np = 2;                                                          \
      a.y = direct ? yp : NULL;                                                                      \
      nhwc_pw_[planar][nc == 8 ? 0 : 1][np - 1](x + (ox * p->stride_w - p->pad_left) * g->xx,        \
                                                w + c, &a, acc);                                     \
      if (!direct) {                                                                                 \
        for (j = 0; j < np; j++) {                                                                   \
          for (l = 0; l < nc; l++) yp[j * g->yx + l * g->yc] = oc_tile_act(g->act, acc[j * nc + l]); \
        }                                                                                            \
      }                                                                                              \
    }                                                                                                \
  }                                                                                                  \
  return c;                                                                                          \
}

#define OC_NHWC_DECL_FAST(p, cig, cog)                                       \
  /* pointwise (not depthwise): the Arm tiles of nhwc_pw_row_ */             \
  const int32_t pw = p->k_h == 1 && p->k_w == 1 && !(cig == 1 && cog == 1);
#define OC_NHWC_INIT_FAST(p, g) g.arm3 = p->k_w == 3 && p->dil_w == 1 && (p->stride_w == 1 || p->stride_w == 2);
#define OC_NHWC_PW_ROW_FAST(p, g, x, w, bias, count, y, done) if (pw && g.nkh > 0) done = nhwc_pw_row_(p, &g, xg, wgp, bg, cog, yg);
#endif

#endif /* ONNX_TO_C_OC_CONV_NHWC_FAST_H_ */
