// The memory model's liveness rule, the max-flow code and the min-cut lower
// bounds, checked against brute force over ALL topological orders of
// hundreds of small random graphs (multi-writer buffers, in-place updates,
// unread buffers, scratch, edges without buffers).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "bench/graph_generators.h"
#include "gtest/gtest.h"
#include "passes/analysis/max_flow.h"
#include "passes/analysis/schedule_graph.h"
#include "passes/planning/lower_bounds.h"
#include "passes/planning/schedulers.h"

namespace oc {
namespace {

constexpr int64_t kInf = MaxFlow::kInfinite;

// A budget no test exhausts.
WorkBudget& Far() {
  static WorkBudget budget(int64_t{1} << 60);
  return budget;
}

// --- Independent re-implementation of the liveness rule ------------------------

// design.md: a buffer is live from the step of its first writer to the step of
// its last reader (a buffer nothing reads is live at its writers' steps: the
// graph lists its writers as its readers); a step also pays its scratch.
// Written as quantifiers, without intervals or difference arrays.
int64_t LiveAt(const ScheduleGraph& g, const std::vector<int>& pos, int step) {
  int64_t live = 0;
  for (const auto& b : g.buffers) {
    bool written = false, read_later = false;
    for (int w : b.writers) written = written || pos[w] <= step;
    for (int r : b.readers) read_later = read_later || pos[r] >= step;
    if (written && read_later) live += b.bytes;
  }
  return live;
}

std::vector<int64_t> IndependentLiveBytes(const ScheduleGraph& g, const std::vector<int>& order) {
  const int n = g.num_nodes;
  std::vector<int> pos(n);
  for (int i = 0; i < n; ++i) pos[order[i]] = i;
  std::vector<int64_t> live(n);
  for (int i = 0; i < n; ++i) live[i] = LiveAt(g, pos, i) + g.scratch[order[i]];
  return live;
}

std::vector<std::vector<char>> Reachability(const ScheduleGraph& g) {
  // reach[a][b]: a path a -> ... -> b (a != b); node indices need not be topological
  const int n = g.num_nodes;
  std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
  for (int a = 0; a < n; ++a) {
    std::vector<int> stack = {a};
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      for (int s : g.succs[x]) {
        if (!reach[a][s]) {
          reach[a][s] = 1;
          stack.push_back(s);
        }
      }
    }
  }
  return reach;
}

// --- Brute force over all orders ----------------------------------------------------

struct BruteForce {
  int64_t orders = 0;
  int64_t opt = 0;
  std::vector<int> opt_order;
  std::vector<int64_t> min_live;  // per node: min over orders of the live bytes at its step
  // min_after[u][w]: min live at u's step over orders with w before u (kInf if none);
  // min_before[u][w]: ... with w after u.
  std::vector<std::vector<int64_t>> min_after, min_before;
  int64_t node_bound = 0, pair_bound = 0;
};

BruteForce Solve(const ScheduleGraph& g) {
  const int n = g.num_nodes;
  BruteForce bf;
  bf.opt = kInf;
  bf.min_live.assign(n, kInf);
  bf.min_after.assign(n, std::vector<int64_t>(n, kInf));
  bf.min_before.assign(n, std::vector<int64_t>(n, kInf));
  std::vector<int> pos(n);
  bf.orders = ForEachTopologicalOrder(g, [&](const std::vector<int>& order) {
    std::vector<int64_t> live = IndependentLiveBytes(g, order);
    for (int i = 0; i < n; ++i) pos[order[i]] = i;
    int64_t peak = *std::max_element(live.begin(), live.end());
    if (peak < bf.opt) {
      bf.opt = peak;
      bf.opt_order = order;
    }
    for (int u = 0; u < n; ++u) {
      int64_t l = live[pos[u]];
      bf.min_live[u] = std::min(bf.min_live[u], l);
      for (int w = 0; w < n; ++w) {
        if (w == u) continue;
        auto& slot = pos[w] < pos[u] ? bf.min_after[u][w] : bf.min_before[u][w];
        slot = std::min(slot, l);
      }
    }
    return true;
  });
  for (int v = 0; v < n; ++v) bf.node_bound = std::max(bf.node_bound, bf.min_live[v]);
  // The pair bound of design.md, from the brute-force minima.
  for (int u = 0; u < n; ++u) {
    for (int w = 0; w < n; ++w) {
      if (u == w || bf.min_after[w][u] == kInf || bf.min_after[u][w] == kInf) continue;  // comparable
      int64_t u_first = std::max(bf.min_after[w][u], bf.min_before[u][w]);
      int64_t w_first = std::max(bf.min_after[u][w], bf.min_before[w][u]);
      bf.pair_bound = std::max(bf.pair_bound, std::min(u_first, w_first));
    }
  }
  return bf;
}

// --- The corpus ------------------------------------------------------------------------

constexpr int64_t kMaxOrders = 100000;

struct Case {
  std::string name;
  ScheduleGraph g;
};

// Hundreds of random graphs of 3..12 nodes with few enough orders to
// enumerate, with every feature of the model switched on in most of them.
const std::vector<Case>& SmallCorpus() {
  static const std::vector<Case> corpus = [] {
    std::vector<Case> out;
    for (uint64_t seed = 1; out.size() < 320 && seed < 20000; ++seed) {
      int n = 3 + static_cast<int>(seed % 10);
      SmallDagOptions o;
      o.edge_density = 0.1 + 0.05 * static_cast<double>(seed % 8);
      switch (seed % 5) {
        case 0: o.multi_writer = o.in_place = false; break;       // plain buffers
        case 1: o.unread_buffers = false; break;                   // every buffer read
        case 2: o.scratch = o.extra_edges = false; break;
        default: break;                                            // everything
      }
      ScheduleGraph g = SmallRandomDag(n, seed, o);
      if (CountTopologicalOrders(g, kMaxOrders + 1) > kMaxOrders) continue;
      if (seed % 3 == 0) g = RandomTopologicalRelabel(g, seed);  // file order not the build order
      out.push_back({"small_dag_seed" + std::to_string(seed) + "_n" + std::to_string(n), std::move(g)});
    }
    return out;
  }();
  return corpus;
}

const std::vector<BruteForce>& SmallCorpusSolutions() {
  static const std::vector<BruteForce> sol = [] {
    std::vector<BruteForce> out;
    for (const Case& c : SmallCorpus()) out.push_back(Solve(c.g));
    return out;
  }();
  return sol;
}

TEST(ScheduleBruteForce, CorpusIsLargeAndUsesEveryFeature) {
  const auto& corpus = SmallCorpus();
  ASSERT_GE(corpus.size(), 300u);
  int multi_writer = 0, unread = 0, scratch = 0, in_place = 0, big = 0, no_write = 0;
  for (const Case& c : corpus) {
    const ScheduleGraph& g = c.g;
    ASSERT_TRUE(IsTopologicalOrder(g, RandomTopologicalOrder(g, 1))) << c.name;
    big += g.num_nodes >= 11;
    for (const auto& b : g.buffers) {
      multi_writer += b.writers.size() > 1;
      unread += b.readers == b.writers;
      EXPECT_EQ(b.bytes % 16, 0) << c.name;
      for (int w : b.writers) {
        in_place += b.writers.size() > 1 && std::count(b.readers.begin(), b.readers.end(), w) > 0;
      }
    }
    for (int v = 0; v < g.num_nodes; ++v) {
      scratch += g.scratch[v] > 0;
      no_write += g.writes[v].empty();
    }
  }
  int64_t orders = 0;
  for (const BruteForce& bf : SmallCorpusSolutions()) orders += bf.orders;
  std::printf("%zu graphs, %lld topological orders in all; %d shared buffers, %d unread, %d in-place writers, "
              "%d nodes with scratch\n", corpus.size(), static_cast<long long>(orders), multi_writer, unread, in_place,
              scratch);
  EXPECT_GT(multi_writer, 100);
  EXPECT_GT(unread, 100);
  EXPECT_GT(scratch, 100);
  EXPECT_GT(in_place, 30);
  EXPECT_GT(no_write, 50);
  EXPECT_GT(big, 30);
}

TEST(ScheduleBruteForce, EnumeratorVisitsEveryOrderOnce) {
  for (const Case& c : SmallCorpus()) {
    std::vector<std::vector<int>> seen;
    int64_t visited = ForEachTopologicalOrder(c.g, [&](const std::vector<int>& o) {
      EXPECT_TRUE(IsTopologicalOrder(c.g, o));
      seen.push_back(o);
      return true;
    });
    EXPECT_EQ(visited, CountTopologicalOrders(c.g, kMaxOrders + 1)) << c.name;
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
  }
}

// (a) LiveBytes, BufferIntervals and PeakBytes agree with the independent rule
// on every order of every graph.
TEST(ScheduleLiveBytes, MatchesIndependentRecomputationOnAllOrders) {
  int64_t checked = 0;
  for (const Case& c : SmallCorpus()) {
    ForEachTopologicalOrder(c.g, [&](const std::vector<int>& order) {
      std::vector<int64_t> expect = IndependentLiveBytes(c.g, order);
      std::vector<int64_t> live = LiveBytes(c.g, order);
      EXPECT_EQ(live, expect) << c.name;
      EXPECT_EQ(PeakBytes(c.g, order), *std::max_element(expect.begin(), expect.end()));
      ++checked;
      return live == expect;  // stop this graph at its first mismatch
    });
  }
  EXPECT_GT(checked, 5000);
}

TEST(ScheduleLiveBytes, HandWrittenExamples) {
  // 0 -> 1 -> 2 and 0 -> 2: buffer a (0 writes; 1, 2 read), b (1 writes, 2 reads).
  ScheduleGraph g(3);
  g.AddBuffer(32, {0}, {1, 2});
  g.AddBuffer(48, {1}, {2});
  g.AddBuffer(16, {2}, {});  // nobody reads it: live at its writer's step only
  g.scratch[1] = 64;
  for (auto [a, b] : {std::pair{0, 1}, {0, 2}, {1, 2}}) g.AddEdge(a, b);
  g.Finish();
  EXPECT_EQ(LiveBytes(g, {0, 1, 2}), (std::vector<int64_t>{32, 32 + 48 + 64, 32 + 48 + 16}));
  // a concat written in place by 0 and 1, read by 2; 3 independent
  ScheduleGraph h(4);
  h.AddBuffer(100 * 16, {0, 1}, {2});
  h.AddBuffer(16, {3}, {});
  for (auto [a, b] : {std::pair{0, 2}, {1, 2}}) h.AddEdge(a, b);
  h.Finish();
  EXPECT_EQ(LiveBytes(h, {0, 3, 1, 2}), (std::vector<int64_t>{1600, 1616, 1600, 1600}));
  EXPECT_EQ(LiveBytes(h, {3, 0, 1, 2}), (std::vector<int64_t>{16, 1600, 1600, 1600}));
  std::vector<StepInterval> iv = BufferIntervals(h, {0, 3, 1, 2});
  EXPECT_EQ(iv[0].first, 0);
  EXPECT_EQ(iv[0].last, 3);
  EXPECT_EQ(iv[1].first, 1);
  EXPECT_EQ(iv[1].last, 1);
}

// --- MaxFlow ------------------------------------------------------------------------

struct ArcSpec {
  int from, to;
  int64_t cap;
};

int64_t BruteForceMinCut(int n, int s, int t, const std::vector<ArcSpec>& arcs) {
  int64_t best = kInf;
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    if (!((mask >> s) & 1u) || ((mask >> t) & 1u)) continue;
    int64_t cut = 0;
    for (const ArcSpec& a : arcs) {
      if (((mask >> a.from) & 1u) && !((mask >> a.to) & 1u)) cut = std::min(kInf, cut + a.cap);
    }
    best = std::min(best, cut);
  }
  return best;
}

