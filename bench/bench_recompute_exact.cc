// The recompute heuristic against the exact search on random small programs
// (bench/program_generators.h): how often recompute can lower the peak at
// all, and how often the heuristic finds the optimum. Not a ctest: run
// build/bench/oc-bench-recompute [programs per size] by hand.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/program_generators.h"
#include "compiler/ir/printer.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/recompute.h"
#include "passes/planning/recompute_exact.h"
#include "passes/planning/schedulers.h"

namespace oc {
namespace {

// A fresh budget of `units` work units for one search.
WorkBudget& After(int64_t units) {
  static WorkBudget budget(0);
  budget = WorkBudget(units);
  return budget;
}

// The program in its optimal order (as the compiler's scheduler would give
// it on graphs this small), and that peak.
int64_t OrderOptimally(Program& p, const RecomputeOptions& o) {
  MemoryModel m = ComputeMemoryModel(p, o.alignment, o.aliases);
  ProgramGraph pg = BuildScheduleGraph(p, m);
  ExactSearchResult e = ExactMinPeakOrder(pg.graph, m.peak_bytes, After(int64_t{1} << 40));
  if (e.improved) ApplyOrder(p, e.order);
  return ComputeMemoryModel(p, o.alignment, o.aliases).peak_bytes;
}

// One program in detail: the program, the exact search's clones and peak,
// the heuristic's.
int Show(uint64_t seed, int n, double budget, int cap) {
  RecomputeOptions o;
  o.cap = cap;
  o.mac_budget_percent = budget;
  Program p = RandomRecomputeProgram(seed, n);
  const int64_t before = OrderOptimally(p, o);
  std::printf("%speak %lld in its best order\n", PrintProgram(p).c_str(), static_cast<long long>(before));
  ExactRecomputeResult e = ExactMinPeakWithRecompute(p, o, After(int64_t{1} << 40));
  std::printf("exact: peak %lld (%s), clones:", static_cast<long long>(e.peak), e.finished ? "finished" : "cut short");
  for (const RecomputeClone& c : e.clones) std::printf(" %d", c.clone_of);
  Program h = p;
  auto r = RunRecompute(h, o, After(int64_t{1} << 40));
  if (!r.ok()) return 1;
  std::printf("\nheuristic: peak %lld, arena %lld -> %lld, %lld candidates, clones:",
              static_cast<long long>(r->peak_after), static_cast<long long>(r->arena_before),
              static_cast<long long>(r->arena_after), static_cast<long long>(r->candidates_tried));
  for (const RecomputeClone& c : r->clones) std::printf(" %d", c.clone_of);
  std::printf("\n");
  return 0;
}

int Run(int per_size) {
  std::printf("| statements | budget, cap | programs | exact finished | recompute pays | heuristic finds it "
              "| mean saving exact | mean saving heuristic |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [budget, cap] : {std::pair<double, int>{5, 1}, {20, 2}}) {
    for (int n = 6; n <= 15; n += 3) {
      int finished = 0, pays = 0, equal = 0;
      double save_exact = 0, save_heuristic = 0;
      for (int k = 0; k < per_size; ++k) {
        RecomputeOptions o;
        o.cap = cap;
        o.mac_budget_percent = budget;
        Program p = RandomRecomputeProgram(1000 * n + k, n);
        const int64_t before = OrderOptimally(p, o);
        ExactRecomputeResult e = ExactMinPeakWithRecompute(p, o, After(int64_t{1} << 40));
        Program h = p;
        auto r = RunRecompute(h, o, After(int64_t{1} << 40));
        if (!r.ok() || !e.finished) continue;
        ++finished;
        const int64_t heuristic = std::min(r->peak_after, OrderOptimally(h, o));
        pays += e.peak < before;
        equal += e.peak < before && heuristic == e.peak;
        save_exact += 1.0 - static_cast<double>(e.peak) / before;
        save_heuristic += 1.0 - static_cast<double>(heuristic) / before;
      }
      std::printf("| %d | %g%%, %d | %d | %d | %d | %d | %.1f%% | %.1f%% |\n", n, budget, cap, per_size,
                  finished, pays, equal, finished ? 100 * save_exact / finished : 0.0,
                  finished ? 100 * save_heuristic / finished : 0.0);
    }
  }
  return 0;
}

}  // namespace
}  // namespace oc

// oc-bench-recompute [PROGRAMS_PER_SIZE]
// oc-bench-recompute --show SEED STATEMENTS BUDGET_PERCENT CAP
int main(int argc, char** argv) {
  if (argc == 6 && std::string(argv[1]) == "--show") {
    return oc::Show(std::strtoull(argv[2], nullptr, 10), std::atoi(argv[3]), std::atof(argv[4]),
                    std::atoi(argv[5]));
  }
  return oc::Run(argc > 1 ? std::atoi(argv[1]) : 40);
}
