/*
 * ONNX Conv, 1x1 with stride 1 and no padding, whose output may overlap its
 * input (an overlap contract): y may equal x. Pixels are processed in blocks
 * of `block`: every output channel of a block is computed into `scratch`
 * (c_out * block floats) from the block's input pixels, which no later block
 * reads, and then copied to its place. With y == x, output channel co of the
 * block lands on input channel co of the same block (dead), or past the end
 * of the input when co >= c_in. Needs n == 1 or c_out <= c_in.
 *
 * Accumulation order: the same as oc_conv2d_f32 (bias, then w * x for
 * ic = 0..c_in-1), so the results are bit-identical.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

OC_API void oc_conv1x1_overlap_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                   const float *bias, float *y, float *scratch, int32_t block) {
  const int32_t vol = p->d_in * p->h_in * p->w_in;
  int32_t n, p0, co, ic, i;
  for (n = 0; n < p->n; n++) {
    const float *xn = x + n * p->c_in * vol;
    float *yn = y + n * p->c_out * vol;
    for (p0 = 0; p0 < vol; p0 += block) {
      const int32_t len = vol - p0 < block ? vol - p0 : block;
      for (co = 0; co < p->c_out; co++) {
        const float b = bias != NULL ? bias[co] : 0.0f;
        float *s = scratch + co * block;
        for (i = 0; i < len; i++) s[i] = b;
      }
      for (ic = 0; ic < p->c_in; ic++) {
        const float *xb = xn + ic * vol + p0;
        for (co = 0; co < p->c_out; co++) {
          const float wv = w[co * p->c_in + ic];
          float *s = scratch + co * block;
          for (i = 0; i < len; i++) s[i] += wv * xb[i];
        }
      }
      for (co = 0; co < p->c_out; co++) {
        float *s = scratch + co * block;
        if (p->act.kind != OC_ACT_NONE) {
          for (i = 0; i < len; i++) s[i] = oc_apply_act(&p->act, s[i]);
        }
        memcpy(yn + co * vol + p0, s, (size_t)len * sizeof(float));
      }
    }
  }
}
