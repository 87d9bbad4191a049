/* One input of a quantized Concat (oc_qconcat_params, oc_qlinear.h): its
 * rows copied into the output's rows, converted to the output's scale when
 * the input's differs. */
#include "onnx_to_c/oc_qlinear.h"

OC_API void oc_qconcat_part(const oc_qconcat_params *q, const oc_requant8 *r, const void *x,
                            void *y) {
  int32_t o, i;
  for (o = 0; o < q->outer; o++) {
    const ptrdiff_t src = (ptrdiff_t)o * q->row, dst = (ptrdiff_t)o * q->y_row + q->offset;
    for (i = 0; i < q->row; i++) {
      oc_q8_put(y, q->convert.y_signed, dst + i,
                oc_qconvert(&q->convert, r, oc_q8_get(x, q->convert.x_signed, src + i)));
    }
  }
}
