#include "passes/planning/lower_bounds.h"

#include <algorithm>

#include "passes/analysis/max_flow.h"

namespace oc {

namespace {

// The minimum cut behind LB_v, on a network built per query. Whatever the
// ideal S, v's ancestors (and forced-in nodes with theirs) are in it and v's
// descendants (and forced-out nodes with theirs) are not: they are merged
// into the source and the sink, so the network only holds the nodes that
// are free (incomparable with v) and the buffers whose payment depends on
// them. On wide graphs that is a small window around v, which makes each cut
// far cheaper than a flow over the whole graph.
class NodeCutSolver {
 public:
  explicit NodeCutSolver(const ScheduleGraph& g)
      : g_(g), side_(g.num_nodes, kFree), index_(g.num_nodes, -1),
        written_by_v_(g.buffers.size(), 0), ideal_of_(g.num_nodes) {}

  // With `enough` >= 0 and no ideal wanted, a query whose answer cannot
  // exceed `enough` may return an upper bound (at most `enough`) instead:
  // the live bytes of the smallest or the largest ideal, without a flow.
  NodeCut Query(int v, const std::vector<int>& forced_in, const std::vector<int>& forced_out,
                bool want_ideal, int64_t enough = -1) {
    const int64_t inf = MaxFlow::kInfinite;
    NodeCut result;
    std::fill(side_.begin(), side_.end(), kFree);
    // Sources: v's ancestors and each forced-in node with its ancestors.
    std::vector<int> stack(g_.preds[v].begin(), g_.preds[v].end());
    stack.insert(stack.end(), forced_in.begin(), forced_in.end());
    if (!Mark(stack, kSource, /*up=*/true)) return Infeasible();
    // Sinks: v, its descendants, each forced-out node with its descendants.
    stack = forced_out;
    stack.push_back(v);
    if (!Mark(stack, kSink, /*up=*/false)) return Infeasible();

    // What v writes is live at its step whatever S is: paid outright.
    int64_t fixed = g_.scratch[v];
    for (int b : g_.writes[v]) fixed += g_.buffers[b].bytes;
    for (int b : g_.writes[v]) written_by_v_[b] = 1;
    // The buffers whose payment depends on S: paid when a writer is in S and
    // a reader is not. Extra bytes when S holds only the sources, or every
    // free node too.
    open_.clear();
    int64_t smallest_extra = 0, largest_extra = 0;
    for (size_t b = 0; b < g_.buffers.size(); ++b) {
      const auto& buf = g_.buffers[b];
      if (written_by_v_[b]) continue;
      bool source_writer = false, sink_reader = false, free_writer = false, free_reader = false;
      for (int w : buf.writers) {
        source_writer = source_writer || side_[w] == kSource;
        free_writer = free_writer || side_[w] == kFree;
      }
      for (int r : buf.readers) {
        sink_reader = sink_reader || side_[r] == kSink;
        free_reader = free_reader || side_[r] == kFree;
      }
      if (!source_writer && !free_writer) continue;  // never written in S
      if (!sink_reader && !free_reader) continue;    // never read outside S
      if (source_writer && sink_reader) {
        fixed += buf.bytes;
        continue;
      }
      if (source_writer) smallest_extra += buf.bytes;  // a free reader is outside S
      if (sink_reader) largest_extra += buf.bytes;     // a free writer is in S
      open_.push_back({static_cast<int>(b), source_writer, sink_reader});
    }
    for (int b : g_.writes[v]) written_by_v_[b] = 0;
    int64_t upper = fixed + std::min(smallest_extra, largest_extra);
    if (!want_ideal && upper > enough && upper > fixed) {
      // The minimizing ideals of v's neighbours, moved to fit v, often
      // already show that v cannot beat `enough`: then no flow is needed.
      for (const NodeSet* ideal : CandidateIdeals(v)) {
        upper = std::min(upper, fixed + ExtraBytesWith(*ideal));
        if (upper <= enough) {
          if (forced_in.empty() && forced_out.empty()) ideal_of_[v] = *ideal;  // good enough for v's neighbours too
          break;
        }
      }
    }
    if (!want_ideal && (upper <= enough || upper == fixed)) {
      result.bytes = upper;  // exact when upper == fixed: no cut can be cheaper
      return result;
    }

    std::vector<int> free_nodes;
    for (int c = 0; c < g_.num_nodes; ++c) {
      if (side_[c] == kFree) {
        index_[c] = 2 + static_cast<int>(free_nodes.size());
        free_nodes.push_back(c);
      }
    }
    MaxFlow flow(2 + static_cast<int>(free_nodes.size()));
    const int s = 0, t = 1;
    for (int c : free_nodes) {
      for (int p : g_.preds[c]) {
        if (side_[p] == kFree) flow.AddArc(index_[c], index_[p], inf);  // S is closed under preds
      }
    }
    AddPayments(flow, s, t);
    const int64_t cut = flow.Run(s, t);
    if (cut >= inf) return Infeasible();
    result.bytes = fixed + cut;
    std::vector<bool> in_s = flow.SourceSide(s);
    NodeSet ideal(g_.num_nodes);
    for (int c = 0; c < g_.num_nodes; ++c) {
      if (side_[c] == kSource || (side_[c] == kFree && in_s[index_[c]])) {
        ideal.Add(c);
        if (want_ideal) result.ideal.push_back(c);
      }
    }
    if (forced_in.empty() && forced_out.empty()) ideal_of_[v] = std::move(ideal);
    return result;
  }

