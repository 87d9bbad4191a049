/*
 * ONNX ConvTranspose, 2-D (and 3-D, depth taps over 2-D planes): NCHW
 * input, weights (c_in, c_out / group, k_h, k_w).
 *   y[n, g*cog+oc, ih*s_h - pad_top + kh*d_h, iw*s_w - pad_left + kw*d_w]
 *     += x[n, g*cig+ic, ih, iw] * w[g*cig+ic, oc, kh, kw]
 * positions outside the output dropped; y starts from the bias (or 0); the
 * activation is applied at the end.
 *
 * Accumulation order: each output element receives its terms for
 * ic = 0..cig-1, then id, kd, ih, kh, kw, in increasing order.
 *
 * 2-D upsampling kernels with k_w == stride_w == 2 (no left pad, dilation 1)
 * and k_h <= stride_h give every output at most one term per input channel:
 * its sum is the bias plus one term for ic = 0, 1, ... in that order. They
 * run as a gather instead of a scatter: 4 output channels x both kernel
 * columns x a lane of input columns stay in registers over the input
 * channels, and the two columns' lanes are interleaved into the output row.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

/* [*lo, *hi): the inputs i in [0, len_in) whose output i * stride + off is in
 * [0, len_out). */
static void conv_transpose2d_range_(int32_t off, int32_t stride, int32_t len_out, int32_t len_in,
                                    int32_t *lo, int32_t *hi) {
  int32_t a = off < 0 ? (stride - 1 - off) / stride : 0;
  int32_t b = len_out - off > 0 ? (len_out - off + stride - 1) / stride : 0;
  if (b > len_in) b = len_in;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

/* y plane += scatter of one input plane through one k_h x k_w filter */
static void conv_transpose2d_plane_(const oc_conv_transpose2d_params *p, float *restrict y,
                                    const float *restrict x, const float *restrict w) {
  int32_t ih, kh, kw, iw, i0, i1;
  for (ih = 0; ih < p->h_in; ih++) {
    const float *xrow = x + ih * p->w_in;
    for (kh = 0; kh < p->k_h; kh++) {
      const int32_t oy = ih * p->stride_h - p->pad_top + kh * p->dil_h;
      float *yrow;
      if (oy < 0 || oy >= p->h_out) continue;
      yrow = y + oy * p->w_out;
      for (kw = 0; kw < p->k_w; kw++) {
        const int32_t off = kw * p->dil_w - p->pad_left;
        const float wv = w[kh * p->k_w + kw];
        conv_transpose2d_range_(off, p->stride_w, p->w_out, p->w_in, &i0, &i1);
        if (p->stride_w == 1) {
          float *ys = yrow + (i0 + off);
          const float *xs = xrow + i0;
          for (iw = 0; iw < i1 - i0; iw++) ys[iw] += wv * xs[iw];
        } else {
          for (iw = i0; iw < i1; iw++) yrow[iw * p->stride_w + off] += wv * xrow[iw];
        }
      }
    }
  }
}

static int conv_transpose2d_fast_ok_(const oc_conv_transpose2d_params *p) {
  return p->k_d == 1 && p->d_in == 1 && p->d_out == 1 && p->pad_front == 0 && p->dil_h == 1 &&
         p->dil_w == 1 && p->k_w == 2 && p->stride_w == 2 && p->pad_left == 0 &&
         p->k_h <= p->stride_h && p->w_out >= 2 * p->w_in;
}

/* A tile: channels c of CHANS x kernel columns 0 (a) and 1 (e) x OC_LANE_W
 * input columns; x at (ic 0, the tile's first pixel), w at (ic 0, channel 0,
 * kh, kw 0), y at (channel 0, oy, 2 * the first pixel). */
#define OC_CT_DECL(c) oc_lane a##c = oc_lane_splat(b[c]), e##c = a##c;
#define OC_CT_MAC(c)                                   \
  OC_MAC(a##c, oc_lane_splat(wr[(c) * g->w_co]), xv);  \
  OC_MAC(e##c, oc_lane_splat(wr[(c) * g->w_co + 1]), xv);
#define OC_CT_STORE(c) oc_lane_store_pairs(y + (c) * g->y_co, a##c, e##c, g->act);
#define OC_CT_TILE_FN(name, CHANS)                                                             \
  static void name(const conv_transpose2d_geom_ *g, const float *restrict x,                  \
                   const float *restrict w, const float *b, float *restrict y) {              \
    int32_t ic;                                                                                \
    CHANS(OC_CT_DECL)                                                                          \
    for (ic = 0; ic < g->cig; ic++) {                                                          \
      const oc_lane xv = oc_lane_load(x + ic * g->in_plane, 1);                                \
      const float *wr = w + ic * g->w_ic;                                                      \
      CHANS(OC_CT_MAC)                                                                         \
    }                                                                                          \
    CHANS(OC_CT_STORE)                                                                         \
  }
#define OC_CT_CHANS4(M) M(0) M(1) M(2) M(3)
#define OC_CT_CHANS1(M) M(0)

typedef struct {
  int32_t cig, in_plane;
  int32_t w_ic, w_co; /* weight steps between input and between output channels */
  int32_t y_co;       /* output step between channels */
  const oc_act *act;
} conv_transpose2d_geom_;

OC_CT_TILE_FN(conv_transpose2d_t4_, OC_CT_CHANS4)
OC_CT_TILE_FN(conv_transpose2d_t1_, OC_CT_CHANS1)

/* One input row through one kernel row for nco (1..4) output channels: the
 * tiles over the columns (the last one moved back to end at w_in; it
 * recomputes a few outputs with the same bits), one pixel at a time in rows
 * narrower than a lane. */
static void conv_transpose2d_fast_row_(const conv_transpose2d_geom_ *g, int32_t w_in,
                                       const float *x, const float *w, const float *b,
                                       int32_t nco, float *y) {
  int32_t iw, c, ic;
  if (w_in >= OC_LANE_W) {
    for (iw = 0;; iw += OC_LANE_W) {
      if (iw + OC_LANE_W > w_in) iw = w_in - OC_LANE_W;
      if (nco == 4) {
        conv_transpose2d_t4_(g, x + iw, w, b, y + 2 * iw);
      } else {
        for (c = 0; c < nco; c++) {
          conv_transpose2d_t1_(g, x + iw, w + c * g->w_co, b + c, y + c * g->y_co + 2 * iw);
        }
      }
      if (iw + OC_LANE_W == w_in) break;
    }
    return;
  }
  for (c = 0; c < nco; c++) {
    for (iw = 0; iw < w_in; iw++) {
      float a = b[c], e = b[c];
      for (ic = 0; ic < g->cig; ic++) {
        const float xv = x[ic * g->in_plane + iw], *wr = w + c * g->w_co + ic * g->w_ic;
        OC_MAC(a, wr[0], xv);
        OC_MAC(e, wr[1], xv);
      }
      y[c * g->y_co + 2 * iw] = oc_tile_act(g->act, a);
      y[c * g->y_co + 2 * iw + 1] = oc_tile_act(g->act, e);
    }
  }
}

/* The whole convolution: outputs no term reaches keep act(bias). */
static void conv_transpose2d_fast_(const oc_conv_transpose2d_params *p, const float *x,
                                   const float *w, const float *bias, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t kk = p->k_h * p->k_w;
  conv_transpose2d_geom_ g;
  int32_t n, co, i, grp, oc0, ih, kh;
  g.cig = cig;
  g.in_plane = in_plane;
  g.w_ic = cog * kk;
  g.w_co = kk;
  g.y_co = out_plane;
  g.act = &p->act;
  for (n = 0; n < p->n; n++) {
    for (co = 0; co < p->c_out; co++) {
      const float v = oc_apply_act(&p->act, bias != NULL ? bias[co] : 0.0f);
      float *yp = y + (ptrdiff_t)(n * p->c_out + co) * out_plane;
      for (i = 0; i < out_plane; i++) yp[i] = v;
    }
    for (grp = 0; grp < p->group; grp++) {
      for (oc0 = 0; oc0 < cog; oc0 += 4) {
        const int32_t nco = cog - oc0 < 4 ? cog - oc0 : 4, co0 = grp * cog + oc0;
        float b[4];
        for (i = 0; i < 4; i++) b[i] = bias != NULL && i < nco ? bias[co0 + i] : 0.0f;
        for (ih = 0; ih < p->h_in; ih++) {
          for (kh = 0; kh < p->k_h; kh++) {
            const int32_t oy = ih * p->stride_h - p->pad_top + kh;
            if (oy < 0 || oy >= p->h_out) continue;
            conv_transpose2d_fast_row_(
                &g, p->w_in, x + (ptrdiff_t)(n * p->c_in + grp * cig) * in_plane + ih * p->w_in,
                w + ((ptrdiff_t)grp * cig * cog + oc0) * kk + kh * p->k_w, b, nco,
                y + ((ptrdiff_t)(n * p->c_out + co0) * p->h_out + oy) * p->w_out);
          }
        }
      }
    }
  }
}

OC_API void oc_conv_transpose2d_f32(const oc_conv_transpose2d_params *p, const float *x,
                                    const float *w, const float *bias, float *y) {
  const int32_t cig = p->c_in / p->group, cog = p->c_out / p->group;
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t in_vol = p->d_in * in_plane, out_vol = p->d_out * out_plane;
  const int32_t kk = p->k_h * p->k_w, kvol = p->k_d * kk;
  int32_t n, co, ic, i, id, kd;
  if (conv_transpose2d_fast_ok_(p)) {
    conv_transpose2d_fast_(p, x, w, bias, y);
    return;
  }
  for (n = 0; n < p->n; n++) {
    for (co = 0; co < p->c_out; co++) {
      const int32_t g = co / cog, oc = co - g * cog;
      const float b = bias != NULL ? bias[co] : 0.0f;
      float *yv = y + (n * p->c_out + co) * out_vol;
      for (i = 0; i < out_vol; i++) yv[i] = b;
      for (ic = 0; ic < cig; ic++) {
        const int32_t ci = g * cig + ic;
        const float *xv = x + (n * p->c_in + ci) * in_vol;
        const float *wv = w + (ci * cog + oc) * kvol;
        for (id = 0; id < p->d_in; id++) {
          for (kd = 0; kd < p->k_d; kd++) {
            const int32_t od = id * p->stride_d - p->pad_front + kd * p->dil_d;
            if (od < 0 || od >= p->d_out) continue;
            conv_transpose2d_plane_(p, yv + od * out_plane, xv + id * in_plane, wv + kd * kk);
          }
        }
      }
      if (p->act.kind != OC_ACT_NONE) {
        for (i = 0; i < out_vol; i++) yv[i] = oc_apply_act(&p->act, yv[i]);
      }
    }
  }
}
