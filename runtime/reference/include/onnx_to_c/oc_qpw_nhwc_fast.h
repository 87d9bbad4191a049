/*
 * onnx-to-c runtime: the place where an optimized folder speeds up the 8-bit
 * channels-last pointwise convolution (qconv_pw_nhwc.c): its runs of four
 * input channels (QPW_NHWC_RUNS_) instead of the reference loop; none here.
 * runtime/arm: SXTB16/UXTB16 and SMLAD.
 */
#ifndef ONNX_TO_C_OC_QPW_NHWC_FAST_H_
#define ONNX_TO_C_OC_QPW_NHWC_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QPW_NHWC_FAST_H_ */
