// The `patches` stage (passes/transforms/patches.h): after the schedule, tries every
// region that contains the peak statement under every grid up to 16 x 4
// whose halo fits the MAC budget (at most MaxCandidates of them), judging
// each by the peak of the scheduled order with the region replaced;
// reschedules the best with the full scheduler and keeps it only if the
// planned arena drops (or always, with Patches::kAlways). Nothing kept: the
// program is unchanged.
#include <algorithm>
#include <chrono>
#include <tuple>

#include "compiler/support/status.h"
#include "passes/pipeline/pass.h"
#include "passes/transforms/recompute_clone.h"

namespace oc {
namespace {

constexpr int64_t kMaxGridRows = 16, kMaxGridCols = 4;
// Candidates whose memory model is computed, at most: a deterministic bound
// on the stage's time (each costs about one pass over the program).
int64_t MaxCandidates(const Program& program) {
  const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(program.statements().size()));
  return std::clamp<int64_t>(300000 / n, 50, 1500);
}

// The program without its weights' bytes: what a candidate's memory model needs.
Program WithoutConstantData(const Program& program) {
  Program skeleton = program;
  for (const Value& v : program.values()) {
    if (v.IsConstant()) {
      skeleton.value(v.id).data.clear();
      skeleton.value(v.id).data.shrink_to_fit();
    }
  }
  return skeleton;
}

struct Candidate {
  PatchRegion region;
  PatchGrid grid;
  int64_t peak = 0, extra_macs = 0;
};

}  // namespace

absl::Status RunPatchesStage(PipelineState& s) {
  const auto t0 = std::chrono::steady_clock::now();
  const MemoryOptions& mo = s.memory;
  PatchSummary& ps = s.patches;
  ps = PatchSummary{};
  ps.enabled = mo.patches != MemoryOptions::Patches::kOff;
  if (!ps.enabled) return absl::OkStatus();
  const Program before = s.program;
  const MemoryModel m0 = ComputeMemoryModel(before, mo.alignment, mo.aliases);
  WorkBudget plan0_budget = mo.budgets.Budget(mo.budgets.plan);
  const ArenaPlan plan0 = PlanArena(mo.planner, before, m0, plan0_budget);
  ps.model_macs = ProgramCost(before);
  ps.budget_macs = static_cast<int64_t>(static_cast<double>(ps.model_macs) *
                                        mo.recompute_mac_budget_percent / 100.0);
  ps.peak_before = ps.peak_after = m0.peak_bytes;
  ps.arena_before = ps.arena_after = plan0.arena_bytes;

  const Program skeleton = WithoutConstantData(before);
  const int64_t max_candidates = MaxCandidates(before);
  std::optional<Candidate> best;
  for (const PatchRegion& region : RegionsContaining(skeleton, m0.peak_step)) {
    const Shape& y = skeleton.value(region.output).shape;
    for (int64_t rows = 1; rows <= std::min(y[2], kMaxGridRows); ++rows) {
      for (int64_t cols = 1; cols <= std::min(y[3], kMaxGridCols); ++cols) {
        if (rows * cols < 2 || ps.candidates_tried >= max_candidates) continue;
        const absl::StatusOr<std::pair<int64_t, int64_t>> macs = PatchMacs(skeleton, region, {rows, cols});
        if (!macs.ok() || macs->second - macs->first > ps.budget_macs) continue;
        const int64_t extra = macs->second - macs->first;
        Program candidate = skeleton;
        if (!ApplyPatches(candidate, region, {rows, cols}).ok()) continue;
        ++ps.candidates_tried;
        const int64_t peak = ComputeMemoryModel(candidate, mo.alignment, mo.aliases).peak_bytes;
        if (!best || std::tie(peak, extra) < std::tie(best->peak, best->extra_macs)) {
          best = Candidate{region, {rows, cols}, peak, extra};
        }
      }
    }
  }
  const bool always = mo.patches == MemoryOptions::Patches::kAlways;
  if (best && (always || best->peak < m0.peak_bytes)) {
    OC_ASSIGN_OR_RETURN(PatchRewrite rw, ApplyPatches(s.program, best->region, best->grid));
    ScheduleOptions again = ScheduleOptionsFor(mo);
    OC_ASSIGN_OR_RETURN(ScheduleReport s1, ScheduleProgram(s.program, again));
    const MemoryModel m1 = ComputeMemoryModel(s.program, mo.alignment, mo.aliases);
    WorkBudget plan1_budget = mo.budgets.Budget(mo.budgets.plan);
    const ArenaPlan plan1 = PlanArena(mo.planner, s.program, m1, plan1_budget);
    if (always || plan1.arena_bytes < plan0.arena_bytes) {
      AdoptRescheduled(s.schedule, std::move(s1), "patches", /*certifies=*/true);
      ps.applied = true;
      ps.region = best->region;
      ps.grid = best->grid;
      ps.input_name = before.value(best->region.input).name;
      ps.output_name = before.value(best->region.output).name;
      ps.rewrite = std::move(rw);
      ps.peak_after = m1.peak_bytes;
      ps.arena_after = plan1.arena_bytes;
    } else {
      s.program = before;
    }
  }
  s.planned = false;
  ps.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return absl::OkStatus();
}

}  // namespace oc
