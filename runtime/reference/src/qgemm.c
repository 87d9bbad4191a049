/* Quantized matrix product (oc_qgemm_params, oc_qlinear.h): Gemm and
 * MatMul with a per-tensor A and per-tensor or per-column B; the int32 bias
 * (one per column) starts the accumulator. A float A is quantized as it is
 * read (no buffer: at a model's input, RAM matters more), once per block of
 * four columns, whose four sums stay in registers. With zp_folded (constant
 * B) the products are of raw values, the zero points' terms in the bias and
 * one row sum of A. Every sum is the one-column-at-a-time sum mod 2^32. */
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qgemm_fast.h"

#ifndef QGEMM_GENERAL_DSP_
#define QGEMM_GENERAL_DSP_
#endif


/* The k loop of one block of four columns: AV is A's element k minus its
 * zero point, BT the type of B's elements. */
#define QGEMM_K_LOOP_4_(AV, BT)                                                     \
  for (; k < q->k; k++) {                                                           \
    const int32_t av = (AV);                                                        \
    const BT *bk = (const BT *)b + (ptrdiff_t)k * b_row;                            \
    s0 += (uint32_t)(av * ((int32_t)bk[c0] - z0));                                  \
    s1 += (uint32_t)(av * ((int32_t)bk[c1] - z1));                                  \
    s2 += (uint32_t)(av * ((int32_t)bk[c2] - z2));                                  \
    s3 += (uint32_t)(av * ((int32_t)bk[c3] - z3));                                  \
  }

#define QGEMM_A_(a_index)                                                                    \
  (q->a_float ? oc_quantize8(((const float *)a)[a_index], q->a_scale, q->a_zp, q->a_signed) \
              : oc_q8_get(a, q->a_signed, a_index)) - q->a_zp

static void qgemm_put_(const oc_qgemm_params *q, const oc_requant8 *r, void *y, int32_t i, int32_t j,
                       uint32_t sum) {
  const int32_t v = oc_requant8_apply(r, j, (int32_t)sum); /* int32 wrap-around */
  if (q->y_float) {
    ((float *)y)[(ptrdiff_t)i * q->n + j] = (float)(v - r->zp) * q->y_scale;
  } else {
    oc_q8_put(y, q->y_signed, (ptrdiff_t)i * q->n + j, v);
  }
}

static int32_t qgemm_zb_(const oc_qgemm_params *q, const void *b_zp, int32_t j) {
  return b_zp == NULL ? 0 : oc_q8_get(b_zp, q->b_signed, q->b_zp_per_col ? j : 0);
}

/* ----------------------------------------- zero points folded into the bias */

#ifndef QGEMM_RAW_DSP_LOOP_
#define QGEMM_RAW_DSP_LOOP_(AS, BS)
#endif

/* The zp_folded kernel for A's element type AT and B's BT: raw products,
 * four columns per pass, then zb[j] times the row's sum of A taken off. */
#define QGEMM_FOLDED_DEFINE_(NAME, AT, BT, AS, BS)                                 \
  static OC_NOINLINE void NAME(const oc_qgemm_params *q, const oc_requant8 *r, const AT *a, const BT *b,      \
                   const void *b_zp, const int32_t *bias, void *y) {                             \
    const int32_t n4 = q->n - q->n % 4;                                                           \
    int32_t i, j, k;                                                                              \
    for (i = 0; i < q->m; i++) {                                                                  \
      const AT *ar = a + (ptrdiff_t)i * q->k;                                                     \
      uint32_t sum_a = 0u;                                                                        \
      if (b_zp != NULL) {                                                                         \
        for (k = 0; k < q->k; k++) sum_a += (uint32_t)(int32_t)ar[k];                             \
      }                                                                                           \
      for (j = 0; j < n4; j += 4) {                                                               \
        uint32_t s0 = (uint32_t)bias[j], s1 = (uint32_t)bias[j + 1], s2 = (uint32_t)bias[j + 2],  \
                 s3 = (uint32_t)bias[j + 3];                                                      \
        k = 0;                                                                                    \
        if (q->trans_b) {                                                                         \
          const BT *b0 = b + (ptrdiff_t)j * q->k, *b1 = b0 + q->k, *b2 = b1 + q->k,               \
                   *b3 = b2 + q->k;                                                               \
          QGEMM_RAW_DSP_LOOP_(AS, BS)                                             \
          for (; k < q->k; k++) {                                                                 \
            const int32_t av = ar[k];                                                             \
            s0 += (uint32_t)(av * b0[k]);                                                         \
            s1 += (uint32_t)(av * b1[k]);                                                         \
            s2 += (uint32_t)(av * b2[k]);                                                         \
            s3 += (uint32_t)(av * b3[k]);                                                         \
          }                                                                                       \
        } else {                                                                                  \
          for (; k < q->k; k++) {                                                                 \
            const int32_t av = ar[k];                                                             \
            const BT *bk = b + (ptrdiff_t)k * q->n + j;                                           \
            s0 += (uint32_t)(av * bk[0]);                                                         \
            s1 += (uint32_t)(av * bk[1]);                                                         \
            s2 += (uint32_t)(av * bk[2]);                                                         \
            s3 += (uint32_t)(av * bk[3]);                                                         \
          }                                                                                       \
        }                                                                                         \
        if (b_zp != NULL) {                                                                       \
          s0 -= (uint32_t)qgemm_zb_(q, b_zp, j) * sum_a;                                          \
          s1 -= (uint32_t)qgemm_zb_(q, b_zp, j + 1) * sum_a;                                      \
          s2 -= (uint32_t)qgemm_zb_(q, b_zp, j + 2) * sum_a;                                      \
          s3 -= (uint32_t)qgemm_zb_(q, b_zp, j + 3) * sum_a;                                      \
        }                                                                                         \
        qgemm_put_(q, r, y, i, j, s0);                                                            \
        qgemm_put_(q, r, y, i, j + 1, s1);                                                        \
        qgemm_put_(q, r, y, i, j + 2, s2);                                                        \
        qgemm_put_(q, r, y, i, j + 3, s3);                                                        \
      }                                                                                           \
      for (j = n4; j < q->n; j++) { /* the last n % 4 columns, one at a time */                   \
        uint32_t s = (uint32_t)bias[j];                                                           \
        for (k = 0; k < q->k; k++) {                                                              \
          s += (uint32_t)((int32_t)ar[k] * b[q->trans_b ? (ptrdiff_t)j * q->k + k                 \
                                                         : (ptrdiff_t)k * q->n + j]);            \
        }                                                                                         \
        if (b_zp != NULL) s -= (uint32_t)qgemm_zb_(q, b_zp, j) * sum_a;                           \
        qgemm_put_(q, r, y, i, j, s);                                                             \
      }                                                                                           \
    }                                                                                             \
  }

