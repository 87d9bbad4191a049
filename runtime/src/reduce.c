/*
 * ONNX Reduce* over any set of axes (bit d of reduce_mask), rank <= 8, on a
 * contiguous input; the output holds the kept dims in order.
 *
 * For each output element the reduced elements are visited in increasing
 * row-major order of the reduced dims (sums are not reordered). MEAN is
 * sum / count, L2 is sqrt(sum of squares), LOG_SUM_EXP is
 * max + log(sum exp(x - max)). MAX/MIN propagate NaN.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* One output: fold the reduced elements of x (dims rd, element strides rs,
 * nr of them, nr >= 1) with op; `shift` is the max for LOG_SUM_EXP. */
static float reduce_fold_(int32_t op, const float *x, const int32_t *rd, const int32_t *rs,
                          int32_t nr, float shift) {
  int32_t idx[OC_MAX_RANK];
  int32_t rows = 1, row, d, i, off = 0;
  const int32_t n = rd[nr - 1], s = rs[nr - 1];
  float acc;
  switch (op) {
    case OC_REDUCE_MAX: acc = -oc_inff(); break;
    case OC_REDUCE_MIN: acc = oc_inff(); break;
    case OC_REDUCE_PROD: acc = 1.0f; break;
    default: acc = 0.0f; break;
  }
  for (d = 0; d < nr - 1; d++) {
    idx[d] = 0;
    rows *= rd[d];
  }
  for (row = 0; row < rows; row++) {
    const float *xr = x + off;
    switch (op) {
      case OC_REDUCE_MAX:
        for (i = 0; i < n; i++) {
          const float v = xr[i * s];
          acc = (v > acc || v != v) ? v : acc;
        }
        break;
      case OC_REDUCE_MIN:
        for (i = 0; i < n; i++) {
          const float v = xr[i * s];
          acc = (v < acc || v != v) ? v : acc;
        }
        break;
      case OC_REDUCE_PROD:
        for (i = 0; i < n; i++) acc *= xr[i * s];
        break;
      case OC_REDUCE_SUM_SQUARE:
      case OC_REDUCE_L2:
        for (i = 0; i < n; i++) acc += xr[i * s] * xr[i * s];
        break;
      case OC_REDUCE_L1:
        for (i = 0; i < n; i++) acc += fabsf(xr[i * s]);
        break;
      case OC_REDUCE_LOG_SUM_EXP:
        for (i = 0; i < n; i++) acc += oc_expf(xr[i * s] - shift);
        break;
      default: /* SUM, MEAN, LOG_SUM */
        for (i = 0; i < n; i++) acc += xr[i * s];
        break;
    }
    for (d = nr - 2; d >= 0; d--) {
      off += rs[d];
      if (++idx[d] < rd[d]) break;
      off -= rs[d] * rd[d];
      idx[d] = 0;
    }
  }
  return acc;
}

OC_API void oc_reduce_f32(int32_t op, const oc_reduce_params *p, const float *x, float *y) {
  /* kept (k*) and reduced (r*) dims with their input strides; adjacent dims
   * of the same kind are merged, size-1 dims dropped */
  int32_t kd[OC_MAX_RANK], ks[OC_MAX_RANK], rd[OC_MAX_RANK], rs[OC_MAX_RANK], idx[OC_MAX_RANK];
  int32_t nk = 0, nr = 0, d, stride = 1, prev = -1, outs = 1, o, off = 0, count = 1;
  for (d = p->rank - 1; d >= 0; d--) { /* innermost first, reversed below */
    const int32_t n = p->dims[d], red = (int32_t)((p->reduce_mask >> d) & 1u);
    if (n != 1) {
      if (red == prev) { /* contiguous input: merges with the inner neighbour */
        if (red) rd[nr - 1] *= n;
        else kd[nk - 1] *= n;
      } else if (red) {
        rd[nr] = n;
        rs[nr++] = stride;
      } else {
        kd[nk] = n;
        ks[nk++] = stride;
      }
      prev = red;
      if (red) count *= n;
    }
    stride *= n;
  }
  for (d = 0; d < nk / 2; d++) { /* outermost first */
    int32_t t = kd[d];
    kd[d] = kd[nk - 1 - d];
    kd[nk - 1 - d] = t;
    t = ks[d];
    ks[d] = ks[nk - 1 - d];
    ks[nk - 1 - d] = t;
  }
  for (d = 0; d < nr / 2; d++) {
    int32_t t = rd[d];
    rd[d] = rd[nr - 1 - d];
    rd[nr - 1 - d] = t;
    t = rs[d];
    rs[d] = rs[nr - 1 - d];
    rs[nr - 1 - d] = t;
  }
  if (stride == 0) return;
  if (nr == 0) { /* nothing but size-1 dims reduced: one element per output */
    rd[0] = 1;
    rs[0] = 1;
    nr = 1;
  }
  for (d = 0; d < nk; d++) {
    idx[d] = 0;
    outs *= kd[d];
  }
  for (o = 0; o < outs; o++) {
    const float *xo = x + off;
    float v;
    if (op == OC_REDUCE_LOG_SUM_EXP) {
      const float m = reduce_fold_(OC_REDUCE_MAX, xo, rd, rs, nr, 0.0f);
      /* all -inf (or a +inf / NaN): exp(x - m) would be NaN; the max is the answer */
      v = (m - m != 0.0f) ? m : m + oc_logf(reduce_fold_(op, xo, rd, rs, nr, m));
    } else {
      v = reduce_fold_(op, xo, rd, rs, nr, 0.0f);
      switch (op) {
        case OC_REDUCE_MEAN: v = v / (float)count; break;
        case OC_REDUCE_L2: v = sqrtf(v); break;
        case OC_REDUCE_LOG_SUM: v = oc_logf(v); break;
        default: break;
      }
    }
    y[o] = v;
    for (d = nk - 1; d >= 0; d--) {
      off += ks[d];
      if (++idx[d] < kd[d]) break;
      off -= ks[d] * kd[d];
      idx[d] = 0;
    }
  }
}
