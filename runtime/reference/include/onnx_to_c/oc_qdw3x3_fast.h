/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the 8-bit depthwise 3x3
 * convolution (qconv_dw3x3.c): macros the kernel takes instead of its own
 * (#ifndef), or takes where defined (OC_QDW_PLANE_: computes a whole plane
 * and returns 1, or returns 0 and writes nothing); none here. runtime/arm:
 * SMLAD on two lines at once, short planes column by column.
 */
#ifndef ONNX_TO_C_OC_QDW3X3_FAST_H_
#define ONNX_TO_C_OC_QDW3X3_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QDW3X3_FAST_H_ */
