/*
 * onnx-to-c runtime: entry points of the 8-bit kernels (library build and
 * kernel tests; the code generator embeds the sources instead).
 */
#ifndef ONNX_TO_C_OC_QLINEAR_KERNELS_H_
#define ONNX_TO_C_OC_QLINEAR_KERNELS_H_

#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qconv(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                     const void *w_zp, const int32_t *bias, void *y);
/* The same sums for 2-D convolutions (k_d, d_in, d_out 1; qconv2d.c) and
 * pointwise ones (1x1, stride 1, no padding, one group; qconv_pointwise.c). */
OC_API void oc_qconv2d(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                       const void *w_zp, const int32_t *bias, void *y);
/* The same sums with channels-last activations (qconv2d_nhwc.c): x NHWC when
 * x_last, else NCHW; y NHWC when y_last, else NCHW; weights OHWI, per output
 * channel co [kh][kw][ic within the group] (TFLite's order). Output rows in
 * increasing (n, oy) order, or decreasing with q->conv.reverse_rows, each
 * reading only the input rows under its window: y may overlap x as
 * qconv2d_nhwc.c says. */
OC_API void oc_qconv2d_nhwc(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                            const void *w, const void *w_zp, const int32_t *bias, void *y,
                            int32_t x_last, int32_t y_last);
/* The same sums for x NHWC, the weights' zero points 0, one group and a
 * kernel larger than 1x1 whose kernel rows are whole groups of four bytes
 * (k_w c_in), with kernel scratch `col` (4 k_h k_w c_in + k_w c_in bytes,
 * word-aligned): on M4/M7 as column products there (oc_qnhwc_col.h), else
 * as oc_qconv2d_nhwc (the scratch unused). */
OC_API void oc_qconv2d_nhwc_col(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                   const void *w, const int32_t *bias, void *y, int32_t y_last, void *col);
/* The same sums for depthwise 3x3 convolutions, dilation 1 (qconv_dw3x3.c). */
OC_API void oc_qconv_dw3x3(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                           const void *w_zp, const int32_t *bias, void *y);
OC_API void oc_qconv_pointwise(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                               const void *w, const void *w_zp, const int32_t *bias, void *y);
OC_API void oc_qconv1x1_overlap(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                const void *w, const void *w_zp, const int32_t *bias, void *y,
                                int16_t *column);
/* 2-D convolution through a one-pixel column of cig * k_h * k_w bytes in
 * `col` (qconv_column.c): weights' zero points 0, the weights packed in
 * blocks of four channels (qconv_column.c says how), the input's zero point
 * folded into the bias, bias[co] - x_zp * sum_k w[co][k] (mod 2^32). */
OC_API void oc_qconv_column(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                            const int32_t *folded_bias, void *col, void *y);
/* The same with the weights packed and the input's zero point folded into
 * the bias as for oc_qconv_column (weights' zero points 0); `column` holds
 * c_in bytes. */
OC_API void oc_qconv1x1_overlap_packed(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                       const void *w, const int32_t *folded_bias, void *y, void *column);
/* A pointwise convolution (1x1, stride 1, no padding, one group) with x and
 * y NHWC, one matrix product over all pixels (qconv_pw_nhwc.c): weights'
 * zero points 0, the weights packed per pair of output channels as
 * qconv_pw_nhwc.c says, the input's zero point folded into the bias as for
 * oc_qconv_column. Rows in oc_qconv2d_nhwc's streaming order (reverse_rows
 * included), so y may overlap x as it may there. */
OC_API void oc_qconv_pw_nhwc(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                             const int32_t *folded_bias, void *y);
/* A convolution of a small window (K = k_h k_w c_in rounded up to four at
 * most 64 values, a stem's; _wide: K at most 288) with x NHWC (or one input
 * channel), y NHWC (y_last 1) or NCHW (0), one group, its weights' zero
 * points 0: each pair of output pixels' windows gathered on the stack (128
 * bytes; _wide: 576), then the sums of oc_qconv_pw_nhwc over them, the
 * weights packed the same way over K rounded up to four (the padding's 0),
 * the bias folded (qconv_stem_nhwc.c). Rows in oc_qconv2d_nhwc's streaming
 * order. */
