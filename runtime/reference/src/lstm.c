/* ONNX LSTM (oc_rnn_params), gates i, o, f, c with peepholes P (i, o, f):
 *   i = f(x Wi + H Ri + Pi * C + Wbi + Rbi), f = f(... + Pf * C ...),
 *   c = g(x Wc + H Rc + Wbc + Rbc), C = f * C + i * c,
 *   o = f(x Wo + H Ro + Po * C + Wbo + Rbo) (with the new C), H = o * h(C).
 * input_forget couples f = 1 - i. scratch holds 2 * batch * hidden +
 * 2 * hidden floats. y, y_h, y_c may be NULL. */
#include "onnx_to_c/oc_rnn.h"

OC_API void oc_lstm_f32(const oc_rnn_params *p, const float *x, const float *w, const float *r,
                        const float *b, const int32_t *seq_lens, const float *h0,
                        const float *c0, const float *peep, float *y, float *y_h, float *y_c,
                        float *scratch) {
  const int32_t H = p->hidden, G = 4 * H;
  float *h = scratch, *c = h + (ptrdiff_t)p->batch * H, *next_h = c + (ptrdiff_t)p->batch * H,
        *next_c = next_h + H;
  int32_t d, s, bt, j, t;
  if (y != NULL) memset(y, 0, (size_t)p->seq * (size_t)p->num_dir * (size_t)p->batch * (size_t)H * sizeof *y);
  for (d = 0; d < p->num_dir; d++) {
    const float *wd = w + (ptrdiff_t)d * G * p->input, *rd = r + (ptrdiff_t)d * G * H;
    const float *bd = b != NULL ? b + (ptrdiff_t)d * 2 * G : NULL;
    const float *pd = peep != NULL ? peep + (ptrdiff_t)d * 3 * H : NULL;
    const oc_rnn_act *f = &p->acts[d][0], *g = &p->acts[d][1], *ha = &p->acts[d][2];
    for (bt = 0; bt < p->batch; bt++) {
      const ptrdiff_t at = oc_rnn_state(p, d, bt);
      for (j = 0; j < H; j++) {
        h[bt * H + j] = h0 != NULL ? h0[at + j] : 0.0f;
        c[bt * H + j] = c0 != NULL ? c0[at + j] : 0.0f;
      }
    }
    for (s = 0; s < p->seq; s++) {
      for (bt = 0; bt < p->batch; bt++) {
        float *hb = h + (ptrdiff_t)bt * H, *cb = c + (ptrdiff_t)bt * H;
        const float *xt;
        t = oc_rnn_time(p, d, s, oc_rnn_len(p, seq_lens, bt));
        if (t < 0) continue;
        xt = oc_rnn_x(p, x, t, bt);
        for (j = 0; j < H; j++) {
          const float pi = pd != NULL ? pd[j] : 0.0f, po = pd != NULL ? pd[H + j] : 0.0f;
          const float pf = pd != NULL ? pd[2 * H + j] : 0.0f;
          const float ig = oc_rnn_activate(f, oc_rnn_gate(p, wd, rd, bd, G, j, xt, hb) + pi * cb[j]);
          const float fg = p->input_forget
                               ? 1.0f - ig
                               : oc_rnn_activate(f, oc_rnn_gate(p, wd, rd, bd, G, 2 * H + j, xt, hb) +
                                                        pf * cb[j]);
          const float cg = oc_rnn_activate(g, oc_rnn_gate(p, wd, rd, bd, G, 3 * H + j, xt, hb));
          const float cn = fg * cb[j] + ig * cg;
          const float og = oc_rnn_activate(f, oc_rnn_gate(p, wd, rd, bd, G, H + j, xt, hb) + po * cn);
          next_c[j] = cn;
          next_h[j] = og * oc_rnn_activate(ha, cn);
        }
        memcpy(hb, next_h, (size_t)H * sizeof *hb);
        memcpy(cb, next_c, (size_t)H * sizeof *cb);
        if (y != NULL) memcpy(oc_rnn_y(p, y, t, d, bt), hb, (size_t)H * sizeof *hb);
      }
    }
    for (bt = 0; bt < p->batch; bt++) {
      const ptrdiff_t at = oc_rnn_state(p, d, bt);
      if (y_h != NULL) memcpy(y_h + at, h + (ptrdiff_t)bt * H, (size_t)H * sizeof *h);
      if (y_c != NULL) memcpy(y_c + at, c + (ptrdiff_t)bt * H, (size_t)H * sizeof *c);
    }
  }
}
