/*
 * NCHW -> NHWC of 8-bit elements (int8 or uint8: the bytes are copied, never
 * computed): to_nhwc.c's permutation on bytes, out of place a plain transpose,
 * in place (an 8-bit graph input in the arena, --quantized-io) followed cycle
 * by cycle with `visited` (c * hw bits of scratch) marking the placed bytes.
 * A cycle's next index: oc_nhwc_cycle.h.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_nhwc_cycle.h"

OC_API void oc_to_nhwc_8(const uint8_t *x, uint8_t *y, int32_t n, int32_t c, int32_t hw,
                         unsigned char *visited) {
  const int32_t item = c * hw;
  int32_t b, i, ch, pos;
  if (x != y) {
    for (b = 0; b < n; b++) {
      const uint8_t *xb = x + (ptrdiff_t)b * item;
      uint8_t *yb = y + (ptrdiff_t)b * item;
      for (pos = 0; pos < hw; pos++) {
        for (ch = 0; ch < c; ch++) yb[(ptrdiff_t)pos * c + ch] = xb[(ptrdiff_t)ch * hw + pos];
      }
    }
    return;
  }
  if (c < 2 || hw < 2) return; /* a vector: the same order either way */
  for (b = 0; b < n; b++) {
    uint8_t *a = y + (ptrdiff_t)b * item;
    const uint32_t m = (uint32_t)item - 1u; /* element i moves to i * c mod m */
    const int wide = (uint64_t)m * (uint32_t)c > 0xFFFFFFFFu;
    memset(visited, 0, ((size_t)item + 7u) / 8u);
    for (i = 1; i < item - 1; i++) {
      uint32_t j = (uint32_t)i;
      uint8_t carried;
      if ((i & 7) == 0 && visited[i >> 3] == 0xFFu) { /* eight placed bytes */
        i += 7;
        continue;
      }
      if (visited[i >> 3] & (1u << (i & 7))) continue;
      carried = a[i];
      do {
        const uint32_t next = oc_nhwc_cycle_next(j, (uint32_t)c, m, wide);
        const uint8_t displaced = a[next];
        a[next] = carried;
        carried = displaced;
        visited[next >> 3] = (unsigned char)(visited[next >> 3] | (1u << (next & 7)));
        j = next;
      } while (j != (uint32_t)i);
    }
  }
}
