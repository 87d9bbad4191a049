#include "passes/transforms/concat_copy.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace oc {

absl::StatusOr<ConcatCopy> CopyConcatOperand(Program& program, int32_t concat, int operand) {
  auto& stmts = program.statements();
  auto at = std::find_if(stmts.begin(), stmts.end(), [&](const Statement& s) { return s.id == concat; });
  if (at == stmts.end() || at->op != OpKind::kConcat || operand < 0 ||
      operand >= static_cast<int>(at->operands.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("concat copy: statement ", concat, " is not a concat with an operand ", operand));
  }
  const size_t index = static_cast<size_t>(at - stmts.begin());
  const ValueId source = at->operands[operand];
  const Value& sv = program.value(source);
  const ValueId value = program.AddResultValue(absl::StrCat(sv.name, " (copied into ", program.value(at->results[0]).name, ")"),
                                               sv.dtype, sv.shape);
  program.value(value).quant = program.value(source).quant;
  Statement& made = program.AddStatement(OpKind::kCopy, {source}, {value});
  made.node_name = stmts[index].node_name;
  made.onnx_op = stmts[index].onnx_op;
  const int32_t id = made.id;
  // From the end to right before the concat; then the concat reads the copy.
  std::rotate(stmts.begin() + static_cast<std::ptrdiff_t>(index), stmts.end() - 1, stmts.end());
  stmts[index + 1].operands[operand] = value;
  return ConcatCopy{concat, operand, id, value};
}

}  // namespace oc
