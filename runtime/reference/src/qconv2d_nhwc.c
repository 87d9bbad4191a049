/*
 * ONNX QLinearConv, 2-D, with channels-last activations: x and y each NHWC
 * or NCHW, weights OHWI (per output channel co, [kh][kw][ic within the
 * group]: TFLite's order), so with NHWC x the input channels of a tap are
 * contiguous in both x and w.
 *
 * The sums are those of oc_qconv2d (qconv2d.c), bit for bit: each output
 * starts from bias[co] (or 0) and adds (x - x_zp)(w - w_zp) over the taps
 * inside the input, as int32 wrapping around (uint32 arithmetic, so the
 * order of the sums does not change the bits); then oc_requant8_apply of
 * channel co, stored as the output's type. The same parameters
 * (oc_qconv_params: any group, depthwise included; w_zp NULL, one, or one
 * per output channel; bias NULL or one per channel), instantiated per pair
 * of x and w types.
 *
 * Streaming order: output rows are computed one at a time in increasing
 * (n, oy) order, or decreasing with q->conv.reverse_rows. While computing
 * row (n, oy) the kernel reads only input rows of batch item n under the
 * row's window (iy = oy * stride_h - pad_top + kh * dil_h within
 * [0, h_in)) and writes only that row's outputs (every ox and channel),
 * each once, when its sum is complete. Its only state is local
 * accumulators (no scratch, nothing static). So y may overlap x where each
 * output row lies over input rows that neither that row nor a later one (in
 * the kernel's order) reads: y below x in increasing order, above it in
 * decreasing order.
 *
 * Blocks: per row, up to four output channels of one group per pass over a
 * pixel's window, each input byte loaded (less x_zp) once for the four; a
 * short last block repeats its last channel (one channel alone takes a
 * one-channel loop). The innermost loop runs over the input channels of a
 * tap, contiguous in x (NHWC) and w; with NHWC x, one group and dilation 1
 * along the width, a whole kernel row is one run of (taps inside) * c_in
 * bytes. The padding clips the window once per row (kernel rows) and, near
 * the borders only, per pixel (kernel columns), as oc_qconv_taps finds them:
 * no test per tap. Weights' zero points: where the four are 0 the products
 * are of the raw weights; else sum (x - x_zp) w - zw sum (x - x_zp), the
 * same sum mod 2^32. Depthwise convolutions (one input and one output
 * channel per group) take blocks of four groups instead, whose channels are
 * adjacent in NHWC; there, with four channels and zero points 0, a window
 * wholly inside the input sums the raw values, sum x w - x_zp sum w with
 * sum w found once per row. One row of a block is a function of its own
 * (the registers for its loops), its parameters in locals: a byte store may
 * alias anything, so the compiler would reload them after every output. The
 * sums are requantized by another function, once per pixel and block.
 *
 * Dense rows: those runs with four channels to every block (NHWC x, one
 * group, dilation 1 along the width, c_out >= 4; a short last block takes
 * the last four channels and stores its own), the four weights' zero points
 * 0. The products are of raw values and the sums start from
 * bias - x_zp sum w (sum w over the window's taps inside: found once per
 * row and block for the whole window, once per row, block and clipping for
 * the windows at the borders); on M4/M7, where x_zp is the middle of x's
 * range (-128 for int8, 128 for uint8), x ^ 0x80 read as the other type is
 * x - x_zp, and no sum is needed. The windows wholly inside the input are
 * one span of pixels (a function of its own, the requantization's
 * multipliers in locals there), each window at the borders a span of one.
 *
 * On cores with the DSP extension (runtime/arm: oc_qnhwc_fast.h) a contiguous
 * run takes four values per step: one word of input bytes as two pairs of
 * 16-bit lanes (SXTB16/UXTB16; less x_zp by SSUB16 in the other rows), a
 * word of each channel's weights the same way, two SMLAD per channel. A
 * dense window is one piece of assembler, its kernel rows' runs in steps of
 * four and their tails byte by byte (MLA): 23 instructions per 16
 * multiply-accumulates; where the windows are long, two adjacent pixels
 * share each unpacked weight word (oc_qnhwc_pair.h: 20 per 16). Given
 * scratch (oc_qconv2d_nhwc_col), a kernel larger than 1x1 with one group
 * may instead run as column products there (oc_qnhwc_col.h).
 * SMLAD's sums wrap like the uint32 ones and the products are exact, so the
 * same bits.
 */
#include "onnx_to_c/oc_qconv_loops.h"
#include "onnx_to_c/oc_qnhwc_fast.h"

#ifndef QNHWC_INSTANCES_
#define QNHWC_INSTANCES_                                                                \
OC_QCONV2D_NHWC_ROWS(qnhwc_s8s8, int8_t, int8_t, , , , , , , , , , , qnhwc_wsum_s8_)    \
OC_QCONV2D_NHWC_ROWS(qnhwc_u8s8, uint8_t, int8_t, , , , , , , , , , , qnhwc_wsum_s8_)   \
OC_QCONV2D_NHWC_ROWS(qnhwc_s8u8, int8_t, uint8_t, , , , , , , , , , , qnhwc_wsum_u8_)   \
OC_QCONV2D_NHWC_ROWS(qnhwc_u8u8, uint8_t, uint8_t, , , , , , , , , , , qnhwc_wsum_u8_)
#endif

/* One output row of a block of four channels, co .. co + 3 (a short block,
 * m < 4, repeats its last channel), as the row functions take it. */
