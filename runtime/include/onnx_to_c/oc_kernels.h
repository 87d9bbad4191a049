/*
 * onnx-to-c runtime: kernel entry points (library build).
 *
 * One entry point per file in runtime/src. The code generator does not
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
/* gather.c: indices are int32, already in [0, axis_len) */
OC_API void oc_gather(const oc_gather_params *p, const void *x, const int32_t *indices, void *y);
/* maxpool2d.c */
OC_API void oc_maxpool2d_f32(const oc_pool2d_params *p, const float *x, float *y,
                             int64_t *indices);
/* avgpool2d.c */
OC_API void oc_avgpool2d_f32(const oc_pool2d_params *p, const float *x, float *y);
/* global_pool.c: x is (n_c, len); y is (n_c); is_max selects GlobalMaxPool */
OC_API void oc_global_pool_f32(const float *x, float *y, int32_t n_c, int32_t len,
                               int32_t is_max);
/* reduce.c */
OC_API void oc_reduce_f32(int32_t op, const oc_reduce_params *p, const float *x, float *y);
/* channel_affine.c: y[n][c][i] = x[n][c][i] * scale[c] + bias[c] (unfolded
 * BatchNormalization); y may equal x */
OC_API void oc_channel_affine_f32(const float *x, const float *scale, const float *bias, float *y,
                                  int32_t n, int32_t c, int32_t inner);
/* pad.c */
OC_API void oc_pad_f32(const oc_pad_params *p, const float *x, float *y);
/* resize2d.c */
OC_API void oc_resize2d_f32(const oc_resize2d_params *p, const float *x, float *y);

#ifdef __cplusplus
}
#endif

#endif /* ONNX_TO_C_OC_KERNELS_H_ */
