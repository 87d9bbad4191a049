#include "passes/transforms/patches.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"
#include "passes/transforms/patch_windows.h"
#include "passes/transforms/rewrite_utils.h"

namespace oc {
namespace {

bool Is4d(const Value& v) { return v.shape.size() == 4 && !v.IsConstant(); }

// Convolutions and max pooling, float and 8-bit: operand 0 is the input.
bool IsSlidingWindow(const Statement& s) {
  return s.op == OpKind::kConv || s.op == OpKind::kMaxPool || s.op == OpKind::kQLinearConv ||
         s.op == OpKind::kQLinearMaxPool;
}

// Elementwise ops outside the unary and binary categories whose constant
// operands are per tensor (or per channel: quantization along axis 1).
bool IsOtherElementwise(const Statement& s) {
  switch (s.op) {
    case OpKind::kChannelAffine:
    case OpKind::kQLinearAdd:
    case OpKind::kQLinearMul:
      return true;
    case OpKind::kQuantizeLinear:
    case OpKind::kDequantizeLinear:
      return s.Int("axis", -1) == -1 || s.Int("axis", -1) == 1;
    default:
      return false;
  }
}

// The weights of a sliding window (OIHW), when it has weights.
int WeightOperand(const Statement& s) {
  return s.op == OpKind::kConv ? 1 : s.op == OpKind::kQLinearConv ? 3 : -1;
}

// A constant operand that every patch may read whole: the same value at
// every row and column (broadcast along H and W; a quantization's per-channel
// parameters are one value per channel).
bool ConstantAlongHW(const Statement& s, const Value& v) {
  if (!v.IsConstant()) return false;
  if (s.op == OpKind::kQuantizeLinear || s.op == OpKind::kDequantizeLinear) return true;
  const Shape& shape = v.shape;
  for (size_t k = 0; k < std::min<size_t>(shape.size(), 2); ++k) {
    if (shape[shape.size() - 1 - k] != 1) return false;
  }
  return true;
}

// A statement that can run on a patch of its result.
bool Patchable(const Program& p, const Statement& s) {
  if (s.results.size() != 1 || !Is4d(p.value(s.results[0]))) return false;
  if (s.Has("x_channels_last") || s.Has("y_channels_last") || s.Has("channels_last") ||
      s.recompute_of >= 0) {
    return false;
  }
  if (s.op == OpKind::kConcat) return PatchableConcat(p, s);
  const Shape& y = p.value(s.results[0]).shape;
  if (IsSlidingWindow(s)) {
    if (s.operands.empty() || !Is4d(p.value(s.operands[0]))) return false;
    if (s.Ints("pads").size() != 4 || s.Ints("strides").size() != 2) return false;
    for (size_t k = 1; k < s.operands.size(); ++k) {
      if (s.operands[k] != kNoValue && !p.value(s.operands[k]).IsConstant()) return false;
    }
    const int w = WeightOperand(s);
    return w < 0 || (static_cast<int>(s.operands.size()) > w && p.value(s.operands[w]).shape.size() == 4);
  }
  const OpCategory cat = GetOpInfo(s.op).category;
  if (cat != OpCategory::kUnary && cat != OpCategory::kBinary && !IsOtherElementwise(s)) return false;
  bool reads_activation = false;
  for (ValueId v : s.operands) {
    if (v == kNoValue) continue;
    const Value& val = p.value(v);
    if (val.IsConstant()) {
      if (!ConstantAlongHW(s, val)) return false;
    } else {
      if (val.shape != y) return false;
      reads_activation = true;
    }
  }
  return reads_activation;
}

int64_t KernelExtent(const Program& p, const Statement& s, int axis) {
  const int64_t k = s.Has("kernel") ? s.Ints("kernel")[axis] : p.value(s.operands[WeightOperand(s)]).shape[2 + axis];
  const std::vector<int64_t> d = s.Has("dilations") ? s.Ints("dilations") : std::vector<int64_t>{1, 1};
  return (k - 1) * d[axis] + 1;
}

// The input span a sliding window reads for output span `out` along `axis`
// (the image's padding excluded).
Span WindowInput(const Program& p, const Statement& s, int axis, Span out) {
  const int64_t stride = s.Ints("strides")[axis], pad = s.Ints("pads")[axis];
  const int64_t len = p.value(s.operands[0]).shape[2 + axis];
  return {std::max<int64_t>(0, out.begin * stride - pad),
          std::min(len, (out.end - 1) * stride - pad + KernelExtent(p, s, axis))};
}

// Pads of the statement computing output span `out` from input span `in`.
std::pair<int64_t, int64_t> PatchPads(const Program& p, const Statement& s, int axis, Span out, Span in) {
  const int64_t stride = s.Ints("strides")[axis], pad = s.Ints("pads")[axis];
  const int64_t begin = in.begin - (out.begin * stride - pad);
  const int64_t reach = (out.size() - 1) * stride + KernelExtent(p, s, axis);
  return {begin, std::max<int64_t>(0, reach - in.size() - begin)};
}

// Split [0, n) into `parts` spans of sizes differing by at most one.
Span Part(int64_t n, int64_t parts, int64_t i) { return {i * n / parts, (i + 1) * n / parts}; }

// The window of operand `k` of `s` that computes window `w` of its result
// (empty along an axis when the window would read none of it).
Window OperandWindow(const Program& p, const Statement& s, size_t k, const Window& w) {
  if (!IsSlidingWindow(s) || k != 0) return w;
  return {WindowInput(p, s, 0, w[0]), WindowInput(p, s, 1, w[1])};
}

// With reuse, the values a band keeps for the next one: results of sliding
// windows taller than one row, whose halo costs a window of MACs per element
// and widens the window of their input. The others (1x1 convolutions,
// elementwise ops) recompute their halo rows from those: a 1x1 expansion's
// wide result is not worth a cache, its narrow input's is. With `all`, every
// value keeps them: no row is computed twice.
bool KeepsRows(const Program& p, const Statement& s, bool all) {
  return all || (IsSlidingWindow(s) && KernelExtent(p, s, 0) > 1);
}

// The windows one patch of a region uses: per value, the rows and columns it
// holds (the hull of the windows its readers need; a reader that needs less
// reads a crop) and those its statement computes. They differ only with
// reuse: there a band's value holds the rows the band before it computed
// and this one still needs (its cache) above the rows it computes.
struct PatchWindows {
  std::map<ValueId, Window> held, computed;
};

// The windows of one patch, computing window `patch` of y; with `before`
// (reuse, a band after the first), only the rows below the ones the band
// before held. Nullopt when a result is not read or a window would be empty.
std::optional<PatchWindows> NeededWindows(const Program& p, const std::vector<const Statement*>& stmts, ValueId y,
                                          Window patch, const PatchWindows* before, bool keep_all) {
  PatchWindows w;
  w.held.emplace(y, patch);
  for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) {
    const Statement& s = **it;
    auto out = w.held.find(s.results[0]);
    if (out == w.held.end()) return std::nullopt;  // a result nothing in the region reads
    Window computed = out->second;
    if (before && KeepsRows(p, s, keep_all)) {
      const Span& last = before->held.at(s.results[0])[0];
      if (computed[0].begin < last.begin) return std::nullopt;  // bands must move down
      computed[0].begin = std::max(computed[0].begin, last.end);
      if (computed[0].size() <= 0) return std::nullopt;  // nothing new to compute
    }
    w.computed.emplace(s.results[0], computed);
    for (size_t k = 0; k < s.operands.size(); ++k) {
      const ValueId v = s.operands[k];
      if (v == kNoValue || p.value(v).IsConstant()) continue;
      const Window in = OperandWindow(p, s, k, computed);
      if (in[0].size() <= 0 || in[1].size() <= 0) return std::nullopt;
      auto [at, fresh] = w.held.emplace(v, in);
      if (!fresh) at->second = Hull(at->second, in);
    }
  }
  return w;
}

}  // namespace

