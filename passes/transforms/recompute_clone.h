// The one IR edit selective recompute makes: a clone of a statement (same op,
// attributes and operands, a result value of its own) that a chosen set of
// the original's readers read instead. The compiler and `onnx-to-c verify`
// both rebuild recompute programs with it.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_RECOMPUTE_CLONE_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_RECOMPUTE_CLONE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"

namespace oc {

struct RecomputeClone {
  int32_t statement = -1;  // the clone's statement id
  int32_t clone_of = -1;   // the statement it copies (an original or an earlier clone)
  int32_t original = -1;   // the original statement it re-runs (never a clone)
  ValueId value = kNoValue;  // the clone's result
  std::vector<int32_t> readers;  // statement ids that read the clone instead
};

// Clones statement `of` (an id; one result) for `readers` (ids of statements
// reading its result): the clone is placed right before the first of them
// in program order and they read its result instead. Its `recompute_of` is
// the original statement even when `of` is itself a clone.
absl::StatusOr<RecomputeClone> CloneForReaders(Program& program, int32_t of,
                                               const std::vector<int32_t>& readers);

// What re-running `s` costs, in multiply-accumulates: its MACs, or for a
// kernel without any (elementwise, pooling, copies) one per result element;
// a view runs no code and costs nothing.
int64_t RecomputeCost(const Program& program, const Statement& s);

// The model's own cost on the same scale (statements that are not clones).
int64_t ProgramCost(const Program& program);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_RECOMPUTE_CLONE_H_
