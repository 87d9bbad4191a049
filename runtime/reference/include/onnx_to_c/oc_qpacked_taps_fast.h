/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the packed-taps
 * convolution (oc_qconv_packed_taps.h): its tap, load and pixel-pair macros
 * instead of the reference ones (#ifndef); none here. runtime/arm: SMLAxy.
 */
#ifndef ONNX_TO_C_OC_QPACKED_TAPS_FAST_H_
#define ONNX_TO_C_OC_QPACKED_TAPS_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QPACKED_TAPS_FAST_H_ */
