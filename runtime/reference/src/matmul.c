/*
 * ONNX MatMul (numpy matmul) with broadcasting over the batch dims:
 * Y[b] = act(A[b] B[b]); A[b] is M x K, B[b] is K x N, Y is contiguous
 * (batch..., M, N).
 *
 * Each dot product is summed over k = 0..K-1 in increasing order starting
 * from 0, in the register tiles of oc_gemm_tiles.h (shared with Gemm).
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_gemm_tiles.h"

OC_API void oc_matmul_f32(const oc_matmul_params *p, const float *a, const float *b, float *y) {
  int32_t idx[OC_MAX_RANK];
  int32_t nb = 1, bi, d, i, a_off = 0, b_off = 0;
  const int32_t mn = p->m * p->n;
  for (d = 0; d < p->batch_rank; d++) {
    idx[d] = 0;
    nb *= p->batch_dims[d];
  }
  for (bi = 0; bi < nb; bi++) {
    float *yb = y + bi * mn;
    oc_gemm_nn(a + a_off, p->k, 1, b + b_off, p->n, p->m, p->n, p->k, yb, p->n);
    if (p->act.kind != OC_ACT_NONE) {
      for (i = 0; i < mn; i++) yb[i] = oc_tile_act(&p->act, yb[i]);
    }
    /* next batch index, last dim fastest */
    for (d = p->batch_rank - 1; d >= 0; d--) {
      a_off += p->a_batch_strides[d];
      b_off += p->b_batch_strides[d];
      if (++idx[d] < p->batch_dims[d]) break;
      a_off -= p->a_batch_strides[d] * p->batch_dims[d];
      b_off -= p->b_batch_strides[d] * p->batch_dims[d];
      idx[d] = 0;
    }
  }
}
