#include "passes/lower_bounds.h"

#include <algorithm>

#include "passes/max_flow.h"

namespace oc {

namespace {

// The minimum-cut network of a schedule graph, built once and reused for
// every query (only a query's own arcs and capacity changes are undone).
class NodeCutSolver {
 public:
  explicit NodeCutSolver(const ScheduleGraph& g)
      : g_(g), flow_(g.num_nodes + 2), source_(g.num_nodes), sink_(g.num_nodes + 1) {
    const int64_t inf = MaxFlow::kInfinite;
    for (int c = 0; c < g.num_nodes; ++c) {
      for (int p : g.preds[c]) flow_.AddArc(c, p, inf);  // S is closed under predecessors
    }
    pay_arc_.resize(g.buffers.size());
    for (size_t b = 0; b < g.buffers.size(); ++b) {
      // A writer in S and a reader outside S: the arc of capacity bytes is cut.
      // Two nodes per buffer, so a buffer with several writers is paid once.
      const auto& buf = g.buffers[b];
      const int gather = flow_.AddNode(), pay = flow_.AddNode();
      for (int w : buf.writers) flow_.AddArc(w, gather, inf);
      pay_arc_[b] = flow_.AddArc(gather, pay, buf.bytes);
      for (int r : buf.readers) flow_.AddArc(pay, r, inf);
    }
  }

  NodeCut Query(int v, const std::vector<int>& forced_in, const std::vector<int>& forced_out,
                bool want_ideal) {
    const int64_t inf = MaxFlow::kInfinite;
    // What v writes is live at its step whatever S is: paid outright, and
    // taken out of the network so the cut never pays it twice.
    int64_t fixed = g_.scratch[v];
    for (int b : g_.writes[v]) {
      fixed += g_.buffers[b].bytes;
      flow_.SetCapacity(pay_arc_[b], 0);
    }
    for (int p : g_.preds[v]) flow_.AddTemporaryArc(source_, p, inf);
    for (int u : forced_in) flow_.AddTemporaryArc(source_, u, inf);
    for (int u : forced_out) flow_.AddTemporaryArc(u, sink_, inf);
    flow_.AddTemporaryArc(v, sink_, inf);
    NodeCut result;
    const int64_t cut = flow_.Run(source_, sink_);
    if (cut >= inf) {
      result.bytes = inf;
    } else {
      result.bytes = fixed + cut;
      if (want_ideal) {
        std::vector<bool> side = flow_.SourceSide(source_);
        for (int u = 0; u < g_.num_nodes; ++u) {
          if (side[u]) result.ideal.push_back(u);
        }
      }
    }
    flow_.Restore();
    return result;
  }