std::optional<PatchRegion> RegionBetween(const Program& p, ValueId x, ValueId y) {
  if (x == y || x < 0 || y < 0 || static_cast<size_t>(std::max(x, y)) >= p.num_values()) {
    return std::nullopt;
  }
  const Value& xv = p.value(x);
  const Value& yv = p.value(y);
  if (!Is4d(xv) || !Is4d(yv) || xv.shape[0] != yv.shape[0]) {
    return std::nullopt;
  }
  const auto& stmts = p.statements();
  const std::vector<int> def = p.DefiningStatementIndex();
  const std::vector<std::vector<int>> users = p.UsersIndex();
  if (def[y] < 0) return std::nullopt;
  // Statements that depend on x ...
  std::vector<bool> after_x(stmts.size(), false);
  for (size_t i = 0; i < stmts.size(); ++i) {
    for (ValueId o : stmts[i].operands) {
      if (o == kNoValue) continue;
      if (o == x || (def[o] >= 0 && after_x[def[o]])) after_x[i] = true;
    }
  }
  // ... and that y depends on, without passing through x.
  std::vector<bool> in_region(stmts.size(), false);
  std::vector<int> stack{def[y]};
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (in_region[i]) continue;
    if (!after_x[i]) return std::nullopt;  // y depends on something x does not reach
    in_region[i] = true;
    for (ValueId o : stmts[i].operands) {
      if (o == kNoValue || o == x || p.value(o).IsConstant()) continue;
      if (def[o] < 0) return std::nullopt;  // another graph input
      stack.push_back(def[o]);
    }
  }
  PatchRegion region{x, y, RegionOrder(p, in_region)};
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!in_region[i]) continue;
    const Statement& s = stmts[i];
    if (!Patchable(p, s)) return std::nullopt;
    const ValueId r = s.results[0];
    if (r != y) {
      if (IsGraphOutput(p, r)) return std::nullopt;
      for (int u : users[r]) {
        if (!in_region[u]) return std::nullopt;
      }
    }
  }
  return region;
}

