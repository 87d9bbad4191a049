/* Quantized depthwise 3x3 convolution, dilation 1 (oc_qconv_params with
 * k_d, d_in and d_out 1, one channel per group): the sums of oc_qconv
 * (qconv.c) in another order, so the same bits mod 2^32.
 *
 * The weights are w' = w - zw. A plane is computed in lines of outputs (its
 * rows, or its columns when they are longer and the vertical stride is 1),
 * each over three input lines. A line in the padding takes weights 0 and the
 * sum starts from bias - zx sum(w' of the lines inside); along the line a
 * value in the padding reads as zx: the same sum as (x - zx) w' over the
 * taps inside. At stride 1 along the line the sums slide: input position j
 * (its three values loaded once) adds its last tap to output j + pad - 2,
 * which is then complete, its middle tap to output j + pad - 1 and its first
 * to output j + pad. On SMLAD cores two lines' values go in one register
 * against packed pairs of weights. Sums are requantized in runs
 * (oc_requant8_run). */
#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qdw3x3_fast.h"

/* Outputs per run of sums requantized together (32 bytes of stack). */
#define OC_QDW_RUN 8

/* Values a, b, c of input position J on the three lines. */
#define OC_QDW_LOAD_(J)                                                                          \
  if ((uint32_t)(J) < (uint32_t)len) {                                                           \
    const ptrdiff_t o = (ptrdiff_t)(J)*step;                                                     \
    a = l0[o], b = l1[o], c = l2[o];                                                             \
  } else {                                                                                       \
    a = zx, b = zx, c = zx;                                                                      \
  }
#ifndef OC_QDW_SLIDE_
#define OC_QDW_SLIDE_                                                                            \
  {                                                                                              \
    s2 = s1 + (uint32_t)(a * q2 + b * q5 + c * q8);                                              \
    s1 = s0 + (uint32_t)(a * q1 + b * q4 + c * q7);                                              \
    s0 = base + (uint32_t)(a * q0 + b * q3 + c * q6);                                            \
  }
#endif

/* One plane: its input and output, the nine weights less zw (row-major), the
 * bias and the channel's requantization parameters. */
typedef struct {
  const oc_qconv_params *q;
  const oc_requant8 *rc;
  const void *x; /* the plane's first input value */
  const int32_t *k;
  void *y;
  ptrdiff_t yo; /* the plane's first output in y */
  uint32_t bias;
} oc_qdw_plane;

/* Output line o of a plane: its row (rows != 0, stride 1 along it) or its
 * column (stride 1 down it), over three input lines, a line in the padding
 * read as any line of the plane with weights 0. Along the line the sums
 * slide over positions j (len values step apart, pad before the first). */
