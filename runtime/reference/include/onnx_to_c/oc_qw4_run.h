/*
 * onnx-to-c runtime: the inner loop of the kernels with 4-bit weights
 * (qconv_w4.c, qgemm_w4.c): their weights' blocks (oc_w4_at), and the sums
 * of one run of 8-bit values against a block's four channels of nibbles.
 */
#ifndef ONNX_TO_C_OC_QW4_RUN_H_
#define ONNX_TO_C_OC_QW4_RUN_H_

#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qw4_fast.h"

/* 4-bit weights (ONNX int4 and uint4), two to a byte in flash (the
 * compiler's tables: targets/c99/emit_qlinear_w4.cc), read by the kernels
 * with 8-bit activations. Each weight is an
 * unsigned nibble u in [0, 15] less the zero point zu of its channel: the
 * compiler stores an int4 weight w as w + 8 and its zero point z as z + 8
 * (a uint4 as it is), so u - zu = w - z and every sum is the 8-bit kernels'
 * sum. The output channels (a convolution's, or a product's columns) go in
 * blocks of four, the last block filled up with channels of nibbles 0 and
 * zero point 0 (never stored); a block holds its channels' weights in chunks
 * of four consecutive k (k: the position in a channel's [kh][kw][ic within
 * the group], or the product's reduction index, the last chunk filled up
 * with 0): 8 bytes per chunk, byte t (0..3) holding k = 4 chunk + t of
 * channel 0 in its low nibble and of channel 1 in its high one, byte 4 + t
 * the same of channels 2 and 3. A block is 8 * ceil(kk / 4) bytes. Four
 * bytes of a chunk then give, masked by 0x000F000F after shifts of 0, 8, 4
 * and 12 bits, the 16-bit lanes (k, k + 2) and (k + 1, k + 3) of one channel
 * and then of the other (SMLAD on M4/M7). */
OC_INLINE int32_t oc_w4_at(const uint8_t *block, int32_t k, int32_t c) {
  const uint8_t b = block[(ptrdiff_t)(k >> 2) * 8 + (c >> 1) * 4 + (k & 3)];
  return (c & 1) ? (int32_t)(b >> 4) : (int32_t)(b & 15u);
}

/* Bytes of one block of oc_w4_at for kk weights per channel. */
OC_INLINE ptrdiff_t oc_w4_block_bytes(int32_t kk) { return (ptrdiff_t)((kk + 3) / 4) * 8; }

/* The outputs of channels ch .. ch + 3 of a block (those below `channels`):
 * bias (or 0) plus their sums s[c] less the channel's zero point times xs
 * (the sum of the values less x_zp), as int32 wrapping around, requantized
 * and stored at y[c * step]. */
OC_INLINE void oc_w4_put4(const oc_requant8 *r, const int32_t *bias, const uint8_t *zp, const uint32_t *s,
                          uint32_t xs, int32_t ch, int32_t channels, uint8_t *y, ptrdiff_t step) {
  int32_t c;
  for (c = 0; c < 4 && ch + c < channels; c++) {
    const uint32_t sum = (bias != NULL ? (uint32_t)bias[ch + c] : 0u) + s[c] - (uint32_t)zp[ch + c] * xs;
    y[(ptrdiff_t)c * step] = (uint8_t)oc_requant8_apply(r, ch + c, (int32_t)sum);
  }
}

/* Where an optimized folder has no faster code: nothing before the loop. */
#ifndef OC_W4_FAST_RUN_
#define OC_W4_FAST_RUN_(XTB16)
#endif
#ifndef OC_W4_FAST_XSUM_
#define OC_W4_FAST_XSUM_(FLIP)
#endif

/* s0 .. s3 += sum over t in [0, N) of (X[t] - zx) times the nibble of k =
 * t (from a chunk's start, W) of the block's channels 0 .. 3 (uint32
 * arithmetic: the sums wrap like int32 ones, in any order). XT: X's element
 * type; XTB16: "sxtb16" or "uxtb16" for it (the fast path's). The fast path
 * takes the first N & ~3 values and advances the pointers past them. */
#define OC_W4_RUN_(XT, XTB16, X, W, N)                                                 \
  {                                                                                    \
    const XT *xp_ = (X);                                                               \
    const uint8_t *wp_ = (W);                                                          \
    int32_t left_ = (N), t_;                                                           \
    OC_W4_FAST_RUN_(XTB16)                                                             \
    for (t_ = 0; t_ < left_; t_++) {                                                   \
      const int32_t xv_ = (int32_t)xp_[t_] - zx;                                       \
      const uint8_t *c_ = wp_ + (ptrdiff_t)(t_ >> 2) * 8 + (t_ & 3);                   \
      s0 += (uint32_t)(xv_ * (int32_t)(c_[0] & 15u));                                  \
      s1 += (uint32_t)(xv_ * (int32_t)(c_[0] >> 4));                                   \
      s2 += (uint32_t)(xv_ * (int32_t)(c_[4] & 15u));                                  \
      s3 += (uint32_t)(xv_ * (int32_t)(c_[4] >> 4));                                   \
    }                                                                                  \
  }

/* xs += sum over t in [0, N) of (X[t] - zx), uint32 arithmetic. FLIP: the
 * fast path's byte flip, 0x80808080u for int8 values (x ^ 0x80 is x + 128
 * unsigned), 0 for uint8 ones. */
#define OC_W4_XSUM_(XT, FLIP, X, N)                                                    \
  {                                                                                    \
    const XT *xp_ = (X);                                                               \
    int32_t left_ = (N), t_;                                                           \
    OC_W4_FAST_XSUM_(FLIP)                                                             \
    for (t_ = 0; t_ < left_; t_++) xs += (uint32_t)((int32_t)xp_[t_] - zx);            \
  }

#endif /* ONNX_TO_C_OC_QW4_RUN_H_ */
