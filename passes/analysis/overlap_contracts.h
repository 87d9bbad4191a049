// Input/output overlap contracts (see OverlapContract in memory_model.h):
// which statements of a program may write their output over their dying
// input, given what the kernels' access order allows (compiler/target/kernel_facts.h).
#ifndef ONNX_TO_C_PASSES_ANALYSIS_OVERLAP_CONTRACTS_H_
#define ONNX_TO_C_PASSES_ANALYSIS_OVERLAP_CONTRACTS_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "compiler/target/kernel_facts.h"
#include "passes/analysis/memory_model.h"

namespace oc {

// The smallest safe displacement (unaligned) of a per-plane kernel's output
// below its input: (planes - 1) * (out_plane - in_plane), at least 0.
int64_t MinOverlapDisplacement(int64_t planes, int64_t in_plane_bytes, int64_t out_plane_bytes);

// The smallest safe offset (unaligned) of an elements kernel's output after
// its input's start: (n - 1) * (in_elem - out_elem), at least 0.
int64_t MinElementsOffset(int64_t n, int64_t in_elem_bytes, int64_t out_elem_bytes);

// The smallest safe displacement (unaligned) of a rows contract's output
// below its input (IsRowStreamingConv): output row r = (n, oy) ends
// (r + 1) * out_row bytes into the output, and the kernel still reads the
// input from row n * h_in + clamp(oy * stride - pad_top, 0, h_in) on; at least 0.
int64_t MinRowsDisplacement(int64_t n, int64_t h_in, int64_t in_row_bytes, int64_t h_out,
                            int64_t out_row_bytes, int64_t stride, int64_t pad_top);

// The same kernel computing rows in decreasing order (rows_up): output row
// r = (n, oy) starts r * out_row bytes into the output and the kernel still
// reads the input up to row n * h_in + clamp(oy * stride - pad_top + reach, -1,
// h_in - 1) (reach = (k_h - 1) * dil_h), so the output may start this many
// bytes above the input's start (unaligned; negative: below it) and no less.
int64_t MinRowsRise(int64_t n, int64_t h_in, int64_t in_row_bytes, int64_t h_out,
                    int64_t out_row_bytes, int64_t stride, int64_t pad_top, int64_t reach);

// Bytes two buffers of `in` and `out` (aligned) bytes save by overlapping with
// the output `displacement` below the input: their sizes minus their union.
int64_t OverlapCredit(int64_t in, int64_t out, int64_t displacement);

// The contracts worth taking in `model` (buffers already assigned, without
// overlaps): the input buffer dies at the statement in every order, the
// output buffer starts there in every order, and the saving exceeds the
// plane scratch. `graph` is BuildScheduleGraph(program, model).
std::vector<OverlapContract> FindOverlapContracts(const Program& program, const MemoryModel& model,
                                                  const ProgramGraph& graph);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_ANALYSIS_OVERLAP_CONTRACTS_H_
