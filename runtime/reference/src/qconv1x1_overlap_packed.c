/* The quantized 1x1 overlap convolution (qconv1x1_overlap.c: stride 1, no
 * padding, its output over its dying input, one pixel at a time) with its
 * weights packed and the input's zero point folded into the bias by the
 * compiler (weights' zero points 0, oc_qcol.h): each pixel's input channels
 * are copied, raw, to `column` (the contract's scratch, 2 c_in bytes), then
 * its output channels are the column's dot products, four channels per pass.
 * On SMLAD cores the column holds int16 values, each run of four channels
 * in the lanes SXTB16 gives four weights in, (x0, x2), (x1, x3), so the
 * column is unpacked once per pixel rather than once per block of channels;
 * elsewhere it holds the bytes (oc_qcol_channels). The same integer sums. */
#include "onnx_to_c/oc_qcol.h"
#include "onnx_to_c/oc_qpw_packed_fast.h"

#ifndef OC_QCONV1X1_PACKED_DEFINE
#define OC_QCONV1X1_PACKED_DEFINE(NAME, XT, WT, CHANNELS)                                         \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w, \
                   const int32_t *bias, void *y, void *column) {                                 \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const ptrdiff_t vol = (ptrdiff_t)p->d_in * p->h_in * p->w_in;                                \
    const int32_t cin = p->c_in, cout = p->c_out, y_signed = q->y_signed;                        \
    XT *col = (XT *)column;                                                                      \
    int32_t n, ic;                                                                               \
    ptrdiff_t px;                                                                                \
    for (n = 0; n < p->n; n++) {                                                                 \
      const XT *xn = (const XT *)x + (ptrdiff_t)n * cin * vol;                                   \
      const ptrdiff_t yn = (ptrdiff_t)n * cout * vol;                                            \
      for (px = 0; px < vol; px++) {                                                             \
        const XT *xp = xn + px;                                                                  \
        for (ic = 0; ic < cin; ic++, xp += vol) col[ic] = *xp;                                   \
        CHANNELS(r, y_signed, col, cin, (const WT *)w, bias, 0, cout, y, yn + px, vol);           \
      }                                                                                          \
    }                                                                                            \
  }
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_s8s8, int8_t, int8_t, oc_qcol_channels_s8s8)
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_s8u8, int8_t, uint8_t, oc_qcol_channels_s8u8)
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_u8s8, uint8_t, int8_t, oc_qcol_channels_u8s8)
OC_QCONV1X1_PACKED_DEFINE(oc_qconv1x1_packed_u8u8, uint8_t, uint8_t, oc_qcol_channels_u8u8)
#endif
#undef OC_QCONV1X1_PACKED_DEFINE

OC_API void oc_qconv1x1_overlap_packed(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                       const void *w, const int32_t *folded_bias, void *y, void *column) {
  OC_Q8_PAIR_CALL(oc_qconv1x1_packed, q->x_signed, q->w_signed, (q, r, x, w, folded_bias, y, column));
}

