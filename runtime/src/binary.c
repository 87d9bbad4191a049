/*
 * Elementwise binary operators (oc_binary_op) with numpy broadcasting given
 * by per-dim element strides (0 on broadcast dims). y is contiguous; y may
 * equal a or b when that operand has y's shape (each element is read before
 * it is written).
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* Inner loops for one row of n elements: contiguous, one side broadcast, or
 * general strides. */
#define BINARY_ROW_(EXPR)                          \
  if (sa == 1 && sb == 1) {                        \
    for (i = 0; i < n; i++) {                      \
      const float av = a[i], bv = b[i];            \
      y[i] = (EXPR);                               \
    }                                              \
  } else if (sa == 1 && sb == 0) {                 \
    const float bv = b[0];                         \
    for (i = 0; i < n; i++) {                      \
      const float av = a[i];                       \
      y[i] = (EXPR);                               \
    }                                              \
  } else if (sa == 0 && sb == 1) {                 \
    const float av = a[0];                         \
    for (i = 0; i < n; i++) {                      \
      const float bv = b[i];                       \
      y[i] = (EXPR);                               \
    }                                              \
  } else {                                         \
    for (i = 0; i < n; i++) {                      \
      const float av = a[i * sa], bv = b[i * sb];  \
      y[i] = (EXPR);                               \
    }                                              \
  }                                                \
  break

static void binary_row_(int32_t op, const float *a, int32_t sa, const float *b, int32_t sb,
                        float *y, int32_t n) {
  int32_t i;
  switch (op) {
    case OC_BINARY_ADD: BINARY_ROW_(av + bv);
    case OC_BINARY_SUB: BINARY_ROW_(av - bv);
    case OC_BINARY_MUL: BINARY_ROW_(av * bv);
    case OC_BINARY_DIV: BINARY_ROW_(av / bv);
    case OC_BINARY_POW: BINARY_ROW_(oc_powf(av, bv));
    /* Min/Max: NaN if either operand is NaN */
    case OC_BINARY_MIN: BINARY_ROW_(av != av ? av : ((bv < av || bv != bv) ? bv : av));
    case OC_BINARY_MAX: BINARY_ROW_(av != av ? av : ((bv > av || bv != bv) ? bv : av));
    default: /* OC_BINARY_PRELU */ BINARY_ROW_(av < 0.0f ? av * bv : av);
  }
}

#undef BINARY_ROW_

OC_API void oc_binary_f32(int32_t op, const oc_broadcast_params *p, const float *a,
                          const float *b, float *y) {
  int32_t dims[OC_MAX_RANK], sa[OC_MAX_RANK], sb[OC_MAX_RANK], idx[OC_MAX_RANK];
  int32_t r = 0, d, len, ia, ib, rows = 1, row, ao = 0, bo = 0;
  /* Drop size-1 dims and merge a dim into the previous one when both
   * operands (and y, always contiguous) step through them as one. */
  for (d = 0; d < p->rank; d++) {
    const int32_t n = p->dims[d];
    if (n == 0) return;
    if (n == 1) continue;
    if (r > 0 && sa[r - 1] == p->a_strides[d] * n && sb[r - 1] == p->b_strides[d] * n) {
      dims[r - 1] *= n;
      sa[r - 1] = p->a_strides[d];
      sb[r - 1] = p->b_strides[d];
    } else {
      dims[r] = n;
      sa[r] = p->a_strides[d];
      sb[r] = p->b_strides[d];
      r++;
    }
  }
  if (r == 0) { /* single element */
    binary_row_(op, a, 0, b, 0, y, 1);
    return;
  }
  len = dims[r - 1];
  ia = sa[r - 1];
  ib = sb[r - 1];
  for (d = 0; d < r - 1; d++) {
    idx[d] = 0;
    rows *= dims[d];
  }
  for (row = 0; row < rows; row++) {
    binary_row_(op, a + ao, ia, b + bo, ib, y + row * len, len);
    for (d = r - 2; d >= 0; d--) {
      ao += sa[d];
      bo += sb[d];
      if (++idx[d] < dims[d]) break;
      ao -= sa[d] * dims[d];
      bo -= sb[d] * dims[d];
      idx[d] = 0;
    }
  }
}