typedef struct {
  const void *x;         /* x at item n, first kernel row inside, column 0, the block's
                            first input channel; NULL when no kernel row is inside */
  const void *w;         /* w at channel co, kernel row h0 */
  void *y;
  const oc_requant8 *r;
  ptrdiff_t yo, y_x, y_c; /* y: (n, oy, column 0, channel co); column and channel steps */
  ptrdiff_t x_kh, x_kw;   /* x: kernel row (dil_h rows), kernel column (dil_w columns) */
  ptrdiff_t x_x, x_c;     /* x: column, channel */
  ptrdiff_t w_kh;         /* w: kernel row */
  ptrdiff_t wo[4];        /* the four channels' weights from w */
  ptrdiff_t xo[4];        /* depthwise: the four channels' inputs from x */
  int32_t z[4], zero;     /* the weights' zero points; whether all four are 0 */
  uint32_t b[4];          /* biases */
  int32_t nkh, kw_n, dw, sw, pl, w_in, w_out, zx, cig, merge, co, m;
  int32_t skip;           /* dense rows: the block's first channels not stored (m = 4 - skip) */
  int32_t xmid;           /* the middle of x's range: -128 (int8) or 128 (uint8) */
} qnhwc_row_;

/* Sums s[0 .. m) of channels co .. co + m - 1 requantized into bytes at,
 * at + step, ... of y (an int8 and a uint8 value in range have the same
 * byte as their uint8 conversion), the values found before any store. */
static OC_NOINLINE void qnhwc_store_(const oc_requant8 *r, int32_t co, int32_t m, const uint32_t *s,
                                     void *y, ptrdiff_t at, ptrdiff_t step) {
  uint8_t *out = (uint8_t *)y + at;
  int32_t v[4], c;
  for (c = 0; c < m; c++) v[c] = oc_requant8_apply(r, co + c, (int32_t)s[c]);
  for (c = 0; c < m; c++) out[c * step] = (uint8_t)v[c];
}

/* The products of values xr[i * XS] (less zx) and pa[i] .. pd[i] for i in
 * [i, run), added to s0 .. s3 (and the values to xs with ZP). */
#define QNHWC_RUN4_(XS, ZP)                                                                      \
  for (; i < run; i++) {                                                                         \
    const int32_t xv = (int32_t)xr[(ptrdiff_t)i * (XS)] - zx;                                    \
    s0 += (uint32_t)(xv * (int32_t)pa[i]);                                                       \
    s1 += (uint32_t)(xv * (int32_t)pb[i]);                                                       \
    s2 += (uint32_t)(xv * (int32_t)pc[i]);                                                       \
    s3 += (uint32_t)(xv * (int32_t)pd[i]);                                                       \
    if (ZP) xs += (uint32_t)xv;                                                                  \
  }

#ifndef QNHWC_DSP4_
#define QNHWC_DSP4_(ZP, XL, XH, WL, WH)
#define QNHWC_ZX2_
#endif

/* Depthwise rows: the weights of a block's windows re-laid once per row
 * (QNHWC_DW_PACK_, into QNHWC_DW_LOCALS_), then, where QNHWC_DW_PACKED_,
 * the row's weight sums taken from them (QNHWC_DW_SUMS_), a window of the
 * full kernel width summed by QNHWC_DW_TAPS_ and a window clipped at the
 * left or right border by QNHWC_DW_CLIPPED_; none here. */
#ifndef QNHWC_DW_TAPS_
#define QNHWC_DW_LOCALS_
#define QNHWC_DW_PACK_
#define QNHWC_DW_PACKED_ 0
#define QNHWC_DW_TAPS_(XT, XL, XH) {}
#define QNHWC_DW_SUMS_(T0, T1, T2, T3) {}
#define QNHWC_DW_CLIPPED_(XT, XL, XH) {}
#endif
/* A span of windows wholly inside from column ox, after which ox is the
 * next column (QNHWC_DW_SPAN_); none here. */
#ifndef QNHWC_DW_SPAN_
#define QNHWC_DW_SPAN_(XT)
#endif

/* The row's parameters in locals (a byte store may alias anything). */
#define QNHWC_ROW_LOCALS_(XT, WT)                                                                \
  const XT *const x = (const XT *)a->x;                                                          \
  const WT *const wa = (const WT *)a->w + a->wo[0], *const wb = (const WT *)a->w + a->wo[1];     \
  const WT *const wc = (const WT *)a->w + a->wo[2], *const wd = (const WT *)a->w + a->wo[3];     \
  void *const y = a->y;                                                                          \
  const oc_requant8 *const r = a->r;                                                             \
  const ptrdiff_t yo = a->yo, y_x = a->y_x, y_c = a->y_c, x_kh = a->x_kh, x_kw = a->x_kw;        \
  const ptrdiff_t x_x = a->x_x, w_kh = a->w_kh;                                                  \
  const int32_t z0 = a->z[0], z1 = a->z[1], z2 = a->z[2], z3 = a->z[3], zero = a->zero;          \
  const uint32_t b0 = a->b[0], b1 = a->b[1], b2 = a->b[2], b3 = a->b[3];                         \
  const int32_t nkh = a->nkh, kw_n = a->kw_n, dw = a->dw, sw = a->sw, pl = a->pl;                \
  const int32_t w_in = a->w_in, w_out = a->w_out, zx = a->zx, co = a->co, m = a->m;              \
  int32_t ox, w0, w1, kh, kw, i;                                                                 \
  uint32_t s[4];

