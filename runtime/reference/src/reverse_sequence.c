/* ReverseSequence of x viewed as (time, batch, inner) (time_major) or
 * (batch, time, inner): row b's first seq_lens[b] steps reversed, the rest
 * copied; any element type. y must not overlap x. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_reverse_sequence(const void *x, const void *seq_lens, int32_t lens_is64, void *y,
                                int32_t time, int32_t batch, int32_t inner, int32_t elem_size,
                                int32_t time_major) {
  const size_t slice = (size_t)inner * (size_t)elem_size;
  const unsigned char *px = (const unsigned char *)x;
  unsigned char *py = (unsigned char *)y;
  int32_t b, t;
  for (b = 0; b < batch; b++) {
    int64_t len = oc_index_at(seq_lens, lens_is64, b);
    len = len < 0 ? 0 : (len > time ? time : len);
    for (t = 0; t < time; t++) {
      const int32_t src = t < len ? (int32_t)len - 1 - t : t;
      const size_t to = time_major ? (size_t)t * (size_t)batch + (size_t)b : (size_t)b * (size_t)time + (size_t)t;
      const size_t from =
          time_major ? (size_t)src * (size_t)batch + (size_t)b : (size_t)b * (size_t)time + (size_t)src;
      memcpy(py + to * slice, px + from * slice, slice);
    }
  }
}
