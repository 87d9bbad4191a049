/*
 * onnx-to-c runtime: the element offset an index tuple addresses for
 * GatherND and ScatterND (oc_nd_params).
 */
#ifndef ONNX_TO_C_OC_ND_H_
#define ONNX_TO_C_OC_ND_H_

#include "onnx_to_c/oc_tensor.h"

/* Offset (within a batch) of tuple t, or -1 when an entry is out of range. */
OC_INLINE int32_t oc_nd_offset(const oc_nd_params *p, const void *indices, int32_t t) {
  int32_t j, off = 0;
  for (j = 0; j < p->k; j++) {
    const int32_t i = oc_wrap_index(oc_index_at(indices, p->index_is64, t * p->k + j), p->dims[j]);
    if (i < 0) return -1;
    off += i * p->strides[j];
  }
  return off;
}

#endif /* ONNX_TO_C_OC_ND_H_ */