// Edmonds-Karp on an adjacency matrix: a second, simple max-flow.
int64_t EdmondsKarp(int n, int s, int t, const std::vector<ArcSpec>& arcs) {
  std::vector<std::vector<int64_t>> cap(n, std::vector<int64_t>(n, 0));
  for (const ArcSpec& a : arcs) cap[a.from][a.to] += a.cap;
  int64_t flow = 0;
  while (true) {
    std::vector<int> parent(n, -1);
    parent[s] = s;
    std::queue<int> q;
    q.push(s);
    while (!q.empty() && parent[t] < 0) {
      int v = q.front();
      q.pop();
      for (int u = 0; u < n; ++u) {
        if (parent[u] < 0 && cap[v][u] > 0) {
          parent[u] = v;
          q.push(u);
        }
      }
    }
    if (parent[t] < 0) return flow;
    int64_t f = kInf;
    for (int v = t; v != s; v = parent[v]) f = std::min(f, cap[parent[v]][v]);
    for (int v = t; v != s; v = parent[v]) {
      cap[parent[v]][v] -= f;
      cap[v][parent[v]] += f;
    }
    flow += f;
  }
}

TEST(MaxFlow, MatchesBruteForceMinCutOnTinyGraphs) {
  GenRng rng(42);
  int infinite_cuts = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    int n = static_cast<int>(rng.Uniform(2, 8));
    int s = static_cast<int>(rng.Uniform(0, n - 1)), t = static_cast<int>(rng.Uniform(0, n - 2));
    if (t >= s) ++t;
    std::vector<ArcSpec> arcs;
    int m = static_cast<int>(rng.Uniform(0, 3 * n));
    for (int k = 0; k < m; ++k) {
      int a = static_cast<int>(rng.Uniform(0, n - 1)), b = static_cast<int>(rng.Uniform(0, n - 1));
      if (a == b) continue;
      int64_t cap = rng.Chance(0.15) ? kInf : rng.Uniform(0, 20) * 16;
      arcs.push_back({a, b, cap});
    }
    MaxFlow f(n);
    for (const ArcSpec& a : arcs) f.AddArc(a.from, a.to, a.cap);
    int64_t expect = BruteForceMinCut(n, s, t, arcs);
    int64_t got = f.Run(s, t);
    ASSERT_EQ(got, expect) << "trial " << trial;
    if (expect >= kInf) {
      ++infinite_cuts;
      continue;
    }
    // The residual source side is a minimum cut.
    std::vector<bool> side = f.SourceSide(s);
    ASSERT_TRUE(side[s]);
    ASSERT_FALSE(side[t]);
    int64_t cut = 0;
    for (const ArcSpec& a : arcs) {
      if (side[a.from] && !side[a.to]) cut += a.cap;
    }
    ASSERT_EQ(cut, expect) << "trial " << trial;
  }
  EXPECT_GT(infinite_cuts, 50);
}

