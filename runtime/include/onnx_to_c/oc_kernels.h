/*
 * onnx-to-c runtime: kernel entry points (library build).
 *
 * One entry point per file in runtime/reference/src. The code generator does not
 * include this header: it embeds the kernel sources it needs with OC_API
 * defined as `static`.
 */
#ifndef ONNX_TO_C_OC_KERNELS_H_
#define ONNX_TO_C_OC_KERNELS_H_

#include "oc_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* conv2d.c */
OC_API void oc_conv2d_f32(const oc_conv2d_params *p, const float *x, const float *w,
                          const float *bias, float *y);
/* conv2d_band.c: oc_conv2d_f32's bits, padding read from a zero-padded row
 * band in scratch (oc_conv2d_band_floats(p) floats, oc_conv_band.h) */
OC_API void oc_conv2d_band_f32(const oc_conv2d_params *p, const float *x, const float *w,
                               const float *bias, float *scratch, float *y);
/* conv2d_nhwc.c: 2-D convolution (d_in = d_out = k_d = 1) with channels-last activations:
 * x is NHWC when x_nhwc, else NCHW; y is NHWC when y_nhwc, else NCHW.
 * Weights per group g in HWIO order: w[(((g * k_h + kh) * k_w + kw) * cig + ic) * cog + c]
 * (cig = c_in / group, cog = c_out / group; output channel g * cog + c).
 * The same sums in the same order as oc_conv2d_f32, so the same bits. Output
 * rows in increasing (n, oy) order, each reading only its window's input rows
 * (the file's header has the exact contract). */
OC_API void oc_conv2d_nhwc_f32(const oc_conv2d_params *p, const float *x, const float *w,
                               const float *bias, float *y, int32_t x_nhwc, int32_t y_nhwc);
/* conv2d_dw_planes.c: depthwise 2-D convolution (c_in = c_out = group) whose
 * output may start below its input (the planes overlap contract), plane by
 * plane through scratch (h_out * w_out floats); oc_conv2d_f32's bits */
OC_API void oc_conv2d_dw_planes_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                    const float *bias, float *y, float *scratch);
/* conv1x1_overlap.c: 1x1 stride-1 convolution that may write over its
 * input (y may equal x); scratch holds c_out * block floats */
OC_API void oc_conv1x1_overlap_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                   const float *bias, float *y, float *scratch, int32_t block);
/* conv_transpose2d.c */
OC_API void oc_conv_transpose2d_f32(const oc_conv_transpose2d_params *p, const float *x,
                                    const float *w, const float *bias, float *y);
/* gemm.c (c may be NULL) */
OC_API void oc_gemm_f32(const oc_gemm_params *p, const float *a, const float *b,
                        const float *c, float *y);
/* matmul.c */
OC_API void oc_matmul_f32(const oc_matmul_params *p, const float *a, const float *b, float *y);
/* unary.c: y may equal x */
OC_API void oc_unary_f32(int32_t op, float alpha, float beta, const float *x, float *y,
                         int32_t n);
/* binary_<type>.c: y has the operands' type, or is bool (uint8_t) for the
 * comparisons; y may equal a or b when that operand has y's shape and type */
OC_API void oc_binary_f32(int32_t op, const oc_broadcast_params *p, const float *a,
                          const float *b, void *y);
OC_API void oc_binary_f64(int32_t op, const oc_broadcast_params *p, const double *a,
                          const double *b, void *y);
OC_API void oc_binary_f16(int32_t op, const oc_broadcast_params *p, const uint16_t *a,
                          const uint16_t *b, void *y);
OC_API void oc_binary_i8(int32_t op, const oc_broadcast_params *p, const int8_t *a,
                         const int8_t *b, void *y);
OC_API void oc_binary_i16(int32_t op, const oc_broadcast_params *p, const int16_t *a,
                          const int16_t *b, void *y);
OC_API void oc_binary_i32(int32_t op, const oc_broadcast_params *p, const int32_t *a,
                          const int32_t *b, void *y);
