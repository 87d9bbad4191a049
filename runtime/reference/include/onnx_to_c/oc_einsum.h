/*
 * onnx-to-c runtime: Einsum (oc_einsum_params), instantiated per element
 * type by einsum_<type>.c.
 */
#ifndef ONNX_TO_C_OC_EINSUM_H_
#define ONNX_TO_C_OC_EINSUM_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

#define OC_DEFINE_EINSUM(SUFFIX, T)                                                          \
  OC_API void oc_einsum_##SUFFIX(const oc_einsum_params *p, const T *a, const T *b, T *y) {  \
    int32_t idx[OC_MAX_RANK];                                                                \
    int32_t d, i, total = 1, yo = 0, ao = 0, bo = 0;                                         \
    for (i = 0; i < p->y_size; i++) y[i] = (T)0;                                             \
    for (d = 0; d < p->n_labels; d++) {                                                      \
      idx[d] = 0;                                                                            \
      total *= p->dims[d];                                                                   \
    }                                                                                        \
    for (i = 0; i < total; i++) {                                                            \
      y[yo] += p->n_operands > 1 ? a[ao] * b[bo] : a[ao];                                    \
      for (d = p->n_labels - 1; d >= 0; d--) {                                               \
        yo += p->y_strides[d];                                                               \
        ao += p->a_strides[d];                                                               \
        bo += p->b_strides[d];                                                               \
        if (++idx[d] < p->dims[d]) break;                                                    \
        yo -= p->y_strides[d] * p->dims[d];                                                  \
        ao -= p->a_strides[d] * p->dims[d];                                                  \
        bo -= p->b_strides[d] * p->dims[d];                                                  \
        idx[d] = 0;                                                                          \
      }                                                                                      \
    }                                                                                        \
  }

#endif /* ONNX_TO_C_OC_EINSUM_H_ */
