// The schedulers against brute force over all topological orders: the exact
// search finds exactly the optimum, every heuristic returns a valid order no
// better than it, and reversing a program mirrors its memory profile. Also
// checks the graph generators the tests and benchmarks rely on.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/graph_generators.h"
#include "gtest/gtest.h"
#include "passes/analysis/schedule_graph.h"
#include "passes/planning/lower_bounds.h"
#include "passes/planning/schedulers.h"

namespace oc {
namespace {

// A budget no test exhausts.
WorkBudget& Far() {
  static WorkBudget budget(int64_t{1} << 60);
  return budget;
}

// The liveness rule of design.md, written independently of LiveBytes().
int64_t IndependentPeak(const ScheduleGraph& g, const std::vector<int>& order) {
  const int n = g.num_nodes;
  std::vector<int> pos(n);
  for (int i = 0; i < n; ++i) pos[order[i]] = i;
  int64_t peak = 0;
  for (int i = 0; i < n; ++i) {
    int64_t live = g.scratch[order[i]];
    for (const auto& b : g.buffers) {
      bool written = false, read_later = false;
      for (int w : b.writers) written = written || pos[w] <= i;
      for (int r : b.readers) read_later = read_later || pos[r] >= i;
      if (written && read_later) live += b.bytes;
    }
    peak = std::max(peak, live);
  }
  return peak;
}

struct Case {
  std::string name;
  ScheduleGraph g;
  int64_t opt = 0;  // brute force
  int64_t orders = 0;
};

constexpr int64_t kMaxOrders = 200000;

const std::vector<Case>& Corpus() {
  static const std::vector<Case> corpus = [] {
    std::vector<Case> out;
    for (uint64_t seed = 1000; out.size() < 400 && seed < 40000; ++seed) {
      int n = 2 + static_cast<int>(seed % 11);  // 2..12
      SmallDagOptions o;
      o.edge_density = 0.1 + 0.05 * static_cast<double>(seed % 9);
      if (seed % 4 == 0) o.multi_writer = o.in_place = false;
      if (seed % 6 == 1) o.unread_buffers = false;
      ScheduleGraph g = SmallRandomDag(n, seed, o);
      if (CountTopologicalOrders(g, kMaxOrders + 1) > kMaxOrders) continue;
      if (seed % 2 == 0) g = RandomTopologicalRelabel(g, seed * 31);
      Case c{"seed" + std::to_string(seed) + "_n" + std::to_string(n), std::move(g)};
      c.opt = INT64_MAX;
      c.orders = ForEachTopologicalOrder(c.g, [&](const std::vector<int>& order) {
        c.opt = std::min(c.opt, IndependentPeak(c.g, order));
        return true;
      });
      out.push_back(std::move(c));
    }
    return out;
  }();
  return corpus;
}

TEST(ScheduleSearch, CorpusIsLarge) {
  ASSERT_GE(Corpus().size(), 400u);
  int twelve = 0, improvable = 0;
  int64_t orders = 0, most = 0;
  for (const Case& c : Corpus()) {
    twelve += c.g.num_nodes == 12;
    improvable += PeakBytes(c.g, FileOrder(c.g)) > c.opt;
    orders += c.orders;
    most = std::max(most, c.orders);
  }
  std::printf("%zu graphs (%d of 12 nodes), %lld topological orders in all (at most %lld per graph); the file "
              "order is suboptimal on %d\n", Corpus().size(), twelve, static_cast<long long>(orders),
              static_cast<long long>(most), improvable);
  EXPECT_GT(twelve, 25);
  EXPECT_GT(improvable, 100) << "the file order should often be improvable";
}

// (b) With the file order's peak as upper bound, the exact search returns the
// brute-force optimum and a valid order with that peak (or says the file
// order is optimal); given the optimum itself, it reports no improvement.
TEST(ScheduleSearch, ExactSearchMatchesBruteForce) {
  int improved = 0;
  for (const Case& c : Corpus()) {
    const ScheduleGraph& g = c.g;
    int64_t file_peak = PeakBytes(g, FileOrder(g));
    ExactSearchResult r = ExactMinPeakOrder(g, file_peak, Far());
    ASSERT_TRUE(r.finished) << c.name;
    if (file_peak > c.opt) {
      ASSERT_TRUE(r.improved) << c.name;
      ASSERT_EQ(r.peak, c.opt) << c.name;
      ASSERT_TRUE(IsTopologicalOrder(g, r.order)) << c.name;
      ASSERT_EQ(PeakBytes(g, r.order), c.opt) << c.name;
      ASSERT_EQ(IndependentPeak(g, r.order), c.opt) << c.name;
      ++improved;
    } else {
      ASSERT_FALSE(r.improved) << c.name;
      ASSERT_EQ(r.peak, file_peak) << c.name;
    }
    ExactSearchResult at_opt = ExactMinPeakOrder(g, c.opt, Far());
    EXPECT_TRUE(at_opt.finished) << c.name;
    EXPECT_FALSE(at_opt.improved) << c.name;
    EXPECT_EQ(at_opt.peak, c.opt) << c.name;
    // One byte above the optimum: it must find an optimal order.
    ExactSearchResult above = ExactMinPeakOrder(g, c.opt + 1, Far());
    EXPECT_TRUE(above.finished && above.improved) << c.name;
    EXPECT_EQ(above.peak, c.opt) << c.name;
    EXPECT_TRUE(IsTopologicalOrder(g, above.order)) << c.name;
    EXPECT_EQ(PeakBytes(g, above.order), c.opt) << c.name;
  }
  EXPECT_GT(improved, 100);
}

TEST(ScheduleSearch, ExactSearchOutOfBudgetIsNotFinished) {
  int unfinished = 0;
  for (const Case& c : Corpus()) {
    if (c.g.num_nodes < 10) continue;
    ExactSearchResult r = ExactMinPeakOrder(c.g, c.opt + 1, Far(), /*max_states=*/3);
    if (!r.finished) {
      ++unfinished;
      EXPECT_FALSE(r.improved);
    } else {
      EXPECT_EQ(r.peak, c.opt);
    }
    WorkBudget none(0);
    ExactSearchResult late = ExactMinPeakOrder(c.g, c.opt + 1, none);
    if (late.finished) {
      EXPECT_EQ(late.peak, c.opt) << c.name;
    }
  }
  EXPECT_GT(unfinished, 10);
}

// (e) Every heuristic returns a valid topological order, never below the optimum.
TEST(ScheduleSearch, HeuristicsAreValidAndNeverBeatTheOptimum) {
  for (const Case& c : Corpus()) {
    const ScheduleGraph& g = c.g;
    std::vector<std::pair<std::string, std::vector<int>>> orders = {
        {"file", FileOrder(g)},
        {"rpo", ReversePostOrder(g)},
        {"greedy", GreedyLeastPeak(g)},
        {"dfs", MemoryAwareDfs(g)},
    };
    orders.push_back({"local(file)", ImproveLocally(g, FileOrder(g), Far())});
    orders.push_back({"local(greedy)", ImproveLocally(g, GreedyLeastPeak(g), Far())});
    orders.push_back({"local(random)", ImproveLocally(g, RandomTopologicalOrder(g, 5), Far())});
    for (const auto& [name, order] : orders) {
      ASSERT_TRUE(IsTopologicalOrder(g, order)) << c.name << " " << name;
      EXPECT_GE(PeakBytes(g, order), c.opt) << c.name << " " << name;
      EXPECT_EQ(PeakBytes(g, order), IndependentPeak(g, order)) << c.name << " " << name;
    }
    EXPECT_LE(PeakBytes(g, orders[4].second), PeakBytes(g, orders[0].second)) << c.name;
    EXPECT_LE(PeakBytes(g, orders[5].second), PeakBytes(g, orders[2].second)) << c.name;
  }
}

// The heuristics do what they say on small hand-made cases.
TEST(ScheduleSearch, HeuristicsFollowTheirRules) {
  // a (writes 1600) and b (writes 160) both feed c: least-peak-first runs b
  // first; the DFS runs the heavier input cone (a's) first.
  ScheduleGraph g(3);
  g.AddBuffer(1600, {0}, {2});
  g.AddBuffer(160, {1}, {2});
  g.AddBuffer(16, {2}, {});
  g.AddEdge(0, 2);
  g.AddEdge(1, 2);
  g.Finish();
  EXPECT_EQ(GreedyLeastPeak(g), (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(MemoryAwareDfs(g), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ReversePostOrder(g), (std::vector<int>{1, 0, 2}));
  // Local search: s writes a big buffer that only t reads; the file order
  // runs s first, so the buffer is live through the chain x1 -> x2 -> x3.
  // One move (s right before t) reaches the optimum.
  ScheduleGraph h(5);  // 0 = s, 1..3 = chain, 4 = t
  h.AddBuffer(1600, {0}, {4});
  h.AddBuffer(320, {1}, {2});
  h.AddBuffer(320, {2}, {3});
  h.AddBuffer(320, {3}, {4});
  h.AddBuffer(16, {4}, {});
  for (auto [a, b] : {std::pair{0, 4}, {1, 2}, {2, 3}, {3, 4}}) h.AddEdge(a, b);
  h.Finish();
  EXPECT_EQ(PeakBytes(h, FileOrder(h)), 1600 + 640);
  std::vector<int> improved = ImproveLocally(h, FileOrder(h), Far());
  EXPECT_EQ(improved, (std::vector<int>{1, 2, 3, 0, 4}));
  EXPECT_EQ(PeakBytes(h, improved), 1600 + 320 + 16);
}

// On average the memory-aware heuristics beat the file order and stay close
// to the optimum (a guard against silent quality regressions).
TEST(ScheduleSearch, HeuristicQualityOnTheCorpus) {
  double file = 0, rpo = 0, greedy = 0, dfs = 0, local = 0;
  double k = 0;
  for (const Case& c : Corpus()) {
    const ScheduleGraph& g = c.g;
    if (c.opt == 0) continue;  // nothing in the arena
    const double opt = static_cast<double>(c.opt);
    ++k;
    file += PeakBytes(g, FileOrder(g)) / opt;
    rpo += PeakBytes(g, ReversePostOrder(g)) / opt;
    greedy += PeakBytes(g, GreedyLeastPeak(g)) / opt;
    dfs += PeakBytes(g, MemoryAwareDfs(g)) / opt;
    local += PeakBytes(g, ImproveLocally(g, GreedyLeastPeak(g), Far())) / opt;
  }
  std::printf("mean peak / optimum: file %.3f rpo %.3f greedy %.3f dfs %.3f local(greedy) %.3f\n", file / k,
              rpo / k, greedy / k, dfs / k, local / k);
  EXPECT_GT(k, 300);
  EXPECT_LT(greedy, file);
  EXPECT_LT(local / k, 1.02);
}

// (f) An order's reverse has the same live bytes, mirrored, on the reversed
// graph (so the same peak), for every order.
TEST(ScheduleGraphReversed, MirrorsTheProfileOfEveryOrder) {
  int64_t checked = 0;
  for (const Case& c : Corpus()) {
    ScheduleGraph r = c.g.Reversed();
    ASSERT_EQ(r.num_nodes, c.g.num_nodes);
    ForEachTopologicalOrder(c.g, [&](const std::vector<int>& order) {
      std::vector<int> rev(order.rbegin(), order.rend());
      EXPECT_TRUE(IsTopologicalOrder(r, rev));
      std::vector<int64_t> a = LiveBytes(c.g, order), b = LiveBytes(r, rev);
      std::reverse(b.begin(), b.end());
      EXPECT_EQ(a, b) << c.name;
      EXPECT_EQ(PeakBytes(r, rev), PeakBytes(c.g, order));
      ++checked;
      return a == b;
    });
    // And the optimum is the same both ways.
    int64_t file_peak = PeakBytes(r, FileOrder(c.g));
    (void)file_peak;
    ExactSearchResult back = ExactMinPeakOrder(r, c.opt + 1, Far());
    EXPECT_TRUE(back.finished && back.improved) << c.name;
    EXPECT_EQ(back.peak, c.opt) << c.name;
    // Reversing twice gives the graph back.
    ScheduleGraph rr = r.Reversed();
    EXPECT_EQ(rr.preds, c.g.preds);
    EXPECT_EQ(rr.succs, c.g.succs);
    EXPECT_EQ(rr.writes, c.g.writes);
    EXPECT_EQ(rr.reads, c.g.reads);
  }
  EXPECT_GT(checked, 5000);
}

// The exact search agrees with the bounds on medium graphs: when it finishes,
// no bound exceeds its peak, and it is no worse than any heuristic.
TEST(ScheduleSearch, ExactSearchOnGeneratedFamilies) {
  for (const std::string& family : BenchFamilies()) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      ScheduleGraph g = RandomTopologicalRelabel(GenerateFamily(family, 24, seed).graph, seed);
      std::string where = family + " seed " + std::to_string(seed);
      int64_t best = PeakBytes(g, FileOrder(g));
      for (const auto& o : {ReversePostOrder(g), GreedyLeastPeak(g), MemoryAwareDfs(g)}) {
        ASSERT_TRUE(IsTopologicalOrder(g, o)) << where;
        best = std::min(best, PeakBytes(g, o));
      }
      ExactSearchResult r = ExactMinPeakOrder(g, best, Far());
      int64_t peak = r.improved ? r.peak : best;
      if (r.improved) {
        ASSERT_TRUE(IsTopologicalOrder(g, r.order)) << where;
        EXPECT_EQ(PeakBytes(g, r.order), r.peak) << where;
        EXPECT_LT(r.peak, best) << where;
      }
      LowerBound lb = ComputeLowerBound(g, GreedyLeastPeak(g), best, Far(), true);
      if (r.finished) {
        EXPECT_LE(lb.bytes, peak) << where;
      }
    }
  }
}

// --- Generators -------------------------------------------------------------------

void CheckWellFormed(const ScheduleGraph& g, const std::string& where) {
  ASSERT_TRUE(IsTopologicalOrder(g, RandomTopologicalOrder(g, 3))) << where << ": cyclic";
  std::vector<std::vector<char>> reach(g.num_nodes, std::vector<char>(g.num_nodes, 0));
  if (g.num_nodes <= 400) {
    for (int a = 0; a < g.num_nodes; ++a) {
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
  }
  for (size_t bi = 0; bi < g.buffers.size(); ++bi) {
    const auto& b = g.buffers[bi];
    ASSERT_GT(b.bytes, 0) << where;
    ASSERT_EQ(b.bytes % 16, 0) << where;
    ASSERT_FALSE(b.writers.empty()) << where;
    // The model's precondition: in every order, a buffer's last reader runs
    // at or after each writer (the writer reads it too, as an in-place update
    // does, or one of its readers descends from the writer), and each reader
    // at or after the first writer.
    if (g.num_nodes > 400) continue;
    auto reads = [&](int x) { return std::count(b.readers.begin(), b.readers.end(), x) > 0; };
    auto writes = [&](int x) { return std::count(b.writers.begin(), b.writers.end(), x) > 0; };
    for (int w : b.writers) {
      bool covered = reads(w);
      for (int r : b.readers) covered = covered || reach[w][r];
      ASSERT_TRUE(covered) << where << ": buffer " << bi << " writer " << w;
    }
    for (int r : b.readers) {
      bool covered = writes(r);
      for (int w : b.writers) covered = covered || reach[w][r];
      ASSERT_TRUE(covered) << where << ": buffer " << bi << " reader " << r;
    }
  }
  for (int v = 0; v < g.num_nodes; ++v) {
    ASSERT_TRUE(std::is_sorted(g.preds[v].begin(), g.preds[v].end()));
    ASSERT_EQ(g.scratch[v] % 16, 0) << where;
  }
}

TEST(GraphGenerators, FamiliesAreWellFormedDeterministicAndSized) {
  for (const std::string& family : BenchFamilies()) {
    for (int size : {20, 60, 200}) {
      GeneratedGraph a = GenerateFamily(family, size, 11), b = GenerateFamily(family, size, 11);
      std::string where = family + " " + a.params;
      CheckWellFormed(a.graph, where);
      EXPECT_EQ(a.graph.preds, b.graph.preds) << where;
      EXPECT_EQ(a.graph.writes, b.graph.writes) << where;
      EXPECT_EQ(a.graph.scratch, b.graph.scratch) << where;
      EXPECT_GE(a.graph.num_nodes, size / 2) << where;
      EXPECT_LE(a.graph.num_nodes, size * 2) << where;
      ScheduleGraph r = RandomTopologicalRelabel(a.graph, 4);
      CheckWellFormed(r, where + " relabeled");
      EXPECT_TRUE(IsTopologicalOrder(r, FileOrder(r)));
    }
  }
  CheckWellFormed(ChainGraph(50, 1), "chain");
  CheckWellFormed(ForkJoinGraph(3, 6, 5, 2), "fork-join");
  CheckWellFormed(UNetGraph(4, 2, false, 3), "unet");
  CheckWellFormed(UNetGraph(3, 2, true, 3), "fpn");
  CheckWellFormed(DenseNetGraph(2, 5, 4), "densenet");
  CheckWellFormed(InceptionGraph(4, 5), "inception");
  for (uint64_t seed = 0; seed < 200; ++seed) {
    CheckWellFormed(SmallRandomDag(2 + static_cast<int>(seed % 11), seed), "small " + std::to_string(seed));
  }
}

TEST(GraphGenerators, LayeredDagsHaveTheRequestedSizeAndFanIn) {
  for (int n : {100, 1000, 10000}) {
    ScheduleGraph g = LayeredRandomDag(n, 3, 1);
    EXPECT_EQ(g.num_nodes, n);
    CheckWellFormed(g, "layered " + std::to_string(n));
    for (int v = 0; v < n; ++v) {
      size_t inputs = 0;  // a buffer nobody reads lists its writer as reader
      for (int bi : g.reads[v]) inputs += g.buffers[bi].writers != std::vector<int>{v};
      EXPECT_LE(inputs, 3u);
      EXPECT_GE(inputs, v == 0 ? 0u : 0u);
    }
  }
}

TEST(GraphGenerators, RelabelKeepsTheProblem) {
  for (const Case& c : Corpus()) {
    std::vector<int> perm = RandomTopologicalOrder(c.g, 17);
    ScheduleGraph r = Relabel(c.g, perm);
    // The file order of the relabeled graph is `perm` on the original.
    EXPECT_EQ(LiveBytes(r, FileOrder(r)), LiveBytes(c.g, perm)) << c.name;
    std::vector<int> order = GreedyLeastPeak(c.g), mapped(order.size());
    std::vector<int> new_id(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) new_id[perm[i]] = static_cast<int>(i);
    for (size_t i = 0; i < order.size(); ++i) mapped[i] = new_id[order[i]];
    EXPECT_EQ(LiveBytes(r, mapped), LiveBytes(c.g, order)) << c.name;
  }
}

}  // namespace
}  // namespace oc
