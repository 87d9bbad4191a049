/*
 * onnx-to-c runtime, Armv7E-M: the 8-bit channels-last convolution (qconv2d_nhwc.c) with SMLAD,
 * USADA8, and the dense windows in assembler; the interface of the
 * reference oc_qnhwc_fast.h. Without the DSP extension it defines nothing.
 */
#ifndef ONNX_TO_C_OC_QNHWC_FAST_H_
#define ONNX_TO_C_OC_QNHWC_FAST_H_

#include "onnx_to_c/oc_q8_dsp.h"
#include "onnx_to_c/oc_qconv_loops.h"
#include "onnx_to_c/oc_qnhwc_pair.h"
#include "onnx_to_c/oc_qdw_nhwc_fast.h"

#if OC_Q8_DSP
/* Four values of a contiguous run per step (see the header). XL, XH: the
 * even and odd bytes of a word of x as 16-bit lanes; WL, WH: of w. */
#define QNHWC_SMLAD2_(S, P, WL, WH)                                                              \
  {                                                                                              \
    const uint32_t wv = oc_q8_load4((P) + i);                                                    \
    S = (uint32_t)__smlad(x13, (int32_t)WH(wv), __smlad(x02, (int32_t)WL(wv), (int32_t)(S)));    \
  }
#define QNHWC_DSP4_(ZP, XL, XH, WL, WH)                                                          \
  for (; i + 4 <= run; i += 4) {                                                                 \
    const uint32_t xq = oc_q8_load4(xr + i);                                                     \
    const int32_t x02 = (int32_t)__ssub16((int32_t)XL(xq), zx2);                                 \
    const int32_t x13 = (int32_t)__ssub16((int32_t)XH(xq), zx2);                                 \
    QNHWC_SMLAD2_(s0, pa, WL, WH)                                                                \
    QNHWC_SMLAD2_(s1, pb, WL, WH)                                                                \
    QNHWC_SMLAD2_(s2, pc, WL, WH)                                                                \
    QNHWC_SMLAD2_(s3, pd, WL, WH)                                                                \
    if (ZP) xs = (uint32_t)__smlad(x13, 0x00010001, __smlad(x02, 0x00010001, (int32_t)xs));     \
  }
#define QNHWC_S8L_(v) __sxtb16(v)
/* A tail byte of x (XLDB: LDRSB or LDRB) less x_zp, where x_zp is -128 or 128 */
#define QNHWC_ADD128_ "add %[x02], %[x02], #128\n\t"
#define QNHWC_SUB128_ "sub %[x02], %[x02], #128\n\t"
#define QNHWC_S8H_(v) oc_sxtb16_odd(v)
#define QNHWC_U8L_(v) __uxtb16(v)
#define QNHWC_U8H_(v) oc_uxtb16_odd(v)
/* x_zp in both 16-bit lanes */
#define QNHWC_ZX2_ const int32_t zx2 = (int32_t)((uint32_t)(uint16_t)zx * 0x00010001u);
#endif

#if OC_Q8_DSP
#define QNHWC_USADA8_(SIGNED)                                                                    \
  for (; i + 4 <= len; i += 4) {                                                                 \
    u = __usada8(oc_q8_load4(p + i) ^ (SIGNED ? 0x80808080u : 0u), 0u, u);                      \
  }                                                                                              \
  if (SIGNED) u -= 128u * (uint32_t)i;
#endif

#if OC_Q8_DSP && defined(__OPTIMIZE__)
#define QNHWC_DENSE_ASM 1
/* Per step one LDR of four x bytes, unpacked to the lanes (x0, x2) and
 * (x1, x3) (XLOAD_: XS, SXTB16 or UXTB16; XFLIP_: where x_zp is the middle
 * of x's range, -128 or 128, x ^ 0x80 per byte unpacked the other way is
 * x - x_zp: one EOR more and no sums of weights), then per channel one LDR
 * of its four weights, unpacked (WS), and two SMLAD: 23 instructions per 16
 * multiply-accumulates. The channels' weights are pa, pb = pa + wch,
 * pa + 2 wch and pb + 2 wch (a register offset each), advancing with xp.
 * Per kernel row: two steps per pass up to xe = xp + run4, entering at the
 * second where run4 % 8 is 4 (odd), then the tail (run % 4 bytes, one at a
 * time: XLDB, then XFIX for XFLIP_, WLDB), then the next row (xstep, wstep
 * further), until pa reaches wend: 13 registers, the clipping's numbers
 * (and xe) read through pp, its qnhwc_pat_. */
