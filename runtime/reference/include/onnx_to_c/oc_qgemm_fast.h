/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the 8-bit matrix
 * product (qgemm.c): macros the kernel takes instead of its own (#ifndef);
 * none here. runtime/arm: SMLAD on four columns at a time.
 */
#ifndef ONNX_TO_C_OC_QGEMM_FAST_H_
#define ONNX_TO_C_OC_QGEMM_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QGEMM_FAST_H_ */