QGEMM_FOLDED_DEFINE_(qgemm_folded_s8s8, int8_t, int8_t, S, S)
QGEMM_FOLDED_DEFINE_(qgemm_folded_s8u8, int8_t, uint8_t, S, U)
QGEMM_FOLDED_DEFINE_(qgemm_folded_u8s8, uint8_t, int8_t, U, S)
QGEMM_FOLDED_DEFINE_(qgemm_folded_u8u8, uint8_t, uint8_t, U, U)

/* Any zero points, A integer or float: each product's factors less their
 * zero points. */
static void qgemm_general_(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const void *b,
                           const void *b_zp, const int32_t *bias, void *y) {
  const ptrdiff_t b_col = q->trans_b ? q->k : 1, b_row = q->trans_b ? 1 : q->n;
  const int32_t n4 = q->n - q->n % 4; /* the columns of whole blocks */
  int32_t i, j, k;
  for (i = 0; i < q->m; i++) {
    const ptrdiff_t arow = (ptrdiff_t)i * q->k;
    for (j = 0; j < n4; j += 4) {
      const ptrdiff_t c0 = j * b_col, c1 = c0 + b_col, c2 = c1 + b_col, c3 = c2 + b_col;
      const int32_t z0 = qgemm_zb_(q, b_zp, j), z1 = qgemm_zb_(q, b_zp, j + 1),
                    z2 = qgemm_zb_(q, b_zp, j + 2), z3 = qgemm_zb_(q, b_zp, j + 3);
      uint32_t s0 = bias != NULL ? (uint32_t)bias[j] : 0u, s1 = bias != NULL ? (uint32_t)bias[j + 1] : 0u,
               s2 = bias != NULL ? (uint32_t)bias[j + 2] : 0u, s3 = bias != NULL ? (uint32_t)bias[j + 3] : 0u;
      k = 0;
      QGEMM_GENERAL_DSP_
      /* The rest of k (all of it without the DSP path). */
      if (q->b_signed) {
        QGEMM_K_LOOP_4_(QGEMM_A_(arow + k), int8_t)
      } else {
        QGEMM_K_LOOP_4_(QGEMM_A_(arow + k), uint8_t)
      }
      qgemm_put_(q, r, y, i, j, s0);
      qgemm_put_(q, r, y, i, j + 1, s1);
      qgemm_put_(q, r, y, i, j + 2, s2);
      qgemm_put_(q, r, y, i, j + 3, s3);
    }
    for (j = n4; j < q->n; j++) { /* the last n % 4 columns, one at a time */
      const int32_t zb = qgemm_zb_(q, b_zp, j);
      uint32_t sum = bias != NULL ? (uint32_t)bias[j] : 0u;
      for (k = 0; k < q->k; k++) {
        sum += (uint32_t)((QGEMM_A_(arow + k)) * (oc_q8_get(b, q->b_signed, j * b_col + k * b_row) - zb));
      }
      qgemm_put_(q, r, y, i, j, sum);
    }
  }
}

OC_API void oc_qgemm(const oc_qgemm_params *q, const oc_requant8 *r, const void *a, const void *b,
                     const void *b_zp, const int32_t *bias, void *y) {
  if (q->zp_folded && !q->a_float && bias != NULL) {
    OC_Q8_PAIR_CALL(qgemm_folded, q->a_signed, q->b_signed, (q, r, a, b, b_zp, bias, y));
  } else {
    qgemm_general_(q, r, a, b, b_zp, bias, y);
  }
}

#undef QGEMM_K_LOOP_4_
#undef QGEMM_A_
#undef QGEMM_RAW_DSP_LOOP_
#undef QGEMM_FOLDED_DEFINE_
