/*
 * onnx-to-c runtime: the register tiles of the matrix product, shared by
 * Gemm (gemm.c) and MatMul (matmul.c). Each sum runs over k = 0..K-1 in
 * increasing order from 0 (see gemm.c).
 */
#ifndef ONNX_TO_C_OC_GEMM_TILES_H_
#define ONNX_TO_C_OC_GEMM_TILES_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_lane.h"

#define OC_GEMM_DECL4(i) oc_lane p##i = zero, q##i = zero, r##i = zero, s##i = zero;
#define OC_GEMM_A4(k)                                                           \
  const float a0 = a[(k) * ak], a1 = a[am + (k) * ak], a2 = a[2 * am + (k) * ak], \
              a3 = a[3 * am + (k) * ak];
#define OC_GEMM_MAC4(i)                                                         \
  {                                                                             \
    const oc_lane bv = oc_lane_load(br + (i) * OC_LANE_W, 1);                   \
    OC_MAC(p##i, a0, bv);                                                            \
    OC_MAC(q##i, a1, bv);                                                            \
    OC_MAC(r##i, a2, bv);                                                            \
    OC_MAC(s##i, a3, bv);                                                            \
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
#define OC_GEMM_MAC1(i) OC_MAC(p##i, a0, oc_lane_load(br + (i) * OC_LANE_W, 1));
#define OC_GEMM_STORE1(i) oc_lane_put(y + (i) * OC_LANE_W, p##i);

/* NCO (4 or 1) rows of Y x the columns of LANES: A(m, k) at a[m * am + k * ak]
 * for the tile's rows, B from the tile's first column with row stride ldb. */
#define OC_GEMM_TILE_FN(name, NCO, LANES)                                                      \
  OC_INLINE void name(const float *restrict a, int32_t am, int32_t ak, const float *restrict b,   \
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
OC_INLINE void oc_gemm_nn(const float *a, int32_t am, int32_t ak, const float *b, int32_t ldb,
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
        for (k = 0; k < K; k++) OC_MAC(s0, ar[r * am + k * ak], b[k * ldb + n]);
        yr[r * ldy + n] = s0;
      }
    }
  }
}

#endif /* ONNX_TO_C_OC_GEMM_TILES_H_ */
