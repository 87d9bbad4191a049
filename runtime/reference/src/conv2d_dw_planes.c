/*
 * A depthwise 2-D convolution (c_in = c_out = group, no depth) under a
 * planes overlap contract: y may start below x, each output plane is
 * computed into scratch (one plane of floats) once its input plane is read,
 * then copied to its place over input planes no later plane reads. The
 * emitted loop used to call oc_conv2d_f32 once per plane; a patch's planes
 * are a few rows, and that call's setup cost more than its taps. The planes
 * are conv2d_dw_planes_ (oc_dw_plane.h), as in oc_conv2d_f32: the same bits,
 * the kernel dispatched and the rows' span set up once per call.
 * A plane whose place lies wholly over dead input planes (below plane k of
 * x once the output has fallen behind: a stride-2 or a patch's halo plane
 * is smaller than its input) is computed straight there, without scratch.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_dw_plane.h"

OC_API void oc_conv2d_dw_planes_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                    const float *bias, float *y, float *scratch) {
  /* x - y in floats when y starts at or below x (the contract), else -1 */
  const uintptr_t xa = (uintptr_t)x, ya = (uintptr_t)y;
  conv2d_dw_run_ run;
  conv2d_geom_ g;
  run.planes = p->n * p->group;
  run.in_plane = p->h_in * p->w_in;
  run.out_plane = p->h_out * p->w_out;
  run.scratch = scratch;
  run.below = ya <= xa ? (int64_t)((xa - ya) / sizeof(float)) : -1;
  conv2d_geom_init_(p, &g);
  conv2d_dw_planes_(p, &g, &run, x, w, bias, y);
}