 private:
  const ScheduleGraph& g_;
  MaxFlow flow_;
  const int source_, sink_;
  std::vector<int> pay_arc_;
};

}  // namespace

NodeCut MinLiveBytesAt(const ScheduleGraph& g, int v, const std::vector<int>& forced_in,
                       const std::vector<int>& forced_out) {
  return NodeCutSolver(g).Query(v, forced_in, forced_out, /*want_ideal=*/true);
}

namespace {

// Ancestor sets as bitsets (for the pair bound's independence test).
std::vector<std::vector<uint64_t>> Ancestors(const ScheduleGraph& g, const std::vector<int>& topo) {
  const size_t words = (static_cast<size_t>(g.num_nodes) + 63) / 64;
  std::vector<std::vector<uint64_t>> anc(g.num_nodes, std::vector<uint64_t>(words, 0));
  for (int v : topo) {
    for (int p : g.preds[v]) {
      for (size_t k = 0; k < words; ++k) anc[v][k] |= anc[p][k];
      anc[v][p >> 6] |= uint64_t{1} << (p & 63);
    }
  }
  return anc;
}

LowerBound BoundOn(const ScheduleGraph& g, const std::vector<int>& order, int64_t stop_at,
                   Deadline deadline, bool try_pairs) {
  LowerBound best;
  const int n = g.num_nodes;
  if (n == 0) return best;
  std::vector<int64_t> live = LiveBytes(g, order);
  // The order's live bytes at v's step bound LB_v from above: visit nodes from
  // the most promising and stop when no remaining one can beat the best.
  std::vector<int> by_live(n);
  for (int i = 0; i < n; ++i) by_live[i] = i;
  std::stable_sort(by_live.begin(), by_live.end(), [&](int a, int b) { return live[a] > live[b]; });
  NodeCutSolver solver(g);
  for (int step : by_live) {
    if (live[step] <= best.bytes || best.bytes >= stop_at) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      best.complete = false;
      break;
    }
    int v = order[step];
    NodeCut cut = solver.Query(v, {}, {}, /*want_ideal=*/false);
    ++best.cuts_computed;
    if (cut.bytes > best.bytes) {
      best.bytes = cut.bytes;
      best.kind = "node";
      best.nodes = {v};
      best.cuts = {};
    }
  }
  // The witness ideal is computed once, for the winner.
  if (!best.nodes.empty()) best.cuts = {solver.Query(best.nodes[0], {}, {}, true)};
  if (!try_pairs || best.bytes >= stop_at || !best.complete) return best;
  // Pair bound: a pair can only beat B when one of its nodes has live bytes
  // above B in the order (the pair bound is at most the larger of the two).
  std::vector<std::vector<uint64_t>> anc = Ancestors(g, order);
  auto is_anc = [&](int a, int b) { return (anc[b][a >> 6] >> (a & 63)) & 1u; };
  for (int step_u : by_live) {
    if (live[step_u] <= best.bytes || best.bytes >= stop_at) break;
    int u = order[step_u];
    for (int w = 0; w < n; ++w) {
      if (w == u || is_anc(u, w) || is_anc(w, u)) continue;
      if (std::chrono::steady_clock::now() >= deadline) {
        best.complete = false;
        return best;
      }
      // The pair bound is at most each case's max: skip the second case when
      // the first cannot beat the best.
      NodeCut w_after_u = solver.Query(w, {u}, {}, true);
      NodeCut u_before_w = solver.Query(u, {}, {w}, true);
      best.cuts_computed += 2;
      if (std::max(w_after_u.bytes, u_before_w.bytes) <= best.bytes) continue;
      NodeCut u_after_w = solver.Query(u, {w}, {}, true);
      NodeCut w_before_u = solver.Query(w, {}, {u}, true);
      best.cuts_computed += 2;
      int64_t bound = std::min(std::max(w_after_u.bytes, u_before_w.bytes),
                               std::max(u_after_w.bytes, w_before_u.bytes));
      if (bound > best.bytes && bound < MaxFlow::kInfinite) {
        best.bytes = bound;
        best.kind = "pair";
        best.nodes = {u, w};
        best.cuts = {w_after_u, u_before_w, u_after_w, w_before_u};
        if (best.bytes >= stop_at) return best;
      }
    }
  }
  return best;
}

}  // namespace

LowerBound ComputeLowerBound(const ScheduleGraph& g, const std::vector<int>& order, int64_t stop_at,
                             Deadline deadline, bool try_pairs) {
  // design.md also suggests the reversed program as a second family. It adds
  // nothing under this memory model: reversing an order mirrors its live
  // bytes, so each node's minimum over ideals is the same backwards
  // (schedule_bounds_test checks this on hundreds of graphs). One direction
  // is enough.
  LowerBound nodes = BoundOn(g, order, stop_at, deadline, false);
  if (nodes.bytes >= stop_at || !try_pairs || !nodes.complete) return nodes;
  LowerBound pairs = BoundOn(g, order, stop_at, deadline, true);
  pairs.cuts_computed += nodes.cuts_computed;
  return pairs.bytes > nodes.bytes ? pairs : nodes;
}

}  // namespace oc
