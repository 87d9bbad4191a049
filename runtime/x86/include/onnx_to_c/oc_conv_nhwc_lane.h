/*
 * onnx-to-c runtime, x86: the lane of the channels-last convolution (the
 * interface of the reference oc_conv_nhwc_lane.h): vectors where GCC or Clang
 * have them (oc_conv_nhwc_vector.h), else one float (oc_conv_nhwc_scalar.h).
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_LANE_H_
#define ONNX_TO_C_OC_CONV_NHWC_LANE_H_

#include "onnx_to_c/oc_conv_nhwc_vector.h"
#include "onnx_to_c/oc_conv_nhwc_scalar.h"

#endif /* ONNX_TO_C_OC_CONV_NHWC_LANE_H_ */
