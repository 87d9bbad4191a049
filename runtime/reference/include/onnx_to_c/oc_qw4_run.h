/*
 * onnx-to-c runtime: the inner loop of the kernels with 4-bit weights
 * (qconv_w4.c, qgemm_w4.c; the blocks of oc_w4_at, oc_qlinear.h): the sums of
 * one run of 8-bit values against a block's four channels of nibbles.
 */
#ifndef ONNX_TO_C_OC_QW4_RUN_H_
#define ONNX_TO_C_OC_QW4_RUN_H_

#include "onnx_to_c/oc_qlinear.h"
#include "onnx_to_c/oc_qw4_fast.h"

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