#define OC_QDW_LINE_DEFINE(NAME, XT, ADJACENT)                                                   \
  static OC_NOINLINE void NAME(const oc_qdw_plane *pp, int32_t rows_arg, int32_t o) {            \
    const int32_t rows = (ADJACENT) ? 0 : rows_arg;                                              \
    const oc_conv2d_params *p = &pp->q->conv;                                                    \
    const XT *xg = (const XT *)pp->x;                                                            \
    const int32_t zx = pp->q->x_zp, w_in = p->w_in;                                              \
    const int32_t first = rows ? o * p->stride_h - p->pad_top : o * p->stride_w - p->pad_left;   \
    const int32_t lines = rows ? p->h_in : w_in, len = rows ? w_in : p->h_in;                    \
    const int32_t pad = rows ? p->pad_left : p->pad_top, n = rows ? p->w_out : p->h_out;         \
    const ptrdiff_t step = rows ? 1 : w_in, ostep = rows ? 1 : p->w_out;                         \
    const ptrdiff_t at = pp->yo + (rows ? (ptrdiff_t)o * p->w_out : o);                          \
    const ptrdiff_t lstep = rows ? w_in : 1;                                                     \
    const int32_t in0 = (ADJACENT) || (uint32_t)first < (uint32_t)lines;                         \
    const int32_t in1 = (ADJACENT) || (uint32_t)(first + 1) < (uint32_t)lines;                   \
    const int32_t in2 = (ADJACENT) || (uint32_t)(first + 2) < (uint32_t)lines;                   \
    const XT *l0 = in0 ? xg + first * lstep : xg, *l1 = in1 ? xg + (first + 1) * lstep : xg;      \
    const XT *l2 = in2 ? xg + (first + 2) * lstep : xg;                                          \
    /* tap (line i, position m) is k[3 i + m] along rows, k[3 m + i] down columns */            \
    const int32_t *k = pp->k, ti = rows ? 3 : 1, tm = rows ? 1 : 3;                              \
    const int32_t q0 = in0 ? k[0] : 0, q1 = in0 ? k[tm] : 0, q2 = in0 ? k[2 * tm] : 0;           \
    const int32_t q3 = in1 ? k[ti] : 0, q4 = in1 ? k[ti + tm] : 0, q5 = in1 ? k[ti + 2 * tm] : 0; \
    const int32_t q6 = in2 ? k[2 * ti] : 0, q7 = in2 ? k[2 * ti + tm] : 0;                       \
    const int32_t q8 = in2 ? k[2 * ti + 2 * tm] : 0;                                             \
    const uint32_t base = pp->bias - (uint32_t)zx * (uint32_t)(q0 + q1 + q2 + q3 + q4 + q5 + q6 + q7 + q8); \
    int32_t acc[OC_QDW_RUN];                                                                     \
    uint32_t s0 = 0, s1 = 0, s2;                                                                 \
    int32_t a, b, c, j, done, t, run, inside;                                                    \
    ptrdiff_t r;                                                                                 \
    OC_QDW_PAIRS_                                                                                \
    for (j = -pad; j < 2 - pad; j++) { /* the first two positions complete no output */          \
      OC_QDW_LOAD_(j)                                                                            \
      OC_QDW_SLIDE_                                                                              \
    }                                                                                            \
    for (done = 0; done < n; done += run) {                                                      \
      /* positions j .. j + run - 1, the first `inside` of them in the line */                   \
      const int32_t last = len - j < 0 ? 0 : len - j;                                            \
      run = n - done < OC_QDW_RUN ? n - done : OC_QDW_RUN;                                       \
      inside = j >= 0 ? (run < last ? run : last) : 0;                                           \
      for (t = 0, r = (ptrdiff_t)j * step; t < inside; t++, r += step) {                         \
        a = l0[r], b = (ADJACENT) ? l0[r + 1] : l1[r], c = (ADJACENT) ? l0[r + 2] : l2[r];         \
        OC_QDW_SLIDE_                                                                            \
        acc[t] = (int32_t)s2;                                                                    \
      }                                                                                          \
      for (j += inside; t < run; t++, j++) { /* in the padding after the line */                 \
        OC_QDW_LOAD_(j)                                                                          \
        OC_QDW_SLIDE_                                                                            \
        acc[t] = (int32_t)s2;                                                                    \
      }                                                                                          \
      oc_requant8_run(pp->rc, acc, run, pp->y, at + done * ostep, ostep);                        \
    }                                                                                            \
  }
#ifndef OC_QDW_PAIRS_
#define OC_QDW_PAIRS_
#endif
OC_QDW_LINE_DEFINE(oc_qdw3x3_line_s8, int8_t, 0)
OC_QDW_LINE_DEFINE(oc_qdw3x3_line_u8, uint8_t, 0)
/* Columns whose three input columns are all inside: the lines are one byte
 * apart, so one pointer with constant offsets reads all three. */
OC_QDW_LINE_DEFINE(oc_qdw3x3_column_s8, int8_t, 1)
OC_QDW_LINE_DEFINE(oc_qdw3x3_column_u8, uint8_t, 1)

