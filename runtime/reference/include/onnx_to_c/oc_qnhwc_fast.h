/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the 8-bit
 * channels-last convolution (qconv2d_nhwc.c): macros the kernel takes
 * instead of its own (#ifndef); none here. runtime/arm: SMLAD, USADA8 and
 * the dense windows in assembler.
 */
#ifndef ONNX_TO_C_OC_QNHWC_FAST_H_
#define ONNX_TO_C_OC_QNHWC_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QNHWC_FAST_H_ */
