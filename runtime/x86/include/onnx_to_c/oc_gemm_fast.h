/*
 * onnx-to-c runtime, x86: Gemm with B transposed (the interface of the
 * reference oc_gemm_fast.h) in 4-float vector lanes: the columns of a row
 * of Y in blocks of 16, 8 and 4, each lane 4 sums of gemm.c's order.
 */
#ifndef ONNX_TO_C_OC_GEMM_FAST_H_
#define ONNX_TO_C_OC_GEMM_FAST_H_

#include "onnx_to_c/oc_gemm_tiles.h"

#define OC_GEMM_NT_FAST(a, am, ak, b, M, N, K, y)

#if OC_LANE_VECTOR && OC_LANE_W == 4
/* The 4x4 transpose: lane i of *p is element i of p0, p1, p2 and p3. */
#define OC_GEMM_TRANSPOSE4(p0, p1, p2, p3)                                      \
  {                                                                             \
    const oc_lane t0 = OC_LANE_ZIP_LO(p0, p1), t1 = OC_LANE_ZIP_LO(p2, p3);     \
    const oc_lane t2 = OC_LANE_ZIP_HI(p0, p1), t3 = OC_LANE_ZIP_HI(p2, p3);     \
    p0 = OC_LANE_SHUFFLE_W(t0, t1, 0, 1, 4, 5);                                 \
    p1 = OC_LANE_SHUFFLE_W(t0, t1, 2, 3, 6, 7);                                 \
    p2 = OC_LANE_SHUFFLE_W(t2, t3, 0, 1, 4, 5);                                 \
    p3 = OC_LANE_SHUFFLE_W(t2, t3, 2, 3, 6, 7);                                 \
  }
/* the products of 4 steps k of 4 columns, p##j = A(m, k..k+3) * B row j,
 * turned to one lane per step and added in the order of k */
#define OC_GEMM_NT_STEP4(acc, bj)                                               \
  {                                                                             \
    oc_lane p0 = av * oc_lane_load(bj + k, 1);                                  \
    oc_lane p1 = av * oc_lane_load(bj + K + k, 1);                              \
    oc_lane p2 = av * oc_lane_load(bj + 2 * K + k, 1);                          \
    oc_lane p3 = av * oc_lane_load(bj + 3 * K + k, 1);                          \
    OC_GEMM_TRANSPOSE4(p0, p1, p2, p3)                                          \
    acc += p0;                                                                  \
    acc += p1;                                                                  \
    acc += p2;                                                                  \
    acc += p3;                                                                  \
  }
#define OC_GEMM_NT_STEP1(acc, bj)                                               \
  {                                                                             \
    const oc_lane bv = {bj[k], bj[K + k], bj[2 * K + k], bj[3 * K + k]};        \
    acc += oc_lane_splat(ar[k * ak]) * bv;                                      \
  }

/* Columns [n, n + 4 G) of row ar of Y as G lanes of 4 sums (G = 4, 2, 1):
 * the products of 4 steps k at a time come from one load of A and one of
 * each row of B, then a transpose; each sum still adds its products one at
 * a time in increasing k from 0 (the same bits as gemm_nt_'s scalar sums).
 * Four lanes keep the adder busy: each lane's adds are a dependent chain. */
#define OC_GEMM_NT_LANES4(M) M(0) M(1) M(2) M(3)
#define OC_GEMM_NT_LANES1(M) M(0)
#define OC_GEMM_NT_DECL(g) oc_lane s##g = oc_lane_splat(0.0f);
#define OC_GEMM_NT_MAC4(g) OC_GEMM_NT_STEP4(s##g, (b0 + 4 * (g) * K))
#define OC_GEMM_NT_MAC1(g) OC_GEMM_NT_STEP1(s##g, (b0 + 4 * (g) * K))
#define OC_GEMM_NT_PUT(g) oc_lane_put(y + 4 * (g), s##g);
#define OC_GEMM_NT_FN(name, LANES)                                                      \
  static void name(const float *ar, int32_t ak, const float *b0, int32_t K, float *y) { \
    int32_t k;                                                                          \
    LANES(OC_GEMM_NT_DECL)                                                              \
    for (k = 0; k + 4 <= K; k += 4) {                                                   \
      const oc_lane av = oc_lane_load(ar + k * ak, ak);                                 \
      LANES(OC_GEMM_NT_MAC4)                                                            \
    }                                                                                   \
    for (; k < K; k++) {                                                                \
      LANES(OC_GEMM_NT_MAC1)                                                            \
    }                                                                                   \
    LANES(OC_GEMM_NT_PUT)                                                               \
  }
#define OC_GEMM_NT_LANES2(M) M(0) M(1)
OC_GEMM_NT_FN(gemm_nt16_, OC_GEMM_NT_LANES4)
OC_GEMM_NT_FN(gemm_nt8_, OC_GEMM_NT_LANES2)
OC_GEMM_NT_FN(gemm_nt4_, OC_GEMM_NT_LANES1)
#endif

#if OC_LANE_VECTOR && OC_LANE_W == 4
/* rows of B a multiple of 4 KiB apart fall in one set of a 32 KiB 8-way L1
 * data cache: 16 of them thrash it (measured 20% slower than the scalar sums
 * at K = 1024; 8 of them 2x faster) */
#define OC_GEMM_NT_ROW_FAST(ar, ak, b0, N, K, yr, n)                                        \
  if ((K) % 1024 != 0) {                                                                    \
    for (; (n) + 16 <= (N); (n) += 16, (b0) += 16 * (K)) gemm_nt16_(ar, ak, b0, K, (yr) + (n)); \
  }                                                                                         \
  for (; (n) + 8 <= (N); (n) += 8, (b0) += 8 * (K)) gemm_nt8_(ar, ak, b0, K, (yr) + (n));     \
  for (; (n) + 4 <= (N); (n) += 4, (b0) += 4 * (K)) gemm_nt4_(ar, ak, b0, K, (yr) + (n));
#else
#define OC_GEMM_NT_ROW_FAST(ar, ak, b0, N, K, yr, n)
#endif

#endif /* ONNX_TO_C_OC_GEMM_FAST_H_ */
