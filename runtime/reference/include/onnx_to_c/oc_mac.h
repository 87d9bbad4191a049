/*
 * onnx-to-c runtime: OC_MAC(acc, a, b), acc += a * b, the multiply-accumulate
 * of the register tiles: a multiply, then an add, each rounded
 * (-ffp-contract=off keeps the compilers from fusing them). An optimized
 * folder may encode it otherwise with the same two roundings (runtime/arm:
 * VMLA.F32).
 */
#ifndef ONNX_TO_C_OC_MAC_H_
#define ONNX_TO_C_OC_MAC_H_

#define OC_MAC(acc, a, b) ((acc) += (a) * (b))

#endif /* ONNX_TO_C_OC_MAC_H_ */
