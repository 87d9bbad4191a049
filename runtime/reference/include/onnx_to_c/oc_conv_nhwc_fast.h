/*
 * onnx-to-c runtime: the places where an optimized folder gives the
 * channels-last convolution (conv2d_nhwc.c) tiles of its own for some blocks
 * of channels, as code the kernel expands; none here. runtime/arm: 3-wide
 * and 1x1 kernels in assembler.
 */
#ifndef ONNX_TO_C_OC_CONV_NHWC_FAST_H_
#define ONNX_TO_C_OC_CONV_NHWC_FAST_H_

/* An optimized folder defines here, for conv2d_nhwc.c (which has none of
 * its own):
 *   OC_NHWC_GEOM_FAST                      fields of nhwc_geom_
 *   OC_NHWC_TILE_FNS_FAST, OC_NHWC_ROW_FNS_FAST
 *                                          functions before nhwc_pixels_ and after it
 *   OC_NHWC_PIXELS_FAST(p, g, tile, x, ix, w, bias, y, ox)
 *                                          in nhwc_pixels_'s loop: the tile at output
 *                                          column ox, then "ox += its pixels; continue"
 *   OC_NHWC_DECL_FAST(p, cig, cog), OC_NHWC_INIT_FAST(p, g)
 *                                          declarations of oc_conv2d_nhwc_f32, and its
 *                                          geometry's fields
 *   OC_NHWC_PW_ROW_FAST(p, g, x, w, bias, count, y, done)
 *                                          a group's first channels of one output row,
 *                                          done = how many */

#endif /* ONNX_TO_C_OC_CONV_NHWC_FAST_H_ */
