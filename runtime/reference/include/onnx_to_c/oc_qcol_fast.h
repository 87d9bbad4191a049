/*
 * onnx-to-c runtime: the places where an optimized folder speeds up the column kernels
 * (oc_qcol.h): OC_QCOL_DSP_LOOP_ instead of none; none here. runtime/arm:
 * blocks of four channels in assembler with SMLAD.
 */
#ifndef ONNX_TO_C_OC_QCOL_FAST_H_
#define ONNX_TO_C_OC_QCOL_FAST_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QCOL_FAST_H_ */
