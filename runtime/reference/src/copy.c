/*
 * Generic strided copy of elem_size-byte elements (oc_copy_params): Concat,
 * Slice, Split, Transpose, Expand, Tile, ... Source strides may be zero or
 * negative. Iterates with an index counter (no recursion); rows that are
 * contiguous on both sides become one memcpy.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* n elements; ds/ss are byte strides. memcpy with a constant size compiles
 * to a plain load/store and is free of aliasing-rule problems. */
static void copy_row_(unsigned char *d, const unsigned char *s, int32_t n, ptrdiff_t ds,
                      ptrdiff_t ss, int32_t es) {
  int32_t i;
  switch (es) {
    case 1:
      for (i = 0; i < n; i++) d[i * ds] = s[i * ss];
      break;
    case 2:
      for (i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, 2u);
      break;
    case 4:
      for (i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, 4u);
      break;
    case 8:
      for (i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, 8u);
      break;
    default:
      for (i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, (size_t)es);
      break;
  }
}

OC_API void oc_copy(const oc_copy_params *p, const void *x, void *y) {
  int32_t dims[OC_MAX_RANK], ss[OC_MAX_RANK], ds[OC_MAX_RANK], idx[OC_MAX_RANK];
  int32_t r = 0, d, rows = 1, row;
  const ptrdiff_t es = p->elem_size;
  const unsigned char *src = (const unsigned char *)x + (ptrdiff_t)p->src_offset * es;
  unsigned char *dst = (unsigned char *)y + (ptrdiff_t)p->dst_offset * es;
  ptrdiff_t so = 0, dof = 0;
  /* drop size-1 dims; merge a dim into the previous one when both sides
   * step through the pair as one dim */
  for (d = 0; d < p->rank; d++) {
    const int32_t n = p->dims[d];
    if (n == 0) return;
    if (n == 1) continue;
    if (r > 0 && ss[r - 1] == p->src_strides[d] * n && ds[r - 1] == p->dst_strides[d] * n) {
      dims[r - 1] *= n;
      ss[r - 1] = p->src_strides[d];
      ds[r - 1] = p->dst_strides[d];
    } else {
      dims[r] = n;
      ss[r] = p->src_strides[d];
      ds[r] = p->dst_strides[d];
      r++;
    }
  }
  if (r == 0) { /* one element */
    memcpy(dst, src, (size_t)es);
    return;
  }
  for (d = 0; d < r - 1; d++) {
    idx[d] = 0;
    rows *= dims[d];
  }
  for (row = 0; row < rows; row++) {
    const int32_t n = dims[r - 1];
    if (ss[r - 1] == 1 && ds[r - 1] == 1) {
      memcpy(dst + dof, src + so, (size_t)n * (size_t)es);
    } else {
      copy_row_(dst + dof, src + so, n, ds[r - 1] * es, ss[r - 1] * es, p->elem_size);
    }
    for (d = r - 2; d >= 0; d--) {
      so += ss[d] * es;
      dof += ds[d] * es;
      if (++idx[d] < dims[d]) break;
      so -= (ptrdiff_t)ss[d] * dims[d] * es;
      dof -= (ptrdiff_t)ds[d] * dims[d] * es;
      idx[d] = 0;
    }
  }
}
