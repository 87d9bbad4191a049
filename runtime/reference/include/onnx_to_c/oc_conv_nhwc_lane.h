/*
 * onnx-to-c runtime: the lane of the channels-last convolution (conv2d_nhwc.c)
 * and the tile families that come with it: one float here
 * (oc_conv_nhwc_scalar.h). runtime/x86 replaces this header with vector lanes,
 * more families (partial lanes, padding tiles) and the hooks that run them.
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_LANE_H_
#define ONNX_TO_C_OC_CONV_NHWC_LANE_H_

#include "onnx_to_c/oc_conv_nhwc_scalar.h"

#endif /* ONNX_TO_C_OC_CONV_NHWC_LANE_H_ */