#define QNHWC_ACH_(WS, S, ADDR)                                                                  \
  "ldr %[w], " ADDR "\n\t" WS " %[t], %[w]\n\t"                                                  \
  "smlad %[" S "], %[x02], %[t], %[" S "]\n\t" WS " %[w], %[w], ror #8\n\t"                      \
  "smlad %[" S "], %[x13], %[w], %[" S "]\n\t"
#define QNHWC_XLOAD_(XS)                                                                         \
  "ldr %[x13], [%[xp]], #4\n\t" XS " %[x02], %[x13]\n\t" XS " %[x13], %[x13], ror #8\n\t"
#define QNHWC_XFLIP_(XF)                                                                         \
  "ldr %[x13], [%[xp]], #4\n\t"                                                                  \
  "eor %[x13], %[x13], #0x80808080\n\t" XF " %[x02], %[x13]\n\t" XF " %[x13], %[x13], ror #8\n\t"
#define QNHWC_STEP_(XLOAD, WS)                                                                   \
  XLOAD QNHWC_ACH_(WS, "s2", "[%[pa], %[wch], lsl #1]")                                          \
  QNHWC_ACH_(WS, "s3", "[%[pb], %[wch], lsl #1]") QNHWC_ACH_(WS, "s0", "[%[pa]], #4")            \
  QNHWC_ACH_(WS, "s1", "[%[pb]], #4")
#define QNHWC_TCH_(WLDB, S, ADDR)                                                                \
  WLDB " %[x13], " ADDR "\n\t"                                                                   \
  "mla %[" S "], %[x02], %[x13], %[" S "]\n\t"
#define QNHWC_TAIL_(XLDB, XFIX, WLDB)                                                            \
  XLDB " %[x02], [%[xp]], #1\n\t" XFIX QNHWC_TCH_(WLDB, "s2", "[%[pa], %[wch], lsl #1]")         \
  QNHWC_TCH_(WLDB, "s3", "[%[pb], %[wch], lsl #1]") QNHWC_TCH_(WLDB, "s0", "[%[pa]], #1")        \
  QNHWC_TCH_(WLDB, "s1", "[%[pb]], #1")
