/*
 * A depthwise 2-D convolution (c_in = c_out = group, no depth) under a
 * planes overlap contract: y may start below x, each output plane is
 * computed into scratch (one plane of floats) once its input plane is read,
 * then copied to its place over input planes no later plane reads. The
 * emitted loop used to call oc_conv2d_f32 once per plane; a patch's planes
 * are a few rows, and that call's setup cost more than its taps. The plane
 * is conv2d_dw_plane_ (oc_dw_plane.h), as in oc_conv2d_f32: the same bits.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_dw_plane.h"

OC_API void oc_conv2d_dw_planes_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                    const float *bias, float *y, float *scratch) {
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t kk = p->k_h * p->k_w;
  conv2d_geom_ g;
  int32_t k;
  conv2d_geom_init_(p, &g);
  for (k = 0; k < p->n * p->group; k++) {
    const int32_t c = k % p->group;
    conv2d_dw_plane_(p, &g, x + k * in_plane, w + c * kk, bias != NULL ? bias + c : NULL, scratch);
    memcpy(y + k * out_plane, scratch, (size_t)out_plane * sizeof(float));
  }
}
