/*
 * onnx-to-c runtime: ONNX Reduce* over any set of axes (bit d of
 * reduce_mask), rank <= 8, on a contiguous input; the output holds the kept
 * dims in order. reduce.c (float32) and reduce_f64.c instantiate it.
 *
 * For each output element the reduced elements are visited in increasing
 * row-major order of the reduced dims (sums are not reordered). MEAN is
 * sum / count, L2 is sqrt(sum of squares), LOG_SUM_EXP is
 * max + log(sum exp(x - max)). MAX/MIN propagate NaN.
 */
#ifndef ONNX_TO_C_OC_REDUCE_H_
#define ONNX_TO_C_OC_REDUCE_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* Kept (k*) and reduced (r*) dims with their input strides, outermost first;
 * adjacent dims of the same kind merged, size-1 dims dropped. */
typedef struct {
  int32_t kd[OC_MAX_RANK], ks[OC_MAX_RANK], nk;
  int32_t rd[OC_MAX_RANK], rs[OC_MAX_RANK], nr;
  int32_t count; /* reduced elements per output */
  int32_t total; /* input elements */
} oc_reduce_plan;

OC_INLINE void oc_reduce_swap_(int32_t *a, int32_t *b) {
  const int32_t t = *a;
  *a = *b;
  *b = t;
}

OC_INLINE void oc_reduce_make_plan(const oc_reduce_params *p, oc_reduce_plan *pl) {
  int32_t d, stride = 1, prev = -1;
  pl->nk = pl->nr = 0;
  pl->count = 1;
  for (d = p->rank - 1; d >= 0; d--) { /* innermost first, reversed below */
    const int32_t n = p->dims[d], red = (int32_t)((p->reduce_mask >> d) & 1u);
    if (n != 1) {
      if (red == prev) { /* contiguous input: merges with the inner neighbour */
        if (red) pl->rd[pl->nr - 1] *= n;
        else pl->kd[pl->nk - 1] *= n;
      } else if (red) {
        pl->rd[pl->nr] = n;
        pl->rs[pl->nr++] = stride;
      } else {
        pl->kd[pl->nk] = n;
        pl->ks[pl->nk++] = stride;
      }
      prev = red;
      if (red) pl->count *= n;
    }
    stride *= n;
  }
  pl->total = stride;
  for (d = 0; d < pl->nk / 2; d++) {
    oc_reduce_swap_(&pl->kd[d], &pl->kd[pl->nk - 1 - d]);
    oc_reduce_swap_(&pl->ks[d], &pl->ks[pl->nk - 1 - d]);
  }
  for (d = 0; d < pl->nr / 2; d++) {
    oc_reduce_swap_(&pl->rd[d], &pl->rd[pl->nr - 1 - d]);
    oc_reduce_swap_(&pl->rs[d], &pl->rs[pl->nr - 1 - d]);
  }
  if (pl->nr == 0) { /* nothing but size-1 dims reduced: one element per output */
    pl->rd[0] = 1;
    pl->rs[0] = 1;
    pl->nr = 1;
  }
}

/* oc_reduce_<SUFFIX>(op, p, x, y) on elements of type T, with that type's
 * EXP, LOG, SQRT, FABS and INF (an expression). */