std::vector<PatchRegion> RegionsContaining(const Program& p, int must_contain, int reach) {
  std::vector<PatchRegion> out;
  const auto& stmts = p.statements();
  if (must_contain < 0 || must_contain >= static_cast<int>(stmts.size())) return out;
  const int32_t id = stmts[must_contain].id;
  // X: a graph input or a result of the `reach` statements before it; Y: a
  // result of it or of the reach - 1 statements after it.
  std::vector<ValueId> xs(p.inputs().begin(), p.inputs().end());
  for (int i = std::max(0, must_contain - reach); i < must_contain; ++i) {
    xs.insert(xs.end(), stmts[i].results.begin(), stmts[i].results.end());
  }
  const size_t last = std::min(stmts.size(), static_cast<size_t>(must_contain + reach));
  for (ValueId x : xs) {
    for (size_t j = must_contain; j < last; ++j) {
      if (stmts[j].results.size() != 1) continue;
      std::optional<PatchRegion> r = RegionBetween(p, x, stmts[j].results[0]);
      if (r && std::find(r->statements.begin(), r->statements.end(), id) != r->statements.end()) {
        out.push_back(std::move(*r));
      }
    }
  }
  return out;
}

namespace {

// The region's statements, in program order.
std::vector<const Statement*> Members(const Program& p, const PatchRegion& region) {
  std::map<int32_t, const Statement*> by_id;
  for (const Statement& s : p.statements()) by_id[s.id] = &s;
  std::vector<const Statement*> members;
  for (int32_t id : region.statements) members.push_back(by_id.at(id));
  return members;
}

// Every patch's windows (row-major), or why the grid does not apply.
absl::StatusOr<std::vector<PatchWindows>> GridWindows(const Program& p, const std::vector<const Statement*>& members,
                                                      ValueId y, const PatchGrid& grid) {
  const Shape& y_shape = p.value(y).shape;
  if (grid.rows < 1 || grid.cols < 1 || grid.rows * grid.cols < 2 || grid.rows > y_shape[2] ||
      grid.cols > y_shape[3] || (grid.reuse && grid.cols != 1) || (grid.reuse_all && !grid.reuse)) {
    return absl::InvalidArgumentError(absl::StrCat("patches: a ", grid.rows, "x", grid.cols,
                                                   grid.reuse_all ? " reuse-all" : grid.reuse ? " reuse" : "",
                                                   " grid does not fit ",
                                                   p.value(y).name));
  }
  std::vector<PatchWindows> windows;
  for (int64_t r = 0; r < grid.rows; ++r) {
    for (int64_t c = 0; c < grid.cols; ++c) {
      const PatchWindows* before = grid.reuse && r > 0 ? &windows.back() : nullptr;
      auto need = NeededWindows(p, members, y, {Part(y_shape[2], grid.rows, r), Part(y_shape[3], grid.cols, c)},
                                before, grid.reuse_all);
      if (!need) {
        return absl::InvalidArgumentError(absl::StrCat("patches: a patch of the ", grid.rows, "x", grid.cols,
                                                       " grid reads none of a value inside the region"));
      }
      windows.push_back(std::move(*need));
    }
  }
  return windows;
}

// A statement's MACs on a window of its result: the same per output element.
int64_t WindowMacs(const Program& p, const Statement& s, const Window& w) {
  const Shape& shape = p.value(s.results[0]).shape;
  return s.macs / NumElements(shape) * (shape[0] * shape[1] * w[0].size() * w[1].size());
}

}  // namespace