OC_API void oc_qconv_stem_nhwc(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                               const int32_t *folded_bias, void *y, int32_t y_last);
OC_API void oc_qconv_stem_nhwc_wide(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                                    const int32_t *folded_bias, void *y, int32_t y_last);
/* The pointwise overlap contract's kernel (x and y NCHW, y over the dying x,
 * oc_qconv1x1_overlap_packed's order) two pixels at a time, with the weights
 * packed and the bias folded as for oc_qconv_pw_nhwc: the two pixels' input
 * bytes go to `column` (the contract's 2 c_in bytes) before their outputs
 * are written (qconv1x1_overlap_pairs.c). */
OC_API void oc_qconv1x1_overlap_pairs(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                      const void *w, const int32_t *folded_bias, void *y, void *column);
/* A 2-D convolution (no scratch) with weights' zero points 0 and the weights
 * packed per group in blocks of four channels, tap by tap (qconv2d_packed.c). */
OC_API void oc_qconv2d_packed(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                              const int32_t *bias, void *y);
/* The same for kernel rows of four taps, dilation 1 along them (qconv2d_packed4.c). */
OC_API void oc_qconv2d_packed4(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                               const int32_t *bias, void *y);
/* A 2-D convolution (1-D: h 1) with 4-bit weights (oc_w4_at's blocks; kk =
 * k_h * k_w * cig, each channel's weights [kh][kw][ic within the group]),
 * zero points w_zp one per output channel (nibble units, as oc_w4_at says),
 * x and y NCHW or NHWC (x_last, y_last): the sums of oc_qconv2d_nhwc, in its
 * streaming order (output rows in increasing (n, oy) order, or decreasing
 * with q->conv.reverse_rows, each reading only the input rows under its
 * window), so y may overlap x as it may there (qconv_w4.c). */
OC_API void oc_qconv2d_w4(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const uint8_t *w,
                          const uint8_t *w_zp, const int32_t *bias, void *y, int32_t x_last, int32_t y_last);
/* The same for x NHWC, one group and kernel rows of whole groups of four
 * values (k_w c_in), with kernel scratch `col` (4 k_h k_w c_in + k_w c_in
 * bytes, word-aligned): on M4/M7 as column products there (oc_qw4_col.h),
 * else as oc_qconv2d_w4 (the scratch unused). */
OC_API void oc_qconv2d_w4_col(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const uint8_t *w,
                              const uint8_t *w_zp, const int32_t *bias, void *y, int32_t y_last, void *col);
/* A 1x1 convolution (stride 1, no padding, NCHW) with 4-bit weights under a
 * pixels overlap contract: each pixel's input channels copied to column
 * (c_in bytes), then its outputs written (qconv1x1_w4_pixels.c). */
OC_API void oc_qconv1x1_w4_pixels(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                                  const uint8_t *w, const uint8_t *w_zp, const int32_t *bias, void *y,
                                  void *column);
/* y[m, n] = a[m, k] b[k, n] with 4-bit b (oc_w4_at's blocks of four columns,
 * kk = k), zero points b_zp one per column; a and y 8-bit (qgemm_w4.c). */
OC_API void oc_qgemm_w4(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const uint8_t *b,
                        const uint8_t *b_zp, const int32_t *bias, void *y);
OC_API void oc_qmaxpool(const oc_qmaxpool_params *q, const oc_requant8 *r, const void *x, void *y);
OC_API void oc_qconcat_part(const oc_qconcat_params *q, const oc_requant8 *r, const void *x,
                            void *y);
OC_API void oc_qgemm(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const void *b,
                     const void *b_zp, const int32_t *bias, void *y);
/* The same for a constant, transposed B with zero points 0 (trans_b, zp_folded, an 8-bit
 * y): B packed and A's zero point folded into the bias as for oc_qconv_column
 * (qgemm_packed.c). */
OC_API void oc_qgemm_packed(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const void *w,
                            const int32_t *folded_bias, void *y);
OC_API void oc_qbinary(const oc_qbinary_params *q, const oc_requant8 *r, const void *a,
                       const void *b, void *y);
OC_API void oc_qavgpool(const oc_qpool_params *q, const oc_requant8 *r, const void *x, void *y);
/* Global average pooling (the input sizes of q): the integer sum of each
 * channel requantized by (x_scale / size) / y_scale (ONNX Runtime's method). */
OC_API void oc_qglobal_avgpool(const oc_qpool_params *q, const oc_requant8 *r, const void *x,
                               void *y);

#endif /* ONNX_TO_C_OC_QLINEAR_KERNELS_H_ */