OC_API void oc_binary_i64(int32_t op, const oc_broadcast_params *p, const int64_t *a,
                          const int64_t *b, void *y);
OC_API void oc_binary_u8(int32_t op, const oc_broadcast_params *p, const uint8_t *a,
                         const uint8_t *b, void *y);
OC_API void oc_binary_u16(int32_t op, const oc_broadcast_params *p, const uint16_t *a,
                          const uint16_t *b, void *y);
OC_API void oc_binary_u32(int32_t op, const oc_broadcast_params *p, const uint32_t *a,
                          const uint32_t *b, void *y);
OC_API void oc_binary_u64(int32_t op, const oc_broadcast_params *p, const uint64_t *a,
                          const uint64_t *b, void *y);
OC_API void oc_binary_bool(int32_t op, const oc_broadcast_params *p, const uint8_t *a,
                           const uint8_t *b, void *y);
/* softmax.c: x viewed as (outer, len, inner), normalized along len.
 * log != 0 computes LogSoftmax. y may equal x. */
OC_API void oc_softmax_f32(const float *x, float *y, int32_t outer, int32_t len, int32_t inner,
                           int32_t log);
/* copy.c */
OC_API void oc_copy(const oc_copy_params *p, const void *x, void *y);
/* fill.c: n elements of elem_size bytes, each equal to *value */
OC_API void oc_fill(void *y, const void *value, int32_t elem_size, int32_t n);
/* gather.c: indices int32 or int64 (p->index_is64) */
OC_API void oc_gather(const oc_gather_params *p, const void *x, const void *indices, void *y);
/* maxpool2d.c */
OC_API void oc_maxpool2d_f32(const oc_pool2d_params *p, const float *x, float *y,
                             int64_t *indices);
/* maxpool2d_nhwc.c: 2-D MaxPool without indices, x NHWC when x_nhwc (else NCHW),
 * y likewise; n_c = n * c. Output rows in increasing (n, oy) order, each
 * reading only its window's input rows; maxpool2d.c's values. */
OC_API void oc_maxpool2d_nhwc_f32(const oc_pool2d_params *p, int32_t c, const float *x,
                                  float *y, int32_t x_nhwc, int32_t y_nhwc);
/* to_nhwc.c: NCHW -> NHWC (n items of c x hw); y may equal x, then visited
 * holds c * hw bits of scratch */
OC_API void oc_to_nhwc_f32(const float *x, float *y, int32_t n, int32_t c, int32_t hw,
                           unsigned char *visited);
/* to_nhwc_8.c: the same for 8-bit elements */
OC_API void oc_to_nhwc_8(const uint8_t *x, uint8_t *y, int32_t n, int32_t c, int32_t hw,
                         unsigned char *visited);
/* avgpool2d.c */
OC_API void oc_avgpool2d_f32(const oc_pool2d_params *p, const float *x, float *y);
/* global_pool.c: x is (n_c, len); y is (n_c); is_max selects GlobalMaxPool */
OC_API void oc_global_pool_f32(const float *x, float *y, int32_t n_c, int32_t len,
                               int32_t is_max);
/* global_pool_nhwc.c: the same with x NHWC: n items of len pixels x c channels */
OC_API void oc_global_pool_nhwc_f32(const float *x, float *y, int32_t n, int32_t c, int32_t len,
                                    int32_t is_max);
/* reduce.c, reduce_f64.c */
OC_API void oc_reduce_f32(int32_t op, const oc_reduce_params *p, const float *x, float *y);
OC_API void oc_reduce_f64(int32_t op, const oc_reduce_params *p, const double *x, double *y);
/* channel_affine.c: y[n][c][i] = x[n][c][i] * scale[c] + bias[c] (unfolded
 * BatchNormalization); y may equal x */
OC_API void oc_channel_affine_f32(const float *x, const float *scale, const float *bias, float *y,
                                  int32_t n, int32_t c, int32_t inner);
/* pad.c */
OC_API void oc_pad(const oc_pad_params *p, const void *x, void *y, const void *value);
/* resize2d.c */
OC_API void oc_resize2d_f32(const oc_resize2d_params *p, const float *x, float *y);

