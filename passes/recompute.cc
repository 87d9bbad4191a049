#include "passes/recompute.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "passes/arena_plan.h"
#include "passes/schedule_graph.h"

namespace oc {
namespace {

// A program with the order the pass gave it, and its modeled peak and
// planned arena.
struct Judged {
  Program program;
  int64_t peak = 0, arena = 0;
};

// Orders the program for a small peak (its own order, or the quick
// schedulers' and local search's, whichever is least; ties keep its own) and
// plans its arena.
Judged Judge(Program program, const RecomputeOptions& o, bool reorder) {
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
    consider(ImproveLocally(pg.graph, order,
                            std::chrono::steady_clock::now() +
                                std::chrono::milliseconds(o.candidate_order_ms)));
    ApplyOrder(program, order);
    m = ComputeMemoryModel(program, o.alignment, o.aliases);
  }
  const int64_t arena = PlanBest(program, m, o.candidate_plan_ms).arena_bytes;
  return Judged{std::move(program), m.peak_bytes, arena};
}

int IndexOfId(const Program& p, int32_t id) {
  for (size_t i = 0; i < p.statements().size(); ++i) {
    if (p.statements()[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

// One late read to serve from a clone: the statement defining `value` is
// re-run for `readers` (ids).
struct LateRead {
  ValueId value;
  std::vector<int32_t> readers;
};

// The reads, after the peak step, of buffers live but idle at the peak.
std::vector<LateRead> LateReadsAcrossPeak(const Program& p, const MemoryModel& m) {
  std::vector<LateRead> out;
  const int peak = m.peak_step;
  if (peak < 0) return out;
  const auto& stmts = p.statements();
  const Statement& at_peak = stmts[peak];
  std::set<int> touched;  // buffers the peak statement reads or writes
  for (ValueId v : at_peak.operands) {
    if (v != kNoValue && m.buffer_of_value[v] >= 0) touched.insert(m.buffer_of_value[v]);
  }
  for (ValueId v : at_peak.results) touched.insert(m.buffer_of_value[v]);
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena || touched.count(b.id)) continue;
    if (!(b.first_step < peak && peak < b.last_step)) continue;
    for (ValueId v : b.values) {
      LateRead late{v, {}};
      for (size_t s = peak + 1; s < stmts.size(); ++s) {
        const auto& ops = stmts[s].operands;
        if (std::find(ops.begin(), ops.end(), v) != ops.end()) late.readers.push_back(stmts[s].id);
      }
      if (!late.readers.empty()) out.push_back(std::move(late));
    }
  }
  return out;
}

bool Clonable(const Program& p, int def) {
  return def >= 0 && p.statements()[def].results.size() == 1;
}

}  // namespace

int64_t RecomputeBudget(const Program& program, const RecomputeOptions& o) {
  return static_cast<int64_t>(static_cast<double>(ProgramCost(program)) * o.mac_budget_percent / 100.0);
}

absl::StatusOr<RecomputeResult> RunRecompute(Program& program, const RecomputeOptions& o,
                                             Deadline deadline) {
  RecomputeResult r;
  r.model_cost = ProgramCost(program);
  r.budget = RecomputeBudget(program, o);
  Judged best = Judge(program, o, /*reorder=*/false);
  r.peak_before = r.peak_after = best.peak;
  r.arena_before = r.arena_after = best.arena;
  std::map<int32_t, int> runs;  // original id -> clones so far

  while (std::chrono::steady_clock::now() < deadline) {
    const MemoryModel m = ComputeMemoryModel(best.program, o.alignment, o.aliases);
    std::optional<Judged> round_best;
    std::vector<RecomputeClone> round_clones;
    int64_t round_cost = 0;
    for (const LateRead& late : LateReadsAcrossPeak(best.program, m)) {
      Program candidate = best.program;
      std::vector<RecomputeClone> clones;
      std::map<int32_t, int> cand_runs = runs;
      int64_t cost = 0;
      // Level by level: the late read's producer, then the producers of the
      // arena values the new clones read, up to max_chain levels.
      std::vector<std::pair<ValueId, std::vector<int32_t>>> level = {{late.value, late.readers}};
      for (int depth = 0; depth < o.max_chain && !level.empty(); ++depth) {
        if (std::chrono::steady_clock::now() >= deadline) break;
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
          cost += RecomputeCost(candidate, src);
          if (++cand_runs[root] > o.cap || r.extra_cost + cost > r.budget) {
            ok = false;
            break;
          }
          auto clone = CloneForReaders(candidate, src.id, readers);
          if (!clone.ok()) {
            ok = false;
            break;
          }
          clones.push_back(*clone);
          const Statement& c = candidate.statements()[IndexOfId(candidate, clone->statement)];
          for (ValueId u : c.operands) {
            if (u != kNoValue && !candidate.value(u).IsConstant() &&
                candidate.value(u).kind == ValueKind::kResult) {
              next.push_back({u, {clone->statement}});
            }
          }
        }
        if (!ok) break;
        ++r.candidates_tried;
        Judged j = Judge(candidate, o, /*reorder=*/true);
        const int64_t bar_arena = round_best ? round_best->arena : best.arena;
        const int64_t bar_peak = round_best ? round_best->peak : best.peak;
        if (j.arena < bar_arena || (j.arena == bar_arena && round_best && j.peak < bar_peak)) {
          round_best = std::move(j);
          round_clones = clones;
          round_cost = cost;
        }
        level = std::move(next);
      }
    }
    if (!round_best || round_best->arena >= best.arena) break;
    best = std::move(*round_best);
    for (const RecomputeClone& c : round_clones) {
      ++runs[c.original];
      r.clones.push_back(c);
    }
    r.extra_cost += round_cost;
    r.peak_after = best.peak;
    r.arena_after = best.arena;
  }
  if (!r.clones.empty()) program = std::move(best.program);
  return r;
}

}  // namespace oc