TEST(MaxFlow, MatchesEdmondsKarpOnMediumGraphs) {
  GenRng rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    int n = static_cast<int>(rng.Uniform(20, 300));
    std::vector<ArcSpec> arcs;
    for (int k = 0; k < 4 * n; ++k) {
      int a = static_cast<int>(rng.Uniform(0, n - 1)), b = static_cast<int>(rng.Uniform(0, n - 1));
      if (a != b) arcs.push_back({a, b, rng.Uniform(1, 1000)});
    }
    // a long path so that level graphs get deep (the iterative DFS)
    for (int v = 0; v + 1 < n; ++v) arcs.push_back({v, v + 1, rng.Uniform(1, 50)});
    MaxFlow f(n);
    for (const ArcSpec& a : arcs) f.AddArc(a.from, a.to, a.cap);
    EXPECT_EQ(f.Run(0, n - 1), EdmondsKarp(n, 0, n - 1, arcs)) << "trial " << trial;
  }
}

TEST(MaxFlow, InfinitePathSaturatesAndAddNodeWorks) {
  MaxFlow f(2);
  int a = f.AddNode(), b = f.AddNode();
  f.AddArc(0, a, kInf);
  f.AddArc(a, b, kInf);
  f.AddArc(b, 1, kInf);
  f.AddArc(0, 1, 5);
  EXPECT_EQ(f.Run(0, 1), kInf);
  MaxFlow g(3);
  EXPECT_EQ(g.Run(0, 2), 0);  // no arcs
  std::vector<bool> side = g.SourceSide(0);
  EXPECT_TRUE(side[0]);
  EXPECT_FALSE(side[1]);
}

