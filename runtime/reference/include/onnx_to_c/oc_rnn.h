/*
 * onnx-to-c runtime: helpers shared by the recurrent kernels (rnn.c, gru.c,
 * lstm.c; oc_rnn_params). Each direction runs over the time steps; each
 * batch row keeps its own sequence length (steps past it leave Y at 0 and
 * the state unchanged). Gate pre-activations are summed as
 * ((x . W) + (h . R)) + Wb + Rb, dot products in increasing index order.
 */
#ifndef ONNX_TO_C_OC_RNN_H_
#define ONNX_TO_C_OC_RNN_H_

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_INLINE float oc_rnn_activate(const oc_rnn_act *a, float v) {
  switch (a->kind) {
    case OC_RNN_SIGMOID: return oc_sigmoidf(v);
    case OC_RNN_TANH: return oc_tanhf(v);
    case OC_RNN_RELU: return v < 0.0f ? 0.0f : v;
    case OC_RNN_AFFINE: return a->alpha * v + a->beta;
    case OC_RNN_LEAKY_RELU: return v < 0.0f ? a->alpha * v : v;
    case OC_RNN_THRESHOLDED_RELU: return v > a->alpha ? v : 0.0f;
    case OC_RNN_SCALED_TANH: return a->alpha * oc_tanhf(a->beta * v);
    case OC_RNN_HARD_SIGMOID: return oc_clamp01(a->alpha * v + a->beta);
    case OC_RNN_ELU: return v < 0.0f ? a->alpha * (oc_expf(v) - 1.0f) : v;
    case OC_RNN_SOFTSIGN: return v / (1.0f + fabsf(v));
    default: /* OC_RNN_SOFTPLUS */
      return v > 0.0f ? v + oc_log1pf(oc_expf(-v)) : oc_log1pf(oc_expf(v));
  }
}

OC_INLINE float oc_rnn_dot(const float *a, const float *b, int32_t n) {
  float s = 0.0f;
  int32_t i;
  for (i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* Gate row `row` of direction d's weights for input x_t and state h:
 * ((x . W) + (h . R)) + Wb + Rb, clipped. */
OC_INLINE float oc_rnn_gate(const oc_rnn_params *p, const float *w, const float *r,
                            const float *b, int32_t gh, int32_t row, const float *xt,
                            const float *h) {
  float v = oc_rnn_dot(xt, w + (ptrdiff_t)row * p->input, p->input) +
            oc_rnn_dot(h, r + (ptrdiff_t)row * p->hidden, p->hidden);
  if (b != NULL) v = (v + b[row]) + b[gh + row];
  if (p->has_clip) v = v < -p->clip ? -p->clip : (v > p->clip ? p->clip : v);
  return v;
}

/* Where time step t of batch row bt lives in X and Y, and direction d's
 * state of batch row bt in the state tensors. */
OC_INLINE const float *oc_rnn_x(const oc_rnn_params *p, const float *x, int32_t t, int32_t bt) {
  return x + (ptrdiff_t)(p->layout ? bt * p->seq + t : t * p->batch + bt) * p->input;
}

OC_INLINE float *oc_rnn_y(const oc_rnn_params *p, float *y, int32_t t, int32_t d, int32_t bt) {
  return y + (ptrdiff_t)(p->layout ? (bt * p->seq + t) * p->num_dir + d
                                   : (t * p->num_dir + d) * p->batch + bt) * p->hidden;
}

OC_INLINE ptrdiff_t oc_rnn_state(const oc_rnn_params *p, int32_t d, int32_t bt) {
  return (ptrdiff_t)(p->layout ? bt * p->num_dir + d : d * p->batch + bt) * p->hidden;
}

/* The time index of step s for a row of length len in direction d, or -1
 * when the row has ended. */
OC_INLINE int32_t oc_rnn_time(const oc_rnn_params *p, int32_t d, int32_t s, int32_t len) {
  if (s >= len) return -1;
  return (d == 1 || p->reverse) ? len - 1 - s : s;
}

/* The length of batch row bt (seq_lens may be NULL), within [0, seq]. */
OC_INLINE int32_t oc_rnn_len(const oc_rnn_params *p, const int32_t *seq_lens, int32_t bt) {
  const int32_t n = seq_lens != NULL ? seq_lens[bt] : p->seq;
  return n < 0 ? 0 : (n > p->seq ? p->seq : n);
}

#endif /* ONNX_TO_C_OC_RNN_H_ */
