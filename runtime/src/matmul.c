/*
 * ONNX MatMul (numpy matmul) with broadcasting over the batch dims:
 * Y[b] = act(A[b] B[b]); A[b] is M x K, B[b] is K x N, Y is contiguous
 * (batch..., M, N).
 *
 * Each dot product is summed over k = 0..K-1 in increasing order starting
 * from 0; the k loop is the middle loop and the inner loop runs along a row
 * of B (vectorizable, order unchanged).
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

static void matmul_axpy_(float *restrict y, const float *restrict x, float a, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) y[i] += a * x[i];
}

static void matmul_block_(const oc_matmul_params *p, const float *a, const float *b, float *y) {
  const int32_t M = p->m, N = p->n, K = p->k;
  int32_t m, n, k;
  for (m = 0; m < M; m++) {
    float *yr = y + m * N;
    const float *ar = a + m * K;
    for (n = 0; n < N; n++) yr[n] = 0.0f;
    for (k = 0; k < K; k++) matmul_axpy_(yr, b + k * N, ar[k], N);
    if (p->act.kind != OC_ACT_NONE) {
      for (n = 0; n < N; n++) yr[n] = oc_apply_act(&p->act, yr[n]);
    }
  }
}

OC_API void oc_matmul_f32(const oc_matmul_params *p, const float *a, const float *b, float *y) {
  int32_t idx[OC_MAX_RANK];
  int32_t nb = 1, bi, d, a_off = 0, b_off = 0;
  for (d = 0; d < p->batch_rank; d++) {
    idx[d] = 0;
    nb *= p->batch_dims[d];
  }
  for (bi = 0; bi < nb; bi++) {
    matmul_block_(p, a + a_off, b + b_off, y + bi * p->m * p->n);
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