TEST(MaxFlow, DeepChainDoesNotOverflowTheStack) {
  const int n = 200000;
  MaxFlow f(n);
  for (int v = 0; v + 1 < n; ++v) f.AddArc(v, v + 1, 1000 - (v % 997));
  EXPECT_EQ(f.Run(0, n - 1), 1000 - 996);
}

// --- Node bound -------------------------------------------------------------------------

// The ideal is valid for v with the forced nodes, and its cost recomputed
// independently (the live bytes at v's step of an order that runs exactly the
// ideal before v) equals the reported bytes.
void CheckIdeal(const ScheduleGraph& g, const std::vector<std::vector<char>>& reach, int v,
                const std::vector<int>& forced_in, const std::vector<int>& forced_out,
                const NodeCut& cut, const std::string& where) {
  const int n = g.num_nodes;
  std::vector<char> in(n, 0);
  ASSERT_TRUE(std::is_sorted(cut.ideal.begin(), cut.ideal.end())) << where;
  for (int u : cut.ideal) {
    ASSERT_GE(u, 0);
    ASSERT_LT(u, n);
    in[u] = 1;
  }
  ASSERT_FALSE(in[v]) << where;
  for (int u = 0; u < n; ++u) {
    if (in[u]) {
      for (int p : g.preds[u]) ASSERT_TRUE(in[p]) << where << ": not closed under preds at " << u;
    }
    if (reach[u][v]) {
      ASSERT_TRUE(in[u]) << where << ": misses ancestor " << u;
    }
    if (reach[v][u]) {
      ASSERT_FALSE(in[u]) << where << ": holds descendant " << u;
    }
  }
  for (int u : forced_in) ASSERT_TRUE(in[u]) << where;
  for (int u : forced_out) ASSERT_FALSE(in[u]) << where;
  // ideal (topologically), v, the rest (topologically)
  std::vector<int> order;
  std::vector<int> topo = RandomTopologicalOrder(g, 99);
  for (int u : topo) {
    if (in[u]) order.push_back(u);
  }
  order.push_back(v);
  for (int u : topo) {
    if (!in[u] && u != v) order.push_back(u);
  }
  ASSERT_TRUE(IsTopologicalOrder(g, order)) << where;
  std::vector<int> pos(n);
  for (int i = 0; i < n; ++i) pos[order[i]] = i;
  int step = static_cast<int>(cut.ideal.size());
  EXPECT_EQ(LiveAt(g, pos, step) + g.scratch[v], cut.bytes) << where;
}