#define QNHWC_WINDOW_ASM_(XLOAD, XLDB, XFIX, WS, WLDB)                                           \
  __asm__("3:\n\t"                                                                               \
          "ldr %[t], [%[pp], %[o_run4]]\n\t"                                                     \
          "add %[t], %[xp], %[t]\n\t"                                                            \
          "str %[t], [%[pp], %[o_xe]]\n\t"                                                       \
          "ldr %[t], [%[pp], %[o_odd]]\n\t"                                                      \
          "cmp %[t], #0\n\t"                                                                     \
          "bne 5f\n\t"                                                                           \
          "b 2f\n"                                                                               \
          "1:\n\t" QNHWC_STEP_(XLOAD, WS) "5:\n\t" QNHWC_STEP_(XLOAD, WS) "2:\n\t"               \
          "ldr %[t], [%[pp], %[o_xe]]\n\t"                                                       \
          "cmp %[xp], %[t]\n\t"                                                                  \
          "blo 1b\n\t"                                                                           \
          "ldr %[t], [%[pp], %[o_tail]]\n\t"                                                     \
          "cmp %[t], #0\n\t"                                                                     \
          "beq 7f\n\t"                                                                           \
          "add %[t], %[xp], %[t]\n\t"                                                            \
          "str %[t], [%[pp], %[o_xe]]\n"                                                         \
          "6:\n\t" QNHWC_TAIL_(XLDB, XFIX, WLDB) "ldr %[t], [%[pp], %[o_xe]]\n\t"                \
          "cmp %[xp], %[t]\n\t"                                                                  \
          "blo 6b\n"                                                                             \
          "7:\n\t"                                                                               \
          "ldr %[t], [%[pp], %[o_xstep]]\n\t"                                                    \
          "add %[xp], %[xp], %[t]\n\t"                                                           \
          "ldr %[t], [%[pp], %[o_wstep]]\n\t"                                                    \
          "add %[pa], %[pa], %[t]\n\t"                                                           \
          "add %[pb], %[pb], %[t]\n\t"                                                           \
          "ldr %[t], [%[pp], %[o_wend]]\n\t"                                                     \
          "cmp %[pa], %[t]\n\t"                                                                  \
          "blo 3b\n\t"                                                                           \
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xp] "+r"(xp),           \
            [pa] "+r"(pa), [pb] "+r"(pb), [x02] "=&r"(x02), [x13] "=&r"(x13), [w] "=&r"(wv),     \
            [t] "=&r"(tv)                                                                        \
          : [pp] "r"(&pat), [wch] "r"(wch), [o_run4] "i"(offsetof(qnhwc_pat_, run4)),            \
            [o_odd] "i"(offsetof(qnhwc_pat_, odd)), [o_tail] "i"(offsetof(qnhwc_pat_, tail)),    \
            [o_xstep] "i"(offsetof(qnhwc_pat_, xstep)),                                          \
            [o_wstep] "i"(offsetof(qnhwc_pat_, wstep)), [o_wend] "i"(offsetof(qnhwc_pat_, wend)), \
            [o_xe] "i"(offsetof(qnhwc_pat_, xe))                                                 \
          : "cc", "memory")
/* The window of the pixel at xr (XT x, WT w), its clipping's pattern pat,
 * into s0 .. s3. */
#define QNHWC_WINDOW_(XT, WT, XS, XF, XLDB, XFIX, WS, WLDB)                                      \
  {                                                                                              \
    const XT *xp = xr;                                                                           \
    const WT *pa = (const WT *)pat.wr, *pb = pa + wch;                                           \
    uint32_t x02, x13, wv, tv;                                                                   \
    if (flip) {                                                                                  \
      QNHWC_WINDOW_ASM_(QNHWC_XFLIP_(XF), XLDB, XFIX, WS, WLDB);                                 \
    } else {                                                                                     \
      QNHWC_WINDOW_ASM_(QNHWC_XLOAD_(XS), XLDB, "", WS, WLDB);                                   \
    }                                                                                            \
  }
#endif

#if OC_Q8_DSP
/* Depthwise rows of a 3-wide kernel: per kernel tap, the weights of the
 * block's channels (0, 2) and (1, 3) as 16-bit lanes, packed once per row
 * (at most 3 kernel rows inside); a window wholly inside then takes per tap
 * one LDR of the four channels' x (contiguous in NHWC), XL and XH to lanes
 * (x0, x2) and (x1, x3), and SMLABB/SMLATT per channel: exact products,
 * sums wrapping like the uint32 ones, so the same bits. */
#define QNHWC_DW_LOCALS_                                                                         \
  int32_t dwl_[18], *const dwh_ = dwl_ + 9, dwn_ = 0, dws_lo_ = -1, dws_hi_ = -1;               \
  int32_t dwcl_[3], dwch_[3];
/* Packed with them, per kernel column the sums of its rows' weights in the
 * same lanes (SADD16: at most 9 weights of 8 bits, well inside 16 bits). */
