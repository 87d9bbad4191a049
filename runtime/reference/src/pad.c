/*
 * ONNX Pad of any rank, modes constant / reflect / edge; negative pads crop.
 * Output index o maps to input index o - pads_begin in each dim; outside the
 * input, constant mode writes `value`, edge clamps, reflect mirrors without
 * repeating the border (numpy "reflect", periodic for pads longer than the
 * dim). Elements of elem_size bytes; `value` points to the constant.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* input index for i in dim of length n, or -1 (constant mode, outside) */
static int32_t pad_map_(int32_t mode, int32_t i, int32_t n) {
  if (i >= 0 && i < n) return i;
  if (n <= 0) return -1;
  if (mode == OC_PAD_EDGE) return i < 0 ? 0 : n - 1;
  if (mode == OC_PAD_REFLECT) {
    const int32_t period = 2 * (n - 1);
    if (period == 0) return 0;
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - i;
  }
  return -1;
}

OC_API void oc_pad(const oc_pad_params *p, const void *x, void *y, const void *value) {
  int32_t idx[OC_MAX_RANK], in_strides[OC_MAX_RANK];
  int32_t r = p->rank, d, rows = 1, row, j;
  int32_t w_out, w_in, pb, lo, hi;
  const size_t es = (size_t)p->elem_size;
  const unsigned char *px = (const unsigned char *)x;
  unsigned char *py = (unsigned char *)y;
  if (r == 0) {
    memcpy(py, px, es);
    return;
  }
  for (d = r - 1, j = 1; d >= 0; d--) {
    in_strides[d] = j;
    j *= p->in_dims[d];
  }
  for (d = 0; d < r; d++) {
    if (p->out_dims[d] == 0) return;
    idx[d] = 0;
    if (d < r - 1) rows *= p->out_dims[d];
  }
  w_out = p->out_dims[r - 1];
  w_in = p->in_dims[r - 1];
  pb = p->pads_begin[r - 1];
  /* output columns [lo, hi) read input columns [lo - pb, hi - pb) directly */
  lo = pb > 0 ? pb : 0;
  hi = w_in + pb < w_out ? w_in + pb : w_out;
  if (hi < lo) hi = lo;
  for (row = 0; row < rows; row++, py += (size_t)w_out * es) {
    const unsigned char *xr = px;
    int outside = 0;
    for (d = 0; d < r - 1; d++) {
      const int32_t i = pad_map_(p->mode, idx[d] - p->pads_begin[d], p->in_dims[d]);
      if (i < 0) outside = 1;
      else xr += (size_t)i * (size_t)in_strides[d] * es;
    }
    if (outside || w_in == 0) {
      for (j = 0; j < w_out; j++) memcpy(py + (size_t)j * es, value, es);
    } else {
      for (j = 0; j < lo; j++) {
        const int32_t i = pad_map_(p->mode, j - pb, w_in);
        memcpy(py + (size_t)j * es, i < 0 ? value : (const void *)(xr + (size_t)i * es), es);
      }
      if (hi > lo) memcpy(py + (size_t)lo * es, xr + (size_t)(lo - pb) * es, (size_t)(hi - lo) * es);
      for (j = hi; j < w_out; j++) {
        const int32_t i = pad_map_(p->mode, j - pb, w_in);
        memcpy(py + (size_t)j * es, i < 0 ? value : (const void *)(xr + (size_t)i * es), es);
      }
    }
    for (d = r - 2; d >= 0; d--) {
      if (++idx[d] < p->out_dims[d]) break;
      idx[d] = 0;
    }
  }
}
