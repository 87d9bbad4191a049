/*
 * onnx-to-c runtime: how the scatter kernels write one element (an update
 * copied, or combined with the element by an oc_scatter_reduction, which
 * needs float32 elements).
 */
#ifndef ONNX_TO_C_OC_SCATTER_H_
#define ONNX_TO_C_OC_SCATTER_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_INLINE void oc_scatter_put(int32_t reduction, unsigned char *dst, const unsigned char *src,
                              size_t es) {
  float a, b;
  if (reduction == OC_SCATTER_NONE) {
    memcpy(dst, src, es);
    return;
  }
  memcpy(&a, dst, sizeof a);
  memcpy(&b, src, sizeof b);
  switch (reduction) {
    case OC_SCATTER_ADD: a = a + b; break;
    case OC_SCATTER_MUL: a = a * b; break;
    case OC_SCATTER_MAX: a = b > a ? b : a; break;
    default: a = b < a ? b : a; break;
  }
  memcpy(dst, &a, sizeof a);
}

#endif /* ONNX_TO_C_OC_SCATTER_H_ */