absl::StatusOr<std::pair<int64_t, int64_t>> PatchMacs(const Program& p, const PatchRegion& region,
                                                      const PatchGrid& grid) {
  const std::vector<const Statement*> members = Members(p, region);
  OC_ASSIGN_OR_RETURN(auto windows, GridWindows(p, members, region.output, grid));
  int64_t region_macs = 0, patched_macs = 0;
  for (const Statement* s : members) {
    region_macs += s->macs;
    for (const PatchWindows& w : windows) patched_macs += WindowMacs(p, *s, w.computed.at(s->results[0]));
  }
  return std::make_pair(region_macs, patched_macs);
}

namespace {

// With reuse: the value of `r` this band holds, its cache `cache` (the rows
// the band before held and this one still needs) joined along H above
// `fresh`, the rows it computed. `fresh` itself when there is no cache.
ValueId JoinCache(Program& p, ValueId r, ValueId fresh, ValueId cache, const PatchWindows& w,
                  const std::string& tag, PatchRewrite& rw) {
  const Window& held = w.held.at(r);
  if (held == w.computed.at(r)) return fresh;
  const Value& rv = p.value(r);
  Shape shape = rv.shape;
  shape[2] = held[0].size();
  shape[3] = held[1].size();
  const ValueId joined = p.AddResultValue(absl::StrCat(rv.name, tag), rv.dtype, shape);
  p.value(joined).quant = rv.quant;
  Statement& st = p.AddStatement(OpKind::kConcat, {cache, fresh}, {joined});
  st.attrs["axis"] = int64_t{2};
  st.node_name = absl::StrCat(rv.name, tag, " joined");
  st.onnx_op = "Concat";
  rw.statements.push_back(st.id);
  return joined;
}

// Per region statement (by position), the region values whose last reader in
// the region it is.
std::vector<std::vector<ValueId>> LastReads(const std::vector<Statement>& originals) {
  std::map<ValueId, size_t> last;
  for (size_t i = 0; i < originals.size(); ++i) {
    for (ValueId v : originals[i].operands) last[v] = i;
  }
  std::vector<std::vector<ValueId>> out(originals.size());
  for (const auto& [v, i] : last) out[i].push_back(v);
  return out;
}

// One band's values and what it leaves the band after it.
struct PatchValues {
  std::map<ValueId, ValueId> local;  // by region value: the patch's value (at y, its part of Y)
  std::map<ValueId, ValueId> cache;  // with reuse: the rows the next band keeps, by region value
};

// One patch's copy of the region, tagged with `tag`: a copy of each region
// statement over the window it computes, each operand the reader's window of
// the value: a slice of the input X (unless it needs all of it), a patch
// value, or a crop of one when another reader needs more of it. With reuse,
// each value is joined to its cache from the band before (`cache`), and
// after a value's last reader it leaves the rows the band `next` keeps.
PatchValues AddPatch(Program& p, const std::vector<Statement>& originals, const PatchWindows& w,
                     const PatchWindows* next, const std::map<ValueId, ValueId>& cache, ValueId x,
                     const std::string& tag, PatchRewrite& rw) {
  PatchValues out;
  std::map<ValueId, ValueId>& local = out.local;
  local[x] = x;
  std::map<ValueId, Window> held{{x, Window{Span{0, p.value(x).shape[2]}, Span{0, p.value(x).shape[3]}}}};
  std::map<std::pair<ValueId, std::array<int64_t, 4>>, ValueId> crops;
  auto read = [&](ValueId v, const Window& want, const std::string& suffix) {
    const std::array<int64_t, 4> key{want[0].begin, want[0].end, want[1].begin, want[1].end};
    auto [at, fresh] = crops.emplace(std::make_pair(v, key), kNoValue);
    if (!fresh) return at->second;
    std::string name = absl::StrCat(p.value(v).name, tag, suffix);
    if (want != w.held.at(v)) absl::StrAppend(&name, " rows ", key[0], "..", key[1], " cols ", key[2], "..", key[3]);
    at->second = CropWindow(p, local.at(v), held.at(v), want, name, rw.statements);
    return at->second;
  };
  const std::vector<std::vector<ValueId>> last_reads = LastReads(originals);
  for (size_t i = 0; i < originals.size(); ++i) {
    const Statement& s = originals[i];
    const ValueId r = s.results[0];
    const Value& rv = p.value(r);
    const Window& computed = w.computed.at(r);
    Shape shape = rv.shape;
    shape[2] = computed[0].size();
    shape[3] = computed[1].size();
    const bool cached = computed != w.held.at(r);
    const ValueId result = p.AddResultValue(absl::StrCat(rv.name, tag, cached ? " new rows" : ""), rv.dtype, shape);
    p.value(result).quant = rv.quant;
    std::vector<ValueId> operands = s.operands;
    for (size_t k = 0; k < operands.size(); ++k) {
      if (operands[k] != kNoValue && local.count(operands[k])) {
        operands[k] = read(operands[k], OperandWindow(p, s, k, computed), "");
      }
    }
    Statement& st = p.AddStatement(s.op, operands, {result});
    const int32_t id = st.id;
    st = s;
    st.id = id;
    st.operands = operands;
    st.results = {result};
    st.node_name = s.node_name + tag;
    st.macs = WindowMacs(p, s, computed);
    if (IsSlidingWindow(s)) {
      const Window in = OperandWindow(p, s, 0, computed);
      const auto [top, bottom] = PatchPads(p, s, 0, computed[0], in[0]);
      const auto [left, right] = PatchPads(p, s, 1, computed[1], in[1]);
      st.attrs["pads"] = std::vector<int64_t>{top, left, bottom, right};
    }
    rw.patched_macs += st.macs;
    rw.statements.push_back(id);
    local[r] = JoinCache(p, r, result, cached ? cache.at(r) : kNoValue, w, tag, rw);
    held[r] = w.held.at(r);
    for (ValueId v : last_reads[i]) {
      if (!next || v == x || !local.count(v) || next->held.at(v) == next->computed.at(v)) continue;
      const Window keep{Span{next->held.at(v)[0].begin, next->computed.at(v)[0].begin}, next->held.at(v)[1]};
      out.cache[v] = read(v, keep, " cache");
    }
  }
  return out;
}

// Assembly: each grid row along W, then the rows along H into Y; the
// concatenations are named `assemble`.
void AssemblePatches(Program& p, const std::vector<ValueId>& patch_outputs, const PatchGrid& grid, ValueId y,
                     const std::string& assemble, PatchRewrite& rw) {
  const Shape y_shape = p.value(y).shape;
  auto concat = [&](const std::vector<ValueId>& parts, int64_t axis, ValueId result) {
    Statement& st = p.AddStatement(OpKind::kConcat, parts, {result});
    st.attrs["axis"] = axis;
    st.node_name = assemble;
    st.onnx_op = "Concat";
    rw.statements.push_back(st.id);
  };
  std::vector<ValueId> rows;
  for (int64_t r = 0; r < grid.rows; ++r) {
    std::vector<ValueId> row(patch_outputs.begin() + r * grid.cols, patch_outputs.begin() + (r + 1) * grid.cols);
    if (grid.cols == 1) {
      rows.push_back(row[0]);
      continue;
    }
    if (grid.rows == 1) {
      concat(row, 3, y);
      break;
    }
    Shape shape = p.value(row[0]).shape;
    shape[3] = y_shape[3];
    const ValueId joined =
        p.AddResultValue(absl::StrCat(p.value(y).name, " [patch row ", r, "]"), p.value(y).dtype, shape);
    p.value(joined).quant = p.value(y).quant;
    concat(row, 3, joined);
    rows.push_back(joined);
  }
  if (grid.rows > 1) concat(rows, 2, y);
}

// The statements added from `old_count` on take the place of Y's producer
// (at index `producer_of_y`); the region's go.
void ReplaceRegion(Program& p, size_t old_count, int producer_of_y, const PatchRegion& region) {
  auto& stmts = p.statements();
  std::vector<Statement> added(std::make_move_iterator(stmts.begin() + old_count),
                               std::make_move_iterator(stmts.end()));
  stmts.resize(old_count);
  std::set<int32_t> gone(region.statements.begin(), region.statements.end());
  std::vector<Statement> order;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (static_cast<int>(i) == producer_of_y) {
      for (Statement& s : added) order.push_back(std::move(s));
    }
    if (!gone.count(stmts[i].id)) order.push_back(std::move(stmts[i]));
  }
  stmts = std::move(order);
}

}  // namespace

