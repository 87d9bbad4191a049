/*
 * ONNX Gemm, Y = act(alpha * op(A) op(B) + beta * C), C optional (beta is
 * ignored without it) and broadcast through its strides.
 *
 * Each dot product is summed over k = 0..K-1 in increasing order starting
 * from 0, whatever the transposes and the tiling; alpha, beta * C and the
 * activation are applied to the finished sum.
 *
 * Register tiles (oc_gemm_tiles.h, oc_lane.h): with B as K x N rows, 4 rows of Y x the
 * columns of a wide or narrow tile are kept in local accumulators while k
 * runs, in lanes across the columns (independent sums, so nothing is
 * reassociated); with B transposed (N x K), 4 dot products at a time share
 * each load of A. An optimized folder may take rows or whole products with
 * B transposed (oc_gemm_fast.h) with the same sums.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_gemm_tiles.h"
#include "onnx_to_c/oc_gemm_fast.h"

/* y[m * N + n] = sum_k A(m, k) B[n * K + k] (B transposed): 4 columns at a
 * time share each load of A. */
static void gemm_nt_(const float *a, int32_t am, int32_t ak, const float *b, int32_t M,
                     int32_t N, int32_t K, float *y) {
  const int32_t n4 = N - N % 4;
  int32_t m, n, k;
  for (m = 0; m < M; m++) {
    const float *ar = a + m * am;
    float *yr = y + m * N;
    const float *b0 = b;
    n = 0;
    OC_GEMM_NT_ROW_FAST(ar, ak, b0, N, K, yr, n)
    for (; n < n4; n += 4, b0 += 4 * K) {
      const float *b1 = b0 + K, *b2 = b1 + K, *b3 = b2 + K;
      float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
      for (k = 0; k < K; k++) {
        const float av = ar[k * ak];
        OC_MAC(s0, av, b0[k]);
        OC_MAC(s1, av, b1[k]);
        OC_MAC(s2, av, b2[k]);
        OC_MAC(s3, av, b3[k]);
      }
      yr[n] = s0;
      yr[n + 1] = s1;
      yr[n + 2] = s2;
      yr[n + 3] = s3;
    }
    for (; n < N; n++, b0 += K) {
      float s0 = 0.0f;
      for (k = 0; k < K; k++) OC_MAC(s0, ar[k * ak], b0[k]);
      yr[n] = s0;
    }
  }
}

OC_API void oc_gemm_f32(const oc_gemm_params *p, const float *a, const float *b,
                        const float *c, float *y) {
  const int32_t M = p->m, N = p->n, K = p->k;
  /* element (m, k) of op(A) is a[m * am + k * ak] */
  const int32_t am = p->trans_a ? 1 : K, ak = p->trans_a ? M : 1;
  int32_t m, n;
  if (p->trans_b) {
    OC_GEMM_NT_FAST(a, am, ak, b, M, N, K, y)
    gemm_nt_(a, am, ak, b, M, N, K, y);
  } else {
    oc_gemm_nn(a, am, ak, b, N, M, N, K, y, N);
  }
  for (m = 0; m < M; m++) {
    float *yr = y + m * N;
    for (n = 0; n < N; n++) {
      float v = p->alpha * yr[n];
      if (c != NULL) v += p->beta * c[m * p->c_stride_m + n * p->c_stride_n];
      yr[n] = oc_tile_act(&p->act, v);
    }
  }
}
