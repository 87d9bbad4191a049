/* QuantizeLinear (oc_quant_params) from the last element to the first, for
 * the elements overlap contract: the 8-bit result starts inside its dying
 * float32 input. The same bits as oc_quantize_f32 (quantize.c). */
#include "onnx_to_c/oc_tensor.h"

/* Element `at` is read before result `at` is written, last first: each
 * 1-byte write at y + at lands on bytes of x's elements at or after `at`
 * (already read) when y >= x + (n - 1) * 3 bytes. */
OC_API void oc_quantize_f32_last_first(const oc_quant_params *p, const float *x, const float *scale,
                                       const void *zp, void *y) {
  const int32_t is_signed = p->q_type == OC_I8;
  int32_t o, a, i;
  ptrdiff_t at = (ptrdiff_t)p->outer * p->axis_len * p->inner;
  for (o = p->outer - 1; o >= 0; o--) {
    for (a = p->axis_len - 1; a >= 0; a--) {
      const int32_t q = p->per_axis ? a : 0;
      const float s = scale[q], z = (float)oc_q8_at(zp, is_signed, q);
      for (i = p->inner - 1; i >= 0; i--) {
        at--;
        oc_quantize_put_f32(x[at], s, z, is_signed, y, at);
      }
    }
  }
}
