/*
 * ONNX Gemm: Y = act(alpha * op(A) op(B) + beta * C), C optional (beta is
 * ignored without it) and broadcast through its strides.
 *
 * Each dot product is summed over k = 0..K-1 in increasing order starting
 * from 0, whatever the transposes; alpha and beta * C are applied after.
 * Without trans_b the k loop is the middle loop and the inner loop runs
 * along a row of B (vectorizable, order unchanged).
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

static void gemm_axpy_(float *restrict y, const float *restrict x, float a, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) y[i] += a * x[i];
}

OC_API void oc_gemm_f32(const oc_gemm_params *p, const float *a, const float *b,
                        const float *c, float *y) {
  const int32_t M = p->m, N = p->n, K = p->k;
  /* element (m, k) of op(A) is a[m * am + k * ak] */
  const int32_t am = p->trans_a ? 1 : K, ak = p->trans_a ? M : 1;
  int32_t m, n, k;
  for (m = 0; m < M; m++) {
    float *yr = y + m * N;
    const float *ar = a + m * am;
    if (!p->trans_b) {
      for (n = 0; n < N; n++) yr[n] = 0.0f;
      for (k = 0; k < K; k++) gemm_axpy_(yr, b + k * N, ar[k * ak], N);
    } else {
      for (n = 0; n < N; n++) {
        const float *br = b + n * K;
        float acc = 0.0f;
        for (k = 0; k < K; k++) acc += ar[k * ak] * br[k];
        yr[n] = acc;
      }
    }
    for (n = 0; n < N; n++) {
      float v = p->alpha * yr[n];
      if (c != NULL) v += p->beta * c[m * p->c_stride_m + n * p->c_stride_n];
      yr[n] = oc_apply_act(&p->act, v);
    }
  }
}