/* where.c */
OC_API void oc_where(const oc_where_params *p, const uint8_t *c, const void *a, const void *b,
                     void *y);
/* cast.c (no float64), cast_f64.c (to or from float64); from/to: oc_dtype */
OC_API void oc_cast(int32_t from, int32_t to, const void *x, void *y, int32_t n);
OC_API void oc_cast_f64(int32_t from, int32_t to, const void *x, void *y, int32_t n);
/* classify.c: IsNaN / IsInf */
OC_API void oc_classify_f32(const float *x, uint8_t *y, int32_t n, int32_t nan, int32_t pos_inf,
                            int32_t neg_inf);
/* argmax.c: x (outer, len, inner) -> int64 y (outer, inner) */
OC_API void oc_argmax_f32(const float *x, int64_t *y, int32_t outer, int32_t len, int32_t inner,
                          int32_t is_min, int32_t select_last);
/* hardmax.c */
OC_API void oc_hardmax_f32(const float *x, float *y, int32_t outer, int32_t len, int32_t inner);
/* gather_elements.c */
OC_API void oc_gather_elements(const oc_gather_elements_params *p, const void *x,
                               const void *index, void *y);
/* scatter_elements.c */
OC_API void oc_scatter_elements(const oc_scatter_elements_params *p, const void *data,
                                const void *index, const void *updates, void *y);
/* gather_nd.c, scatter_nd.c */
OC_API void oc_gather_nd(const oc_nd_params *p, const void *data, const void *indices, void *y);
OC_API void oc_scatter_nd(const oc_nd_params *p, const void *data, const void *indices,
                          const void *updates, void *y);
/* nll_loss.c */
OC_API void oc_nll_loss_f32(const oc_nll_loss_params *p, const float *x, const void *target,
                            const float *weight, float *y);
/* trilu.c: k_ptr (int64) overrides p->k when not NULL */
OC_API void oc_trilu(const oc_trilu_params *p, const void *x, const int64_t *k_ptr, void *y);
/* normalize.c: LayerNorm / InstanceNorm; bias, mean_out, inv_std_out may be NULL */
OC_API void oc_normalize_f32(const oc_norm_params *p, const float *x, const float *scale,
                             const float *bias, float *y, float *mean_out, float *inv_std_out);
/* lrn.c */
OC_API void oc_lrn_f32(const float *x, float *y, int32_t n, int32_t c, int32_t inner,
                       int32_t size, float alpha, float beta, float bias);
/* cumsum_<type>.c: axis operand used when p->axis < 0 */
OC_API void oc_cumsum_f32(const oc_cumsum_params *p, const float *x, const void *axis, float *y);
OC_API void oc_cumsum_f64(const oc_cumsum_params *p, const double *x, const void *axis, double *y);
OC_API void oc_cumsum_i32(const oc_cumsum_params *p, const int32_t *x, const void *axis,
                          int32_t *y);
OC_API void oc_cumsum_i64(const oc_cumsum_params *p, const int64_t *x, const void *axis,
                          int64_t *y);
/* einsum_<type>.c: b may be NULL (one operand) */
OC_API void oc_einsum_f32(const oc_einsum_params *p, const float *a, const float *b, float *y);
OC_API void oc_einsum_f64(const oc_einsum_params *p, const double *a, const double *b, double *y);
/* quantize.c, dequantize.c, dynamic_quantize.c, requantize.c (zero points may be NULL) */
OC_API void oc_quantize_f32(const oc_quant_params *p, const float *x, const float *scale,
                            const void *zp, void *y);
/* The same from the last element to the first: y may start inside x, at
 * least (n - 1) * 3 bytes after x (the elements overlap contract). */
OC_API void oc_quantize_f32_last_first(const oc_quant_params *p, const float *x, const float *scale,
                                       const void *zp, void *y);
OC_API void oc_dequantize(const oc_quant_params *p, const void *x, const float *scale,
                          const void *zp, float *y);
