#include "passes/planning/recompute.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "passes/analysis/schedule_graph.h"
#include "passes/planning/arena_plan.h"

namespace oc {
namespace {

// A program with the order the pass gave it, and its modeled peak and
// planned arena.
struct Judged {
  Program program;
  int64_t peak = 0, arena = 0;
  int peak_steps = 0;     // steps whose live bytes are the peak
  int64_t live_sum = 0;   // live bytes summed over the steps
};

// Orders the program for a small peak (its own order, or the quick
// schedulers' and local search's, whichever is least; ties keep its own) and
// plans its arena.
Judged Judge(Program program, const RecomputeOptions& o, bool reorder, WorkBudget& budget) {
  MemoryModel m = ComputeMemoryModel(program, o.alignment, o.aliases);
  if (reorder && !program.statements().empty()) {
    ProgramGraph pg = BuildScheduleGraph(program, m);
    std::vector<int> order(program.statements().size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    int64_t peak = PeakBytes(pg.graph, order);
    auto consider = [&](const std::vector<int>& other) {
      const int64_t p = PeakBytes(pg.graph, other);
      if (p < peak) {
        peak = p;
        order = other;
      }
    };
    consider(GreedyLeastPeak(pg.graph));
    consider(MemoryAwareDfs(pg.graph));
    {
      WorkBudget local(budget, o.candidate_order_budget);
      consider(ImproveLocally(pg.graph, order, local));
    }
    // Small programs: the optimal order, when it is found within the budget.
    if (pg.graph.num_nodes <= o.exact_order_statements) {
      WorkBudget exact(budget, o.candidate_order_budget);
      ExactSearchResult e = ExactMinPeakOrder(pg.graph, peak, exact);
      if (e.improved) consider(e.order);
    }
    ApplyOrder(program, order);
    m = ComputeMemoryModel(program, o.alignment, o.aliases);
  }
  WorkBudget plan(budget, o.candidate_plan_budget);
  const int64_t arena = PlanBest(program, m, plan).arena_bytes;
  int peak_steps = 0;
  int64_t live_sum = 0;
  for (int64_t live : m.live_bytes) {
    peak_steps += live == m.peak_bytes;
    live_sum += live;
  }
  return Judged{std::move(program), m.peak_bytes, arena, peak_steps, live_sum};
}

int IndexOfId(const Program& p, int32_t id) {
  for (size_t i = 0; i < p.statements().size(); ++i) {
    if (p.statements()[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

// A read to serve from a clone: the statement defining `value` is re-run
// for `readers` (ids).
struct LateRead {
  ValueId value;
  std::vector<int32_t> readers;
  bool operator<(const LateRead& o) const {
    return value != o.value ? value < o.value : readers < o.readers;
  }
};

// Candidates around the peak steps (at most kPeakSteps of them), for each
// value in an arena buffer live there: first, serving its reads after that
// step from a clone, so that the buffer can die earlier; then, serving one of
// several readers from a clone, so that the other may write in place or the
// buffer may die earlier.
std::vector<LateRead> CandidateReads(const Program& p, const MemoryModel& m) {
  constexpr int kPeakSteps = 4;
  const auto& stmts = p.statements();
  std::vector<std::vector<int>> readers(p.num_values());  // program indices
  for (size_t s = 0; s < stmts.size(); ++s) {
    for (ValueId v : stmts[s].operands) {
      if (v != kNoValue && (readers[v].empty() || readers[v].back() != static_cast<int>(s))) {
        readers[v].push_back(static_cast<int>(s));
      }
    }
  }
  std::vector<LateRead> late, single;
  std::set<LateRead> seen;
  int steps = 0;
  for (size_t step = 0; step < m.live_bytes.size() && steps < kPeakSteps; ++step) {
    if (m.live_bytes[step] != m.peak_bytes) continue;
    ++steps;
    for (const Buffer& b : m.buffers) {
      if (b.location != BufferLocation::kArena) continue;
      if (!(b.first_step <= static_cast<int>(step) && static_cast<int>(step) <= b.last_step)) continue;
      for (ValueId v : b.values) {
        const std::vector<int>& rs = readers[v];
        LateRead after{v, {}};
        for (int r : rs) {
          if (r > static_cast<int>(step)) after.readers.push_back(stmts[r].id);
        }
        // Some reader must stay with the original, or the clone only moves it.
        if (!after.readers.empty() && after.readers.size() < rs.size() && seen.insert(after).second) {
          late.push_back(after);
        }
        if (rs.size() < 2) continue;
        for (int r : rs) {
          LateRead one{v, {stmts[r].id}};
          if (seen.insert(one).second) single.push_back(one);
        }
      }
    }
  }
  late.insert(late.end(), single.begin(), single.end());
  return late;
}

bool Clonable(const Program& p, int def) {
  return def >= 0 && p.statements()[def].results.size() == 1;
}


// A recompute program reached by the search: its judgement, the clones made
// so far, the extra runs per original statement and their cost.
struct State {
  Judged judged;
  std::vector<RecomputeClone> clones;
  std::map<int32_t, int> runs;
  int64_t cost = 0;
};

// How the search ranks programs: the arena first, then the peak, the number
// of steps at the peak and the live bytes over all steps.
std::tuple<int64_t, int64_t, int, int64_t> Score(const Judged& j) {
  return {j.arena, j.peak, j.peak_steps, j.live_sum};
}

// Programs the search considers from `s` at most kLookahead steps deep
// when no single step pays.
constexpr size_t kLookahead = 3;

// Every program one candidate away from `s` within the caps and the budget,
// judged: for each candidate read, the clone of its producer, then with the
// producers above it, up to max_chain levels (each level is one program).
std::vector<State> Successors(const State& s, const RecomputeOptions& o, int64_t mac_budget,
                              WorkBudget& budget, int64_t* tried) {
  std::vector<State> out;
  const MemoryModel m = ComputeMemoryModel(s.judged.program, o.alignment, o.aliases);
  for (const LateRead& late : CandidateReads(s.judged.program, m)) {
    State c{{s.judged.program, 0, 0, 0, 0}, s.clones, s.runs, s.cost};
    Program& candidate = c.judged.program;
    std::vector<std::pair<ValueId, std::vector<int32_t>>> level = {{late.value, late.readers}};
    for (int depth = 0; depth < o.max_chain && !level.empty(); ++depth) {
      if (budget.Exhausted()) return out;
      std::vector<int> def = candidate.DefiningStatementIndex();
      std::vector<std::pair<ValueId, std::vector<int32_t>>> next;
      bool ok = true;
      for (const auto& [value, readers] : level) {
        if (!Clonable(candidate, def[value])) {
          ok = false;
          break;
        }
        const Statement& src = candidate.statements()[def[value]];
        const int32_t root = src.recompute_of >= 0 ? src.recompute_of : src.id;
        c.cost += RecomputeCost(candidate, src);
        if (++c.runs[root] > o.cap || c.cost > mac_budget) {
          ok = false;
          break;
        }
        auto clone = CloneForReaders(candidate, src.id, readers);
        if (!clone.ok()) {
          ok = false;
          break;
        }
        c.clones.push_back(*clone);
        const Statement& made = candidate.statements()[IndexOfId(candidate, clone->statement)];
        for (ValueId u : made.operands) {
          if (u != kNoValue && candidate.value(u).kind == ValueKind::kResult) {
            next.push_back({u, {clone->statement}});
          }
        }
      }
      if (!ok) break;
      ++*tried;
      State judged{Judge(candidate, o, /*reorder=*/true, budget), c.clones, c.runs, c.cost};
      out.push_back(std::move(judged));
      level = std::move(next);
    }
  }
  return out;
}

}  // namespace

int64_t RecomputeBudget(const Program& program, const RecomputeOptions& o) {
  return static_cast<int64_t>(static_cast<double>(ProgramCost(program)) * o.mac_budget_percent / 100.0);
}

absl::StatusOr<RecomputeResult> RunRecompute(Program& program, const RecomputeOptions& o,
                                             WorkBudget& budget) {
  RecomputeResult r;
  r.model_cost = ProgramCost(program);
  r.budget = RecomputeBudget(program, o);
  State current{Judge(program, o, /*reorder=*/false, budget), {}, {}, 0};
  r.peak_before = current.judged.peak;
  r.arena_before = current.judged.arena;
  auto better = [](const State& a, const State& b) { return Score(a.judged) < Score(b.judged); };
  while (!budget.Exhausted()) {
    std::vector<State> steps = Successors(current, o, r.budget, budget, &r.candidates_tried);
    std::sort(steps.begin(), steps.end(), better);
    if (!steps.empty() && steps[0].judged.arena < current.judged.arena) {
      current = std::move(steps[0]);
      continue;
    }
    // No single step pays: look one step further from the most promising
    // ones that do not make the arena grow (two clones may pay together
    // where neither does alone).
    std::optional<State> found;
    for (size_t i = 0; i < steps.size() && i < kLookahead; ++i) {
      if (steps[i].judged.arena > current.judged.arena) break;
      std::vector<State> next = Successors(steps[i], o, r.budget, budget, &r.candidates_tried);
      for (State& n : next) {
        if (n.judged.arena < current.judged.arena && (!found || better(n, *found))) found = std::move(n);
      }
    }
    if (!found) break;
    current = std::move(*found);
  }
  r.peak_after = current.judged.peak;
  r.arena_after = current.judged.arena;
  if (!current.clones.empty()) {
    r.clones = std::move(current.clones);
    r.extra_cost = current.cost;
    program = std::move(current.judged.program);
  }
  return r;
}

}  // namespace oc
