/*
 * onnx-to-c runtime: CumSum (oc_cumsum_params), instantiated per element
 * type by cumsum_<type>.c. Sums run along the axis in order (reversed with
 * `reverse`); `exclusive` leaves out the element itself. ADD(a, b) is the
 * type's addition (wrap-around for integers).
 */
#ifndef ONNX_TO_C_OC_CUMSUM_H_
#define ONNX_TO_C_OC_CUMSUM_H_

#include "onnx_to_c/oc_tensor.h"

/* The axis of p, or -1 when a run-time axis is out of range. */
OC_INLINE int32_t oc_cumsum_axis(const oc_cumsum_params *p, const void *axis) {
  return p->axis >= 0 ? p->axis : oc_wrap_index(oc_index_at(axis, p->axis_is64, 0), p->rank);
}

#define OC_DEFINE_CUMSUM(SUFFIX, T, ADD)                                                      \
  OC_API void oc_cumsum_##SUFFIX(const oc_cumsum_params *p, const T *x, const void *axis,     \
                                 T *y) {                                                      \
    const int32_t a = oc_cumsum_axis(p, axis);                                                \
    int32_t d, o, j, k, outer = 1, len, inner = 1;                                            \
    if (a < 0) { /* invalid axis: the input unchanged */                                      \
      for (d = 0; d < p->rank; d++) outer *= p->dims[d];                                      \
      memcpy(y, x, (size_t)outer * sizeof *y);                                                \
      return;                                                                                 \
    }                                                                                         \
    for (d = 0; d < a; d++) outer *= p->dims[d];                                              \
    for (d = a + 1; d < p->rank; d++) inner *= p->dims[d];                                    \
    len = p->dims[a];                                                                         \
    for (o = 0; o < outer; o++) {                                                             \
      for (j = 0; j < inner; j++) {                                                           \
        const ptrdiff_t base = (ptrdiff_t)o * len * inner + j;                                \
        T acc = (T)0;                                                                         \
        for (k = 0; k < len; k++) {                                                           \
          const ptrdiff_t at = base + (ptrdiff_t)(p->reverse ? len - 1 - k : k) * inner;      \
          const T v = x[at];                                                                  \
          if (p->exclusive) {                                                                 \
            y[at] = acc;                                                                      \
            acc = ADD(acc, v);                                                                \
          } else {                                                                            \
            acc = ADD(acc, v);                                                                \
            y[at] = acc;                                                                      \
          }                                                                                   \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }

#define OC_CUMSUM_ADD(a, b) ((a) + (b))

#endif /* ONNX_TO_C_OC_CUMSUM_H_ */
