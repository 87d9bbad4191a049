#include "passes/transforms/stream_input.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/ops.h"

namespace oc {

int GraphInputIndex(const Program& program, ValueId v) {
  const std::vector<ValueId>& inputs = program.inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == v) return static_cast<int>(i);
  }
  return -1;
}

bool IsRowBandSlice(const Program& program, const Statement& s) {
  if (s.op != OpKind::kSlice || s.operands.size() != 1) return false;
  const Shape& x = program.value(s.operands[0]).shape;
  const Shape& y = program.value(s.results[0]).shape;
  const std::vector<int64_t> starts = s.Ints("starts"), steps = s.Ints("steps");
  if (x.size() != 4 || y.size() != 4 || starts.size() != 4 || steps.size() != 4) return false;
  for (size_t d = 0; d < 4; ++d) {
    if (steps[d] != 1) return false;
    if (d != 2 && (starts[d] != 0 || y[d] != x[d])) return false;
  }
  return starts[2] >= 0 && starts[2] + y[2] <= x[2];
}

absl::Status CheckStreamableInput(const Program& program, int index) {
  const ValueId x = program.inputs()[index];
  const Value& xv = program.value(x);
  if (xv.shape.size() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("--stream-input: input '", xv.name, "' is not 4-D (N, C, H, W): it has no rows to stream"));
  }
  bool read = false;
  for (const Statement& s : program.statements()) {
    for (ValueId o : s.operands) {
      if (o != x) continue;
      read = true;
      if (s.op == OpKind::kSlice && !IsRowBandSlice(program, s)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--stream-input: input '", xv.name, "' is sliced by node '", s.node_name,
            "' (slice) to less than whole rows; only bands of whole rows can be fetched"));
      }
      if (!IsRowBandSlice(program, s)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--stream-input: input '", xv.name, "' is read by node '", s.node_name, "' (", GetOpInfo(s.op).name,
            ") outside a patch region; only the row slices of patches can fetch its rows"));
      }
    }
  }
  for (ValueId o : program.outputs()) {
    if (o == x) {
      return absl::InvalidArgumentError(
          absl::StrCat("--stream-input: input '", xv.name, "' is also a graph output"));
    }
  }
  if (!read) {
    return absl::InvalidArgumentError(absl::StrCat("--stream-input: input '", xv.name, "' is never read"));
  }
  return absl::OkStatus();
}

}  // namespace oc
