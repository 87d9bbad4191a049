/*
 * onnx-to-c runtime: the lane of the register-tiled kernels (oc_tile.h), one
 * float here (oc_scalar_lane.h). An optimized folder replaces this header
 * with a wider lane of the same interface (runtime/x86: 4- or 8-float
 * vectors).
 */
#ifndef ONNX_TO_C_OC_LANE_H_
#define ONNX_TO_C_OC_LANE_H_

#include "onnx_to_c/oc_tile.h"
#include "onnx_to_c/oc_scalar_lane.h"

#endif /* ONNX_TO_C_OC_LANE_H_ */
