// The fast kernels' scratch inside the compile pipeline: on the scheduled and
// planned program, give the row-band convolution (passes/kernel_scratch.h) to
// the candidates that save most edge work per scratch byte, re-plan the same
// order, and keep the largest such set (best first) whose arena grows by at
// most the budget. The order stays; its peak and lower bound are recomputed
// with the scratch, so the report and `verify` see one consistent program.
#include <algorithm>

#include "compiler/driver/compile.h"
#include "compiler/support/status.h"
#include "passes/kernel_scratch.h"

namespace oc {

absl::Status KernelScratchStage(const CompileOptions& o, const SearchBudgets& budgets,
                                const ScheduleOptions& sched, CompileResult& r) {
  CompileResult::KernelScratch& ks = r.kernel_scratch;
  const int64_t arena0 = r.plan.arena_bytes;
  ks.arena_without_bytes = arena0;
  ks.budget_bytes = o.kernel_scratch_budget >= 0 ? o.kernel_scratch_budget
                                                 : std::max<int64_t>(arena0 / 20, 4096);
  // 0: scratch-free kernels everywhere, even where scratch would not grow the arena.
  // Under --recompute the program's figures before and after recompute are
  // compared as they are (scratch-free), so it keeps the scratch-free kernels too.
  if (ks.budget_bytes == 0 || r.recompute.enabled) return absl::OkStatus();
  struct Candidate {
    int index;
    int64_t bytes;
    double gain;  // edge MACs avoided per arena byte
  };
  std::vector<Candidate> candidates;
  const std::vector<Statement>& st = r.program.statements();
  for (size_t i = 0; i < st.size(); ++i) {
    if (st[i].scratch_bytes != 0 || r.model.elided[i] || r.model.overlap_of_statement[i] >= 0) continue;
    const int64_t bytes = ConvBandScratchBytes(r.program, st[i]);
    const int64_t arena_bytes = AlignUp(bytes, o.alignment);
    // The step's live bytes plus the band can only fit the arena the budget allows.
    if (bytes == 0 || r.model.live_bytes[i] + arena_bytes > arena0 + ks.budget_bytes) continue;
    candidates.push_back({static_cast<int>(i), bytes,
                          static_cast<double>(ConvEdgeMacs(r.program, st[i])) / arena_bytes});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.gain > b.gain; });
  // All candidates first; when the arena grows too much, the best two thirds, and so on.
  constexpr int kMaxTries = 6;
  size_t n = candidates.size();
  for (int attempt = 0; n > 0 && attempt < kMaxTries; ++attempt, n = n * 2 / 3) {
    Program p = r.program;
    for (size_t c = 0; c < n; ++c) p.statements()[candidates[c].index].scratch_bytes = candidates[c].bytes;
    MemoryModel m = ComputeMemoryModel(p, o.alignment, sched.aliases);
    OC_ASSIGN_OR_RETURN(ArenaPlan plan, PlanArena(o.planner, p, m, budgets.plan_ms));
    if (plan.arena_bytes - arena0 > ks.budget_bytes) continue;
    // The peak and bound of the same order, now with the scratch.
    ScheduleOptions same = sched;
    same.mode = "file";
    same.budget_ms = std::max<int64_t>(budgets.schedule_ms / 4, 1);
    OC_ASSIGN_OR_RETURN(ScheduleReport s, ScheduleProgram(p, same));
    if (s.peak != m.peak_bytes || s.order != r.schedule.order) {
      return absl::InternalError("kernel scratch: the order or its peak changed");
    }
    s.chosen_by = r.schedule.chosen_by;
    s.mode = r.schedule.mode;
    s.file_order_peak = r.schedule.file_order_peak;
    s.rpo_peak = r.schedule.rpo_peak;
    s.heuristic_peak = r.schedule.heuristic_peak;
    s.schedule_ms += r.schedule.schedule_ms;
    // The exact search proved the order optimal without scratch, not with it.
    s.exact_search_finished = false;
    s.exact_search_states = r.schedule.exact_search_states;
    for (size_t c = 0; c < n; ++c) ks.statements.push_back(st[candidates[c].index].id);
    std::sort(ks.statements.begin(), ks.statements.end());
    r.program = std::move(p);
    r.model = std::move(m);
    r.plan = std::move(plan);
    r.schedule = std::move(s);
    break;
  }
  return absl::OkStatus();
}

}  // namespace oc
