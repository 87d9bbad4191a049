/* ONNX GRU (oc_rnn_params), gates z, r, h:
 *   z = f(x Wz + H Rz + Wbz + Rbz), r = f(x Wr + H Rr + Wbr + Rbr)
 *   h = g(x Wh + (r * H) Rh + Wbh + Rbh), or with linear_before_reset
 *   h = g(x Wh + Wbh + r * (H Rh + Rbh)); H = (1 - z) * h + z * H.
 * scratch holds batch * hidden + 4 * hidden floats. y, y_h may be NULL. */
#include "onnx_to_c/oc_rnn.h"

OC_API void oc_gru_f32(const oc_rnn_params *p, const float *x, const float *w, const float *r,
                       const float *b, const int32_t *seq_lens, const float *h0, float *y,
                       float *y_h, float *scratch) {
  const int32_t H = p->hidden, G = 3 * H;
  float *h = scratch, *z = scratch + (ptrdiff_t)p->batch * H, *rg = z + H, *rh = rg + H,
        *next = rh + H;
  int32_t d, s, bt, j, t;
  if (y != NULL) memset(y, 0, (size_t)p->seq * (size_t)p->num_dir * (size_t)p->batch * (size_t)H * sizeof *y);
  for (d = 0; d < p->num_dir; d++) {
    const float *wd = w + (ptrdiff_t)d * G * p->input, *rd = r + (ptrdiff_t)d * G * H;
    const float *bd = b != NULL ? b + (ptrdiff_t)d * 2 * G : NULL;
    const oc_rnn_act *f = &p->acts[d][0], *g = &p->acts[d][1];
    for (bt = 0; bt < p->batch; bt++) {
      for (j = 0; j < H; j++) h[bt * H + j] = h0 != NULL ? h0[oc_rnn_state(p, d, bt) + j] : 0.0f;
    }
    for (s = 0; s < p->seq; s++) {
      for (bt = 0; bt < p->batch; bt++) {
        float *hb = h + (ptrdiff_t)bt * H;
        const float *xt;
        t = oc_rnn_time(p, d, s, oc_rnn_len(p, seq_lens, bt));
        if (t < 0) continue;
        xt = oc_rnn_x(p, x, t, bt);
        for (j = 0; j < H; j++) {
          z[j] = oc_rnn_activate(f, oc_rnn_gate(p, wd, rd, bd, G, j, xt, hb));
          rg[j] = oc_rnn_activate(f, oc_rnn_gate(p, wd, rd, bd, G, H + j, xt, hb));
          rh[j] = rg[j] * hb[j];
        }
        for (j = 0; j < H; j++) {
          const int32_t row = 2 * H + j;
          const float xw = oc_rnn_dot(xt, wd + (ptrdiff_t)row * p->input, p->input);
          const float wb = bd != NULL ? bd[row] : 0.0f, rb = bd != NULL ? bd[G + row] : 0.0f;
          float v;
          if (p->linear_before_reset) {
            v = (xw + rg[j] * (oc_rnn_dot(hb, rd + (ptrdiff_t)row * H, H) + rb)) + wb;
          } else {
            v = ((xw + oc_rnn_dot(rh, rd + (ptrdiff_t)row * H, H)) + wb) + rb;
          }
          if (p->has_clip) v = v < -p->clip ? -p->clip : (v > p->clip ? p->clip : v);
          v = oc_rnn_activate(g, v);
          next[j] = (1.0f - z[j]) * v + z[j] * hb[j];
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