OC_API void oc_dynamic_quantize_f32(const float *x, int32_t n, uint8_t *y, float *scale_out,
                                    uint8_t *zp_out);
OC_API void oc_requantize(const oc_requant_params *p, const int32_t *acc, const int32_t *bias,
                          const float *a_scale, const float *b_scale, const float *y_scale,
                          const void *y_zp, void *y);
/* matmul_integer.c, conv_integer.c */
OC_API void oc_matmul_integer(const oc_matmul_int_params *q, const void *a, const void *a_zp,
                              const void *b, const void *b_zp, int32_t *y);
OC_API void oc_conv_integer(const oc_conv_int_params *q, const void *x, const void *x_zp,
                            const void *w, const void *w_zp, int32_t *y);
/* rnn.c, gru.c, lstm.c: optional inputs and outputs may be NULL; scratch as
 * documented in each file */
OC_API void oc_rnn_f32(const oc_rnn_params *p, const float *x, const float *w, const float *r,
                       const float *b, const int32_t *seq_lens, const float *h0, float *y,
                       float *y_h, float *scratch);
OC_API void oc_gru_f32(const oc_rnn_params *p, const float *x, const float *w, const float *r,
                       const float *b, const int32_t *seq_lens, const float *h0, float *y,
                       float *y_h, float *scratch);
OC_API void oc_lstm_f32(const oc_rnn_params *p, const float *x, const float *w, const float *r,
                        const float *b, const int32_t *seq_lens, const float *h0,
                        const float *c0, const float *peep, float *y, float *y_h, float *y_c,
                        float *scratch);
/* reverse_sequence.c */
OC_API void oc_reverse_sequence(const void *x, const void *seq_lens, int32_t lens_is64, void *y,
                                int32_t time, int32_t batch, int32_t inner, int32_t elem_size,
                                int32_t time_major);
/* onehot.c */
OC_API void oc_onehot(const void *indices, int32_t index_dtype, const void *values, void *y,
                      int32_t outer, int32_t depth, int32_t inner, int32_t elem_size);
/* max_unpool.c */
OC_API void oc_max_unpool_f32(const float *x, const int64_t *indices, int32_t n_in, float *y,
                              int32_t n_c, const int32_t *in_dims, const int32_t *out_dims);
/* topk.c */
OC_API void oc_topk_f32(const float *x, float *values, int64_t *indices, int32_t outer,
                        int32_t len, int32_t inner, int32_t k, int32_t largest);
/* det.c: scratch holds n * n floats */
OC_API void oc_det_f32(const float *x, float *y, int32_t batch, int32_t n, float *scratch);

/* dft.c: tw holds cos, sin of 2 pi m / len for m < len */
OC_API void oc_dft_f32(const oc_dft_params *p, const float *x, const float *tw, float *y);
/* tfidf.c: TfIdfVectorizer (mode 0 TF, 1 IDF, 2 TFIDF) */
OC_API void oc_tfidf(const void *x, int32_t x_dtype, float *y, int32_t rows, int32_t len,
                     int32_t cols, int32_t min_gram, int32_t max_gram, int32_t max_skip,
                     const int64_t *pool, const int32_t *pool_starts, const int32_t *first_id,
                     const int32_t *out_index, const float *weights, int32_t mode);
/* grid_sample.c, roi_align.c */
OC_API void oc_grid_sample_f32(const oc_grid_sample_params *p, const float *x, const float *grid,
                               float *y); /* 3-D (linear, nearest) when d_in > 0 */
OC_API void oc_roi_align_f32(const oc_roi_align_params *p, const float *x, const float *rois,
                             const int64_t *batch_indices, float *y);
/* deform_conv.c: bias and mask may be NULL */
OC_API void oc_deform_conv_f32(const oc_deform_conv_params *p, const float *x, const float *w,
                               const float *offset, const float *bias, const float *mask,
                               float *y);

#ifdef __cplusplus
}
#endif

#endif /* ONNX_TO_C_OC_KERNELS_H_ */
