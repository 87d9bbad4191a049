/*
 * ONNX Gemm, Y = act(alpha * op(A) op(B) + beta * C), C optional (beta is
 * ignored without it) and broadcast through its strides; and ONNX MatMul
 * (numpy matmul) with broadcasting over the batch dims, Y[b] = act(A[b] B[b]),
 * A[b] M x K, B[b] K x N, Y contiguous (batch..., M, N).
 *
 * Each dot product is summed over k = 0..K-1 in increasing order starting
 * from 0, whatever the transposes and the tiling; alpha, beta * C and the
 * activation are applied to the finished sum.
 *
 * Register tiles (oc_tile.h): with B as K x N rows, 4 rows of Y x the
 * columns of a wide or narrow tile are kept in local accumulators while k
 * runs, vectorized across the columns (independent sums, so nothing is
 * reassociated); with B transposed (N x K), 4 dot products at a time share
 * each load of A.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_tile.h"

#define OC_GEMM_DECL4(i) oc_lane p##i = zero, q##i = zero, r##i = zero, s##i = zero;
#define OC_GEMM_A4(k)                                                           \
  const float a0 = a[(k) * ak], a1 = a[am + (k) * ak], a2 = a[2 * am + (k) * ak], \
              a3 = a[3 * am + (k) * ak];
#define OC_GEMM_MAC4(i)                                                         \
  {                                                                             \
    const oc_lane bv = oc_lane_load(br + (i) * OC_LANE_W, 1);                   \
    p##i += a0 * bv;                                                            \
    q##i += a1 * bv;                                                            \
    r##i += a2 * bv;                                                            \
    s##i += a3 * bv;                                                            \
  }
#define OC_GEMM_STORE4(i)                                                       \
  oc_lane_put(y + (i) * OC_LANE_W, p##i);                                       \
  oc_lane_put(y + ldy + (i) * OC_LANE_W, q##i);                                 \
  oc_lane_put(y + 2 * ldy + (i) * OC_LANE_W, r##i);                             \
  oc_lane_put(y + 3 * ldy + (i) * OC_LANE_W, s##i);
#define OC_GEMM_DECL1(i) oc_lane p##i = zero;
#define OC_GEMM_A1(k) \
  const float a0 = a[(k) * ak];  \
  (void)am;                      \
  (void)ldy;
#define OC_GEMM_MAC1(i) p##i += a0 * oc_lane_load(br + (i) * OC_LANE_W, 1);
#define OC_GEMM_STORE1(i) oc_lane_put(y + (i) * OC_LANE_W, p##i);

/* NCO (4 or 1) rows of Y x the columns of LANES: A(m, k) at a[m * am + k * ak]
 * for the tile's rows, B from the tile's first column with row stride ldb. */
#define OC_GEMM_TILE_FN(name, NCO, LANES)                                                      \
  static void name(const float *restrict a, int32_t am, int32_t ak, const float *restrict b,   \
                   int32_t ldb, int32_t K, float *restrict y, int32_t ldy) {                  \
    const oc_lane zero = oc_lane_splat(0.0f);                                                 \
    int32_t k;                                                                                \
    LANES(OC_GEMM_DECL##NCO)                                                                  \
    for (k = 0; k < K; k++) {                                                                 \
      const float *br = b + k * ldb;                                                          \
      OC_GEMM_A##NCO(k)                                                                       \
      LANES(OC_GEMM_MAC##NCO)                                                                 \
    }                                                                                         \
    LANES(OC_GEMM_STORE##NCO)                                                                 \
  }
OC_GEMM_TILE_FN(gemm_t4w_, 4, OC_LANES_WIDE)
OC_GEMM_TILE_FN(gemm_t4n_, 4, OC_LANES_NARROW)
OC_GEMM_TILE_FN(gemm_t1w_, 1, OC_LANES_WIDE)
OC_GEMM_TILE_FN(gemm_t1n_, 1, OC_LANES_NARROW)

typedef void (*gemm_tile_fn_)(const float *a, int32_t am, int32_t ak, const float *b,
                              int32_t ldb, int32_t K, float *y, int32_t ldy);

/* y[m * ldy + j] = sum_k A(m, k) B(k, j) for m < M, j < N: A(m, k) at
 * a[m * am + k * ak], B row-major with row stride ldb. The last tile of a
 * row block is moved back to end at N (it recomputes a few sums, with the
 * same bits); columns narrower than a tile are summed one by one. */
static void gemm_nn_(const float *a, int32_t am, int32_t ak, const float *b, int32_t ldb,
                     int32_t M, int32_t N, int32_t K, float *y, int32_t ldy) {
  const int32_t tw = N >= OC_TILE_WIDE ? OC_TILE_WIDE : OC_TILE_NARROW;
  int32_t m, n, k, r;
  for (m = 0; m < M; m += 4) {
    const int32_t rows = M - m < 4 ? M - m : 4;
    const float *ar = a + m * am;
    float *yr = y + m * ldy;
    if (N >= OC_TILE_NARROW) {
      for (r = 0; r < rows; r += rows == 4 ? 4 : 1) {
        const gemm_tile_fn_ tile = rows == 4 ? (tw == OC_TILE_WIDE ? gemm_t4w_ : gemm_t4n_)
                                             : (tw == OC_TILE_WIDE ? gemm_t1w_ : gemm_t1n_);
        for (n = 0;; n += tw) {
          if (n + tw > N) n = N - tw;
          tile(ar + r * am, am, ak, b + n, ldb, K, yr + r * ldy + n, ldy);
          if (n + tw == N) break;
        }
      }
      continue;
    }
    for (r = 0; r < rows; r++) {
      for (n = 0; n < N; n++) {
        float s0 = 0.0f;
        for (k = 0; k < K; k++) s0 += ar[r * am + k * ak] * b[k * ldb + n];
        yr[r * ldy + n] = s0;
      }
    }
  }
}

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
    for (n = 0; n < n4; n += 4, b0 += 4 * K) {
      const float *b1 = b0 + K, *b2 = b1 + K, *b3 = b2 + K;
      float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
      for (k = 0; k < K; k++) {
        const float av = ar[k * ak];
        s0 += av * b0[k];
        s1 += av * b1[k];
        s2 += av * b2[k];
        s3 += av * b3[k];
      }
      yr[n] = s0;
      yr[n + 1] = s1;
      yr[n + 2] = s2;
      yr[n + 3] = s3;
    }
    for (; n < N; n++, b0 += K) {
      float s0 = 0.0f;
      for (k = 0; k < K; k++) s0 += ar[k * ak] * b0[k];
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
    gemm_nt_(a, am, ak, b, M, N, K, y);
  } else {
    gemm_nn_(a, am, ak, b, N, M, N, K, y, N);
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
    gemm_nn_(a + a_off, p->k, 1, b + b_off, p->n, p->m, p->n, p->k, yb, p->n);
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
