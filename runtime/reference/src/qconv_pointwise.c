/* Quantized pointwise convolution (oc_qconv_params: 1x1 kernel, stride 1,
 * no padding, one group, any batch): the sums of oc_qconv (qconv.c). */
#include "onnx_to_c/oc_qlinear.h"

/* Pointwise (1x1 kernel, stride 1, no padding, one group): an output
 * channel is a weighted sum of the input planes. Two output channels and four
 * positions per pass share their loads; the zero points come out of the sum,
 * (x - zx)(w - zw) = x w - zw x - zx w + zx zw, with the weights' sum taken
 * once per channel and the inputs' sum only where zw is not 0. Integer sums
 * wrap the same in any order, so the bits are the general loop's. */
#define OC_QCONV_PW_DEFINE(NAME, XT, WT)                                                           \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,   \
                   const void *w_zp, const int32_t *bias, void *y) {                               \
    const oc_conv2d_params *p = &q->conv;                                                          \
    const int32_t cin = p->c_in, zx = q->x_zp;                                                     \
    const ptrdiff_t plane = (ptrdiff_t)p->d_in * p->h_in * p->w_in, plane4 = plane - plane % 4;    \
    int32_t n, co, ic, c;                                                                          \
    ptrdiff_t i;                                                                                   \
    for (n = 0; n < p->n; n++) {                                                                   \
      const XT *xn = (const XT *)x + (ptrdiff_t)n * cin * plane;                                   \
      const ptrdiff_t yn = (ptrdiff_t)n * p->c_out * plane;                                        \
      for (co = 0; co < p->c_out; co += 2) {                                                       \
        const int32_t pair = co + 1 < p->c_out; /* a second channel in this pass */                \
        const WT *w0 = (const WT *)w + (ptrdiff_t)co * cin, *w1 = pair ? w0 + cin : w0;            \
        int32_t zw[2];                                                                             \
        uint32_t base[2];                                                                          \
        for (c = 0; c < 2; c++) {                                                                  \
          const WT *wc = c == 0 ? w0 : w1;                                                         \
          uint32_t wsum = 0u;                                                                      \
          zw[c] = w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? co + c * pair : 0); \
          for (ic = 0; ic < cin; ic++) wsum += (uint32_t)(int32_t)wc[ic];                          \
          base[c] = (bias != NULL ? (uint32_t)bias[co + c * pair] : 0u) - (uint32_t)zx * wsum +    \
                    (uint32_t)cin * (uint32_t)zx * (uint32_t)zw[c];                                \
        }                                                                                          \
        for (i = 0; i < plane4; i += 4) {                                                          \
          uint32_t a0 = base[0], a1 = base[0], a2 = base[0], a3 = base[0];                         \
          uint32_t b0 = base[1], b1 = base[1], b2 = base[1], b3 = base[1];                         \
          uint32_t xs0 = 0u, xs1 = 0u, xs2 = 0u, xs3 = 0u;                                         \
          const XT *xi = xn + i;                                                                   \
          for (ic = 0; ic < cin; ic++, xi += plane) {                                              \
            const int32_t x0 = xi[0], x1 = xi[1], x2 = xi[2], x3 = xi[3];                          \
            const int32_t v0 = w0[ic], v1 = w1[ic];                                                \
            a0 += (uint32_t)(x0 * v0), a1 += (uint32_t)(x1 * v0), a2 += (uint32_t)(x2 * v0);       \
            a3 += (uint32_t)(x3 * v0);                                                             \
            b0 += (uint32_t)(x0 * v1), b1 += (uint32_t)(x1 * v1), b2 += (uint32_t)(x2 * v1);       \
            b3 += (uint32_t)(x3 * v1);                                                             \
            if (zw[0] != 0 || zw[1] != 0) {                                                        \
              xs0 += (uint32_t)x0, xs1 += (uint32_t)x1, xs2 += (uint32_t)x2, xs3 += (uint32_t)x3;  \
            }                                                                                      \
          }                                                                                        \
          a0 -= (uint32_t)zw[0] * xs0, a1 -= (uint32_t)zw[0] * xs1, a2 -= (uint32_t)zw[0] * xs2;   \
          a3 -= (uint32_t)zw[0] * xs3;                                                             \
          b0 -= (uint32_t)zw[1] * xs0, b1 -= (uint32_t)zw[1] * xs1, b2 -= (uint32_t)zw[1] * xs2;   \
          b3 -= (uint32_t)zw[1] * xs3;                                                             \
          {                                                                                        \
            const ptrdiff_t ya = yn + (ptrdiff_t)co * plane + i, yb = ya + plane;                  \
            oc_q8_put(y, q->y_signed, ya, oc_requant8_apply(r, co, (int32_t)a0));                  \
            oc_q8_put(y, q->y_signed, ya + 1, oc_requant8_apply(r, co, (int32_t)a1));              \
            oc_q8_put(y, q->y_signed, ya + 2, oc_requant8_apply(r, co, (int32_t)a2));              \
            oc_q8_put(y, q->y_signed, ya + 3, oc_requant8_apply(r, co, (int32_t)a3));              \
            if (pair) {                                                                            \
              oc_q8_put(y, q->y_signed, yb, oc_requant8_apply(r, co + 1, (int32_t)b0));            \
              oc_q8_put(y, q->y_signed, yb + 1, oc_requant8_apply(r, co + 1, (int32_t)b1));        \
              oc_q8_put(y, q->y_signed, yb + 2, oc_requant8_apply(r, co + 1, (int32_t)b2));        \
              oc_q8_put(y, q->y_signed, yb + 3, oc_requant8_apply(r, co + 1, (int32_t)b3));        \
            }                                                                                      \
          }                                                                                        \
        }                                                                                          \
        for (i = plane4; i < plane; i++) { /* the last plane % 4 positions */                      \
          for (c = 0; c <= pair; c++) {                                                            \
            const WT *wc = c == 0 ? w0 : w1;                                                       \
            uint32_t sum = base[c], xs = 0u;                                                       \
            for (ic = 0; ic < cin; ic++) {                                                         \
              const int32_t xv = xn[(ptrdiff_t)ic * plane + i];                                    \
              sum += (uint32_t)(xv * (int32_t)wc[ic]);                                             \
              xs += (uint32_t)xv;                                                                  \
            }                                                                                      \
            sum -= (uint32_t)zw[c] * xs;                                                           \
            oc_q8_put(y, q->y_signed, yn + (ptrdiff_t)(co + c) * plane + i,                        \
                      oc_requant8_apply(r, co + c, (int32_t)sum));                                 \
          }                                                                                        \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  }

OC_QCONV_PW_DEFINE(oc_qconv_pw_s8s8, int8_t, int8_t)
OC_QCONV_PW_DEFINE(oc_qconv_pw_u8s8, uint8_t, int8_t)
OC_QCONV_PW_DEFINE(oc_qconv_pw_s8u8, int8_t, uint8_t)
OC_QCONV_PW_DEFINE(oc_qconv_pw_u8u8, uint8_t, uint8_t)

OC_API void oc_qconv_pointwise(const oc_qconv_params *q, const oc_requant8 *r, const void *x,
                               const void *w, const void *w_zp, const int32_t *bias, void *y) {
  OC_Q8_PAIR_CALL(oc_qconv_pw, q->x_signed, q->w_signed, (q, r, x, w, w_zp, bias, y));
}