#define QNHWC_DW_PACK_                                                                           \
  if (kw_n == 3 && nkh <= 3) {                                                                   \
    QNHWC_DW_SPAN_RANGE_                                                                         \
    dwcl_[0] = dwcl_[1] = dwcl_[2] = dwch_[0] = dwch_[1] = dwch_[2] = 0;                         \
    for (kh = 0; kh < nkh; kh++) {                                                               \
      for (kw = 0; kw < 3; kw++) {                                                               \
        const ptrdiff_t k = (ptrdiff_t)kh * w_kh + kw;                                           \
        dwl_[kh * 3 + kw] = oc_pack16((int32_t)wa[k], (int32_t)wc[k]);                           \
        dwh_[kh * 3 + kw] = oc_pack16((int32_t)wb[k], (int32_t)wd[k]);                           \
        dwcl_[kw] = __sadd16(dwcl_[kw], dwl_[kh * 3 + kw]);                                      \
        dwch_[kw] = __sadd16(dwch_[kw], dwh_[kh * 3 + kw]);                                      \
      }                                                                                          \
    }                                                                                            \
    dwn_ = nkh;                                                                                  \
  }
#define QNHWC_DW_PACKED_ (dwn_ > 0)
/* The lanes of the column sums of kernel columns [W0, W1): channels 0, 2 in
 * CL, 1, 3 in CH. */
#define QNHWC_DW_COLUMN_SUMS_(W0, W1, CL, CH)                                                    \
  for (kw = (W0); kw < (W1); kw++) CL = __sadd16(CL, dwcl_[kw]), CH = __sadd16(CH, dwch_[kw]);
#define QNHWC_DW_LANE_LO_(V) ((uint32_t)(int32_t)(int16_t)((uint32_t)(V)&0xFFFFu))
#define QNHWC_DW_LANE_HI_(V) ((uint32_t)(int32_t)(int16_t)((uint32_t)(V) >> 16))
/* The row's weight sums per channel, from the column sums. */
#define QNHWC_DW_SUMS_(T0, T1, T2, T3)                                                           \
  {                                                                                              \
    int32_t cl_ = 0, ch_ = 0;                                                                    \
    QNHWC_DW_COLUMN_SUMS_(0, 3, cl_, ch_)                                                        \
    T0 = QNHWC_DW_LANE_LO_(cl_), T2 = QNHWC_DW_LANE_HI_(cl_);                                    \
    T1 = QNHWC_DW_LANE_LO_(ch_), T3 = QNHWC_DW_LANE_HI_(ch_);                                    \
  }
/* A window clipped to kernel columns [w0, w1) at a border: its sums start
 * from bias - x_zp (the sum of the weights inside), and its taps are the
 * packed ones of those columns (the raw values, as for a whole window). */
#define QNHWC_DW_CLIPPED_(XT, XL, XH)                                                            \
  {                                                                                              \
    int32_t cl_ = 0, ch_ = 0;                                                                    \
    QNHWC_DW_COLUMN_SUMS_(w0, w1, cl_, ch_)                                                      \
    s0 = b0 - (uint32_t)zx * QNHWC_DW_LANE_LO_(cl_);                                             \
    s2 = b2 - (uint32_t)zx * QNHWC_DW_LANE_HI_(cl_);                                             \
    s1 = b1 - (uint32_t)zx * QNHWC_DW_LANE_LO_(ch_);                                             \
    s3 = b3 - (uint32_t)zx * QNHWC_DW_LANE_HI_(ch_);                                             \
    for (kh = 0; kh < dwn_; kh++) {                                                              \
      const XT *const xk = xw + (ptrdiff_t)kh * x_kh;                                            \
      for (kw = w0; kw < w1; kw++) QNHWC_DW_TAP_(XL, XH, kh * 3 + kw, xk + (ptrdiff_t)(kw - w0) * x_kw) \
    }                                                                                            \
  }
#if defined(OC_QDW_SPAN)
/* All three kernel rows inside, float requantization onto the type's range:
 * the windows wholly inside, columns [dws_lo_, dws_hi_), are one span
 * (oc_qdw_nhwc_fast.h). */
