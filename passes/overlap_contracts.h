// Input/output overlap contracts (see OverlapContract in memory_model.h):
// which statements of a program may write their output over their dying
// input, given what the kernels' access order allows (targets/kernel_facts.h).
#ifndef ONNX_TO_C_PASSES_OVERLAP_CONTRACTS_H_
#define ONNX_TO_C_PASSES_OVERLAP_CONTRACTS_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/memory_model.h"
#include "targets/kernel_facts.h"

namespace oc {

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
