// Input/output overlap contracts (see OverlapContract in memory_model.h):
// which kernels compute plane by plane, and which statements of a program
// may therefore write their output over their dying input.
#ifndef ONNX_TO_C_PASSES_OVERLAP_CONTRACTS_H_
#define ONNX_TO_C_PASSES_OVERLAP_CONTRACTS_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/memory_model.h"

namespace oc {

// True when output plane k of `s` (an N*C slice, row-major) depends only on
// input plane k of operand 0, and the C emitter can run the kernel one plane
// at a time: depthwise convolution (float or 8-bit), max and average pooling, resize. Sets
// `planes` to N*C.
bool IsPerPlaneKernel(const Program& program, const Statement& s, int64_t* planes);

// True when `s` is a 1x1, stride-1, unpadded, ungrouped f32 (or 8-bit)
// convolution that can run as oc_conv1x1_overlap_f32 (oc_qconv1x1_overlap)
// over its own input: batch 1, or no more output than input channels.
bool IsPixelwiseConv(const Program& program, const Statement& s);

// Pixels per block of a pixel contract.
constexpr int64_t kOverlapPixelBlock = 8;

// The smallest safe displacement (unaligned) of a per-plane kernel's output
// below its input: (planes - 1) * (out_plane - in_plane), at least 0.
int64_t MinOverlapDisplacement(int64_t planes, int64_t in_plane_bytes, int64_t out_plane_bytes);

// The contracts worth taking in `model` (buffers already assigned, without
// overlaps): the input buffer dies at the statement in every order, the
// output buffer starts there in every order, and the saving exceeds the
// plane scratch. `graph` is BuildScheduleGraph(program, model).
std::vector<OverlapContract> FindOverlapContracts(const Program& program, const MemoryModel& model,
                                                  const ProgramGraph& graph);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_OVERLAP_CONTRACTS_H_
