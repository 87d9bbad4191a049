/*
 * The quantized 1x1 overlap convolution (the contract of
 * qconv1x1_overlap_packed.c: stride 1, no padding, NCHW, its output over its
 * dying input, one pixel at a time) with 4-bit weights (oc_w4_at's blocks,
 * k the input channel): each pixel's input channels are copied to `column`
 * (the contract's scratch), then its output channels are the column's sums
 * against each block (oc_qw4_run.h), less each channel's zero point times
 * the sum of the column less x_zp: the sums of oc_qconv2d_w4, bit for bit.
 */
#include "onnx_to_c/oc_qw4_run.h"

#define QW4_PIXELS_DEFINE_(XT, XTB16, FLIP)                                                      \
  static void qw4_pixels_##XT(const oc_qconv_params *q, const oc_requant8 *r, const XT *x,       \
                              const uint8_t *w, const uint8_t *w_zp, const int32_t *bias,        \
                              uint8_t *y, XT *col) {                                             \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in, blk = oc_w4_block_bytes(p->c_in); \
    const int32_t cin = p->c_in, cout = p->c_out, zx = q->x_zp;                                  \
    int32_t n, ic, co;                                                                           \
    ptrdiff_t px;                                                                                \
    for (n = 0; n < p->n; n++) {                                                                 \
      for (px = 0; px < vol; px++) {                                                             \
        const XT *xp = x + (ptrdiff_t)n * cin * vol + px;                                        \
        uint8_t *const yp = y + (ptrdiff_t)n * cout * vol + px;                                  \
        uint32_t xs = 0u;                                                                        \
        for (ic = 0; ic < cin; ic++, xp += vol) col[ic] = *xp;                                   \
        OC_W4_XSUM_(XT, FLIP, col, cin)                                                          \
        for (co = 0; co < cout; co += 4) {                                                       \
          uint32_t s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u, s[4];                                     \
          OC_W4_RUN_(XT, XTB16, col, w + (ptrdiff_t)(co >> 2) * blk, cin)                        \
          s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                            \
          oc_w4_put4(r, bias, w_zp, s, xs, co, cout, yp + (ptrdiff_t)co * vol, vol);             \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

QW4_PIXELS_DEFINE_(int8_t, "sxtb16", 0x80808080u)
QW4_PIXELS_DEFINE_(uint8_t, "uxtb16", 0u)

#undef QW4_PIXELS_DEFINE_

OC_API void oc_qconv1x1_w4_pixels(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                  const uint8_t *w, const uint8_t *w_zp, const int32_t *bias, void *y,
                                  void *column) {
  if (q->x_signed) {
    qw4_pixels_int8_t(q, r, (const int8_t *)x, w, w_zp, bias, (uint8_t *)y, (int8_t *)column);
  } else {
    qw4_pixels_uint8_t(q, r, (const uint8_t *)x, w, w_zp, bias, (uint8_t *)y, (uint8_t *)column);
  }
}