// (d) MinLiveBytesAt(v) is exactly the minimum over all orders of the live
// bytes at v's step: so it is <= the live bytes at v in every order, and
// attained by the returned ideal.
TEST(ScheduleNodeBound, IsExactMinimumOverAllOrdersWithValidIdeal) {
  const auto& corpus = SmallCorpus();
  const auto& sols = SmallCorpusSolutions();
  for (size_t k = 0; k < corpus.size(); ++k) {
    const ScheduleGraph& g = corpus[k].g;
    auto reach = Reachability(g);
    for (int v = 0; v < g.num_nodes; ++v) {
      NodeCut cut = MinLiveBytesAt(g, v);
      ASSERT_EQ(cut.bytes, sols[k].min_live[v]) << corpus[k].name << " v=" << v;
      CheckIdeal(g, reach, v, {}, {}, cut, corpus[k].name + " v=" + std::to_string(v));
    }
  }
}

// With u forced in (u runs before v) or forced out (after v): exact as well,
// and MaxFlow::kInfinite exactly when no order puts them that way round.
TEST(ScheduleNodeBound, ForcedNodesAreExactMinimaToo) {
  const auto& corpus = SmallCorpus();
  const auto& sols = SmallCorpusSolutions();
  int64_t infeasible = 0, cuts = 0;
  for (size_t k = 0; k < corpus.size(); k += 2) {
    const ScheduleGraph& g = corpus[k].g;
    const BruteForce& bf = sols[k];
    auto reach = Reachability(g);
    for (int v = 0; v < g.num_nodes; ++v) {
      for (int u = 0; u < g.num_nodes; ++u) {
        if (u == v) continue;
        std::string where = corpus[k].name + " v=" + std::to_string(v) + " u=" + std::to_string(u);
        NodeCut after = MinLiveBytesAt(g, v, {u}, {});
        NodeCut before = MinLiveBytesAt(g, v, {}, {u});
        cuts += 2;
        ASSERT_EQ(after.bytes, bf.min_after[v][u]) << where << " (u forced in)";
        ASSERT_EQ(before.bytes, bf.min_before[v][u]) << where << " (u forced out)";
        if (after.bytes < kInf) CheckIdeal(g, reach, v, {u}, {}, after, where + " in");
        if (before.bytes < kInf) CheckIdeal(g, reach, v, {}, {u}, before, where + " out");
        infeasible += (after.bytes >= kInf) + (before.bytes >= kInf);
      }
    }
  }
  EXPECT_GT(infeasible, 100);
  EXPECT_GT(cuts, 10000);
}

