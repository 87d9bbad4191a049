/*
 * onnx-to-c runtime: where an optimized folder gives the float
 * requantization of oc_qlinear.h other code for the same values
 * (OC_REQUANT8_APPLY_FLOAT_, OC_REQUANT8_RUN_SAT8_, OC_REQUANT8_RUN_FLOAT_);
 * nothing here, oc_qlinear.h's own code runs. runtime/arm: VCVTR.
 */
#ifndef ONNX_TO_C_OC_REQUANT_FAST_H_
#define ONNX_TO_C_OC_REQUANT_FAST_H_

#endif /* ONNX_TO_C_OC_REQUANT_FAST_H_ */
