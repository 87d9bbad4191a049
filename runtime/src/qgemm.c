/* Quantized matrix product (oc_qgemm_params, oc_qlinear.h): Gemm and
 * MatMul with a per-tensor A and per-tensor or per-column B; the int32 bias
 * (one per column) starts the accumulator. A float A is quantized as it is
 * read (no buffer: at a model's input, RAM matters more), once per block of
 * four columns, whose four sums stay in registers. With zp_folded (constant
 * B) the products are of raw values, the zero points' terms in the bias and
 * one row sum of A. Every sum is the one-column-at-a-time sum mod 2^32. */
#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qlinear.h"

#if OC_Q8_DSP
#define QGEMM_DSP_ 1
#define qgemm_load4_ oc_q8_load4

/* Bytes 0..3 of V as 16-bit lanes (v0, v2) and (v1, v3), sign- or
 * zero-extended by EXT. */
#define QGEMM_EVEN_(V, EXT) ((int32_t)EXT(V))
#define QGEMM_ODD_(V, EXT) ((int32_t)EXT(((V) >> 8) | ((V) << 24)))
/* B's lanes minus its zero point (SUB: QGEMM_ZB_ or nothing when it is 0). */
#define QGEMM_ZB_(X) __ssub16((X), zz)
#define QGEMM_AS_IS_(X) (X)

/* One block of four int8 B columns (trans_b: each column contiguous in k,
 * the next K bytes on), k in steps of 4 while 4 remain: A's lanes are
 * shared by the four columns. */
#define QGEMM_DSP_COLUMN_(S, W4, SUB)                                               \
  S = (uint32_t)__smlad(ao, SUB(QGEMM_ODD_(W4, __sxtb16)),                          \
                        __smlad(ae, SUB(QGEMM_EVEN_(W4, __sxtb16)), (int32_t)S))
#define QGEMM_DSP_LOOP_(AEXT, SUB)                                                  \
  for (k = 0; k + 4 <= q->k; k += 4) {                                              \
    const uint32_t av4 = qgemm_load4_(ap + k);                                      \
    const int8_t *bk = b0 + k;                                                      \
    const int32_t ae = __ssub16(QGEMM_EVEN_(av4, AEXT), za);                        \
    const int32_t ao = __ssub16(QGEMM_ODD_(av4, AEXT), za);                         \
    const uint32_t w0 = qgemm_load4_(bk), w1 = qgemm_load4_(bk + kk);               \
    const uint32_t w2 = qgemm_load4_(bk + 2 * kk), w3 = qgemm_load4_(bk + 3 * kk);  \
    QGEMM_DSP_COLUMN_(s0, w0, SUB);                                                 \
    QGEMM_DSP_COLUMN_(s1, w1, SUB);                                                 \
    QGEMM_DSP_COLUMN_(s2, w2, SUB);                                                 \
    QGEMM_DSP_COLUMN_(s3, w3, SUB);                                                 \
  }

/* A zero point in both 16-bit lanes. */
static int32_t qgemm_lanes_of_(int32_t z) { return (int32_t)(((uint32_t)z << 16) | ((uint32_t)z & 0xFFFFu)); }
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

#if QGEMM_DSP_
/* Four products of raw bytes into S: two SMLAD, A's lanes shared. */
#define QGEMM_RAW4_(S, W, BEXT, BODD) \
  S = (uint32_t)__smlad(ao, (int32_t)BODD(W), __smlad(ae, (int32_t)BEXT(W), (int32_t)(S)))
#define QGEMM_RAW_DSP_LOOP_(AEXT, AODD, BEXT, BODD)                             \
  for (; k + 4 <= q->k; k += 4) {                                              \
    const uint32_t av4 = qgemm_load4_(ar + k);                                  \
    const int32_t ae = (int32_t)AEXT(av4), ao = (int32_t)AODD(av4);             \
    const uint32_t w0 = qgemm_load4_(b0 + k), w1 = qgemm_load4_(b1 + k);        \
    const uint32_t w2 = qgemm_load4_(b2 + k), w3 = qgemm_load4_(b3 + k);        \
    QGEMM_RAW4_(s0, w0, BEXT, BODD);                                            \
    QGEMM_RAW4_(s1, w1, BEXT, BODD);                                            \
    QGEMM_RAW4_(s2, w2, BEXT, BODD);                                            \
    QGEMM_RAW4_(s3, w3, BEXT, BODD);                                            \
  }
#else
#define QGEMM_RAW_DSP_LOOP_(AEXT, AODD, BEXT, BODD)
#endif

/* The zp_folded kernel for A's element type AT and B's BT: raw products,
 * four columns per pass, then zb[j] times the row's sum of A taken off. */
#define QGEMM_FOLDED_DEFINE_(NAME, AT, BT, AEXT, AODD, BEXT, BODD)                                 \
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
          QGEMM_RAW_DSP_LOOP_(AEXT, AODD, BEXT, BODD)                                             \
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

QGEMM_FOLDED_DEFINE_(qgemm_folded_s8s8, int8_t, int8_t, __sxtb16, oc_sxtb16_odd, __sxtb16,
                     oc_sxtb16_odd)
QGEMM_FOLDED_DEFINE_(qgemm_folded_s8u8, int8_t, uint8_t, __sxtb16, oc_sxtb16_odd, __uxtb16,
                     oc_uxtb16_odd)
QGEMM_FOLDED_DEFINE_(qgemm_folded_u8s8, uint8_t, int8_t, __uxtb16, oc_uxtb16_odd, __sxtb16,
                     oc_sxtb16_odd)
QGEMM_FOLDED_DEFINE_(qgemm_folded_u8u8, uint8_t, uint8_t, __uxtb16, oc_uxtb16_odd, __uxtb16,
                     oc_uxtb16_odd)

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
#if QGEMM_DSP_
      if (!q->a_float && q->trans_b && q->b_signed && z0 == z1 && z0 == z2 && z0 == z3) {
        const uint8_t *ap = (const uint8_t *)a + arow;
        const int8_t *b0 = (const int8_t *)b + c0;
        const ptrdiff_t kk = q->k;
        const int32_t za = qgemm_lanes_of_(q->a_zp), zz = qgemm_lanes_of_(z0);
        if (q->a_signed && z0 == 0) {
          QGEMM_DSP_LOOP_(__sxtb16, QGEMM_AS_IS_)
        } else if (q->a_signed) {
          QGEMM_DSP_LOOP_(__sxtb16, QGEMM_ZB_)
        } else if (z0 == 0) {
          QGEMM_DSP_LOOP_(__uxtb16, QGEMM_AS_IS_)
        } else {
          QGEMM_DSP_LOOP_(__uxtb16, QGEMM_ZB_)
        }
      }
#endif
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
#if QGEMM_DSP_
#undef QGEMM_EVEN_
#undef QGEMM_ODD_
#undef QGEMM_ZB_
#undef QGEMM_AS_IS_
#undef QGEMM_DSP_COLUMN_
#undef QGEMM_DSP_LOOP_
#undef QGEMM_RAW4_
#undef qgemm_load4_
#endif
#undef QGEMM_RAW_DSP_LOOP_
#undef QGEMM_FOLDED_DEFINE_