/* The kernel columns [w0, w1) of output column ox inside the input. */
#define QNHWC_COLUMNS_                                                                           \
  const int32_t ix = ox * sw - pl;                                                               \
  if (ix >= 0 && ix + (kw_n - 1) * dw < w_in) {                                                  \
    w0 = 0, w1 = kw_n;                                                                           \
  } else {                                                                                       \
    oc_qconv_taps(ix, dw, kw_n, w_in, &w0, &w1);                                                 \
  }

/* Dense rows (NHWC x, one group, dilation 1 along the width, the block's
 * weights' zero points 0): the sums of the weights of a block's four
 * channels, w .. w + 3 wch, over nr kernel rows (w_kh apart) of len values
 * from w, added to t[0 .. 4). The products of a window are then of raw
 * values, sum x w, and its sums start from bias - x_zp sum w. On M4/M7
 * USADA8 adds four bytes per instruction: a signed byte v is
 * (uint8)(v ^ 0x80) - 128. */
#define QNHWC_WSUM_DEFINE(NAME, WT, SIGNED)                                                      \
  static OC_NOINLINE void NAME(const WT *w, ptrdiff_t wch, int32_t nr, ptrdiff_t w_kh,          \
                               int32_t len, uint32_t *t) {                                      \
    int32_t c, kh, i;                                                                            \
    for (c = 0; c < 4; c++) {                                                                    \
      const WT *const wc = w + (ptrdiff_t)c * wch;                                               \
      uint32_t u = 0u;                                                                           \
      for (kh = 0; kh < nr; kh++) {                                                              \
        const WT *const p = wc + (ptrdiff_t)kh * w_kh;                                           \
        i = 0;                                                                                   \
        QNHWC_USADA8_(SIGNED)                                                                    \
        for (; i < len; i++) u += (uint32_t)(int32_t)p[i];                                       \
      }                                                                                          \
      t[c] += u;                                                                                 \
    }                                                                                            \
  }
#ifndef QNHWC_USADA8_
#define QNHWC_USADA8_(SIGNED)
#endif
QNHWC_WSUM_DEFINE(qnhwc_wsum_s8_, int8_t, 1)
QNHWC_WSUM_DEFINE(qnhwc_wsum_u8_, uint8_t, 0)

/* The dense windows (see P##_dense): on M4/M7 in assembler, as GCC spills
 * the sums and pointers in these loops; not at -O0, where GCC finds no
 * registers for it. */
#ifndef QNHWC_WINDOW_
#define QNHWC_DENSE_ASM 0
#define QNHWC_WINDOW_(XT, WT, XS, XF, XLDB, XFIX, WS, WLDB)                                      \
  {                                                                                              \
    int32_t kh, i;                                                                               \
    for (kh = 0; kh < nkh; kh++) {                                                               \
      const XT *const xk = xr + (ptrdiff_t)kh * x_kh;                                            \
      const WT *const wk = (const WT *)pat.wr + (ptrdiff_t)kh * w_kh;                            \
      for (i = 0; i < pat.run; i++) {                                                            \
        const int32_t xv = (int32_t)xk[i];                                                       \
        s0 += (uint32_t)(xv * (int32_t)wk[i]);                                                   \
        s1 += (uint32_t)(xv * (int32_t)wk[wch + i]);                                             \
        s2 += (uint32_t)(xv * (int32_t)wk[2 * wch + i]);                                         \
        s3 += (uint32_t)(xv * (int32_t)wk[3 * wch + i]);                                         \
      }                                                                                          \
    }                                                                                            \
  }
#endif

/* The pixels of a span two at a time (on M4/M7: oc_qnhwc_pair.h); none here. */
#ifndef QNHWC_PAIRS_
#define QNHWC_PAIRS_(P, XT, WT)
#endif

/* A dense window's clipping (kernel columns [w0, w1), nkh kernel rows):
 * its weights wr, its runs (run bytes a row, run4 of them in steps of four,
 * odd where run4 % 8 is 4, tail the rest), the steps from a run's end to
 * the next row's start in x and w, and wend, wr + nkh w_kh. */
typedef struct {
  const void *wr, *wend;
  ptrdiff_t xstep, wstep;
  int32_t run, run4, odd, tail;
  const void *xe; /* the assembler's: the end of the steps or the tail in the row */
} qnhwc_pat_;

static void qnhwc_pattern_(qnhwc_pat_ *p, int32_t w0, int32_t w1, int32_t cig, int32_t nkh,
                           ptrdiff_t x_kh, ptrdiff_t w_kh, const void *w) {
  p->run = (w1 - w0) * cig;
  p->run4 = p->run & ~3;
  p->odd = p->run4 & 4;
  p->tail = p->run & 3;
  p->xstep = x_kh - p->run;
  p->wstep = w_kh - p->run;
  p->wr = (const uint8_t *)w + (ptrdiff_t)w0 * cig;
  p->wend = (const uint8_t *)p->wr + (ptrdiff_t)nkh * w_kh;
}

/* A span of dense windows: n pixels, xs apart in x and y_x in y, of one
 * clipping (pat); sums from base; the stored channels co .. co + m - 1,
 * the block's last m. */
typedef struct {
  const void *x;  /* the first pixel's window: first kernel row inside, column w0, channel 0 */
  uint8_t *out;   /* its outputs: the first stored channel */
  const uint32_t *base;
  const oc_requant8 *r;
  qnhwc_pat_ pat;
  ptrdiff_t xs, y_x, y_c, wch, x_kh, w_kh;
  int32_t n, nkh, flip, co, m, skip;
} qnhwc_span_;