#define OC_DEFINE_REDUCE(SUFFIX, T, EXP, LOG, SQRT, FABS, INF)                                  \
  /* One output: fold the reduced elements (pl's reduced dims) with op;                      \
   * `shift` is the max for LOG_SUM_EXP. */                                                  \
  static T oc_reduce_fold_##SUFFIX(int32_t op, const T *x, const oc_reduce_plan *pl, T shift) { \
    int32_t idx[OC_MAX_RANK];                                                                \
    int32_t rows = 1, row, d, i, off = 0;                                                    \
    const int32_t n = pl->rd[pl->nr - 1], s = pl->rs[pl->nr - 1];                            \
    T acc;                                                                                   \
    switch (op) {                                                                            \
      case OC_REDUCE_MAX: acc = -(INF); break;                                               \
      case OC_REDUCE_MIN: acc = (INF); break;                                                \
      case OC_REDUCE_PROD: acc = (T)1; break;                                                \
      default: acc = (T)0; break;                                                            \
    }                                                                                        \
    for (d = 0; d < pl->nr - 1; d++) {                                                       \
      idx[d] = 0;                                                                            \
      rows *= pl->rd[d];                                                                     \
    }                                                                                        \
    for (row = 0; row < rows; row++) {                                                       \
      const T *xr = x + off;                                                                 \
      switch (op) {                                                                          \
        case OC_REDUCE_MAX:                                                                  \
          for (i = 0; i < n; i++) {                                                          \
            const T v = xr[i * s];                                                           \
            acc = (v > acc || v != v) ? v : acc;                                             \
          }                                                                                  \
          break;                                                                             \
        case OC_REDUCE_MIN:                                                                  \
          for (i = 0; i < n; i++) {                                                          \
            const T v = xr[i * s];                                                           \
            acc = (v < acc || v != v) ? v : acc;                                             \
          }                                                                                  \
          break;                                                                             \
        case OC_REDUCE_PROD:                                                                 \
          for (i = 0; i < n; i++) acc *= xr[i * s];                                          \
          break;                                                                             \
        case OC_REDUCE_SUM_SQUARE:                                                           \
        case OC_REDUCE_L2:                                                                   \
          for (i = 0; i < n; i++) acc += xr[i * s] * xr[i * s];                             \
          break;                                                                             \
        case OC_REDUCE_L1:                                                                   \
          for (i = 0; i < n; i++) acc += FABS(xr[i * s]);                                    \
          break;                                                                             \
        case OC_REDUCE_LOG_SUM_EXP:                                                          \
          for (i = 0; i < n; i++) acc += EXP(xr[i * s] - shift);                             \
          break;                                                                             \
        default: /* SUM, MEAN, LOG_SUM */                                                    \
          for (i = 0; i < n; i++) acc += xr[i * s];                                          \
          break;                                                                             \
      }                                                                                      \
      for (d = pl->nr - 2; d >= 0; d--) {                                                    \
        off += pl->rs[d];                                                                    \
        if (++idx[d] < pl->rd[d]) break;                                                     \
        off -= pl->rs[d] * pl->rd[d];                                                        \
        idx[d] = 0;                                                                          \
      }                                                                                      \
    }                                                                                        \
    return acc;                                                                              \
  }                                                                                          \
                                                                                             \
  OC_API void oc_reduce_##SUFFIX(int32_t op, const oc_reduce_params *p, const T *x, T *y) {  \
    oc_reduce_plan pl;                                                                       \
    int32_t idx[OC_MAX_RANK];                                                                \
    int32_t d, o, outs = 1, off = 0;                                                         \
    oc_reduce_make_plan(p, &pl);                                                             \
    if (pl.total == 0) return;                                                               \
    for (d = 0; d < pl.nk; d++) {                                                            \
      idx[d] = 0;                                                                            \
      outs *= pl.kd[d];                                                                      \
    }                                                                                        \
    for (o = 0; o < outs; o++) {                                                             \
      const T *xo = x + off;                                                                 \
      T v;                                                                                   \
      if (op == OC_REDUCE_LOG_SUM_EXP) {                                                     \
        const T m = oc_reduce_fold_##SUFFIX(OC_REDUCE_MAX, xo, &pl, (T)0);                   \
        /* all -inf (or a +inf / NaN): exp(x - m) would be NaN; the max is the answer */     \
        v = (m - m != (T)0) ? m : m + LOG(oc_reduce_fold_##SUFFIX(op, xo, &pl, m));          \
      } else {                                                                               \
        v = oc_reduce_fold_##SUFFIX(op, xo, &pl, (T)0);                                      \
        switch (op) {                                                                        \
          case OC_REDUCE_MEAN: v = v / (T)pl.count; break;                                   \
          case OC_REDUCE_L2: v = SQRT(v); break;                                             \
          case OC_REDUCE_LOG_SUM: v = LOG(v); break;                                         \
          default: break;                                                                    \
        }                                                                                    \
      }                                                                                      \
      y[o] = v;                                                                              \
      for (d = pl.nk - 1; d >= 0; d--) {                                                     \
        off += pl.ks[d];                                                                     \
        if (++idx[d] < pl.kd[d]) break;                                                      \
        off -= pl.ks[d] * pl.kd[d];                                                          \
        idx[d] = 0;                                                                          \
      }                                                                                      \
    }                                                                                        \
  }

#endif /* ONNX_TO_C_OC_REDUCE_H_ */
