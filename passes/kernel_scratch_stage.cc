// The `kernel-scratch` stage: on the scheduled and planned program, give the
// row-band convolution (targets/kernel_facts.h) to the candidates that save most
// edge work per scratch byte, re-plan the same order, and keep the largest
// such set (best first) whose arena grows by at most the budget. The order
// stays; its peak and lower bound are recertified with the scratch, so the
// report and `verify` see one consistent program.
#include <algorithm>

#include "compiler/support/status.h"
#include "targets/kernel_facts.h"
#include "passes/pass.h"

namespace oc {

absl::Status RunKernelScratchStage(PipelineState& s) {
  const MemoryOptions& mo = s.memory;
  KernelScratchSummary& ks = s.kernel_scratch;
  ks = KernelScratchSummary();
  ks.ran = true;
  const int64_t arena0 = s.plan.arena_bytes;
  ks.arena_without_bytes = arena0;
  ks.budget_bytes = mo.kernel_scratch_budget >= 0 ? mo.kernel_scratch_budget
                                                  : std::max<int64_t>(arena0 / 20, 4096);
  // 0: scratch-free kernels everywhere, even where scratch would not grow the arena.
  // Under --recompute the program's figures before and after recompute are
  // compared as they are (scratch-free), so it keeps the scratch-free kernels too.
  if (ks.budget_bytes == 0 || s.recompute.enabled) return absl::OkStatus();
  struct Candidate {
    int index;
    int64_t bytes;
    double gain;  // edge MACs avoided per arena byte
  };
  std::vector<Candidate> candidates;
  const std::vector<Statement>& st = s.program.statements();
  for (size_t i = 0; i < st.size(); ++i) {
    if (st[i].scratch_bytes != 0 || s.model.elided[i] || s.model.overlap_of_statement[i] >= 0) continue;
    const int64_t bytes = ConvBandScratchBytes(s.program, st[i]);
    const int64_t arena_bytes = AlignUp(bytes, mo.alignment);
    // The step's live bytes plus the band can only fit the arena the budget allows.
    if (bytes == 0 || s.model.live_bytes[i] + arena_bytes > arena0 + ks.budget_bytes) continue;
    candidates.push_back({static_cast<int>(i), bytes,
                          static_cast<double>(ConvEdgeMacs(s.program, st[i])) / arena_bytes});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.gain > b.gain; });
  // All candidates first; when the arena grows too much, the best two thirds, and so on.
  constexpr int kMaxTries = 6;
  size_t n = candidates.size();
  for (int attempt = 0; n > 0 && attempt < kMaxTries; ++attempt, n = n * 2 / 3) {
    Program p = s.program;
    for (size_t c = 0; c < n; ++c) p.statements()[candidates[c].index].scratch_bytes = candidates[c].bytes;
    MemoryModel m = ComputeMemoryModel(p, mo.alignment, mo.aliases);
    ArenaPlan plan = PlanArena(mo.planner, p, m, mo.budgets.plan_ms);
    if (plan.arena_bytes - arena0 > ks.budget_bytes) continue;
    // The peak and bound of the same order, now with the scratch.
    ScheduleOptions same = ScheduleOptionsFor(mo);
    same.budget_ms = std::max<int64_t>(mo.budgets.schedule_ms / 4, 1);
    OC_RETURN_IF_ERROR(RecertifyOrder(p, same, s.schedule));
    if (s.schedule.peak != m.peak_bytes) {
      return absl::InternalError("kernel scratch: the scheduler and the memory model disagree on the peak");
    }
    for (size_t c = 0; c < n; ++c) ks.statements.push_back(st[candidates[c].index].id);
    std::sort(ks.statements.begin(), ks.statements.end());
    s.program = std::move(p);
    s.model = std::move(m);
    s.plan = std::move(plan);
    break;
  }
  return absl::OkStatus();
}

}  // namespace oc
