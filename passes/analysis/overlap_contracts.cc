#include "passes/analysis/overlap_contracts.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace oc {

int64_t MinOverlapDisplacement(int64_t planes, int64_t in_plane_bytes, int64_t out_plane_bytes) {
  return std::max<int64_t>(0, (planes - 1) * (out_plane_bytes - in_plane_bytes));
}

int64_t MinElementsOffset(int64_t n, int64_t in_elem_bytes, int64_t out_elem_bytes) {
  return std::max<int64_t>(0, (n - 1) * (in_elem_bytes - out_elem_bytes));
}

int64_t MinRowsDisplacement(int64_t n, int64_t h_in, int64_t in_row_bytes, int64_t h_out,
                            int64_t out_row_bytes, int64_t stride, int64_t pad_top) {
  int64_t d = 0;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oy = 0; oy < h_out; ++oy) {
      const int64_t first = std::clamp<int64_t>(oy * stride - pad_top, 0, h_in);
      d = std::max(d, (b * h_out + oy + 1) * out_row_bytes - (b * h_in + first) * in_row_bytes);
    }
  }
  return d;
}

int64_t MinRowsRise(int64_t n, int64_t h_in, int64_t in_row_bytes, int64_t h_out,
                    int64_t out_row_bytes, int64_t stride, int64_t pad_top, int64_t reach) {
  int64_t rise = std::numeric_limits<int64_t>::min();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oy = 0; oy < h_out; ++oy) {
      const int64_t last = std::clamp<int64_t>(oy * stride - pad_top + reach, -1, h_in - 1);
      rise = std::max(rise, (b * h_in + last + 1) * in_row_bytes - (b * h_out + oy) * out_row_bytes);
    }
  }
  return rise;
}

namespace {

// Rounds up to a multiple of `alignment`, negative values too.
int64_t AlignUpSigned(int64_t n, int64_t alignment) {
  return n >= 0 ? AlignUp(n, alignment) : -((-n) / alignment * alignment);
}

// Rows contracts may stream either way: down (rows in increasing order, the
// output below the input) or up (decreasing, above). A chain of contracts
// fixes its buffers' offsets relative to each other, and one that always
// goes down drifts as far as its displacements add up, which the planner
// cannot pack into the peak. So each chain, from its head, takes at every
// rows link the direction that keeps the chain's extent smallest (then the
// larger credit, then down).
void ChooseRowDirections(const Program& p, const MemoryModel& m, std::vector<OverlapContract>& out) {
  std::vector<int> as_input(m.buffers.size(), -1);
  std::vector<bool> is_output(m.buffers.size(), false);
  for (size_t i = 0; i < out.size(); ++i) {
    as_input[out[i].input_buffer] = static_cast<int>(i);
    is_output[out[i].output_buffer] = true;
  }
  for (const Buffer& head : m.buffers) {
    if (as_input[head.id] < 0 || is_output[head.id]) continue;
    int64_t at = 0, lo = 0, hi = head.aligned_bytes;  // the current buffer's offset, the extent
    for (int i = as_input[head.id]; i >= 0; i = as_input[out[i].output_buffer]) {
      OverlapContract& c = out[i];
      const int64_t in = m.buffers[c.input_buffer].aligned_bytes;
      const int64_t outb = m.buffers[c.output_buffer].aligned_bytes;
      if (c.kind == OverlapContract::Kind::kRows) {
        const Statement& st = p.statements()[c.statement];
        const Shape& xs = p.value(st.operands[0]).shape;
        const Shape& ys = p.value(st.results[0]).shape;
        const int64_t elem = DTypeSize(p.value(st.operands[0]).dtype);
        const int64_t up = -AlignUpSigned(
            MinRowsRise(xs[0], xs[2], xs[1] * xs[3] * elem, ys[2], ys[1] * ys[3] * elem,
                        st.Ints("strides")[0], st.Ints("pads")[0], RowStreamingReach(p, st)),
            m.alignment);
        auto extent = [&](int64_t d) {
          return std::max(hi, at - d + outb) - std::min(lo, at - d);
        };
        const int64_t up_credit = OverlapCredit(in, outb, up);
        const auto down_key = std::make_tuple(extent(c.displacement), -c.credit, 0);
        const auto up_key = std::make_tuple(extent(up), -up_credit, 1);
        if (up_credit > c.scratch && up_key < down_key) {
          c.kind = OverlapContract::Kind::kRowsUp;
          c.displacement = up;
          c.credit = up_credit;
        }
      }
      at -= c.displacement;
      lo = std::min(lo, at);
      hi = std::max(hi, at + outb);
    }
  }
}

}  // namespace

int64_t OverlapCredit(int64_t in, int64_t out, int64_t displacement) {
  const int64_t lo = std::min<int64_t>(0, -displacement);
  const int64_t hi = std::max<int64_t>(in, out - displacement);
  return in + out - (hi - lo);
}

