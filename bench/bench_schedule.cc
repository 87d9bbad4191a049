// Scheduler benchmark on generated graphs (not a ctest).
//
//   oc-bench-schedule [--budget UNITS] [--instances K] [--families-only | --scaling-only]
//                     [--scaling-sizes 100,1000,10000] [--scaling-instances K] [--bound-limit UNITS]
//
// Part 1, per generator family (K instances of 20..200 nodes, each renumbered
// so that its file order is a random topological order, i.e. a badly stored
// model): the same ladder as ScheduleProgram (baselines, greedy, DFS, local
// search, lower bound, exact search under the budget, bound again), and
// prints the certified rate (peak == lower bound), the mean gap, the peak
// reduction against the file order and RPO, and the exact search's effort.
// Part 2, scaling on layered random DAGs (width <= 8, and "wide": width <=
// sqrt(n)/2) and series-parallel graphs of 100, 1,000 and 10,000 nodes: the
// heuristics' time, the node bound's time (stopped after --bound-limit work units,
// default 120, and then marked STOPPED) and how often the node bound
// certifies the heuristic order.
// Output: plain Markdown tables.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/graph_generators.h"
#include "passes/analysis/schedule_graph.h"
#include "passes/planning/lower_bounds.h"
#include "passes/planning/schedule.h"
#include "passes/planning/schedulers.h"

