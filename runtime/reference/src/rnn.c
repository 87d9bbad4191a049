/* ONNX RNN (oc_rnn_params): H = f(x W^T + H R^T + Wb + Rb). scratch holds
 * batch * hidden + hidden floats. y, y_h may be NULL. */
#include "onnx_to_c/oc_rnn.h"

OC_API void oc_rnn_f32(const oc_rnn_params *p, const float *x, const float *w, const float *r,
                       const float *b, const int32_t *seq_lens, const float *h0, float *y,
                       float *y_h, float *scratch) {
  const int32_t H = p->hidden;
  float *h = scratch, *next = scratch + (ptrdiff_t)p->batch * H;
  int32_t d, s, bt, j, t;
  if (y != NULL) memset(y, 0, (size_t)p->seq * (size_t)p->num_dir * (size_t)p->batch * (size_t)H * sizeof *y);
  for (d = 0; d < p->num_dir; d++) {
    const float *wd = w + (ptrdiff_t)d * H * p->input, *rd = r + (ptrdiff_t)d * H * H;
    const float *bd = b != NULL ? b + (ptrdiff_t)d * 2 * H : NULL;
    for (bt = 0; bt < p->batch; bt++) {
      for (j = 0; j < H; j++) h[bt * H + j] = h0 != NULL ? h0[oc_rnn_state(p, d, bt) + j] : 0.0f;
    }
    for (s = 0; s < p->seq; s++) {
      for (bt = 0; bt < p->batch; bt++) {
        float *hb = h + (ptrdiff_t)bt * H;
        t = oc_rnn_time(p, d, s, oc_rnn_len(p, seq_lens, bt));
        if (t < 0) continue;
        for (j = 0; j < H; j++) {
          next[j] = oc_rnn_activate(&p->acts[d][0],
                                    oc_rnn_gate(p, wd, rd, bd, H, j, oc_rnn_x(p, x, t, bt), hb));
        }
        memcpy(hb, next, (size_t)H * sizeof *hb);
        if (y != NULL) memcpy(oc_rnn_y(p, y, t, d, bt), hb, (size_t)H * sizeof *hb);
      }
    }
    if (y_h != NULL) {
      for (bt = 0; bt < p->batch; bt++) {
        memcpy(y_h + oc_rnn_state(p, d, bt), h + (ptrdiff_t)bt * H, (size_t)H * sizeof *h);
      }
    }
  }
}