namespace {

// True when every node in `nodes` except `s` is an ancestor of s (`backwards`)
// or a descendant of it. Nodes are in program order, a topological order, so
// the search never leaves the index range between s and the farthest of them.
bool AllReachable(const ScheduleGraph& g, int s, const std::vector<int>& nodes, bool backwards) {
  int lo = s, hi = s;
  size_t wanted = 0;
  for (int r : nodes) {
    if (r == s) continue;
    if (backwards ? r > s : r < s) return false;
    lo = std::min(lo, r);
    hi = std::max(hi, r);
    ++wanted;
  }
  if (wanted == 0) return true;
  std::vector<bool> seen(static_cast<size_t>(hi - lo + 1), false);
  std::vector<int> stack = {s};
  seen[s - lo] = true;
  size_t found = 0;
  while (!stack.empty() && found < wanted) {
    const int v = stack.back();
    stack.pop_back();
    for (int u : backwards ? g.preds[v] : g.succs[v]) {
      if (u < lo || u > hi || seen[u - lo]) continue;
      seen[u - lo] = true;
      if (std::find(nodes.begin(), nodes.end(), u) != nodes.end()) ++found;
      stack.push_back(u);
    }
  }
  return found == wanted;
}

}  // namespace

std::vector<OverlapContract> FindOverlapContracts(const Program& p, const MemoryModel& m,
                                                  const ProgramGraph& pg) {
  std::vector<int> graph_buffer(m.buffers.size(), -1);
  for (size_t gb = 0; gb < pg.arena_buffer.size(); ++gb) {
    graph_buffer[pg.arena_buffer[gb]] = static_cast<int>(gb);
  }
  // A whole arena buffer that `v` alone names from its first byte.
  auto whole_buffer = [&](ValueId v) -> int {
    int b = m.buffer_of_value[v];
    if (b < 0 || graph_buffer[b] < 0 || m.offset_in_buffer[v] != 0) return -1;
    return m.buffers[b].bytes == p.value(v).ByteSize() ? b : -1;
  };
  std::vector<OverlapContract> out;
  const auto& stmts = p.statements();
  for (size_t si = 0; si < stmts.size(); ++si) {
    const Statement& st = stmts[si];
    const int s = static_cast<int>(si);
    int64_t planes = 0;
    const bool per_plane = IsPerPlaneKernel(p, st, &planes);
    const bool elementwise = !per_plane && IsElementwiseNarrowing(p, st);
    const bool rows = !per_plane && !elementwise && IsRowStreamingConv(p, st);
    if (m.elided[s] || m.in_place_operand[s] >= 0 ||
        (!per_plane && !elementwise && !rows && !IsPixelwiseConv(p, st))) {
      continue;
    }
    const ValueId x = st.operands[0], y = st.results[0];
    const int xb = whole_buffer(x), yb = whole_buffer(y);
    if (xb < 0 || yb < 0 || xb == yb || m.buffers[yb].root != y) continue;
    // A graph output in the arena is the caller's after the run: never written over.
    if (m.buffers[xb].holds_output) continue;
    const ScheduleGraph::Buffer& gx = pg.graph.buffers[graph_buffer[xb]];
    const ScheduleGraph::Buffer& gy = pg.graph.buffers[graph_buffer[yb]];
    if (!AllReachable(pg.graph, s, gx.readers, true) || !AllReachable(pg.graph, s, gy.writers, false)) {
      continue;
    }
    OverlapContract c;
    c.statement = s;
    c.input_buffer = xb;
    c.output_buffer = yb;
    if (per_plane) {
      c.kind = OverlapContract::Kind::kPlanes;
      c.planes = planes;
      c.in_plane_bytes = p.value(x).ByteSize() / planes;
      c.out_plane_bytes = p.value(y).ByteSize() / planes;
      c.displacement = AlignUp(MinOverlapDisplacement(planes, c.in_plane_bytes, c.out_plane_bytes),
                               m.alignment);
      c.scratch = AlignUp(c.out_plane_bytes, m.alignment);
    } else if (elementwise) {
      c.kind = OverlapContract::Kind::kElements;
      c.planes = p.value(x).NumElements();
      if (c.planes == 0) continue;
      c.displacement = -AlignUp(MinElementsOffset(c.planes, p.value(x).ByteSize() / c.planes,
                                                  p.value(y).ByteSize() / c.planes),
                                m.alignment);
      c.scratch = 0;
    } else if (rows) {
      c.kind = OverlapContract::Kind::kRows;
      const Shape& xs = p.value(x).shape;
      const Shape& ys = p.value(y).shape;
      const int64_t elem = DTypeSize(p.value(x).dtype);
      c.planes = ys[0] * ys[2];
      c.displacement = AlignUp(MinRowsDisplacement(xs[0], xs[2], xs[1] * xs[3] * elem, ys[2],
                                                   ys[1] * ys[3] * elem, st.Ints("strides")[0],
                                                   st.Ints("pads")[0]),
                               m.alignment);
      c.scratch = 0;
    } else {
      c.kind = OverlapContract::Kind::kPixels;
      const Shape& ys = p.value(y).shape;
      int64_t pixels = 1;
      for (size_t d = 2; d < ys.size(); ++d) pixels *= ys[d];
      // 8-bit: one pixel at a time, its input channels copied to scratch as
      // int16 (the float kernel's blocks serve vectorization, not needed there).
      const bool q8 = st.op == OpKind::kQLinearConv;
      c.block = q8 ? 1 : std::min(pixels, kOverlapPixelBlock);
      c.displacement = 0;
      c.scratch = AlignUp(q8 ? p.value(x).shape[1] * 2 : ys[1] * c.block * 4, m.alignment);
    }
    const int64_t in = m.buffers[xb].aligned_bytes, outb = m.buffers[yb].aligned_bytes;
    c.credit = OverlapCredit(in, outb, c.displacement);
    if (c.credit <= c.scratch) continue;  // no saving
    out.push_back(c);
  }
  ChooseRowDirections(p, m, out);
  return out;
}

}  // namespace oc
