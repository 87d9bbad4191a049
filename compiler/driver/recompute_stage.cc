// Selective recompute inside the compile pipeline: run the pass on the
// scheduled program, reschedule what it returns with the full scheduler, and
// keep it only if the planned arena is still below the one before.
#include <chrono>

#include "compiler/driver/compile.h"
#include "compiler/support/status.h"
#include "passes/recompute.h"
#include "passes/recompute_exact.h"

namespace oc {

absl::Status RecomputeStage(const CompileOptions& o, const SearchBudgets& budgets,
                            const ScheduleOptions& sched, CompileResult& r) {
  const auto t0 = std::chrono::steady_clock::now();
  auto deadline = [&](int64_t ms) { return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms); };
  r.recompute.enabled = true;
  RecomputeOptions ro;
  ro.cap = o.recompute_cap;
  ro.mac_budget_percent = o.recompute_mac_budget_percent;
  ro.alignment = o.alignment;
  ro.aliases = sched.aliases;
  const Program before = r.program;
  // The reference arena: the planner on the scheduler's order, as without recompute.
  const MemoryModel m0 = ComputeMemoryModel(before, o.alignment, sched.aliases);
  OC_ASSIGN_OR_RETURN(ArenaPlan plan0, PlanArena(o.planner, before, m0, budgets.plan_ms));

  OC_ASSIGN_OR_RETURN(r.recompute.result,
                      RunRecompute(r.program, ro, deadline(budgets.recompute_ms * 3 / 10)));
  RecomputeResult& rc = r.recompute.result;
  rc.peak_before = m0.peak_bytes;
  rc.arena_before = plan0.arena_bytes;
  rc.peak_after = m0.peak_bytes;
  rc.arena_after = plan0.arena_bytes;
  if (!rc.clones.empty()) {
    // The full scheduler on the recompute program; it starts from the pass's order.
    ScheduleOptions again = sched;
    again.budget_ms = budgets.recompute_ms / 2;
    OC_ASSIGN_OR_RETURN(ScheduleReport s1, ScheduleProgram(r.program, again));
    const MemoryModel m1 = ComputeMemoryModel(r.program, o.alignment, sched.aliases);
    OC_ASSIGN_OR_RETURN(ArenaPlan plan1, PlanArena(o.planner, r.program, m1, budgets.plan_ms));
    if (plan1.arena_bytes < plan0.arena_bytes && m1.peak_bytes <= m0.peak_bytes) {
      s1.file_order_peak = r.schedule.file_order_peak;  // the ONNX file's order, without clones
      // The scheduler starts from the pass's order, which it calls "file".
      s1.chosen_by = s1.chosen_by == "file" ? "recompute" : s1.chosen_by + " (after recompute)";
      s1.schedule_ms += r.schedule.schedule_ms;
      s1.bound_ms += r.schedule.bound_ms;
      // The order bound is a bound on orders of this recompute program only.
      s1.certified_optimal = false;
      r.schedule = std::move(s1);
      rc.peak_after = m1.peak_bytes;
      rc.arena_after = plan1.arena_bytes;
    } else {
      r.program = before;
      rc.clones.clear();
      rc.extra_cost = 0;
    }
  }
  // Small programs: the optimum over all recompute programs within the caps.
  r.recompute.exact = ExactMinPeakWithRecompute(before, ro, deadline(budgets.recompute_ms / 5));
  r.recompute.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return absl::OkStatus();
}

}  // namespace oc
