/*
 * onnx-to-c runtime, Armv7E-M: Gemm with B transposed and A not (a Linear
 * layer) as oc_arm_gemm_nt (oc_arm_tiles.h) on a single-precision FPU; the
 * interface of the reference oc_gemm_fast.h.
 */
#ifndef ONNX_TO_C_OC_GEMM_FAST_H_
#define ONNX_TO_C_OC_GEMM_FAST_H_

#include "onnx_to_c/oc_gemm_tiles.h"
#include "onnx_to_c/oc_arm_tiles.h"

#if OC_ARM_TILES
#define OC_GEMM_NT_FAST(a, am, ak, b, M, N, K, y) \
  if ((ak) == 1) {                                \
    oc_arm_gemm_nt(a, am, b, M, N, K, y);         \
  } else
#else
#define OC_GEMM_NT_FAST(a, am, ak, b, M, N, K, y)
#endif
#define OC_GEMM_NT_ROW_FAST(ar, ak, b0, N, K, yr, n)

#endif /* ONNX_TO_C_OC_GEMM_FAST_H_ */
