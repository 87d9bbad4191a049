/*
 * onnx-to-c runtime, x86: the lane of the register-tiled kernels (the
 * reference oc_lane.h): a vector of 4 or 8 floats where GCC or Clang have
 * 128-bit SIMD (oc_vector_lane.h), one float elsewhere (oc_scalar_lane.h),
 * so the kernels compile on any C99 compiler.
 */
#ifndef ONNX_TO_C_OC_LANE_H_
#define ONNX_TO_C_OC_LANE_H_

#include "onnx_to_c/oc_tile.h"
#include "onnx_to_c/oc_vector_lane.h"
#include "onnx_to_c/oc_scalar_lane.h"

#endif /* ONNX_TO_C_OC_LANE_H_ */
