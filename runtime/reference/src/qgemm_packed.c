/* The quantized matrix product of a fully connected layer (oc_qgemm_params: B
 * constant and transposed, its zero points 0) with B packed and A's zero
 * point folded into the bias by the compiler, as for the column convolution
 * (oc_qcol.h): each row of A is a column whose n outputs are its dot products
 * with the packed weights, four outputs per pass over the row, requantized
 * as they are written. On SMLAD cores (Cortex-M4/M7) the row's bytes are
 * unpacked to 16-bit lanes once per run of four k and shared by the four
 * weight rows, two runs per pass (oc_qgemm_fast.h); elsewhere the plain loop. The sums are oc_qgemm's raw-product
 * sums mod 2^32, so the bits are oc_qgemm's. */
#include "onnx_to_c/oc_qcol.h"
#include "onnx_to_c/oc_qgemm_fast.h"

/* oc_qcol.h's channels with the runs of oc_qgemm_fast.h (M4/M7: eight k per
 * pass); elsewhere the same plain loop. */
OC_QCOL_CHANNELS_DEFINE(oc_qgemm_channels_s8s8, int8_t, int8_t, oc_qgemm_dot8_s8s8)
OC_QCOL_CHANNELS_DEFINE(oc_qgemm_channels_s8u8, int8_t, uint8_t, oc_qgemm_dot8_s8u8)
OC_QCOL_CHANNELS_DEFINE(oc_qgemm_channels_u8s8, uint8_t, int8_t, oc_qgemm_dot8_u8s8)
OC_QCOL_CHANNELS_DEFINE(oc_qgemm_channels_u8u8, uint8_t, uint8_t, oc_qgemm_dot8_u8u8)

OC_API void oc_qgemm_packed(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const void *w,
                            const int32_t *folded_bias, void *y) {
  int32_t i;
  for (i = 0; i < q->m; i++) {
    const void *row = (const uint8_t *)a + (ptrdiff_t)i * q->k;
    const ptrdiff_t at = (ptrdiff_t)i * q->n;
    OC_Q8_PAIR_CALL(oc_qgemm_channels, q->a_signed, q->b_signed,
                    (r, q->y_signed, row, q->k, w, folded_bias, 0, q->n, y, at, 1));
  }
}
