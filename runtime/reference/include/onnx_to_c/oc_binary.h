/*
 * onnx-to-c runtime: the elementwise binary kernels of every element type
 * (binary_f32.c, binary_i64.c, ...) share the broadcast driver and the
 * per-operator row loops defined here; each kernel file instantiates them
 * for its type. Operators are oc_binary_op; comparisons write bool (uint8_t)
 * whatever the operand type.
 */
#ifndef ONNX_TO_C_OC_BINARY_H_
#define ONNX_TO_C_OC_BINARY_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_tensor.h"

/* y[i] = op(a[i * sa], b[i * sb]) for i < n; pointers to the first elements. */
typedef void (*oc_binary_row_fn)(int32_t op, const void *a, int32_t sa, const void *b, int32_t sb,
                                 void *y, int32_t n);

/* Numpy broadcasting (oc_broadcast_params): runs `row` over every innermost
 * row of the contiguous y. ea, eb, ey are element sizes in bytes. y may equal
 * a or b when that operand has y's shape and element size. */
OC_INLINE void oc_broadcast_binary(int32_t op, const oc_broadcast_params *p, const void *a,
                                   int32_t ea, const void *b, int32_t eb, void *y, int32_t ey,
                                   oc_binary_row_fn row) {
  int32_t dims[OC_MAX_RANK], sa[OC_MAX_RANK], sb[OC_MAX_RANK], idx[OC_MAX_RANK];
  int32_t r = 0, d, len, rows = 1, r_i;
  ptrdiff_t ao = 0, bo = 0;
  const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
  unsigned char *py = (unsigned char *)y;
  /* drop size-1 dims; merge a dim into the previous one when both operands
   * (and y, always contiguous) step through them as one */
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
  if (r == 0) { /* a single element */
    row(op, a, 0, b, 0, y, 1);
    return;
  }
  len = dims[r - 1];
  for (d = 0; d < r - 1; d++) {
    idx[d] = 0;
    rows *= dims[d];
  }
  for (r_i = 0; r_i < rows; r_i++) {
    row(op, pa + ao * ea, sa[r - 1], pb + bo * eb, sb[r - 1], py + (ptrdiff_t)r_i * len * ey, len);
    for (d = r - 2; d >= 0; d--) {
      ao += sa[d];
      bo += sb[d];
      if (++idx[d] < dims[d]) break;
      ao -= (ptrdiff_t)sa[d] * dims[d];
      bo -= (ptrdiff_t)sb[d] * dims[d];
      idx[d] = 0;
    }
  }
}

/* The parameters of a row function (oc_binary_row_fn), named as the loops
 * below expect them. */
#define OC_BINARY_ROW_ARGS                                                             \
  int32_t op, const void *a, int32_t sa, const void *b, int32_t sb, void *y, int32_t n

#define OC_SAME(v) (v)

/* One row: av = LOAD(a[i * sa]) of compute type F (a stored as TA), likewise
 * bv; y[i] = STORE(EXPR) stored as TY. Contiguous and scalar operands get
 * their own loops. Ends the enclosing case with `break`. */
#define OC_BINARY_LOOP(TA, F, LOAD, TY, STORE, EXPR)                        \
  {                                                                         \
    const TA *a_ = (const TA *)a, *b_ = (const TA *)b;                      \
    TY *y_ = (TY *)y;                                                       \
    int32_t i_;                                                             \
    if (sa == 1 && sb == 1) {                                               \
      for (i_ = 0; i_ < n; i_++) {                                          \
        const F av = LOAD(a_[i_]), bv = LOAD(b_[i_]);                       \
        y_[i_] = STORE(EXPR);                                               \
      }                                                                     \
    } else if (sa == 1 && sb == 0) {                                        \
      const F bv = LOAD(b_[0]);                                             \
      for (i_ = 0; i_ < n; i_++) {                                          \
        const F av = LOAD(a_[i_]);                                          \
        y_[i_] = STORE(EXPR);                                               \
      }                                                                     \
    } else if (sa == 0 && sb == 1) {                                        \
      const F av = LOAD(a_[0]);                                             \
      for (i_ = 0; i_ < n; i_++) {                                          \
        const F bv = LOAD(b_[i_]);                                          \
        y_[i_] = STORE(EXPR);                                               \
      }                                                                     \
    } else {                                                                \
      for (i_ = 0; i_ < n; i_++) {                                          \
        const F av = LOAD(a_[i_ * sa]), bv = LOAD(b_[i_ * sb]);             \
        y_[i_] = STORE(EXPR);                                               \
      }                                                                     \
    }                                                                       \
  }                                                                         \
  break

#define OC_TO_BOOL(v) ((uint8_t)((v) ? 1u : 0u))

/* Comparisons of operands stored as T, computed as F. */
#define OC_BINARY_COMPARE_CASES(T, F, LOAD)                                           \
  case OC_BINARY_EQUAL: OC_BINARY_LOOP(T, F, LOAD, uint8_t, OC_TO_BOOL, av == bv);    \
  case OC_BINARY_LESS: OC_BINARY_LOOP(T, F, LOAD, uint8_t, OC_TO_BOOL, av < bv);      \
  case OC_BINARY_LESS_EQUAL: OC_BINARY_LOOP(T, F, LOAD, uint8_t, OC_TO_BOOL, av <= bv); \
  case OC_BINARY_GREATER: OC_BINARY_LOOP(T, F, LOAD, uint8_t, OC_TO_BOOL, av > bv);   \
  case OC_BINARY_GREATER_EQUAL: OC_BINARY_LOOP(T, F, LOAD, uint8_t, OC_TO_BOOL, av >= bv);