// The reversed program has the same live bytes at each node's step, mirrored:
// its node bound equals the forward one for every node.
TEST(ScheduleNodeBound, EqualsOnTheReversedProgram) {
  for (const Case& c : SmallCorpus()) {
    ScheduleGraph r = c.g.Reversed();
    for (int v = 0; v < c.g.num_nodes; ++v) {
      EXPECT_EQ(MinLiveBytesAt(r, v).bytes, MinLiveBytesAt(c.g, v).bytes) << c.name << " v=" << v;
    }
  }
}

// (c) ComputeLowerBound never exceeds the optimum, on the graph and on its
// reverse; with pairs and an order of peak above the bound it finds exactly
// max(node bound, pair bound) computed by brute force.
TEST(ScheduleLowerBound, NeverExceedsOptimumAndMatchesBruteForce) {
  const auto& corpus = SmallCorpus();
  const auto& sols = SmallCorpusSolutions();
  int pair_wins = 0;
  for (size_t k = 0; k < corpus.size(); ++k) {
    const ScheduleGraph& g = corpus[k].g;
    const BruteForce& bf = sols[k];
    const std::string& name = corpus[k].name;
    ASSERT_LE(bf.node_bound, bf.opt);
    ASSERT_LE(bf.pair_bound, bf.opt);
    for (const std::vector<int>& order : {FileOrder(g), bf.opt_order, GreedyLeastPeak(g)}) {
      int64_t peak = PeakBytes(g, order);
      for (bool pairs : {false, true}) {
        LowerBound lb = ComputeLowerBound(g, order, peak, Far(), pairs);
        EXPECT_TRUE(lb.complete);
        EXPECT_LE(lb.bytes, bf.opt) << name;
        int64_t expect = pairs ? std::max(bf.node_bound, bf.pair_bound) : bf.node_bound;
        EXPECT_EQ(lb.bytes, std::min(expect, peak)) << name << " pairs=" << pairs;
        // Witness: recompute the bound from its cuts.
        if (lb.kind == "node" || lb.kind == "node+reverse") {
          ASSERT_EQ(lb.nodes.size(), 1u);
          ASSERT_EQ(lb.cuts.size(), 1u);
          EXPECT_EQ(lb.cuts[0].bytes, lb.bytes);
          EXPECT_EQ(lb.bytes, bf.min_live[lb.nodes[0]]);
        } else if (lb.kind == "pair") {
          ASSERT_EQ(lb.nodes.size(), 2u);
          ASSERT_EQ(lb.cuts.size(), 4u);
          int u = lb.nodes[0], w = lb.nodes[1];
          EXPECT_EQ(lb.bytes, std::min(std::max(lb.cuts[0].bytes, lb.cuts[1].bytes),
                                       std::max(lb.cuts[2].bytes, lb.cuts[3].bytes)));
          EXPECT_EQ(lb.cuts[0].bytes, bf.min_after[w][u]);
          EXPECT_EQ(lb.cuts[1].bytes, bf.min_before[u][w]);
          EXPECT_EQ(lb.cuts[2].bytes, bf.min_after[u][w]);
          EXPECT_EQ(lb.cuts[3].bytes, bf.min_before[w][u]);
          pair_wins += pairs;
        } else {
          EXPECT_EQ(lb.bytes, 0) << name << " kind=" << lb.kind;
        }
      }
      // On the reversed program with the reversed order.
      ScheduleGraph r = g.Reversed();
      std::vector<int> rev(order.rbegin(), order.rend());
      LowerBound lr = ComputeLowerBound(r, rev, peak, Far(), true);
      EXPECT_LE(lr.bytes, bf.opt) << name << " reversed";
      EXPECT_EQ(lr.bytes, std::min(std::max(bf.node_bound, bf.pair_bound), peak)) << name << " reversed";
    }
  }
  EXPECT_GT(pair_wins, 5) << "the corpus should contain graphs where the pair bound beats the node bound";
}

