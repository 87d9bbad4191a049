/*
 * NCHW -> NHWC: the same values, channels-last. Each batch item is a
 * c x hw matrix that becomes its hw x c transpose.
 *
 * Out of place (y != x): a plain transpose. In place (y == x, a graph input
 * in the arena that only channels-last kernels read): the permutation is
 * followed cycle by cycle. Element i = ch * hw + pos moves to pos * c + ch,
 * which is i * c mod (c * hw - 1) for every i but the last (a fixed point,
 * like the first). A cycle is walked once, from its first unvisited element,
 * carrying one value; `visited` (c * hw bits, the statement's scratch) marks
 * the elements already placed. Each element is read and written once; the
 * values are copied, never computed, so the bits are the input's.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_nhwc_cycle.h"

OC_API void oc_to_nhwc_f32(const float *x, float *y, int32_t n, int32_t c, int32_t hw,
                           unsigned char *visited) {
  const int32_t item = c * hw;
  int32_t b, i, ch, pos;
  if (x != y) {
    for (b = 0; b < n; b++) {
      const float *xb = x + (ptrdiff_t)b * item;
      float *yb = y + (ptrdiff_t)b * item;
      for (pos = 0; pos < hw; pos++) {
        for (ch = 0; ch < c; ch++) yb[(ptrdiff_t)pos * c + ch] = xb[(ptrdiff_t)ch * hw + pos];
      }
    }
    return;
  }
  if (c < 2 || hw < 2) return; /* a vector: the same order either way */
  for (b = 0; b < n; b++) {
    float *a = y + (ptrdiff_t)b * item;
    const uint32_t m = (uint32_t)item - 1u;
    /* j * c < c * m: 32-bit arithmetic where that fits (oc_nhwc_cycle.h) */
    const int wide = (uint64_t)m * (uint32_t)c > 0xFFFFFFFFu;
    memset(visited, 0, ((size_t)item + 7u) / 8u);
    for (i = 1; i < item - 1; i++) {
      uint32_t j = (uint32_t)i;
      float carried;
      if ((i & 7) == 0 && visited[i >> 3] == 0xFFu) { /* eight placed values */
        i += 7;
        continue;
      }
      if (visited[i >> 3] & (1u << (i & 7))) continue;
      carried = a[i];
      do {
        const uint32_t next = oc_nhwc_cycle_next(j, (uint32_t)c, m, wide);
        const float displaced = a[next];
        a[next] = carried;
        carried = displaced;
        visited[next >> 3] = (unsigned char)(visited[next >> 3] | (1u << (next & 7)));
        j = next;
      } while (j != (uint32_t)i);
    }
  }
}
