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
  auto deadline = [&](int64_t ms) { return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms); };
  const MemoryOptions& mo = s.memory;
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
  const ArenaPlan plan0 = PlanArena(mo.planner, before, m0, mo.budgets.plan_ms);

  OC_ASSIGN_OR_RETURN(s.recompute.result,
                      RunRecompute(s.program, ro, deadline(mo.budgets.recompute_ms * 3 / 10)));
  RecomputeResult& rc = s.recompute.result;
  rc.peak_before = m0.peak_bytes;
  rc.arena_before = plan0.arena_bytes;
  rc.peak_after = m0.peak_bytes;
  rc.arena_after = plan0.arena_bytes;
  if (!rc.clones.empty()) {
    // The full scheduler on the recompute program; it starts from the pass's order.
    ScheduleOptions again = ScheduleOptionsFor(mo);
    again.budget_ms = mo.budgets.recompute_ms / 2;
    OC_ASSIGN_OR_RETURN(ScheduleReport s1, ScheduleProgram(s.program, again));
    const MemoryModel m1 = ComputeMemoryModel(s.program, mo.alignment, mo.aliases);
    const ArenaPlan plan1 = PlanArena(mo.planner, s.program, m1, mo.budgets.plan_ms);
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
  s.recompute.exact = ExactMinPeakWithRecompute(before, ro, deadline(mo.budgets.recompute_ms / 5));
  s.recompute.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return absl::OkStatus();
}

}  // namespace oc