/* Floating point (stored as T, computed as F): arithmetic, NaN-propagating
 * Min/Max, fmod (exact in IEEE arithmetic) and comparisons. Pow and PRelu
 * are added by the kernels that have them. */
#define OC_BINARY_FLOAT_CASES(T, F, LOAD, STORE, FMOD)                                   \
  case OC_BINARY_ADD: OC_BINARY_LOOP(T, F, LOAD, T, STORE, av + bv);                     \
  case OC_BINARY_SUB: OC_BINARY_LOOP(T, F, LOAD, T, STORE, av - bv);                     \
  case OC_BINARY_MUL: OC_BINARY_LOOP(T, F, LOAD, T, STORE, av * bv);                     \
  case OC_BINARY_DIV: OC_BINARY_LOOP(T, F, LOAD, T, STORE, av / bv);                     \
  case OC_BINARY_MIN:                                                                    \
    OC_BINARY_LOOP(T, F, LOAD, T, STORE, av != av ? av : ((bv < av || bv != bv) ? bv : av)); \
  case OC_BINARY_MAX:                                                                    \
    OC_BINARY_LOOP(T, F, LOAD, T, STORE, av != av ? av : ((bv > av || bv != bv) ? bv : av)); \
  case OC_BINARY_FMOD: OC_BINARY_LOOP(T, F, LOAD, T, STORE, FMOD(av, bv));               \
  OC_BINARY_COMPARE_CASES(T, F, LOAD)

/* Integers: wrap-around +, -, * and Pow computed in the unsigned type WT
 * (at least 32 bits, so no promotion to int can overflow); division and
 * remainder by 0 give 0. */
#define OC_BINARY_INT_CASES(T, WT)                                                        \
  case OC_BINARY_ADD: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (WT)av + (WT)bv);             \
  case OC_BINARY_SUB: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (WT)av - (WT)bv);             \
  case OC_BINARY_MUL: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (WT)av * (WT)bv);             \
  case OC_BINARY_MIN: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), av < bv ? av : bv);           \
  case OC_BINARY_MAX: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), av > bv ? av : bv);           \
  case OC_BINARY_AND: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (WT)av & (WT)bv);             \
  case OC_BINARY_OR: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (WT)av | (WT)bv);              \
  case OC_BINARY_XOR: OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (WT)av ^ (WT)bv);             \
  OC_BINARY_COMPARE_CASES(T, T, OC_SAME)

/* INT_MIN / -1 wraps to INT_MIN (computed as 0 - a in WT). */
#define OC_BINARY_SIGNED_CASES(T, WT)                                                      \
  case OC_BINARY_DIV:                                                                      \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T),                                                  \
                   bv == 0 ? 0 : (bv == -1 ? (T)(0u - (WT)av) : av / bv));                 \
  case OC_BINARY_MOD:                                                                      \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T), oc_pymod_i64((int64_t)av, (int64_t)bv));         \
  case OC_BINARY_FMOD:                                                                     \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T), (bv == 0 || bv == -1) ? 0 : av % bv);            \
  case OC_BINARY_POW:                                                                      \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T), oc_ipow_i64((int64_t)av, (int64_t)bv));

#define OC_BINARY_UNSIGNED_CASES(T, WT)                                                    \
  case OC_BINARY_DIV:                                                                      \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T), bv == 0u ? (WT)0u : (WT)av / (WT)bv);            \
  case OC_BINARY_MOD:                                                                      \
  case OC_BINARY_FMOD:                                                                     \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T), bv == 0u ? (WT)0u : (WT)av % (WT)bv);            \
  case OC_BINARY_POW:                                                                      \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T), oc_ipow_u64((uint64_t)av, (uint64_t)bv));        \
  case OC_BINARY_SHIFT_LEFT:                                                               \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T),                                                  \
                   (uint64_t)bv >= 8u * sizeof(T) ? (WT)0u : (WT)((WT)av << bv));          \
  case OC_BINARY_SHIFT_RIGHT:                                                              \
    OC_BINARY_LOOP(T, T, OC_SAME, T, (T),                                                  \
                   (uint64_t)bv >= 8u * sizeof(T) ? (WT)0u : (WT)((WT)av >> bv));

/* A whole integer kernel: oc_binary_<SUFFIX>(op, p, a, b, y), with y of type
 * T, or bool for comparisons. KIND_CASES is OC_BINARY_SIGNED_CASES or
 * OC_BINARY_UNSIGNED_CASES. */
#define OC_DEFINE_BINARY_INT(SUFFIX, T, WT, KIND_CASES)                                    \
  static void oc_binary_row_##SUFFIX(OC_BINARY_ROW_ARGS) {                                 \
    switch (op) {                                                                          \
      OC_BINARY_INT_CASES(T, WT)                                                           \
      KIND_CASES(T, WT)                                                                    \
      default: break;                                                                      \
    }                                                                                      \
  }                                                                                        \
  OC_API void oc_binary_##SUFFIX(int32_t op, const oc_broadcast_params *p, const T *a,      \
                                 const T *b, void *y) {                                    \
    const int32_t es = (int32_t)sizeof(T);                                                 \
    oc_broadcast_binary(op, p, a, es, b, es, y, op >= OC_BINARY_EQUAL ? 1 : es,             \
                        oc_binary_row_##SUFFIX);                                           \
  }

#endif /* ONNX_TO_C_OC_BINARY_H_ */
