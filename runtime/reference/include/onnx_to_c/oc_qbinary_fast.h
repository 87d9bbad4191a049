/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the
 * 8-bit Add and Mul (qbinary.c), as code the kernel expands; none here.
 * runtime/arm: Add in float mode with VCVTR.
 */
#ifndef ONNX_TO_C_OC_QBINARY_FAST_H_
#define ONNX_TO_C_OC_QBINARY_FAST_H_

#include "onnx_to_c/oc_qlinear.h"

/* functions of its own, then in oc_qbinary: the whole operation, then
 * "return" */
#define OC_QBINARY_FNS_FAST
#define OC_QBINARY_FAST(q, r, a, b, y)

#endif /* ONNX_TO_C_OC_QBINARY_FAST_H_ */
