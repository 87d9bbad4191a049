// The `kernel-scratch` stage: on the scheduled and planned program, give the
// kernels that need scratch (compiler/target/kernel_facts.h: the float row-band
// convolution, the 8-bit column convolution) to the candidates that speed up
// most MACs per scratch byte.
//
// By default a band is taken only where the plan has free bytes at that step:
// the band goes into the lowest aligned gap among the occupants live there,
// below the arena's end and without raising the step's live bytes above the
// peak. The arena, the peak and so the certificate stay those of the
// scratch-free program. An explicit `--kernel-scratch-budget` trades arena
// bytes for speed instead: the candidates are re-planned together and the
// largest set (best first) whose arena grows by at most the budget is kept.
// Either way the order stays; its peak and lower bound are recertified with
// the scratch, so the report and `verify` see one consistent program.
#include <algorithm>
#include <utility>

#include "compiler/support/status.h"
#include "compiler/target/kernel_facts.h"
#include "passes/analysis/arena_occupants.h"
#include "passes/pipeline/pass.h"

namespace oc {
namespace {

struct Candidate {
  int index;
  int64_t bytes;
  double gain;  // edge MACs avoided per arena byte
};

// The lowest offset, a multiple of `alignment`, where `bytes` fit below
// `limit` between the arena occupants live at `step`; -1 when there is none.
int64_t LowestGapAt(const std::vector<ArenaOccupant>& occupants, const ArenaPlan& plan, int step,
                    int64_t bytes, int64_t alignment, int64_t limit) {
  std::vector<std::pair<int64_t, int64_t>> used;  // [begin, end)
  for (const ArenaOccupant& o : occupants) {
    const int64_t offset = OccupantOffset(plan, o);
    if (o.LiveAt(step) && offset >= 0 && o.bytes > 0) used.push_back({offset, offset + o.bytes});
  }
  std::sort(used.begin(), used.end());
  int64_t at = 0;
  for (const auto& [begin, end] : used) {
    if (at + bytes <= begin) break;
    at = std::max(at, AlignUp(end, alignment));
  }
  return at + bytes <= limit ? at : -1;
}

// Places each candidate's band in the plan's free bytes at its step. Returns
// the candidates placed, with the program, model and plan updated.
std::vector<Candidate> PlaceInFreeBytes(PipelineState& s, const std::vector<Candidate>& candidates) {
  const MemoryOptions& mo = s.memory;
  const std::vector<ArenaOccupant> occupants = ArenaOccupants(s.program, s.model);
  const int64_t peak = s.model.peak_bytes;
  std::vector<Candidate> placed;
  std::vector<std::pair<int, int64_t>> offsets;
  for (const Candidate& c : candidates) {
    const int64_t bytes = AlignUp(c.bytes, mo.alignment);
    if (s.model.live_bytes[c.index] + bytes > peak) continue;
    const int64_t at =
        LowestGapAt(occupants, s.plan, c.index, bytes, mo.alignment, s.plan.arena_bytes);
    if (at < 0) continue;
    placed.push_back(c);
    offsets.push_back({c.index, at});
  }
  if (placed.empty()) return placed;
  Program p = s.program;
  for (const Candidate& c : placed) p.statements()[c.index].scratch_bytes = c.bytes;
  MemoryModel m = ComputeMemoryModel(p, mo.alignment, mo.aliases);
  ArenaPlan plan = s.plan;
  plan.scratch_offset.resize(p.statements().size(), -1);
  for (const auto& [index, at] : offsets) plan.scratch_offset[index] = at;
  s.program = std::move(p);
  s.model = std::move(m);
  s.plan = std::move(plan);
  return placed;
}

// Re-plans with the largest best-first set of candidates whose arena grows by
// at most the budget. Returns the candidates taken.
std::vector<Candidate> PlanWithinBudget(PipelineState& s, const std::vector<Candidate>& candidates,
                                        int64_t budget_bytes) {
  const MemoryOptions& mo = s.memory;
  // All candidates first; when the arena grows too much, the best two thirds, and so on.
  constexpr int kMaxTries = 6;
  size_t n = candidates.size();
  for (int attempt = 0; n > 0 && attempt < kMaxTries; ++attempt, n = n * 2 / 3) {
    Program p = s.program;
    for (size_t c = 0; c < n; ++c) p.statements()[candidates[c].index].scratch_bytes = candidates[c].bytes;
    MemoryModel m = ComputeMemoryModel(p, mo.alignment, mo.aliases);
    WorkBudget budget = mo.budgets.Budget(mo.budgets.plan);
    ArenaPlan plan = PlanArena(mo.planner, p, m, budget);
    if (plan.arena_bytes - s.plan.arena_bytes > budget_bytes) continue;
    s.program = std::move(p);
    s.model = std::move(m);
    s.plan = std::move(plan);
    return std::vector<Candidate>(candidates.begin(), candidates.begin() + n);
  }
  return {};
}

// With an explicit budget the scratch may raise the peak: the baselines are
// measured again on the same program (its statements in their original order),
// so that the report compares like with like.
absl::Status RemeasureBaselines(PipelineState& s) {
  Program by_id = s.program;
  std::vector<Statement>& st = by_id.statements();
  std::stable_sort(st.begin(), st.end(), [](const Statement& a, const Statement& b) { return a.id < b.id; });
  AliasOptions file_aliases;
  file_aliases.io_in_arena = s.memory.aliases.io_in_arena;
  s.file_order_live_bytes = ComputeMemoryModel(by_id, s.memory.alignment, file_aliases).live_bytes;
  ScheduleOptions o = ScheduleOptionsFor(s.memory);
  o.mode = ScheduleMode::kHeuristic;
  o.certify = false;
  o.budget = s.memory.budgets.schedule / 4;
  OC_ASSIGN_OR_RETURN(ScheduleReport b, ScheduleProgram(by_id, o));
  s.schedule.file_order_peak = b.file_order_peak;
  s.schedule.rpo_peak = b.rpo_peak;
  s.schedule.heuristic_peak = b.heuristic_peak;
  return absl::OkStatus();
}

}  // namespace

absl::Status RunKernelScratchStage(PipelineState& s) {
  const MemoryOptions& mo = s.memory;
  KernelScratchSummary& ks = s.kernel_scratch;
  ks = KernelScratchSummary();
  ks.ran = true;
  const int64_t arena0 = s.plan.arena_bytes;
  const int64_t peak0 = s.model.peak_bytes;
  ks.arena_without_bytes = arena0;
  ks.free_bytes_only = mo.kernel_scratch_budget < 0;
  ks.budget_bytes = std::max<int64_t>(mo.kernel_scratch_budget, 0);
  // An explicit 0: scratch-free kernels everywhere, even in free bytes.
  // Under --recompute the program's figures before and after recompute are
  // compared as they are (scratch-free), so it keeps the scratch-free kernels too.
  if (mo.kernel_scratch_budget == 0 || s.recompute.enabled) return absl::OkStatus();
  std::vector<Candidate> candidates;
  const std::vector<Statement>& st = s.program.statements();
  for (size_t i = 0; i < st.size(); ++i) {
    if (st[i].scratch_bytes != 0 || s.model.elided[i] || s.model.overlap_of_statement[i] >= 0) continue;
    const ScratchKernel fast = FastKernelWithScratch(s.program, st[i]);
    const int64_t bytes = fast.bytes;
    const int64_t arena_bytes = AlignUp(bytes, mo.alignment);
    // The step's live bytes plus the scratch can only fit the arena the budget allows.
    if (bytes == 0 || s.model.live_bytes[i] + arena_bytes > arena0 + ks.budget_bytes) continue;
    candidates.push_back({static_cast<int>(i), bytes, static_cast<double>(fast.macs) / arena_bytes});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.gain > b.gain; });
  const std::vector<int32_t> ids_before = [&] {
    std::vector<int32_t> ids;
    for (const Statement& x : st) ids.push_back(x.id);
    return ids;
  }();
  const std::vector<Candidate> taken = ks.free_bytes_only
                                           ? PlaceInFreeBytes(s, candidates)
                                           : PlanWithinBudget(s, candidates, ks.budget_bytes);
  if (taken.empty()) return absl::OkStatus();
  if (ks.free_bytes_only && (s.plan.arena_bytes != arena0 || s.model.peak_bytes != peak0)) {
    return absl::InternalError("kernel scratch in free bytes changed the arena or the peak");
  }
  // The peak and bound of the same order, now with the scratch.
  ScheduleOptions same = ScheduleOptionsFor(mo);
  same.budget = mo.budgets.schedule / 4;
  OC_RETURN_IF_ERROR(RecertifyOrder(s.program, same, s.schedule));
  if (s.schedule.peak != s.model.peak_bytes) {
    return absl::InternalError("kernel scratch: the scheduler and the memory model disagree on the peak");
  }
  if (s.model.peak_bytes != peak0) OC_RETURN_IF_ERROR(RemeasureBaselines(s));
  for (const Candidate& c : taken) ks.statements.push_back(ids_before[c.index]);
  std::sort(ks.statements.begin(), ks.statements.end());
  return absl::OkStatus();
}

}  // namespace oc
