// Dead code elimination: drops statements none of whose results is read or
// is a graph output, then drops values nothing refers to.
#include <vector>

#include "passes/transforms/rewrites.h"

namespace oc {

absl::Status RunDeadCodeElimination(Program& program, PassStats& stats) {
  std::vector<bool> needed(program.num_values(), false);
  for (ValueId out : program.outputs()) needed[out] = true;
  auto& statements = program.statements();
  std::vector<bool> keep(statements.size(), false);
  // Users come after producers, so one backward sweep reaches a fixed point.
  for (int i = static_cast<int>(statements.size()) - 1; i >= 0; --i) {
    for (ValueId r : statements[i].results) {
      if (needed[r]) keep[i] = true;
    }
    if (!keep[i]) continue;
    for (ValueId o : statements[i].operands) {
      if (o != kNoValue) needed[o] = true;
    }
  }
  std::vector<Statement> kept;
  for (size_t i = 0; i < statements.size(); ++i) {
    if (keep[i]) kept.push_back(std::move(statements[i]));
  }
  stats.Add("dce", "removed", static_cast<int64_t>(statements.size() - kept.size()));
  statements = std::move(kept);
  program.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
