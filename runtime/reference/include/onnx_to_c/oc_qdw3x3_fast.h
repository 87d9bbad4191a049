/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the 8-bit depthwise 3x3
 * convolution (qconv_dw3x3.c): macros the kernel takes instead of its own
 * (#ifndef); none here. runtime/arm: SMLAD on two lines at once.
 */
#ifndef ONNX_TO_C_OC_QDW3X3_FAST_H_
#define ONNX_TO_C_OC_QDW3X3_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QDW3X3_FAST_H_ */
