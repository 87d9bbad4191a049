// A concat operand written by a copy instead of by its producer in place.
// Concat-in-place writes every operand straight into its slice of one
// buffer, so the slices sit at fixed offsets: an operand computed long before
// its neighbours (inception's pooling branch, whose slice is the last) holds
// the buffer's whole span open, with holes the rest of the block cannot use.
// With a copy, the producer's result gets a buffer of its own and a `copy`
// statement, which the scheduler runs when it likes before the concat's
// readers, moves it into its slice. A copy is exact: the same bits.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_CONCAT_COPY_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_CONCAT_COPY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"

namespace oc {

struct ConcatCopy {
  int32_t concat = -1;     // the concat's statement id
  int operand = -1;        // which operand goes through the copy
  int32_t statement = -1;  // the copy's statement id
  ValueId value = kNoValue;  // the copy's result, the concat's operand now
};

// Inserts the copy right before the concat (statement id `concat`) and makes
// the concat read it as operand `operand`.
absl::StatusOr<ConcatCopy> CopyConcatOperand(Program& program, int32_t concat, int operand);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_CONCAT_COPY_H_
