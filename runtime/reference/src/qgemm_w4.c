/*
 * Quantized matrix product (oc_qgemm_params, oc_qlinear.h) with 4-bit B:
 * Gemm and MatMul whose constant B stays two to a byte (oc_w4_at's blocks
 * of four columns, k the reduction index), A and y 8-bit. The sums are
 * those of oc_qgemm, bit for bit: bias[j] (or 0) plus (a - a_zp)(u - zu)
 * over k, as int32 wrapping around, then oc_requant8_apply of column j.
 * Per row of A, sum (a - a_zp) is found once; per block of four columns
 * the sums of (a - a_zp) u run over k (oc_qw4_run.h: SMLAD on M4/M7), then
 * zu times that sum is taken off.
 */
#include "onnx_to_c/oc_qw4_run.h"

#define QGEMM_W4_DEFINE_(AT, XTB16, FLIP)                                                        \
  static void qgemm_w4_##AT(const oc_qgemm_params *q, const oc_requant8 *r, const AT *a,         \
                            const uint8_t *b, const uint8_t *b_zp, const int32_t *bias,          \
                            uint8_t *y) {                                                        \
    const int32_t zx = q->a_zp, n = q->n, k = q->k;                                              \
    const ptrdiff_t blk = oc_w4_block_bytes(k);                                                  \
    int32_t i, j;                                                                                \
    for (i = 0; i < q->m; i++) {                                                                 \
      const AT *const ar = a + (ptrdiff_t)i * k;                                                 \
      uint8_t *const yr = y + (ptrdiff_t)i * n;                                                  \
      uint32_t xs = 0u;                                                                          \
      OC_W4_XSUM_(AT, FLIP, ar, k)                                                               \
      for (j = 0; j < n; j += 4) {                                                               \
        uint32_t s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u, s[4];                                       \
        OC_W4_RUN_(AT, XTB16, ar, b + (ptrdiff_t)(j >> 2) * blk, k)                              \
        s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                              \
        oc_w4_put4(r, bias, b_zp, s, xs, j, n, yr + j, 1);                                       \
      }                                                                                          \
    }                                                                                            \
  }

QGEMM_W4_DEFINE_(int8_t, "sxtb16", 0x80808080u)
QGEMM_W4_DEFINE_(uint8_t, "uxtb16", 0u)

#undef QGEMM_W4_DEFINE_

OC_API void oc_qgemm_w4(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const uint8_t *b,
                        const uint8_t *b_zp, const int32_t *bias, void *y) {
  if (q->a_signed) {
    qgemm_w4_int8_t(q, r, (const int8_t *)a, b, b_zp, bias, (uint8_t *)y);
  } else {
    qgemm_w4_uint8_t(q, r, (const uint8_t *)a, b, b_zp, bias, (uint8_t *)y);
  }
}
