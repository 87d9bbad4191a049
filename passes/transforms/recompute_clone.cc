#include "passes/transforms/recompute_clone.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace oc {

absl::StatusOr<RecomputeClone> CloneForReaders(Program& program, int32_t of,
                                               const std::vector<int32_t>& readers) {
  auto& stmts = program.statements();
  auto index_of = [&](int32_t id) {
    for (size_t i = 0; i < stmts.size(); ++i) {
      if (stmts[i].id == id) return static_cast<int>(i);
    }
    return -1;
  };
  const int src = index_of(of);
  if (src < 0 || stmts[src].results.size() != 1 || readers.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("recompute: statement ", of, " is unknown, has several results or no readers"));
  }
  const ValueId original = stmts[src].results[0];
  int first = static_cast<int>(stmts.size());
  for (int32_t r : readers) {
    const int i = index_of(r);
    if (i < 0 || i == src ||
        std::find(stmts[i].operands.begin(), stmts[i].operands.end(), original) ==
            stmts[i].operands.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("recompute: statement ", r, " does not read the result of statement ", of));
    }
    first = std::min(first, i);
  }
  const Value& ov = program.value(original);
  const ValueId value =
      program.AddResultValue(absl::StrCat(ov.name, " (recomputed)"), ov.dtype, ov.shape);
  program.value(value).quant = ov.quant;
  Statement copy = stmts[src];
  const int32_t root = copy.recompute_of >= 0 ? copy.recompute_of : copy.id;
  Statement& added = program.AddStatement(copy.op, copy.operands, {value});
  const int32_t id = added.id;
  copy.id = id;
  copy.results = {value};
  copy.recompute_of = root;
  added = std::move(copy);
  // Move it from the end to right before its first reader.
  std::rotate(stmts.begin() + first, stmts.end() - 1, stmts.end());
  for (int32_t r : readers) {
    for (ValueId& o : stmts[index_of(r)].operands) {
      if (o == original) o = value;
    }
  }
  return RecomputeClone{id, of, root, value, readers};
}

int64_t RecomputeCost(const Program& program, const Statement& s) {
  if (GetOpInfo(s.op).effect == MemoryEffect::kView) return 0;
  if (s.macs > 0) return s.macs;
  int64_t elements = 0;
  for (ValueId r : s.results) elements += program.value(r).NumElements();
  return elements;
}

int64_t ProgramCost(const Program& program) {
  int64_t total = 0;
  for (const Statement& s : program.statements()) {
    if (s.recompute_of < 0) total += RecomputeCost(program, s);
  }
  return total;
}

}  // namespace oc
