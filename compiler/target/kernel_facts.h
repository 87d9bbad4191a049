// What the runtime's kernels (runtime/reference/src, the same C on every target) need
// from memory: which statements can run a kernel that computes plane by plane
// or pixel block by pixel block (and may so write over its own input under
// an overlap contract), and what the row-band convolution's scratch costs and
// saves. The memory model, the kernel-scratch stage, `verify` and the emitter
// query these instead of knowing the kernels themselves.
#ifndef ONNX_TO_C_TARGET_KERNEL_FACTS_H_
#define ONNX_TO_C_TARGET_KERNEL_FACTS_H_

#include <cstdint>

#include "compiler/ir/program.h"

namespace oc {

// True when output plane k of `s` (an N*C slice, row-major) depends only on
// input plane k of operand 0, and the C emitter can run the kernel one plane
// at a time: depthwise convolution (float or 8-bit), max and average pooling, resize. Sets
// `planes` to N*C.
bool IsPerPlaneKernel(const Program& program, const Statement& s, int64_t* planes);

// True when the convolution `s` maps each pixel to itself: a 1x1, stride-1,
// unpadded, ungrouped window, operand 0 and the result of the same rank (at
// least 3) and the same spatial extents.
bool IsUnitWindowConv(const Program& program, const Statement& s);

// True when `s` is a 1x1, stride-1, unpadded, ungrouped f32 (or 8-bit)
// convolution that can run as oc_conv1x1_overlap_f32 (oc_qconv1x1_overlap)
// over its own input: batch 1, or no more output than input channels.
bool IsPixelwiseConv(const Program& program, const Statement& s);

// True when `s` runs a kernel that reads element i of operand 0 and then
// writes element i of its result, last element first, with result elements
// narrower than operand 0's (oc_quantize_f32_last_first: QuantizeLinear from
// float32 to 8 bits), so it may write its result into its dying input from
// (n - 1) * (in_elem - out_elem) bytes after its start.
bool IsElementwiseNarrowing(const Program& program, const Statement& s);

// A float or 8-bit 2-D convolution that the channels-last pass
// (passes/transforms/channels_last.cc) gave an NHWC input or output: it runs
// oc_conv2d_nhwc_f32 (weights per group [kh][kw][ic][oc]) or oc_qconv2d_nhwc
// (weights per output channel [kh][kw][ic]) and none of the NCHW kernels'
// contracts or scratch.
bool IsChannelsLastConv(const Statement& s);

// A float 2-D max pool that the channels-last pass gave an NHWC input or
// output: it runs oc_maxpool2d_nhwc_f32 and none of the per-plane contracts.
bool IsChannelsLastPool(const Statement& s);

// A channels-last convolution or max pool with both its input and output
// NHWC: the kernel computes output rows in increasing (n, oy) order, writing
// only row (n, oy) while it reads input rows of batch n from its window's
// first row inside the input on, so its output may start below its dying
// input (a rows contract).
bool IsRowStreamingConv(const Program& program, const Statement& s);

// Input rows below its first one that a row-streaming statement's output row
// reads: (kernel height - 1) * dilation.
int64_t RowStreamingReach(const Program& program, const Statement& s);

// Pixels per block of a pixel contract.
constexpr int64_t kOverlapPixelBlock = 8;

// The row-band convolution: the padded float convolutions can run as
// oc_conv2d_band_f32 (runtime/reference/src/conv2d_band.c), which copies the input rows
// of each output row into a zero-padded band in scratch and so needs no edge
// handling; the kernel-scratch stage chooses where within its budget.
//
// Bytes of the row band of a float 1-D or 2-D Conv with padding whose
// constant weights are finite and whose constant bias has no -0.0 (the
// condition under which the band gives the scratch-free kernel's bits);
// 0 for every other statement, depthwise convolutions included.
int64_t ConvBandScratchBytes(const Program& p, const Statement& s);

// MACs of the output pixels that have a tap in the padding: the work the
// scratch-free kernel does in edge tiles and per-pixel loops.
int64_t ConvEdgeMacs(const Program& p, const Statement& s);

// A qlinear_conv whose constant weights have zero points all 0 and whose bias
// is constant (or absent): the compiler can pack its weights and fold the
// input's zero point into its bias (runtime/reference/include/onnx_to_c/oc_qcol.h).
bool QConvFoldsZeroPoints(const Program& p, const Statement& s);

// A qlinear_conv over 1-D or 2-D data, not pointwise (1x1, stride 1, no
// padding, one group), with at least four output channels per group and
// QConvFoldsZeroPoints: without scratch or a contract it runs as
// oc_qconv2d_packed (runtime/reference/src/qconv2d_packed.c), its weights packed by
// the compiler in blocks of four channels, tap by tap.
bool QConvTakesPackedTaps(const Program& p, const Statement& s);

// The 8-bit column convolution: a qlinear_conv over 1-D or 2-D data that is
// neither pointwise nor depthwise, with constant weights whose zero points
// are all 0, a constant (or no) bias and at least four output channels per
// group, can run as oc_qconv_column (runtime/reference/src/qconv_column.c): each output
// pixel's window is copied into a column of cig * k_h * k_w bytes of scratch,
// then each channel is one dot product (SMLAD on M4/M7), the input's zero
// point folded into the bias. Bytes of the column; 0 for other statements.
int64_t QConvColumnScratchBytes(const Program& p, const Statement& s);

// The 8-bit channels-last column products: a qlinear_conv with x NHWC, one
// group, a 2-D kernel larger than 1x1 whose kernel rows are whole groups of
// four bytes (k_w c_in), and either constant 8-bit weights whose zero points
// are all 0 and a constant (or no) bias, or 4-bit weights, can run as
// oc_qconv2d_nhwc_col (runtime/reference/src/qconv2d_nhwc.c; on M4/M7
// oc_qnhwc_col.h) or oc_qconv2d_w4_col (qconv_w4.c; on M4/M7 oc_qw4_col.h):
// two pixels' windows widened to 16-bit lanes, 4 K bytes for K = k_h k_w
// c_in, and a kernel row gathered at the borders, k_w c_in bytes. Bytes of
// both; 0 for other statements.
int64_t QConvNhwcColumnScratchBytes(const Program& p, const Statement& s);

// The fast kernel a statement may run with scratch, if any: the row band
// (float) or a column (8-bit NCHW or NHWC), its scratch bytes and the MACs it
// speeds up (the band: the edge MACs; the columns: all of them).
struct ScratchKernel {
  const char* name = "";  // "conv2d_band", "qconv2d_column" or "qconv2d_nhwc_column"; "" for none
  int64_t bytes = 0;
  int64_t macs = 0;
};
ScratchKernel FastKernelWithScratch(const Program& p, const Statement& s);

// A qlinear_conv or qlinear_gemm whose weights stay 4-bit (weight_bits 4,
// passes/transforms/fuse_qdq.cc): oc_qconv2d_w4 and oc_qgemm_w4.
bool HasFourBitWeights(const Statement& s);
// The flash of such a statement's weights, two to a byte in blocks of four
// channels (oc_w4_at, runtime/reference/include/onnx_to_c/oc_qw4_run.h), with the
// channels' zero points (a byte each).
int64_t FourBitWeightBytes(const Program& p, const Statement& s);

}  // namespace oc

#endif  // ONNX_TO_C_TARGET_KERNEL_FACTS_H_
