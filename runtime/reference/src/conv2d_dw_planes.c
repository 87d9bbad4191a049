/*
 * A depthwise 2-D convolution (c_in = c_out = group, no depth) under a
 * planes overlap contract: y may start below x, each output plane is
 * computed into scratch (one plane of floats) once its input plane is read,
 * then copied to its place over input planes no later plane reads. The
 * emitted loop used to call oc_conv2d_f32 once per plane; a patch's planes
 * are a few rows, and that call's setup cost more than its taps. The plane
 * is conv2d_dw_plane_ (oc_dw_plane.h), as in oc_conv2d_f32: the same bits.
 * A plane whose place lies wholly over dead input planes (below plane k of
 * x once the output has fallen behind: a stride-2 or a patch's halo plane
 * is smaller than its input) is computed straight there, without scratch.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_dw_plane.h"

OC_API void oc_conv2d_dw_planes_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                    const float *bias, float *y, float *scratch) {
  const int32_t in_plane = p->h_in * p->w_in, out_plane = p->h_out * p->w_out;
  const int32_t kk = p->k_h * p->k_w;
  const int32_t planes = p->n * p->group;
  /* x - y in floats when y starts at or below x (the contract), else -1 */
  const uintptr_t xa = (uintptr_t)x, ya = (uintptr_t)y;
  const int64_t below = ya <= xa ? (int64_t)((xa - ya) / sizeof(float)) : -1;
  conv2d_geom_ g;
  int32_t k, c = 0;
  conv2d_geom_init_(p, &g);
  for (k = 0; k < planes; k++, c = c + 1 == p->group ? 0 : c + 1) {
    /* plane k's place ends at or before input plane k, where live input begins */
    const int direct = below >= 0 && (int64_t)(k + 1) * out_plane <= below + (int64_t)k * in_plane;
    float *dst = direct ? y + k * out_plane : scratch;
    conv2d_dw_plane_(p, &g, x + k * in_plane, w + c * kk, bias != NULL ? bias + c : NULL, dst);
    if (!direct) memcpy(y + k * out_plane, scratch, (size_t)out_plane * sizeof(float));
  }
}