/* s0 .. s3 requantized into out, out + y_c, ... (the block's stored
 * channels: m of them from skip), the values found before any store: in
 * float mode four at a time with the multipliers in locals (rf), so that
 * the stores do not make them reloaded, else by qnhwc_store_. */
#define QNHWC_PUT_                                                                               \
  if (fast) {                                                                                    \
    const int32_t v0 = oc_requant8_apply(&rf, 0, (int32_t)s0);                                   \
    const int32_t v1 = oc_requant8_apply(&rf, 1, (int32_t)s1);                                   \
    const int32_t v2 = oc_requant8_apply(&rf, 2, (int32_t)s2);                                   \
    const int32_t v3 = oc_requant8_apply(&rf, 3, (int32_t)s3);                                   \
    out[0] = (uint8_t)v0, out[y_c] = (uint8_t)v1;                                                \
    out[2 * y_c] = (uint8_t)v2, out[3 * y_c] = (uint8_t)v3;                                      \
  } else {                                                                                       \
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                  \
    qnhwc_store_(sp->r, sp->co, m, s + sp->skip, out, 0, y_c);                                   \
  }

/* The row functions of one pair of types (P: their prefix). XL .. WH: the
 * DSP lane extractions of the types; XS, XF, WS, XLDB, XFIX, WLDB: the dense
 * windows' instructions (QNHWC_WINDOW_ASM_); all unused elsewhere. WSUM: the
 * sums of the weights. */
