#include "passes/transforms/patch_windows.h"

#include <algorithm>
#include <queue>

namespace oc {

Window Hull(const Window& a, const Window& b) {
  Window h;
  for (int k = 0; k < 2; ++k) {
    h[k] = {std::min(a[k].begin, b[k].begin), std::max(a[k].end, b[k].end)};
  }
  return h;
}

bool PatchableConcat(const Program& p, const Statement& s) {
  if (s.op != OpKind::kConcat || s.Int("axis", -1) != 1 || s.results.size() != 1) return false;
  const Shape& y = p.value(s.results[0]).shape;
  if (y.size() != 4) return false;
  for (ValueId v : s.operands) {
    if (v == kNoValue) return false;
    const Value& part = p.value(v);
    if (part.IsConstant() || part.shape.size() != 4 || part.shape[0] != y[0] || part.shape[2] != y[2] ||
        part.shape[3] != y[3]) {
      return false;
    }
  }
  return !s.operands.empty();
}

std::vector<int32_t> RegionOrder(const Program& p, const std::vector<bool>& in_region) {
  const auto& stmts = p.statements();
  const std::vector<int> def = p.DefiningStatementIndex();
  const std::vector<std::vector<int>> users = p.UsersIndex();
  // Kahn's algorithm over the region's statements, the smallest id first.
  std::vector<int> waiting(stmts.size(), 0);
  using Entry = std::pair<int32_t, int>;  // id, index
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!in_region[i]) continue;
    for (ValueId o : stmts[i].operands) {
      if (o != kNoValue && def[o] >= 0 && in_region[def[o]]) ++waiting[i];
    }
    if (waiting[i] == 0) ready.push({stmts[i].id, static_cast<int>(i)});
  }
  std::vector<int32_t> order;
  while (!ready.empty()) {
    const int i = ready.top().second;
    ready.pop();
    order.push_back(stmts[i].id);
    for (ValueId r : stmts[i].results) {
      for (int u : users[r]) {
        if (!in_region[u]) continue;
        // A reader counts each operand that is r once per occurrence.
        for (ValueId o : stmts[u].operands) {
          if (o == r && --waiting[u] == 0) ready.push({stmts[u].id, u});
        }
      }
    }
  }
  return order;
}

ValueId CropWindow(Program& p, ValueId source, const Window& held, const Window& want, const std::string& name,
                   std::vector<int32_t>& added) {
  if (held == want) return source;
  Shape shape = p.value(source).shape;
  shape[2] = want[0].size();
  shape[3] = want[1].size();
  const ValueId crop = p.AddResultValue(name, p.value(source).dtype, shape);
  p.value(crop).quant = p.value(source).quant;
  Statement& st = p.AddStatement(OpKind::kSlice, {source}, {crop});
  st.attrs["starts"] = std::vector<int64_t>{0, 0, want[0].begin - held[0].begin, want[1].begin - held[1].begin};
  st.attrs["steps"] = std::vector<int64_t>{1, 1, 1, 1};
  st.node_name = name;
  st.onnx_op = "Slice";
  added.push_back(st.id);
  return crop;
}

}  // namespace oc
