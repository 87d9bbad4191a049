/* NegativeLogLikelihoodLoss (oc_nll_loss_params) in float32; sums run in
 * increasing index order. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_nll_loss_f32(const oc_nll_loss_params *p, const float *x, const void *target,
                            const float *weight, float *y) {
  float sum = 0.0f, weight_sum = 0.0f;
  int32_t n, d;
  for (n = 0; n < p->n; n++) {
    for (d = 0; d < p->inner; d++) {
      const int64_t t = oc_index_at(target, p->target_is64, n * p->inner + d);
      float loss = 0.0f, w = 0.0f;
      if (!(p->has_ignore_index && t == p->ignore_index) && t >= 0 && t < p->c) {
        w = weight != NULL ? weight[t] : 1.0f;
        loss = -x[((ptrdiff_t)n * p->c + (ptrdiff_t)t) * p->inner + d] * w;
      }
      if (p->reduction == OC_REDUCTION_NONE) {
        y[n * p->inner + d] = loss;
      } else {
        sum += loss;
        weight_sum += w;
      }
    }
  }
  if (p->reduction == OC_REDUCTION_SUM) y[0] = sum;
  if (p->reduction == OC_REDUCTION_MEAN) {
    /* without weights and ignore_index every element counts once */
    y[0] = (weight != NULL || p->has_ignore_index) ? sum / weight_sum
                                                   : sum / (float)(p->n * p->inner);
  }
}
