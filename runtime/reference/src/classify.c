/* IsNaN / IsInf: y[i] (bool) is 1 when x[i] is a NaN (nan != 0), +inf
 * (pos_inf != 0) or -inf (neg_inf != 0). */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_classify_f32(const float *x, uint8_t *y, int32_t n, int32_t nan, int32_t pos_inf,
                            int32_t neg_inf) {
  const float inf = oc_inff();
  int32_t i;
  for (i = 0; i < n; i++) {
    const float v = x[i];
    y[i] = (uint8_t)((nan && v != v) || (pos_inf && v == inf) || (neg_inf && v == -inf));
  }
}
