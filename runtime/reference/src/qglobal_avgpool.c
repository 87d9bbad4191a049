/* Quantized global average pooling (oc_qpool_params, oc_qlinear.h). */
#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qglobal_avgpool(const oc_qpool_params *q, const oc_requant8 *r, const void *x,
                               void *y) {
  const int32_t size = q->d_in * q->h_in * q->w_in;
  int32_t c, i;
  for (c = 0; c < q->n * q->c; c++) {
    int32_t sum = 0;
    for (i = 0; i < size; i++) sum += oc_q8_get(x, q->x_signed, (ptrdiff_t)c * size + i) - q->x_zp;
    oc_q8_put(y, q->y_signed, c, oc_requant8_apply(r, 0, sum));
  }
}