 private:
  enum Side : char { kFree, kSource, kSink };

  // Each open buffer's payment, one arc of the network (Query's flow).
  void AddPayments(MaxFlow& flow, int s, int t) {
    const int64_t inf = MaxFlow::kInfinite;
    std::vector<int>& free_writers = free_writers_;
    std::vector<int>& free_readers = free_readers_;
    for (const OpenBuffer& o : open_) {
      const auto& buf = g_.buffers[o.buffer];
      free_writers.clear();
      free_readers.clear();
      for (int w : buf.writers) {
        if (side_[w] == kFree) free_writers.push_back(index_[w]);
      }
      for (int r : buf.readers) {
        if (side_[r] == kFree) free_readers.push_back(index_[r]);
      }
      // gather: in S when a writer is; pay: outside S when a reader is; the
      // arc between them is the payment. Two nodes, so a buffer with several
      // writers is paid once.
      int gather = s, pay = t;
      if (!o.source_writer) {
        gather = free_writers.size() == 1 ? free_writers[0] : flow.AddNode();
        if (free_writers.size() > 1) {
          for (int w : free_writers) flow.AddArc(w, gather, inf);
        }
      }
      if (!o.sink_reader) {
        pay = free_readers.size() == 1 ? free_readers[0] : flow.AddNode();
        if (free_readers.size() > 1) {
          for (int r : free_readers) flow.AddArc(pay, r, inf);
        }
      }
      flow.AddArc(gather, pay, buf.bytes);
    }
  }

  static NodeCut Infeasible() {
    NodeCut r;
    r.bytes = MaxFlow::kInfinite;
    return r;
  }

  // A set of nodes as bits.
  class NodeSet {
   public:
    NodeSet() = default;
    explicit NodeSet(int n) : words_((static_cast<size_t>(n) + 63) / 64, 0) {}
    void Add(int c) { words_[c >> 6] |= uint64_t{1} << (c & 63); }
    bool Has(int c) const { return (words_[c >> 6] >> (c & 63)) & 1u; }
    bool empty() const { return words_.empty(); }

   private:
    std::vector<uint64_t> words_;
  };

  // The bytes beyond `fixed` for the ideal made of `ideal`, v's ancestors
  // and the forced-in nodes, less v's descendants and the forced-out nodes:
  // an ideal too (a union of ideals less an up-set), so an upper bound on the
  // cut. Only the open buffers depend on it.
  int64_t ExtraBytesWith(const NodeSet& ideal) const {
    auto in_s = [&](int c) { return side_[c] == kSource || (side_[c] == kFree && ideal.Has(c)); };
    int64_t extra = 0;
    for (const OpenBuffer& o : open_) {
      const auto& buf = g_.buffers[o.buffer];
      if (!o.source_writer && std::none_of(buf.writers.begin(), buf.writers.end(), in_s)) continue;
      if (!o.sink_reader && std::all_of(buf.readers.begin(), buf.readers.end(), in_s)) continue;
      extra += buf.bytes;
    }
    return extra;
  }

  // The minimizing ideals already found for v's neighbours: a neighbour's
  // best ideal is often close to v's.
  std::vector<const NodeSet*> CandidateIdeals(int v) const {
    std::vector<const NodeSet*> out;
    for (const auto* around : {&g_.preds[v], &g_.succs[v]}) {
      for (int u : *around) {
        if (!ideal_of_[u].empty()) out.push_back(&ideal_of_[u]);
      }
    }
    for (int p : g_.preds[v]) {
      for (int u : g_.succs[p]) {
        if (u != v && !ideal_of_[u].empty()) out.push_back(&ideal_of_[u]);
      }
    }
    return out;
  }

