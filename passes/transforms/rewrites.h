// The IR rewrites, one file each: the pass table (passes/pipeline/pass.h)
// runs them as IR passes. Each rewrites the program in place and counts what
// it did in `stats`.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_REWRITES_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_REWRITES_H_

#include "absl/status/status.h"
#include "compiler/ir/program.h"
#include "passes/transforms/pass_stats.h"

namespace oc {

absl::Status RunDeadCodeElimination(Program& program, PassStats& stats);
absl::Status RunFoldChannelAffine(Program& program, PassStats& stats);
absl::Status RunFuseActivation(Program& program, PassStats& stats);
absl::Status RunFuseHardSwish(Program& program, PassStats& stats);
// Not in the default pipeline: the planning search runs it (--layout=nhwc|auto,
// passes/pipeline/plan_search.h).
absl::Status RunChannelsLast(Program& program, PassStats& stats, bool inputs_in_arena = false);
// io_in_arena: the graph's inputs are arena buffers (see FoldEdgeConversions).
absl::Status RunFuseQdq(Program& program, PassStats& stats, bool io_in_arena = false);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_REWRITES_H_
