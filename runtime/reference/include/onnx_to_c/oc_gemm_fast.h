/*
 * onnx-to-c runtime: the places where an optimized folder speeds up Gemm
 * with B transposed (gemm.c); the reference kernels have no faster path.
 * runtime/x86 computes rows in vector lanes, runtime/arm whole products in
 * assembler, each with the sums of gemm.c.
 */
#ifndef ONNX_TO_C_OC_GEMM_FAST_H_
#define ONNX_TO_C_OC_GEMM_FAST_H_

#include "onnx_to_c/oc_gemm_tiles.h"

/* y = A B^T for A(m, k) = a[m * am + k * ak], B K-contiguous rows of b,
 * where a faster kernel can: "if (it can) { it } else", which gemm.c
 * follows with its own code; nothing here. */
#define OC_GEMM_NT_FAST(a, am, ak, b, M, N, K, y)

/* Statements computing the first columns of row ar of y = A B^T from
 * column n, advancing n and b0 (B's row of column n) past them. */
#define OC_GEMM_NT_ROW_FAST(ar, ak, b0, N, K, yr, n)

#endif /* ONNX_TO_C_OC_GEMM_FAST_H_ */
