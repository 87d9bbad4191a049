/* MatMulInteger (oc_matmul_int_params): int32 products of zero-point
 * adjusted 8-bit operands, batched with broadcasting like oc_matmul_f32.
 * Integer sums are exact, so the order does not matter (wrap-around past
 * 2^31, as int32 arithmetic in ONNX Runtime). */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_matmul_integer(const oc_matmul_int_params *q, const void *a, const void *a_zp,
                              const void *b, const void *b_zp, int32_t *y) {
  const oc_matmul_params *p = &q->mm;
  int32_t idx[OC_MAX_RANK];
  int32_t batches = 1, bt, d, i, j, k;
  ptrdiff_t ao = 0, bo = 0;
  for (d = 0; d < p->batch_rank; d++) {
    idx[d] = 0;
    batches *= p->batch_dims[d];
  }
  for (bt = 0; bt < batches; bt++) {
    int32_t *yb = y + (ptrdiff_t)bt * p->m * p->n;
    for (i = 0; i < p->m; i++) {
      const int32_t za = oc_q8_at(a_zp, q->a_signed, q->a_zp_per_row ? i : 0);
      for (j = 0; j < p->n; j++) {
        const int32_t zb = oc_q8_at(b_zp, q->b_signed, q->b_zp_per_col ? j : 0);
        uint32_t sum = 0u;
        for (k = 0; k < p->k; k++) {
          const int32_t av = oc_q8_at(a, q->a_signed, (int32_t)(ao + (ptrdiff_t)i * p->k + k)) - za;
          const int32_t bv = oc_q8_at(b, q->b_signed, (int32_t)(bo + (ptrdiff_t)k * p->n + j)) - zb;
          sum += (uint32_t)(av * bv);
        }
        yb[i * p->n + j] = (int32_t)sum;
      }
    }
    for (d = p->batch_rank - 1; d >= 0; d--) {
      ao += p->a_batch_strides[d];
      bo += p->b_batch_strides[d];
      if (++idx[d] < p->batch_dims[d]) break;
      ao -= (ptrdiff_t)p->a_batch_strides[d] * p->batch_dims[d];
      bo -= (ptrdiff_t)p->b_batch_strides[d] * p->batch_dims[d];
      idx[d] = 0;
    }
  }
}
