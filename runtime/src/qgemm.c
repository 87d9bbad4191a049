/* Quantized matrix product (oc_qgemm_params, oc_qlinear.h): Gemm and
 * MatMul with a per-tensor A and per-tensor or per-column B; the int32 bias
 * (one per column) starts the accumulator. A float A is quantized as it is
 * read (k * n quantizations, no buffer: at a model's input, RAM matters
 * more). */
#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qgemm(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const void *b,
                     const void *b_zp, const int32_t *bias, void *y) {
  const ptrdiff_t b_col = q->trans_b ? q->k : 1, b_row = q->trans_b ? 1 : q->n;
  int32_t i, j, k;
  for (i = 0; i < q->m; i++) {
    const ptrdiff_t arow = (ptrdiff_t)i * q->k;
    for (j = 0; j < q->n; j++) {
      const int32_t zb = b_zp == NULL ? 0 : oc_q8_get(b_zp, q->b_signed, q->b_zp_per_col ? j : 0);
      uint32_t sum = bias != NULL ? (uint32_t)bias[j] : 0u; /* int32 wrap-around */
      int32_t v;
      for (k = 0; k < q->k; k++) {
        const int32_t av = q->a_float ? oc_quantize8(((const float *)a)[arow + k], q->a_scale,
                                                     q->a_zp, q->a_signed)
                                      : oc_q8_get(a, q->a_signed, arow + k);
        sum += (uint32_t)((av - q->a_zp) * (oc_q8_get(b, q->b_signed, j * b_col + k * b_row) - zb));
      }
      v = oc_requant8_apply(r, j, (int32_t)sum);
      if (q->y_float) {
        ((float *)y)[(ptrdiff_t)i * q->n + j] = (float)(v - r->zp) * q->y_scale;
      } else {
        oc_q8_put(y, q->y_signed, (ptrdiff_t)i * q->n + j, v);
      }
    }
  }
}