// stop_at ends the search as soon as it is reached; an expired deadline gives
// an incomplete, still valid bound.
TEST(ScheduleLowerBound, StopAtAndBudget) {
  const auto& corpus = SmallCorpus();
  const auto& sols = SmallCorpusSolutions();
  for (size_t k = 0; k < corpus.size(); k += 5) {
    const ScheduleGraph& g = corpus[k].g;
    int64_t stop = std::max<int64_t>(1, sols[k].node_bound / 2);
    LowerBound lb = ComputeLowerBound(g, sols[k].opt_order, stop, Far(), true);
    EXPECT_GE(lb.bytes, std::min(stop, sols[k].node_bound));
    EXPECT_LE(lb.bytes, sols[k].opt);
    WorkBudget none(0);
    LowerBound late = ComputeLowerBound(g, sols[k].opt_order, sols[k].opt, none, true);
    EXPECT_LE(late.bytes, sols[k].opt);
    EXPECT_FALSE(late.complete && late.bytes < sols[k].opt && late.bytes < sols[k].node_bound);
  }
}

// Bounds on the bigger generated families: valid witnesses and never above
// the peak of any heuristic order.
TEST(ScheduleLowerBound, GeneratedFamiliesHaveValidWitnesses) {
  for (const std::string& family : BenchFamilies()) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      GeneratedGraph gen = GenerateFamily(family, 40, seed);
      ScheduleGraph g = RandomTopologicalRelabel(gen.graph, seed);
      auto reach = Reachability(g);
      std::vector<int> best = GreedyLeastPeak(g);
      int64_t peak = PeakBytes(g, best);
      for (const auto& o : {FileOrder(g), ReversePostOrder(g), MemoryAwareDfs(g)}) {
        if (PeakBytes(g, o) < peak) {
          peak = PeakBytes(g, o);
          best = o;
        }
      }
      LowerBound lb = ComputeLowerBound(g, best, peak, Far(), true);
      std::string where = family + " seed " + std::to_string(seed);
      EXPECT_LE(lb.bytes, peak) << where;
      EXPECT_GT(lb.bytes, 0) << where;
      if (lb.kind.rfind("node", 0) == 0) {
        CheckIdeal(lb.kind == "node" ? g : g.Reversed(), Reachability(lb.kind == "node" ? g : g.Reversed()),
                   lb.nodes[0], {}, {}, lb.cuts[0], where);
      } else if (lb.kind == "pair") {
        int u = lb.nodes[0], w = lb.nodes[1];
        CheckIdeal(g, reach, w, {u}, {}, lb.cuts[0], where + " w|u in");
        CheckIdeal(g, reach, u, {}, {w}, lb.cuts[1], where + " u|w out");
        CheckIdeal(g, reach, u, {w}, {}, lb.cuts[2], where + " u|w in");
        CheckIdeal(g, reach, w, {}, {u}, lb.cuts[3], where + " w|u out");
      }
      for (int v = 0; v < g.num_nodes; v += 3) {
        CheckIdeal(g, reach, v, {}, {}, MinLiveBytesAt(g, v), where + " v=" + std::to_string(v));
      }
    }
  }
}

}  // namespace
}  // namespace oc
