/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the
 * kernels with 4-bit weights (oc_qw4_run.h): macros they take instead of
 * their own loops (#ifndef); none here. runtime/arm: SMLAD on four values
 * and four channels per step, USADA8 for the sums of the values.
 */
#ifndef ONNX_TO_C_OC_QW4_FAST_H_
#define ONNX_TO_C_OC_QW4_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QW4_FAST_H_ */
