/*
 * 1x1 convolution with stride 1 and no padding whose output may overlap its
 * input (an overlap contract): y may equal x. Pixels are processed in blocks
 * of `block`: every output channel of a block is computed into `scratch`
 * (c_out * block floats) from the block's input pixels, which no later block
 * reads, and then copied to its place. With y == x, output channel co of the
 * block lands on input channel co of the same block (dead), or past the end
 * of the input when co >= c_in. Needs n == 1 or c_out <= c_in. The sums are
 * those of oc_conv2d_f32 (same tiles), so the results are bit-identical.
 */
#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"
#include "onnx_to_c/oc_conv_tiles.h"
/* A block's rows shorter than this are copied a float at a time: a patch's
 * last block can be a pixel or a few, and a memcpy call per channel of it
 * cost more than its MACs. */
#define OC_CONV1X1_SHORT_ROW 8

static void conv1x1_copy_short_(const float *scratch, int32_t block, float *y, int32_t vol,
                                int32_t rows, int32_t len) {
  int32_t co, i;
  for (co = 0; co < rows; co++, y += vol, scratch += block) {
    for (i = 0; i < len; i++) memcpy(y + i, scratch + i, sizeof(float));
  }
}

OC_API void oc_conv1x1_overlap_f32(const oc_conv2d_params *p, const float *x, const float *w,
                                   const float *bias, float *y, float *scratch, int32_t block) {
  const int32_t vol = p->d_in * p->h_in * p->w_in;
  conv2d_geom_ g;
  int32_t n, p0, co;
  conv2d_geom_init_(p, &g);
  g.in_plane = vol;
  g.y_co = block;
  for (n = 0; n < p->n; n++) {
    const float *xn = x + n * p->c_in * vol;
    float *yn = y + n * p->c_out * vol;
    for (p0 = 0; p0 < vol; p0 += block) {
      const int32_t len = vol - p0 < block ? vol - p0 : block;
      for (co = 0; co < p->c_out; co += 4) {
        conv2d_pointwise_(&g, xn + p0, w + co * p->c_in, bias != NULL ? bias + co : NULL,
                          p->c_out - co < 4 ? p->c_out - co : 4, len, scratch + co * block);
      }
      OC_CONV_COPY_ROWS_FAST(scratch, yn + p0, vol, p->c_out, len, block)
      if (len < OC_CONV1X1_SHORT_ROW) {
        conv1x1_copy_short_(scratch, block, yn + p0, vol, p->c_out, len);
        continue;
      }
      for (co = 0; co < p->c_out; co++) {
        memcpy(yn + co * vol + p0, scratch + co * block, (size_t)len * sizeof(float));
      }
    }
  }
}

