/*
 * onnx-to-c runtime: where an optimized folder runs oc_qconv2d_w4_col as
 * column products in its scratch (qconv_w4.c takes QW4_COLUMN_CONV_ when
 * defined); none here, so it runs oc_qconv2d_w4. runtime/arm: two pixels'
 * columns against each weight word's nibbles by SMLAD.
 */
#ifndef ONNX_TO_C_OC_QW4_COL_H_
#define ONNX_TO_C_OC_QW4_COL_H_

#include "onnx_to_c/oc_common.h"

#endif /* ONNX_TO_C_OC_QW4_COL_H_ */
