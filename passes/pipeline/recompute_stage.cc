// The `recompute` stage: run selective recompute (recompute.h) on the
// scheduled program, reschedule what it returns with the full scheduler, and
// keep it only if the planned arena is still below the one before.
#include <algorithm>
#include <chrono>

#include "compiler/support/status.h"
#include "passes/pipeline/pass.h"

namespace oc {

absl::Status RunRecomputeStage(PipelineState& s) {
  const auto t0 = std::chrono::steady_clock::now();
  const MemoryOptions& mo = s.memory;
  auto budget = [&](int64_t units) { return mo.budgets.Budget(units); };
  s.recompute.enabled = true;
  RecomputeOptions ro;
  ro.cap = mo.recompute_cap;
  ro.mac_budget_percent = mo.recompute_mac_budget_percent;
  if (s.patches.applied && s.patches.model_macs > 0) {
    // The patches' halos spent part of the one budget.
    ro.mac_budget_percent = std::max(0.0, ro.mac_budget_percent - 100.0 * static_cast<double>(s.patches.extra_macs()) /
                                                                      static_cast<double>(s.patches.model_macs));
  }
  ro.alignment = mo.alignment;
  ro.aliases = mo.aliases;
  const Program before = s.program;
  // The reference arena: the planner on the scheduler's order, as without recompute.
  const MemoryModel m0 = ComputeMemoryModel(before, mo.alignment, mo.aliases);
  WorkBudget plan0_budget = budget(mo.budgets.plan);
  const ArenaPlan plan0 = PlanArena(mo.planner, before, m0, plan0_budget);

  WorkBudget search = budget(mo.budgets.recompute * 3 / 10);
  OC_ASSIGN_OR_RETURN(s.recompute.result, RunRecompute(s.program, ro, search));
  RecomputeResult& rc = s.recompute.result;
  rc.peak_before = m0.peak_bytes;
  rc.arena_before = plan0.arena_bytes;
  rc.peak_after = m0.peak_bytes;
  rc.arena_after = plan0.arena_bytes;
  if (!rc.clones.empty()) {
    // The full scheduler on the recompute program; it starts from the pass's order.
    ScheduleOptions again = ScheduleOptionsFor(mo);
    again.budget = mo.budgets.recompute / 2;
    OC_ASSIGN_OR_RETURN(ScheduleReport s1, ScheduleProgram(s.program, again));
    const MemoryModel m1 = ComputeMemoryModel(s.program, mo.alignment, mo.aliases);
    WorkBudget plan1_budget = budget(mo.budgets.plan);
    const ArenaPlan plan1 = PlanArena(mo.planner, s.program, m1, plan1_budget);
    if (plan1.arena_bytes < plan0.arena_bytes && m1.peak_bytes <= m0.peak_bytes) {
      AdoptRescheduled(s.schedule, std::move(s1), "recompute");
      rc.peak_after = m1.peak_bytes;
      rc.arena_after = plan1.arena_bytes;
    } else {
      s.program = before;
      rc.clones.clear();
      rc.extra_cost = 0;
    }
  }
  s.planned = false;
  // Small programs: the optimum over all recompute programs within the caps.
  WorkBudget exact = budget(mo.budgets.recompute / 5);
  s.recompute.exact = ExactMinPeakWithRecompute(before, ro, exact);
  s.recompute.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return absl::OkStatus();
}

}  // namespace oc