absl::StatusOr<PatchRewrite> ApplyPatches(Program& p, const PatchRegion& region, const PatchGrid& grid) {
  const std::optional<PatchRegion> check = RegionBetween(p, region.input, region.output);
  if (!check || check->statements != region.statements) {
    return absl::InvalidArgumentError("patches: the values do not bound a region that can run per patch");
  }
  const ValueId x = region.input, y = region.output;
  std::map<int32_t, int> index_of;
  for (size_t i = 0; i < p.statements().size(); ++i) index_of[p.statements()[i].id] = static_cast<int>(i);
  // Every patch's windows first: the rewrite changes nothing if one fails.
  const std::vector<const Statement*> members = Members(p, region);
  OC_ASSIGN_OR_RETURN(const auto windows, GridWindows(p, members, y, grid));
  // Copies of the members (the statement vector grows below).
  std::vector<Statement> originals;
  for (const Statement* s : members) originals.push_back(*s);
  const int producer_of_y = index_of.at(region.statements.back());
  const size_t old_count = p.statements().size();

  PatchRewrite rw;
  for (const Statement& s : originals) rw.region_macs += s.macs;
  std::vector<ValueId> patch_outputs;
  std::map<ValueId, ValueId> cache;
  for (size_t k = 0; k < windows.size(); ++k) {
    const std::string tag = absl::StrCat(" [patch ", k / grid.cols, ",", k % grid.cols, "]");
    const PatchWindows* next = grid.reuse && k + 1 < windows.size() ? &windows[k + 1] : nullptr;
    PatchValues band = AddPatch(p, originals, windows[k], next, cache, x, tag, rw);
    patch_outputs.push_back(band.local.at(y));
    cache = std::move(band.cache);
  }
  AssemblePatches(p, patch_outputs, grid, y, originals.back().node_name + " [patches]", rw);
  ReplaceRegion(p, old_count, producer_of_y, region);
  p.CompactValues();
  return rw;
}

}  // namespace oc
