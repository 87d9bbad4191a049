/* The quantized 2-D convolution without scratch on weights packed tap by
 * tap (oc_qconv_packed_taps.h). */
#include "onnx_to_c/oc_qconv_packed_taps.h"

OC_QC2P_DEFINE(oc_qconv2d_packed_s8s8, int8_t, int8_t, S, S, 0)
OC_QC2P_DEFINE(oc_qconv2d_packed_u8s8, uint8_t, int8_t, U, S, 0)
OC_QC2P_DEFINE(oc_qconv2d_packed_s8u8, int8_t, uint8_t, S, U, 0)
OC_QC2P_DEFINE(oc_qconv2d_packed_u8u8, uint8_t, uint8_t, U, U, 0)

OC_API void oc_qconv2d_packed(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                              const int32_t *bias, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv2d_packed, q->x_signed, q->w_signed, (q, r, x, w, bias, y));
}