/* A plane with strides above 1 both ways, window by window. */
#define OC_QDW_WINDOWS_DEFINE(NAME, XT)                                                          \
  static OC_NOINLINE void NAME(const oc_qdw_plane *pp) {                                         \
    const oc_conv2d_params *p = &pp->q->conv;                                                    \
    const XT *xg = (const XT *)pp->x;                                                            \
    const int32_t zx = pp->q->x_zp, h_in = p->h_in, w_in = p->w_in;                              \
    int32_t oy, ox, ky, kx, one;                                                                 \
    for (oy = 0; oy < p->h_out; oy++) {                                                          \
      for (ox = 0; ox < p->w_out; ox++) {                                                        \
        uint32_t s = pp->bias;                                                                   \
        for (ky = 0; ky < 3; ky++) {                                                             \
          const int32_t iy = oy * p->stride_h - p->pad_top + ky;                                 \
          if ((uint32_t)iy >= (uint32_t)h_in) continue;                                          \
          for (kx = 0; kx < 3; kx++) {                                                           \
            const int32_t ix = ox * p->stride_w - p->pad_left + kx;                              \
            if ((uint32_t)ix < (uint32_t)w_in) {                                                 \
              s += (uint32_t)(((int32_t)xg[(ptrdiff_t)iy * w_in + ix] - zx) * pp->k[3 * ky + kx]); \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
        one = (int32_t)s;                                                                        \
        oc_requant8_run(pp->rc, &one, 1, pp->y, pp->yo + (ptrdiff_t)oy * p->w_out + ox, 1);      \
      }                                                                                          \
    }                                                                                            \
  }
OC_QDW_WINDOWS_DEFINE(oc_qdw3x3_windows_s8, int8_t)
OC_QDW_WINDOWS_DEFINE(oc_qdw3x3_windows_u8, uint8_t)
#undef OC_QDW_LOAD_
#undef OC_QDW_PAIR_
#undef OC_QDW_PAIRS_
#undef OC_QDW_SLIDE_
#undef OC_QDW_LINE_DEFINE
#undef OC_QDW_WINDOWS_DEFINE

/* Lines along rows when the row stride is 1 and the rows are at least as
 * long as the columns, along columns when the column stride is 1,
 * otherwise window by window. */
OC_API void oc_qconv_dw3x3(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                           const void *w_zp, const int32_t *bias, void *y) {
  const oc_conv2d_params *p = &q->conv;
  const ptrdiff_t plane = (ptrdiff_t)p->h_in * p->w_in, out_plane = (ptrdiff_t)p->h_out * p->w_out;
  const int32_t rows = p->stride_w == 1 && (p->stride_h != 1 || p->w_out >= p->h_out);
  const int32_t lines = rows ? p->h_out : p->w_out;
  int32_t n, g, t, o;
  for (n = 0; n < p->n; n++) {
    for (g = 0; g < p->group; g++) {
      const int32_t zw = w_zp == NULL ? 0 : oc_q8_get(w_zp, q->w_signed, q->w_zp_per_channel ? g : 0);
      const int32_t i = r->per_channel ? g : 0;
      oc_requant8 rc = *r; /* the channel's parameters, first */
      int32_t k[9];
      oc_qdw_plane pp;
      if (q->w_signed) {
        const int8_t *wg = (const int8_t *)w + (ptrdiff_t)g * 9;
        for (t = 0; t < 9; t++) k[t] = wg[t] - zw;
      } else {
        const uint8_t *wg = (const uint8_t *)w + (ptrdiff_t)g * 9;
        for (t = 0; t < 9; t++) k[t] = wg[t] - zw;
      }
      if (r->mult != NULL) rc.mult = r->mult + i;
      if (r->q_mult != NULL) rc.q_mult = r->q_mult + i, rc.q_shift = r->q_shift + i;
      pp.q = q, pp.rc = &rc, pp.k = k, pp.y = y, pp.yo = ((ptrdiff_t)n * p->c_out + g) * out_plane;
      pp.bias = bias != NULL ? (uint32_t)bias[g] : 0u;
      if (q->x_signed) {
        pp.x = (const int8_t *)x + ((ptrdiff_t)n * p->c_in + g) * plane;
      } else {
        pp.x = (const uint8_t *)x + ((ptrdiff_t)n * p->c_in + g) * plane;
      }
#ifdef OC_QDW_PLANE_
      if (OC_QDW_PLANE_(q, &rc, pp.x, k, pp.bias, y, pp.yo)) continue; /* an optimized folder's plane */
#endif
      if (p->stride_w != 1 && p->stride_h != 1) {
        if (q->x_signed) {
          oc_qdw3x3_windows_s8(&pp);
        } else {
          oc_qdw3x3_windows_u8(&pp);
        }
        continue;
      }
      for (o = 0; o < lines; o++) {
        const int32_t first = o * p->stride_w - p->pad_left;
        const int32_t adjacent = !rows && first >= 0 && first + 2 < p->w_in;
        if (q->x_signed) {
          if (adjacent) {
            oc_qdw3x3_column_s8(&pp, 0, o);
          } else {
            oc_qdw3x3_line_s8(&pp, rows, o);
          }
        } else {
          if (adjacent) {
            oc_qdw3x3_column_u8(&pp, 0, o);
          } else {
            oc_qdw3x3_line_u8(&pp, rows, o);
          }
        }
      }
    }
  }
}
