/*
 * onnx-to-c runtime: the step of an in-place NCHW -> NHWC relayout
 * (to_nhwc.c, to_nhwc_8.c), which follows the permutation's cycles: the
 * element at index j moves to j c mod m, m = c hw - 1. With few channels
 * (c <= 8, and j c in 32 bits) the remainder takes at most c - 1
 * subtractions instead of a division (up to 12 cycles on a Cortex-M4).
 */
#ifndef ONNX_TO_C_OC_NHWC_CYCLE_H_
#define ONNX_TO_C_OC_NHWC_CYCLE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* j c mod m; wide: j c may not fit in 32 bits. */
OC_INLINE uint32_t oc_nhwc_cycle_next(uint32_t j, uint32_t c, uint32_t m, int wide) {
  uint32_t next;
  if (!wide && c <= 8u) {
    next = j * c;
    while (next >= m) next -= m;
    return next;
  }
  return wide ? (uint32_t)(((uint64_t)j * c) % m) : (j * c) % m;
}

#endif /* ONNX_TO_C_OC_NHWC_CYCLE_H_ */
