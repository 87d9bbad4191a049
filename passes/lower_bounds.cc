#include "passes/lower_bounds.h"

#include <algorithm>

#include "passes/max_flow.h"

namespace oc {

NodeCut MinLiveBytesAt(const ScheduleGraph& g, int v, const std::vector<int>& forced_in,
                       const std::vector<int>& forced_out) {
  const int n = g.num_nodes;
  const int64_t inf = MaxFlow::kInfinite;
  // What v writes is live at its step whatever S is: paid outright, and kept
  // out of the network so the cut never pays it twice.
  int64_t fixed = g.scratch[v];
  std::vector<bool> written_by_v(g.buffers.size(), false);
  for (int b : g.writes[v]) {
    written_by_v[b] = true;
    fixed += g.buffers[b].bytes;
  }
  MaxFlow flow(n + 2);
  const int source = n, sink = n + 1;
  for (int c = 0; c < n; ++c) {
    for (int p : g.preds[c]) flow.AddArc(c, p, inf);  // S is closed under predecessors
  }
  for (size_t b = 0; b < g.buffers.size(); ++b) {
    if (written_by_v[b]) continue;
    const auto& buf = g.buffers[b];
    // writer in S and a reader outside S: the arc of capacity bytes is cut.
    int gather = flow.AddNode(), pay = flow.AddNode();
    for (int w : buf.writers) flow.AddArc(w, gather, inf);
    flow.AddArc(gather, pay, buf.bytes);
    for (int r : buf.readers) flow.AddArc(pay, r, inf);
  }
  for (int p : g.preds[v]) flow.AddArc(source, p, inf);
  for (int u : forced_in) flow.AddArc(source, u, inf);
  for (int u : forced_out) flow.AddArc(u, sink, inf);
  flow.AddArc(v, sink, inf);
  NodeCut result;
  int64_t cut = flow.Run(source, sink);
  if (cut >= inf) {
    result.bytes = inf;
    return result;
  }
  result.bytes = fixed + cut;
  std::vector<bool> side = flow.SourceSide(source);
  for (int u = 0; u < n; ++u) {
    if (side[u]) result.ideal.push_back(u);
  }
  return result;
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
  std::vector<int64_t> node_lb(n, -1);
  for (int step : by_live) {
    if (live[step] <= best.bytes || best.bytes >= stop_at) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      best.complete = false;
      break;
    }
    int v = order[step];
    NodeCut cut = MinLiveBytesAt(g, v);
    ++best.cuts_computed;
    node_lb[v] = cut.bytes;
    if (cut.bytes > best.bytes) {
      best.bytes = cut.bytes;
      best.kind = "node";
      best.nodes = {v};
      best.cuts = {cut};
    }
  }
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
      // Each case's max must beat the best for the pair to matter.
      NodeCut w_after_u = MinLiveBytesAt(g, w, {u}, {});
      NodeCut u_before_w = MinLiveBytesAt(g, u, {}, {w});
      NodeCut u_after_w = MinLiveBytesAt(g, u, {w}, {});
      NodeCut w_before_u = MinLiveBytesAt(g, w, {}, {u});
      best.cuts_computed += 4;
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
  LowerBound forward = BoundOn(g, order, stop_at, deadline, false);
  if (forward.bytes >= stop_at) return forward;
  std::vector<int> reversed_order(order.rbegin(), order.rend());
  ScheduleGraph reversed = g.Reversed();
  LowerBound backward = BoundOn(reversed, reversed_order, stop_at, deadline, false);
  backward.kind += "+reverse";
  LowerBound best = backward.bytes > forward.bytes ? backward : forward;
  best.cuts_computed = forward.cuts_computed + backward.cuts_computed;
  best.complete = forward.complete && backward.complete;
  if (best.bytes >= stop_at || !try_pairs) return best;
  LowerBound pair = BoundOn(g, order, stop_at, deadline, true);
  pair.cuts_computed += best.cuts_computed;
  if (pair.bytes > best.bytes) return pair;
  best.cuts_computed = pair.cuts_computed;
  best.complete = best.complete && pair.complete;
  return best;
}

}  // namespace oc