namespace oc {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Options {
  int64_t budget = kDefaultScheduleBudget;  // ScheduleOptions' default, in work units
  int instances = 6;
  bool families = true, scaling = true;
  std::vector<int> scaling_sizes = {100, 1000, 10000};
  int scaling_instances = 3;
  int64_t bound_limit = int64_t{1} << 36;  // work units: the scaling table stops a node bound there
};

struct Outcome {
  int nodes = 0;
  int64_t file_peak = 0, rpo_peak = 0, heuristic_peak = 0, peak = 0, bound = 0;
  std::string chosen_by, bound_kind;
  bool exact_ran = false, exact_finished = false;
  int64_t exact_states = 0;
  double heuristic_ms = 0, bound_ms = 0, exact_ms = 0, total_ms = 0;
};

// ScheduleProgram's ladder, on a bare graph.
Outcome Schedule(const ScheduleGraph& g, int64_t budget_units) {
  Outcome o;
  o.nodes = g.num_nodes;
  const auto t0 = Clock::now();
  WorkBudget deadline(budget_units);
  std::vector<int> file = FileOrder(g), rpo = ReversePostOrder(g);
  o.file_peak = PeakBytes(g, file);
  o.rpo_peak = PeakBytes(g, rpo);
  std::vector<int> chosen = file;
  int64_t peak = o.file_peak;
  o.chosen_by = "file";
  auto consider = [&](const std::vector<int>& order, const char* by) {
    if (!IsTopologicalOrder(g, order)) {
      std::fprintf(stderr, "error: %s returned an invalid order\n", by);
      std::exit(1);
    }
    int64_t p = PeakBytes(g, order);
    if (p < peak) {
      peak = p;
      chosen = order;
      o.chosen_by = by;
    }
  };
  consider(rpo, "rpo");
  consider(GreedyLeastPeak(g), "greedy");
  consider(MemoryAwareDfs(g), "dfs");
  {
    WorkBudget local(deadline, deadline.ShareOfLeft(1, 4));
    consider(ImproveLocally(g, chosen, local), "local");
  }
  o.heuristic_peak = peak;
  o.heuristic_ms = MsSince(t0);

  auto b0 = Clock::now();
  LowerBound lb = ComputeLowerBound(g, chosen, peak, deadline, true);
  o.bound_ms = MsSince(b0);
  if (lb.bytes < peak) {
    o.exact_ran = true;
    auto e0 = Clock::now();
    ExactSearchResult ex = ExactMinPeakOrder(g, peak, deadline);
    o.exact_ms = MsSince(e0);
    o.exact_states = ex.states;
    o.exact_finished = ex.finished;
    if (ex.improved) {
      if (!IsTopologicalOrder(g, ex.order) || PeakBytes(g, ex.order) != ex.peak) {
        std::fprintf(stderr, "error: the exact search returned a wrong order\n");
        std::exit(1);
      }
      chosen = ex.order;
      peak = ex.peak;
      o.chosen_by = "exact";
    }
    if (lb.bytes < peak) {
      auto b1 = Clock::now();
      LowerBound again = ComputeLowerBound(g, chosen, peak, deadline, true);
      if (again.bytes > lb.bytes) lb = again;
      o.bound_ms += MsSince(b1);
    }
  }
  if (lb.bytes > peak) {
    std::fprintf(stderr, "error: lower bound %lld above an achieved peak %lld\n",
                 static_cast<long long>(lb.bytes), static_cast<long long>(peak));
    std::exit(1);
  }
  o.peak = peak;
  o.bound = lb.bytes;
  o.bound_kind = lb.kind;
  o.total_ms = MsSince(t0);
  return o;
}

double Pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

void FamilyTable(const Options& opt) {
  std::printf("## Per family (budget %lld work units per graph, %d instances each, 20..200 nodes)\n\n",
              static_cast<long long>(opt.budget), opt.instances);
  std::printf("File order = a random topological order of the generated graph. Certified: peak == lower bound. "
              "Proven: certified, or the exact search exhausted the space. Gap %% = (peak - bound) / peak as in the report, "
              "mean over instances. Reduction %% = (baseline - peak) / baseline, mean. "
              "Exact: instances where the bound left a gap and the search ran; states and ms are means over those.\n\n");
  std::printf("| family | nodes | certified | proven | mean gap %% | max gap %% | vs file %% | vs RPO %% "
              "| heuristic vs file %% | exact ran | exact finished | exact states | exact ms | bound ms | total ms | chosen by |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  int all = 0, all_cert = 0;
  for (const std::string& family : BenchFamilies()) {
    int certified = 0, proven = 0, exact_ran = 0, exact_finished = 0, min_nodes = 1 << 30, max_nodes = 0;
    double gap = 0, max_gap = 0, vs_file = 0, vs_rpo = 0, heur_vs_file = 0, states = 0, exact_ms = 0, bound_ms = 0,
           total_ms = 0;
    std::vector<std::pair<std::string, int>> chosen;
    for (int i = 0; i < opt.instances; ++i) {
      int size = opt.instances == 1 ? 100 : 20 + (180 * i) / (opt.instances - 1);
      uint64_t seed = 1000 * (i + 1) + static_cast<uint64_t>(family.size());
      GeneratedGraph gen = GenerateFamily(family, size, seed);
      ScheduleGraph g = RandomTopologicalRelabel(gen.graph, seed + 7);
      Outcome o = Schedule(g, opt.budget);
      min_nodes = std::min(min_nodes, o.nodes);
      max_nodes = std::max(max_nodes, o.nodes);
      certified += o.peak == o.bound;
      proven += o.peak == o.bound || o.exact_finished;
      double gp = Pct(static_cast<double>(o.peak - o.bound), static_cast<double>(o.peak));
      gap += gp;
      max_gap = std::max(max_gap, gp);
      vs_file += Pct(static_cast<double>(o.file_peak - o.peak), static_cast<double>(o.file_peak));
      vs_rpo += Pct(static_cast<double>(o.rpo_peak - o.peak), static_cast<double>(o.rpo_peak));
      heur_vs_file += Pct(static_cast<double>(o.file_peak - o.heuristic_peak), static_cast<double>(o.file_peak));
      if (o.exact_ran) {
        ++exact_ran;
        exact_finished += o.exact_finished;
        states += static_cast<double>(o.exact_states);
        exact_ms += o.exact_ms;
      }
      bound_ms += o.bound_ms;
      total_ms += o.total_ms;
      auto it = std::find_if(chosen.begin(), chosen.end(), [&](const auto& p) { return p.first == o.chosen_by; });
      if (it == chosen.end()) {
        chosen.push_back({o.chosen_by, 1});
      } else {
        ++it->second;
      }
    }
    const double k = opt.instances;
    std::string by;
    for (const auto& [name, count] : chosen) by += (by.empty() ? "" : " ") + name + ":" + std::to_string(count);
    std::printf("| %s | %d-%d | %d/%d | %d/%d | %.2f | %.2f | %.1f | %.1f | %.1f | %d | %d | %.0f | %.1f | %.1f | %.1f | %s |\n",
                family.c_str(), min_nodes, max_nodes, certified, opt.instances, proven, opt.instances, gap / k, max_gap,
                vs_file / k, vs_rpo / k, heur_vs_file / k, exact_ran, exact_finished,
                exact_ran ? states / exact_ran : 0.0, exact_ran ? exact_ms / exact_ran : 0.0, bound_ms / k,
                total_ms / k, by.c_str());
    std::fflush(stdout);
    all += opt.instances;
    all_cert += certified;
  }
  std::printf("\nOverall certified: %d/%d\n\n", all_cert, all);
}

void ScalingTable(const Options& opt) {
  std::printf("## Scaling (heuristics = best of file order, RPO, greedy, DFS; node bound = ComputeLowerBound without pairs, "
              "stopped after %lld work units; %d instances per row)\n\n", static_cast<long long>(opt.bound_limit), opt.scaling_instances);
  std::printf("| family | nodes | buffers | heuristic ms | node bound ms | heuristic + bound ms | cuts | certified "
              "| mean gap %% | vs file %% | vs RPO %% | local search (%lld work units) gain %% |\n",
              static_cast<long long>(opt.budget / 4));
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string family : {"layered", "layered-wide", "series-parallel"}) {
    for (int n : opt.scaling_sizes) {
      double heur_ms = 0, bound_ms = 0, gap = 0, vs_file = 0, vs_rpo = 0, local_gain = 0, max_sum = 0;
      int64_t cuts = 0, buffers = 0, nodes = 0;
      int certified = 0;
      bool complete = true;
      for (int i = 0; i < opt.scaling_instances; ++i) {
        uint64_t seed = 77 + 13 * static_cast<uint64_t>(i) + static_cast<uint64_t>(n);
        ScheduleGraph base = family == "layered"        ? LayeredRandomDag(n, 3, seed, 8)
                             : family == "layered-wide" ? LayeredRandomDag(n, 3, seed, 0)
                                                        : SeriesParallelGraph(n, seed);
        ScheduleGraph g = RandomTopologicalRelabel(base, seed + 1);
        nodes += g.num_nodes;
        buffers += static_cast<int64_t>(g.buffers.size());
        auto t0 = Clock::now();
        std::vector<int> best = FileOrder(g);
        const int64_t file_peak = PeakBytes(g, best);
        const std::vector<int> rpo = ReversePostOrder(g);
        const int64_t rpo_peak = PeakBytes(g, rpo);
        int64_t peak = file_peak;
        for (const std::vector<int>& o : {rpo, GreedyLeastPeak(g), MemoryAwareDfs(g)}) {
          int64_t p = PeakBytes(g, o);
          if (p < peak) {
            peak = p;
            best = o;
          }
        }
        double h = MsSince(t0);
        auto b0 = Clock::now();
        WorkBudget bound_budget(opt.bound_limit);
        LowerBound lb = ComputeLowerBound(g, best, peak, bound_budget, false);
        double b = MsSince(b0);
        complete = complete && lb.complete;
        heur_ms += h;
        bound_ms += b;
        max_sum = std::max(max_sum, h + b);
        cuts += lb.cuts_computed;
        certified += lb.bytes == peak;
        gap += Pct(static_cast<double>(peak - lb.bytes), static_cast<double>(peak));
        vs_file += Pct(static_cast<double>(file_peak - peak), static_cast<double>(file_peak));
        vs_rpo += Pct(static_cast<double>(rpo_peak - peak), static_cast<double>(rpo_peak));
        if (lb.bytes < peak) {
          WorkBudget local(opt.budget / 4);
          std::vector<int> improved = ImproveLocally(g, best, local);
          local_gain += Pct(static_cast<double>(peak - PeakBytes(g, improved)), static_cast<double>(peak));
        }
      }
      const double k = opt.scaling_instances;
      std::printf("| %s | %.0f | %.0f | %.1f | %s%.1f | %.1f (max %.1f) | %.0f | %d/%d | %s%.2f | %.1f | %.1f | %.2f |\n",
                  family.c_str(), static_cast<double>(nodes) / k, static_cast<double>(buffers) / k, heur_ms / k,
                  complete ? "" : "STOPPED at ", bound_ms / k, (heur_ms + bound_ms) / k, max_sum,
                  static_cast<double>(cuts) / k, certified, opt.scaling_instances, complete ? "" : ">= ", gap / k,
                  vs_file / k, vs_rpo / k, local_gain / k);
      std::fflush(stdout);
    }
  }
  std::printf("\n");
}

std::vector<int> ParseSizes(const char* s) {
  std::vector<int> out;
  while (*s) {
    out.push_back(std::atoi(s));
    const char* comma = std::strchr(s, ',');
    if (!comma) break;
    s = comma + 1;
  }
  return out;
}

}  // namespace
}  // namespace oc

int main(int argc, char** argv) {
  oc::Options opt;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--budget") {
      opt.budget = std::atoll(value());
    } else if (a == "--instances") {
      opt.instances = std::max(1, std::atoi(value()));
    } else if (a == "--families-only") {
      opt.scaling = false;
    } else if (a == "--scaling-only") {
      opt.families = false;
    } else if (a == "--scaling-sizes") {
      opt.scaling_sizes = oc::ParseSizes(value());
    } else if (a == "--bound-limit") {
      opt.bound_limit = std::max<int64_t>(1, std::atoll(value()));
    } else if (a == "--scaling-instances") {
      opt.scaling_instances = std::max(1, std::atoi(value()));
    } else {
      std::fprintf(stderr,
                   "usage: oc-bench-schedule [--budget UNITS] [--instances K] [--families-only | --scaling-only] "
                   "[--scaling-sizes 100,1000,10000] [--scaling-instances K] [--bound-limit UNITS]\n");
      return 2;
    }
  }
  std::printf("# onnx-to-c scheduler benchmark\n\n");
  if (opt.families) oc::FamilyTable(opt);
  if (opt.scaling) oc::ScalingTable(opt);
  return 0;
}
