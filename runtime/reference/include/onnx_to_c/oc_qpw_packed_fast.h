/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the packed 8-bit 1x1
 * overlap convolution (qconv1x1_overlap_packed.c): its kernels
 * (OC_QCONV1X1_PACKED_DEFINE and their instances) instead of the reference
 * ones; none here. runtime/arm: an int16 column and SMLAD.
 */
#ifndef ONNX_TO_C_OC_QPW_PACKED_FAST_H_
#define ONNX_TO_C_OC_QPW_PACKED_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QPW_PACKED_FAST_H_ */