#define OC_QCONV2D_NHWC_ROWS(P, XT, WT, XL, XH, WL, WH, XS, XF, WS, XLDB, XFIX, WLDB, WSUM)   \
  /* A block of a group's channels: each pixel's window in runs of input channels. */          \
  static OC_NOINLINE void P##_row(const qnhwc_row_ *a) {                                         \
    QNHWC_ROW_LOCALS_(XT, WT)                                                                    \
    const ptrdiff_t x_c = a->x_c;                                                                \
    const int32_t cig = a->cig, merge = a->merge;                                                \
    QNHWC_ZX2_                                                                                   \
    for (ox = 0; ox < w_out; ox++) {                                                             \
      uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3, xs = 0u; /* int32 wrap-around */              \
      QNHWC_COLUMNS_                                                                             \
      if (nkh > 0 && w0 < w1) {                                                                  \
        const XT *const xw = x + (ptrdiff_t)(ix + w0 * dw) * x_x;                                \
        /* a kernel row: nkw runs of `run` channels (one run when contiguous) */                 \
        const int32_t nkw = merge ? 1 : w1 - w0, run = merge ? (w1 - w0) * cig : cig;            \
        for (kh = 0; kh < nkh; kh++) {                                                           \
          for (kw = 0; kw < nkw; kw++) {                                                         \
            const XT *const xr = xw + (ptrdiff_t)kh * x_kh + (ptrdiff_t)kw * x_kw;               \
            const ptrdiff_t wo = (ptrdiff_t)kh * w_kh + (ptrdiff_t)(w0 + kw) * cig;              \
            const WT *const pa = wa + wo, *const pb = wb + wo, *const pc = wc + wo;              \
            const WT *const pd = wd + wo;                                                        \
            i = 0;                                                                               \
            if (m == 1) {                                                                        \
              for (; i < run; i++) {                                                             \
                s0 += (uint32_t)(((int32_t)xr[(ptrdiff_t)i * x_c] - zx) * ((int32_t)pa[i] - z0)); \
              }                                                                                  \
            } else if (zero) {                                                                   \
              if (x_c == 1) {                                                                    \
                QNHWC_DSP4_(0, XL, XH, WL, WH)                                                   \
                QNHWC_RUN4_(1, 0)                                                                \
              } else {                                                                           \
                QNHWC_RUN4_(x_c, 0)                                                              \
              }                                                                                  \
            } else {                                                                             \
              if (x_c == 1) {                                                                    \
                QNHWC_DSP4_(1, XL, XH, WL, WH)                                                   \
                QNHWC_RUN4_(1, 1)                                                                \
              } else {                                                                           \
                QNHWC_RUN4_(x_c, 1)                                                              \
              }                                                                                  \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
        if (!zero && m > 1) {                                                                    \
          s0 -= (uint32_t)z0 * xs, s1 -= (uint32_t)z1 * xs;                                      \
          s2 -= (uint32_t)z2 * xs, s3 -= (uint32_t)z3 * xs;                                      \
        }                                                                                        \
      }                                                                                          \
      s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                                \
      qnhwc_store_(r, co, m, s, y, yo + (ptrdiff_t)ox * y_x, y_c);                               \
    }                                                                                            \
  }                                                                                              \
  /* Depthwise: four groups of one channel each. In NHWC with four channels and zero points   \
   * 0, a window wholly inside the input sums raw values: sum (x - zx) w = sum x w - zx sum w,  \
   * with sum w found once per row. Float requantization of four channels with the            \
   * multipliers in locals (the same values as oc_requant8_apply's through r). */              \
  static OC_NOINLINE void P##_dwrow(const qnhwc_row_ *a) {                                       \
    QNHWC_ROW_LOCALS_(XT, WT)                                                                    \
    const ptrdiff_t o1 = a->xo[1], o2 = a->xo[2], o3 = a->xo[3];                                 \
    const int32_t fast = zero && m == 4 && o1 == 1 && o2 == 2 && o3 == 3;                        \
    /* float requantization of four channels: the multipliers in locals */                      \
    const int32_t put4 = r->mult != NULL && m == 4, at = r->per_channel ? co : 0;                \
    const int32_t step = r->per_channel ? 1 : 0;                                                 \
    const float mult[4] = {put4 ? r->mult[at] : 0.0f, put4 ? r->mult[at + step] : 0.0f,          \
                           put4 ? r->mult[at + 2 * step] : 0.0f,                                 \
                           put4 ? r->mult[at + 3 * step] : 0.0f};                                \
    const oc_requant8 rf = {mult, NULL, NULL, 1, r->zp, r->lo, r->hi};                           \
    uint32_t f0 = b0, f1 = b1, f2 = b2, f3 = b3;                                                 \
    QNHWC_DW_LOCALS_                                                                             \
    if (fast) {                                                                                  \
      uint32_t t0 = 0u, t1 = 0u, t2 = 0u, t3 = 0u;                                               \
      QNHWC_DW_PACK_                                                                             \
      if (QNHWC_DW_PACKED_) {                                                                    \
        QNHWC_DW_SUMS_(t0, t1, t2, t3)                                                           \
      } else {                                                                                   \
        for (kh = 0; kh < nkh; kh++) {                                                           \
          for (kw = 0; kw < kw_n; kw++) {                                                        \
            const ptrdiff_t k = (ptrdiff_t)kh * w_kh + kw;                                       \
            t0 += (uint32_t)(int32_t)wa[k], t1 += (uint32_t)(int32_t)wb[k];                      \
            t2 += (uint32_t)(int32_t)wc[k], t3 += (uint32_t)(int32_t)wd[k];                      \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
      f0 -= (uint32_t)zx * t0, f1 -= (uint32_t)zx * t1;                                          \
      f2 -= (uint32_t)zx * t2, f3 -= (uint32_t)zx * t3;                                          \
    }                                                                                            \
    for (ox = 0; ox < w_out; ox++) {                                                             \
      uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3; /* int32 wrap-around */                       \
      QNHWC_DW_SPAN_(XT)                                                                         \
      QNHWC_COLUMNS_                                                                             \
      if (nkh > 0 && w0 < w1) {                                                                  \
        const XT *const xw = x + (ptrdiff_t)(ix + w0 * dw) * x_x;                                \
        if (fast && w0 == 0 && w1 == kw_n) {                                                     \
          s0 = f0, s1 = f1, s2 = f2, s3 = f3;                                                    \
          if (QNHWC_DW_PACKED_) QNHWC_DW_TAPS_(XT, XL, XH)                                       \
          else for (kh = 0; kh < nkh; kh++) {                                                    \
            const XT *const xk = xw + (ptrdiff_t)kh * x_kh;                                      \
            const ptrdiff_t wo = (ptrdiff_t)kh * w_kh;                                           \
            const WT *const pa = wa + wo, *const pb = wb + wo, *const pc = wc + wo;              \
            const WT *const pd = wd + wo;                                                        \
            for (i = 0; i < kw_n; i++) {                                                         \
              const XT *const xr = xk + (ptrdiff_t)i * x_kw;                                     \
              s0 += (uint32_t)((int32_t)xr[0] * (int32_t)pa[i]);                                 \
              s1 += (uint32_t)((int32_t)xr[1] * (int32_t)pb[i]);                                 \
              s2 += (uint32_t)((int32_t)xr[2] * (int32_t)pc[i]);                                 \
              s3 += (uint32_t)((int32_t)xr[3] * (int32_t)pd[i]);                                 \
            }                                                                                    \
          }                                                                                      \
        } else if (fast && QNHWC_DW_PACKED_) {                                                   \
          QNHWC_DW_CLIPPED_(XT, XL, XH)                                                          \
        } else {                                                                                 \
          for (kh = 0; kh < nkh; kh++) {                                                         \
            const XT *const xk = xw + (ptrdiff_t)kh * x_kh;                                      \
            const ptrdiff_t wo = (ptrdiff_t)kh * w_kh;                                           \
            for (kw = w0; kw < w1; kw++) {                                                       \
              const XT *const xr = xk + (ptrdiff_t)(kw - w0) * x_kw;                             \
              s0 += (uint32_t)(((int32_t)xr[0] - zx) * ((int32_t)wa[wo + kw] - z0));             \
              s1 += (uint32_t)(((int32_t)xr[o1] - zx) * ((int32_t)wb[wo + kw] - z1));            \
              s2 += (uint32_t)(((int32_t)xr[o2] - zx) * ((int32_t)wc[wo + kw] - z2));            \
              s3 += (uint32_t)(((int32_t)xr[o3] - zx) * ((int32_t)wd[wo + kw] - z3));            \
            }                                                                                    \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
      if (put4) {                                                                                \
        oc_requant8_put4(&rf, 0, s0, s1, s2, s3, y, yo + (ptrdiff_t)ox * y_x, y_c);              \
      } else {                                                                                   \
        s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;                                              \
        qnhwc_store_(r, co, m, s, y, yo + (ptrdiff_t)ox * y_x, y_c);                             \
      }                                                                                          \
    }                                                                                            \
  }                                                                                              \
  /* A span of dense windows (qnhwc_span_), in a function of its own for the registers. */   \
  static OC_NOINLINE void P##_span(const qnhwc_span_ *sp) {                                      \
    const XT *xr = (const XT *)sp->x;                                                            \
    uint8_t *out = sp->out;                                                                      \
    const ptrdiff_t xs = sp->xs, y_x = sp->y_x, y_c = sp->y_c, wch = sp->wch;                    \
    const ptrdiff_t x_kh = sp->x_kh, w_kh = sp->w_kh;                                            \
    const int32_t n = sp->n, nkh = sp->nkh, flip = sp->flip, m = sp->m;                          \
    const uint32_t b0 = sp->base[0], b1 = sp->base[1], b2 = sp->base[2], b3 = sp->base[3];       \
    const oc_requant8 *const r = sp->r;                                                          \
    const int32_t fast = r->mult != NULL && m == 4, at = r->per_channel ? sp->co : 0;            \
    const int32_t step = r->per_channel ? 1 : 0;                                                 \
    const float mult[4] = {fast ? r->mult[at] : 0.0f, fast ? r->mult[at + step] : 0.0f,          \
                           fast ? r->mult[at + 2 * step] : 0.0f,                                 \
                           fast ? r->mult[at + 3 * step] : 0.0f};                                \
    const oc_requant8 rf = {mult, NULL, NULL, 1, r->zp, r->lo, r->hi};                           \
    qnhwc_pat_ pat = sp->pat;                                                                    \
    uint32_t s[4];                                                                               \
    int32_t j;                                                                                   \
    (void)x_kh, (void)w_kh, (void)nkh, (void)flip;                                               \
    j = 0;                                                                                       \
    QNHWC_PAIRS_(P, XT, WT)                                                                      \
    for (; j < n; j++, xr += xs, out += y_x) {                                                   \
      uint32_t s0 = b0, s1 = b1, s2 = b2, s3 = b3; /* int32 wrap-around */                       \
      if (pat.run > 0) QNHWC_WINDOW_(XT, WT, XS, XF, XLDB, XFIX, WS, WLDB)                       \
      QNHWC_PUT_                                                                                 \
    }                                                                                            \
  }                                                                                              \
  /* Dense rows: four channels wch apart, their weights' zero points 0; x NHWC, one group,    \
   * dilation 1 along the width, so a window's kernel row is one run of (taps inside) * cig   \
   * bytes in x and in w. The products are of raw values (or x - x_zp, see XFLIP_), and the    \
   * sums start from bias - x_zp sum w, sum w found once per row for the whole window and once \
   * per row and clipping for the windows at the borders. The windows wholly inside the input \
   * are one span, the others one span each. */                                                \
  static OC_NOINLINE void P##_dense(const qnhwc_row_ *a) {                                       \
    const XT *const x = (const XT *)a->x;                                                        \
    const WT *const w = (const WT *)a->w;                                                        \
    const ptrdiff_t x_kh = a->x_kh, w_kh = a->w_kh, wch = a->wo[1];                              \
    const int32_t nkh = a->nkh, kw_n = a->kw_n, sw = a->sw, pl = a->pl, w_in = a->w_in;          \
    const int32_t w_out = a->w_out, zx = a->zx, cig = a->cig, m = a->m;                          \
    /* x_zp the middle of x's range: x - x_zp in the assembler (XFLIP_), else raw x and the   \
     * sums of the weights (zf: the zero point folded into the sums) */                         \
    const int32_t flip = QNHWC_DENSE_ASM && zx == a->xmid, zf = flip ? 0 : zx;                   \
    /* the windows wholly inside: columns [lo, hi) */                                           \
    const int32_t lo = (pl + sw - 1) / sw, hi_n = w_in - kw_n + pl;                              \
    const int32_t hi = hi_n < 0 || nkh == 0 ? 0 : (hi_n / sw + 1 < w_out ? hi_n / sw + 1 : w_out); \
    uint32_t full[4], clip[4];                                                                   \
    qnhwc_span_ sp;                                                                              \
    int32_t ox, c, w0, w1, cw0 = -1, cw1 = -1;                                                   \
    sp.r = a->r, sp.co = a->co;                                                                  \
    sp.y_x = a->y_x, sp.y_c = a->y_c, sp.wch = wch, sp.x_kh = x_kh, sp.w_kh = w_kh;              \
    sp.xs = (ptrdiff_t)sw * cig;                                                                 \
    sp.nkh = nkh, sp.flip = flip, sp.m = m, sp.skip = a->skip;                                   \
    for (c = 0; c < 4; c++) full[c] = 0u;                                                        \
    if (zf != 0 && nkh > 0) WSUM(w, wch, 1, 0, (int32_t)(nkh * w_kh), full);                     \
    for (c = 0; c < 4; c++) full[c] = a->b[c] - (uint32_t)zf * full[c];                          \
    for (ox = 0; ox < w_out; ox += sp.n) {                                                       \
      const int32_t ix = ox * sw - pl;                                                           \
      if (ox >= lo && ox < hi) {                                                                 \
        w0 = 0, w1 = kw_n, sp.n = hi - ox, sp.base = full;                                       \
      } else {                                                                                   \
        oc_qconv_taps(ix, 1, kw_n, w_in, &w0, &w1);                                              \
        if (w0 >= w1 || nkh == 0) w0 = w1 = 0; /* nothing inside */                              \
        sp.n = 1, sp.base = clip;                                                                \
        if (w0 != cw0 || w1 != cw1) { /* another clipping: its sums */                           \
          cw0 = w0, cw1 = w1;                                                                    \
          for (c = 0; c < 4; c++) clip[c] = 0u;                                                  \
          if (zf != 0 && w0 < w1) {                                                              \
            WSUM(w + (ptrdiff_t)w0 * cig, wch, nkh, w_kh, (w1 - w0) * cig, clip);                \
          }                                                                                      \
          for (c = 0; c < 4; c++) clip[c] = a->b[c] - (uint32_t)zf * clip[c];                    \
        }                                                                                        \
      }                                                                                          \
      qnhwc_pattern_(&sp.pat, w0, w1, cig, nkh, x_kh, w_kh, w);                                  \
      sp.x = w0 < w1 ? x + (ptrdiff_t)(ix + w0) * cig : x;                                       \
      sp.out = (uint8_t *)a->y + a->yo + (ptrdiff_t)ox * a->y_x;                                 \
      P##_span(&sp);                                                                             \
    }                                                                                            \
  }

QNHWC_INSTANCES_

/* Sets a up for a dense row of the four channels from cc (the block's m
 * channels are its last m) if their weights' zero points are all 0; else
 * leaves it as it is and returns 0. */
static int32_t qnhwc_dense_(qnhwc_row_ *a, const void *w_zp, int32_t w_signed,
                            int32_t per, const int32_t *bias, int32_t cc, ptrdiff_t w_ch) {
  int32_t c;
  for (c = 0; c < 4; c++) {
    if (w_zp != NULL && oc_q8_get(w_zp, w_signed, per ? cc + c : 0) != 0) return 0;
  }
  a->skip = 4 - a->m;
  a->w = (const uint8_t *)a->w - (ptrdiff_t)(a->co - cc) * w_ch;
  a->wo[1] = w_ch;
  for (c = 0; c < 4; c++) a->b[c] = bias != NULL ? (uint32_t)bias[cc + c] : 0u;
  return 1;
}

/* The kernel: every row (in the streaming order) and block (P: the pair's
 * row functions). */
#define OC_QCONV2D_NHWC_DEFINE(NAME, P, XT, WT)                                                  \
  static OC_NOINLINE void NAME(const oc_qconv_params *q, const oc_requant8 *r, const void *x,    \
                               const void *w, const void *w_zp, const int32_t *bias, void *y,    \
                               int32_t x_last, int32_t y_last) {                                 \
    const oc_conv2d_params *p = &q->conv;                                                        \
    const int32_t group = p->group, c_in = p->c_in, c_out = p->c_out;                            \
    const int32_t cig = c_in / group, cog = c_out / group, depthwise = cig == 1 && cog == 1;     \
    const int32_t kh_n = p->k_h, kw_n = p->k_w, dh = p->dil_h, dw = p->dil_w;                    \
    const int32_t h_in = p->h_in, w_in = p->w_in, h_out = p->h_out, w_out = p->w_out;            \
    const int32_t sh = p->stride_h, pt = p->pad_top;                                             \
    const int32_t w_signed = q->w_signed, per = q->w_zp_per_channel;                             \
    const int32_t rows = p->n * h_out, reverse = p->reverse_rows;                                \
    const ptrdiff_t in_plane = (ptrdiff_t)h_in * w_in, out_plane = (ptrdiff_t)h_out * w_out;     \
    /* steps in elements: channel, column, row, item */                                         \
    const ptrdiff_t x_c = x_last ? 1 : in_plane, x_x = x_last ? c_in : 1;                        \
    const ptrdiff_t x_row = (ptrdiff_t)w_in * x_x, x_item = in_plane * c_in;                     \
    const ptrdiff_t y_c = y_last ? 1 : out_plane, y_x = y_last ? c_out : 1;                      \
    const ptrdiff_t y_row = (ptrdiff_t)w_out * y_x, y_item = out_plane * c_out;                  \
    const ptrdiff_t w_ch = (ptrdiff_t)kh_n * kw_n * cig;                                         \
    const int32_t nblk = depthwise ? 1 : group, nch = depthwise ? c_out : cog;                   \
    qnhwc_row_ a;                                                                                \
    int32_t row, g, j, c, h0, h1, dense;                                                         \
    a.y = y;                                                                                     \
    a.r = r;                                                                                     \
    a.y_x = y_x;                                                                                 \
    a.y_c = y_c;                                                                                 \
    a.x_kh = (ptrdiff_t)dh * x_row;                                                              \
    a.x_kw = (ptrdiff_t)dw * x_x;                                                                \
    a.x_x = x_x;                                                                                 \
    a.x_c = x_c;                                                                                 \
    a.w_kh = (ptrdiff_t)kw_n * cig;                                                              \
    a.kw_n = kw_n;                                                                               \
    a.dw = dw;                                                                                   \
    a.sw = p->stride_w;                                                                          \
    a.pl = p->pad_left;                                                                          \
    a.w_in = w_in;                                                                               \
    a.w_out = w_out;                                                                             \
    a.zx = q->x_zp;                                                                              \
    a.xmid = q->x_signed ? -128 : 128;                                                           \
    a.cig = cig;                                                                                 \
    /* a kernel row's taps as one run of channels: NHWC, one group, dilation 1 along it */       \
    a.merge = x_last && group == 1 && dw == 1;                                                   \
    /* dense rows: merged runs, and four channels to a block (a short last block takes the     \
     * four last channels and stores its own) */                                                \
    dense = a.merge && c_out >= 4;                                                               \
    for (row = 0; row < rows; row++) {                                                           \
      const int32_t nr = reverse ? rows - 1 - row : row, n = nr / h_out, oy = nr - n * h_out;    \
      const int32_t iy = oy * sh - pt;                                                           \
      oc_qconv_taps(iy, dh, kh_n, h_in, &h0, &h1);                                               \
      a.nkh = h1 - h0;                                                                           \
      for (g = 0; g < nblk; g++) {                                                               \
        for (j = 0; j < nch; j += 4) {                                                           \
          const int32_t co = g * cog + j, m = nch - j < 4 ? nch - j : 4;                         \
          a.co = co;                                                                             \
          a.m = m;                                                                               \
          a.zero = 1;                                                                            \
          a.w = (const WT *)w + (ptrdiff_t)co * w_ch + (ptrdiff_t)h0 * a.w_kh;                   \
          /* the first kernel row inside (none: nothing is read) */                              \
          a.x = h0 < h1 ? (const XT *)x + (ptrdiff_t)n * x_item + (ptrdiff_t)(iy + h0 * dh) * x_row + \
                              (ptrdiff_t)(depthwise ? co : g * cig) * x_c                        \
                        : NULL;                                                                  \
          a.yo = (ptrdiff_t)n * y_item + (ptrdiff_t)oy * y_row + (ptrdiff_t)co * y_c;            \
          for (c = 0; c < 4; c++) {                                                              \
            const int32_t ch = co + (c < m ? c : m - 1);                                         \
            a.wo[c] = (ptrdiff_t)(ch - co) * w_ch;                                               \
            a.xo[c] = (ptrdiff_t)(ch - co) * x_c;                                                \
            a.z[c] = w_zp == NULL ? 0 : oc_q8_get(w_zp, w_signed, per ? ch : 0);                 \
            a.zero &= a.z[c] == 0;                                                               \
            a.b[c] = bias != NULL ? (uint32_t)bias[ch] : 0u;                                     \
          }                                                                                      \
          if (depthwise) {                                                                       \
            P##_dwrow(&a);                                                                       \
          } else if (!dense || !qnhwc_dense_(&a, w_zp, w_signed, per, bias, co - (4 - m), w_ch)) { \
            P##_row(&a);                                                                         \
          } else {                                                                               \
            P##_dense(&a);                                                                       \
          }                                                                                      \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  }

OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_s8s8, qnhwc_s8s8, int8_t, int8_t)
OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_u8s8, qnhwc_u8s8, uint8_t, int8_t)
OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_s8u8, qnhwc_s8u8, int8_t, uint8_t)
OC_QCONV2D_NHWC_DEFINE(oc_qconv2d_nhwc_u8u8, qnhwc_u8u8, uint8_t, uint8_t)

#undef OC_QCONV2D_NHWC_ROWS
#undef OC_QCONV2D_NHWC_DEFINE
#undef QNHWC_RUN4_
#undef QNHWC_DSP4_
#undef QNHWC_ZX2_
#undef QNHWC_ROW_LOCALS_
#undef QNHWC_COLUMNS_
#undef QNHWC_WSUM_DEFINE
#undef QNHWC_USADA8_
#undef QNHWC_WINDOW_
#undef QNHWC_PUT_
#undef QNHWC_DENSE_ASM
#undef QNHWC_DW_LOCALS_
#undef QNHWC_DW_PACK_
#undef QNHWC_DW_PACKED_
#undef QNHWC_DW_TAPS_
#undef QNHWC_DW_SUMS_
#undef QNHWC_DW_CLIPPED_
#undef QNHWC_DW_SPAN_
#undef QNHWC_PAIRS_

/* A generated file (where OC_API is static) may call only one of the two. */
#if defined(__GNUC__)
#define QNHWC_MAYBE_UNUSED_ __attribute__((unused))
#else
#define QNHWC_MAYBE_UNUSED_
#endif

OC_API QNHWC_MAYBE_UNUSED_ void oc_qconv2d_nhwc(const oc_qconv_params *q, const oc_requant8 *r,
                                                const void *x, const void *w, const void *w_zp,
                                                const int32_t *bias, void *y, int32_t x_last,
                                                int32_t y_last) {
  OC_Q8_PAIR_CALL(oc_qconv2d_nhwc, q->x_signed, q->w_signed,
                  (q, r, x, w, w_zp, bias, y, x_last, y_last));
}

/* The whole convolution as column products in the scratch col (on M4/M7:
 * oc_qnhwc_col.h; functions of their own, so the rows above keep their
 * frames); here the rows above, the scratch unused. */
#ifndef QNHWC_COLUMN_CONV_
#define QNHWC_COLUMN_CONV_(X_SIGNED, W_SIGNED, ARGS) qnhwc_no_columns_ ARGS
static void qnhwc_no_columns_(const oc_qconv_params *q, const oc_requant8 *r, const void *x, const void *w,
                              const uint8_t *w_zp, const int32_t *bias, void *y, int32_t y_last, void *col) {
  (void)w_zp, (void)col;
  OC_Q8_PAIR_CALL(oc_qconv2d_nhwc, q->x_signed, q->w_signed, (q, r, x, w, NULL, bias, y, 1, y_last));
}
#endif

OC_API QNHWC_MAYBE_UNUSED_ void oc_qconv2d_nhwc_col(const oc_qconv_params *q, const oc_requant8 *r,
                                                    const void *x, const void *w, const int32_t *bias,
                                                    void *y, int32_t y_last, void *col) {
  QNHWC_COLUMN_CONV_(q->x_signed, q->w_signed, (q, r, x, w, NULL, bias, y, y_last, col));
}

#undef QNHWC_MAYBE_UNUSED_
#undef QNHWC_COLUMN_CONV_
