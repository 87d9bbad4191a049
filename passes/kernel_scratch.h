// Kernel scratch that buys speed: the padded float convolutions can run as
// oc_conv2d_band_f32 (runtime/src/conv2d_band.c), which copies the input rows
// of each output row into a zero-padded band in scratch and so needs no
// edge handling. This says which statements can, what the band costs and
// what it saves; the kernel-scratch stage (kernel_scratch_stage.cc)
// chooses within --kernel-scratch-budget.
#ifndef ONNX_TO_C_PASSES_KERNEL_SCRATCH_H_
#define ONNX_TO_C_PASSES_KERNEL_SCRATCH_H_

#include <cstdint>

#include "compiler/ir/program.h"

namespace oc {

// Bytes of the row band of a float 1-D or 2-D Conv with padding whose
// constant weights are finite and whose constant bias has no -0.0 (the
// condition under which the band gives the scratch-free kernel's bits);
// 0 for every other statement, depthwise convolutions included.
int64_t ConvBandScratchBytes(const Program& p, const Statement& s);

// MACs of the output pixels that have a tap in the padding: the work the
// scratch-free kernel does in edge tiles and per-pixel loops.
int64_t ConvEdgeMacs(const Program& p, const Statement& s);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_KERNEL_SCRATCH_H_