#define QNHWC_DW_SPAN_RANGE_                                                                     \
  if (nkh == 3 && put4 && OC_SAT8_WHOLE_(r) && w_in - 1 - 2 * dw + pl >= 0) {                   \
    const int32_t hi_ = (w_in - 1 - 2 * dw + pl) / sw + 1;                                       \
    dws_lo_ = (pl + sw - 1) / sw, dws_hi_ = hi_ < w_out ? hi_ : w_out;                            \
  }
#define QNHWC_DW_SPAN_(XT)                                                                       \
  if (ox == dws_lo_ && dws_hi_ > dws_lo_) {                                                      \
    OC_QDW_SPAN_RUN_(XT, dws_lo_, dws_hi_)                                                       \
    ox = dws_hi_;                                                                                \
    if (ox >= w_out) break;                                                                      \
  }
#else
#define QNHWC_DW_SPAN_RANGE_
#define QNHWC_DW_SPAN_(XT)
#endif
#define QNHWC_DW_TAP_(XL, XH, K, XP)                                                             \
  {                                                                                              \
    const uint32_t xv = oc_q8_load4(XP);                                                         \
    const int32_t x02 = (int32_t)XL(xv), x13 = (int32_t)XH(xv);                                  \
    s0 = (uint32_t)__smlabb(x02, dwl_[K], (int32_t)s0);                                          \
    s2 = (uint32_t)__smlatt(x02, dwl_[K], (int32_t)s2);                                          \
    s1 = (uint32_t)__smlabb(x13, dwh_[K], (int32_t)s1);                                          \
    s3 = (uint32_t)__smlatt(x13, dwh_[K], (int32_t)s3);                                          \
  }
#define QNHWC_DW_ROWS_(XT, XL, XH, NKH, XW)                                                      \
  for (kh = 0; kh < (NKH); kh++) {                                                               \
    const XT *const xk = (XW) + (ptrdiff_t)kh * x_kh;                                            \
    QNHWC_DW_TAP_(XL, XH, kh * 3, xk)                                                            \
    QNHWC_DW_TAP_(XL, XH, kh * 3 + 1, xk + x_kw)                                                 \
    QNHWC_DW_TAP_(XL, XH, kh * 3 + 2, xk + 2 * x_kw)                                             \
  }
#define QNHWC_DW_TAPS_(XT, XL, XH) { QNHWC_DW_ROWS_(XT, XL, XH, dwn_, xw) }

#define QNHWC_INSTANCES_                                                                             \
OC_QCONV2D_NHWC_ROWS(qnhwc_s8s8, int8_t, int8_t, QNHWC_S8L_, QNHWC_S8H_, QNHWC_S8L_, QNHWC_S8H_,     \
                     "sxtb16", "uxtb16", "sxtb16", "ldrsb", QNHWC_ADD128_, "ldrsb", qnhwc_wsum_s8_)  \
OC_QCONV2D_NHWC_ROWS(qnhwc_u8s8, uint8_t, int8_t, QNHWC_U8L_, QNHWC_U8H_, QNHWC_S8L_, QNHWC_S8H_,    \
                     "uxtb16", "sxtb16", "sxtb16", "ldrb", QNHWC_SUB128_, "ldrsb", qnhwc_wsum_s8_)   \
OC_QCONV2D_NHWC_ROWS(qnhwc_s8u8, int8_t, uint8_t, QNHWC_S8L_, QNHWC_S8H_, QNHWC_U8L_, QNHWC_U8H_,    \
                     "sxtb16", "uxtb16", "uxtb16", "ldrsb", QNHWC_ADD128_, "ldrb", qnhwc_wsum_u8_)   \
OC_QCONV2D_NHWC_ROWS(qnhwc_u8u8, uint8_t, uint8_t, QNHWC_U8L_, QNHWC_U8H_, QNHWC_U8L_, QNHWC_U8H_,   \
                     "uxtb16", "sxtb16", "uxtb16", "ldrb", QNHWC_SUB128_, "ldrb", qnhwc_wsum_u8_)
#endif

#include "onnx_to_c/oc_qnhwc_col.h"

#endif /* ONNX_TO_C_OC_QNHWC_FAST_H_ */