  // Marks the nodes on `stack` and their ancestors (up) or descendants;
  // false when one is already on the other side (no ideal exists).
  bool Mark(std::vector<int>& stack, Side side, bool up) {
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      if (side_[c] == side) continue;
      if (side_[c] != kFree) return false;
      side_[c] = side;
      for (int u : up ? g_.preds[c] : g_.succs[c]) stack.push_back(u);
    }
    return true;
  }

  const ScheduleGraph& g_;
  std::vector<Side> side_;
  std::vector<int> index_;
  std::vector<char> written_by_v_;  // per buffer, during a query
  std::vector<int> free_writers_, free_readers_;
  struct OpenBuffer {
    int buffer;
    bool source_writer, sink_reader;
  };
  std::vector<OpenBuffer> open_;  // during a query
  // Per node: its minimizing ideal once a flow found it, or the neighbour's
  // ideal that showed the node could not beat the best.
  std::vector<NodeSet> ideal_of_;
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

// Per node, the least live bytes at its step over `order` and the cheap
// heuristic orders.
std::vector<int64_t> LiveBytesUpperBounds(const ScheduleGraph& g, const std::vector<int>& order) {
  std::vector<int64_t> upper(g.num_nodes, MaxFlow::kInfinite);
  for (const std::vector<int>& o : {order, FileOrder(g), ReversePostOrder(g), GreedyLeastPeak(g), MemoryAwareDfs(g)}) {
    if (!IsTopologicalOrder(g, o)) continue;  // node indices need not be one (a reversed program)
    const std::vector<int64_t> live = LiveBytes(g, o);
    for (size_t step = 0; step < o.size(); ++step) upper[o[step]] = std::min(upper[o[step]], live[step]);
  }
  return upper;
}

LowerBound BoundOn(const ScheduleGraph& g, const std::vector<int>& order, int64_t stop_at,
                   WorkBudget& budget, bool try_pairs) {
  LowerBound best;
  const int n = g.num_nodes;
  if (n == 0) return best;
  const int64_t cut_cost = n + static_cast<int64_t>(g.buffers.size());
  // Every order's live bytes at v's step bound LB_v from above; the least
  // over a few cheap orders prunes most nodes on wide graphs, where the
  // best order's own profile is far above the bound. Visit nodes from the
  // most promising and stop when no remaining one can beat the best.
  const std::vector<int64_t> upper = LiveBytesUpperBounds(g, order);
  std::vector<int> by_upper(n);
  for (int i = 0; i < n; ++i) by_upper[i] = i;
  std::stable_sort(by_upper.begin(), by_upper.end(), [&](int a, int b) { return upper[a] > upper[b]; });
  NodeCutSolver solver(g);
  for (int v : by_upper) {
    if (upper[v] <= best.bytes || best.bytes >= stop_at) break;
    if (!budget.Spend(cut_cost)) {
      best.complete = false;
      break;
    }
    NodeCut cut = solver.Query(v, {}, {}, /*want_ideal=*/false, /*enough=*/best.bytes);
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
  // (Both in one order: the least over several orders does not bound a pair.)
  const std::vector<int64_t> live = LiveBytes(g, order);
  std::vector<int> by_live(n);
  for (int i = 0; i < n; ++i) by_live[i] = i;
  std::stable_sort(by_live.begin(), by_live.end(), [&](int a, int b) { return live[a] > live[b]; });
  for (int step_u : by_live) {
    if (live[step_u] <= best.bytes || best.bytes >= stop_at) break;
    int u = order[step_u];
    for (int w = 0; w < n; ++w) {
      if (w == u || is_anc(u, w) || is_anc(w, u)) continue;
      if (!budget.Spend(2 * cut_cost)) {
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
                             WorkBudget& budget, bool try_pairs) {
  // design.md also suggests the reversed program as a second family. It adds
  // nothing under this memory model: reversing an order mirrors its live
  // bytes, so each node's minimum over ideals is the same backwards
  // (schedule_bounds_test checks this on hundreds of graphs). One direction
  // is enough.
  LowerBound nodes = BoundOn(g, order, stop_at, budget, false);
  if (nodes.bytes >= stop_at || !try_pairs || !nodes.complete) return nodes;
  LowerBound pairs = BoundOn(g, order, stop_at, budget, true);
  pairs.cuts_computed += nodes.cuts_computed;
  return pairs.bytes > nodes.bytes ? pairs : nodes;
}

}  // namespace oc
