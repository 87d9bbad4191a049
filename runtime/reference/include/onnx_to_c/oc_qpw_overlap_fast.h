/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the 8-bit 1x1 overlap
 * convolution (qconv1x1_overlap.c): macros the kernel takes instead of its
 * own (#ifndef); none here. runtime/arm: int8 weights with SMLAD.
 */
#ifndef ONNX_TO_C_OC_QPW_OVERLAP_FAST_H_
#define ONNX_TO_C_OC_QPW_OVERLAP_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QPW_OVERLAP_FAST_H_ */
