#include "compiler/import/run_time_cone.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace oc {

namespace {

std::string NodeOf(const Statement& s) { return absl::StrCat("node '", s.node_name, "' (", s.onnx_op, ")"); }

}  // namespace

std::string RunTimeSource(const Program& p, ValueId v) {
  const std::vector<int> def = p.DefiningStatementIndex();
  std::vector<bool> seen(p.num_values(), false);
  std::string computed_from_constants;
  // Depth first over the non-constant operands, each value once.
  std::vector<ValueId> stack = {v};
  while (!stack.empty()) {
    const ValueId u = stack.back();
    stack.pop_back();
    if (u == kNoValue || seen[u] || p.value(u).IsConstant() || def[u] < 0) continue;
    seen[u] = true;
    const Statement& s = p.statements()[def[u]];
    bool reads_run_time = false;
    for (auto it = s.operands.rbegin(); it != s.operands.rend(); ++it) {
      if (*it == kNoValue || p.value(*it).IsConstant()) continue;
      reads_run_time = true;
      if (p.value(*it).kind == ValueKind::kInput) {
        return absl::StrCat("graph input '", p.value(*it).name, "', read by ", NodeOf(s));
      }
      stack.push_back(*it);
    }
    if (!reads_run_time && computed_from_constants.empty()) {
      computed_from_constants =
          absl::StrCat(NodeOf(s), ", which is computed at run time although its operands are constants");
    }
  }
  if (!computed_from_constants.empty()) return computed_from_constants;
  return p.value(v).kind == ValueKind::kInput ? absl::StrCat("graph input '", p.value(v).name, "'")
                                              : absl::StrCat("'", p.value(v).name, "'");
}

}  // namespace oc
