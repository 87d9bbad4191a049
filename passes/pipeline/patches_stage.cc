// The `patches` stage (passes/transforms/patches.h): after the schedule, tries every
// region that contains the peak statement under every grid up to 16 x 4
// whose halo fits the MAC budget (at most MaxCandidates of them), judging
// each by the peak of the scheduled order with the region replaced;
// reschedules the best with the full scheduler and keeps it only if the
// planned arena drops (or always, with Patches::kAlways). Then, as long as
// one pays, another region around the peak of the patched program (the peak
// may have moved), within what is left of the same MAC budget (at most
// kMaxRegions). With --stream-input, bands that reuse the rows the band
// before computed are candidates too (PatchGrid::reuse). Then the search
// again, its first region from a second round of candidates, bands with
// reuse (of sliding windows, and of every value), bounded by the statements
// of their programs; its regions are kept when their planned arena is
// smaller and meets the arena's lower bound (so the arena stays certified).
// Fit first (a RAM limit, MemoryOptions::patches_fit_first): the candidate of
// fewest halo MACs whose plan fits the limit instead (no second search).
// Nothing kept: the program is unchanged.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>

#include "compiler/support/status.h"
#include "passes/pipeline/pass.h"
#include "passes/planning/arena_plan.h"
#include "passes/planning/region_plan.h"
#include "passes/transforms/recompute_clone.h"
#include "passes/transforms/stream_input.h"

namespace oc {
namespace {

constexpr int64_t kMaxGridRows = 16, kMaxGridCols = 4;
constexpr int64_t kMaxReuseRows = 64;
constexpr size_t kMaxRegions = 8;
constexpr int64_t kReuseWorkPerStatement = 1000;
// Candidates whose memory model is computed, at most: a deterministic bound
// on the stage's time (each costs about one pass over the program).
int64_t MaxCandidates(const Program& program) {
  const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(program.statements().size()));
  return std::clamp<int64_t>(300000 / n, 50, 1500);
}

// Statements in the candidates of the reuse round, at most (each candidate's
// memory model costs about one pass over its statements).
int64_t MaxReuseWork(const Program& program) {
  return static_cast<int64_t>(program.statements().size()) * kReuseWorkPerStatement;
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
  int64_t largest_buffer = 0;  // the candidate's largest arena buffer
};

// The grids tried on a region of output shape `y`: up to kMaxGridRows x
// kMaxGridCols (`bands`: of whole rows only); with `reuse`, also bands that
// keep the rows the band before computed (little halo, so up to
// kMaxReuseRows of them).
std::vector<PatchGrid> Grids(const Shape& y, bool bands, bool reuse) {
  std::vector<PatchGrid> grids;
  for (int64_t rows = 1; rows <= std::min(y[2], kMaxGridRows); ++rows) {
    for (int64_t cols = 1; cols <= std::min(y[3], bands ? 1 : kMaxGridCols); ++cols) {
      if (rows * cols >= 2) grids.push_back({rows, cols, false});
    }
  }
  if (!reuse) return grids;
  for (int64_t rows = 2; rows <= std::min(y[2], kMaxReuseRows); rows += rows < 16 ? 2 : 8) {
    grids.push_back({rows, 1, true});
  }
  if (y[2] <= kMaxReuseRows && y[2] % 8 != 0) grids.push_back({y[2], 1, true});
  return grids;
}

// The band grids of the second round: with reuse (unless the first round
// tried them) and with reuse of every value, the same band counts.
std::vector<PatchGrid> ReuseGrids(const Shape& y, bool tried_reuse) {
  std::vector<PatchGrid> grids;
  for (PatchGrid g : Grids(y, true, true)) {
    if (!g.reuse) continue;
    if (!tried_reuse) grids.push_back(g);
    g.reuse_all = true;
    grids.push_back(g);
  }
  return grids;
}

// Every region containing the peak statement under every grid whose halo
// fits `budget_macs`, with the peak of the scheduled order with the region
// replaced; in the order they were tried. The grids of Grids (at most
// MaxCandidates more), or with `reuse_round` the band grids of ReuseGrids
// instead, whose programs grow with the band count: each charged its
// statements, at most MaxReuseWork in all.
std::vector<Candidate> PatchCandidates(const Program& before, const MemoryModel& m0, const MemoryOptions& mo,
                                       int64_t budget_macs, bool reuse_round, PatchSummary& ps) {
  const Program skeleton = WithoutConstantData(before);
  const std::vector<PatchRegion> regions = RegionsContaining(skeleton, m0.peak_step);
  std::vector<Candidate> out;
  // --stream-input: the first region starts at a graph input, in bands of
  // whole rows; later ones (the input already streamed) are free.
  const bool streams_region = mo.stream_input && !ps.applied;
  auto aliases_for = [&](const PatchRegion& region) {
    AliasOptions aliases = mo.aliases;
    if (streams_region) aliases.streamed_input = GraphInputIndex(skeleton, region.input);
    return aliases;
  };
  // The candidate's statement count, or 0 when it is not one.
  auto try_grid = [&](const PatchRegion& region, const PatchGrid& grid, const AliasOptions& aliases) -> int64_t {
    const absl::StatusOr<std::pair<int64_t, int64_t>> macs = PatchMacs(skeleton, region, grid);
    if (!macs.ok() || macs->second - macs->first > budget_macs) return 0;
    Program candidate = skeleton;
    if (!ApplyPatches(candidate, region, grid).ok()) return 0;
    if (mo.stream_input) {
      const absl::Status streamable = CheckStreamableInput(candidate, aliases.streamed_input);
      if (!streamable.ok() && ps.stream_refusal.empty()) ps.stream_refusal = std::string(streamable.message());
      if (!streamable.ok()) return 0;
    }
    ++ps.candidates_tried;
    const MemoryModel m = ComputeMemoryModel(candidate, mo.alignment, aliases);
    int64_t largest = 0;
    for (const Buffer& b : m.buffers) {
      if (b.location == BufferLocation::kArena) largest = std::max(largest, b.aligned_bytes);
    }
    out.push_back(Candidate{region, grid, m.peak_bytes, macs->second - macs->first, largest});
    return static_cast<int64_t>(candidate.statements().size());
  };
  if (reuse_round) {
    int64_t work = MaxReuseWork(before);
    for (const PatchRegion& region : regions) {
      const AliasOptions aliases = aliases_for(region);
      if (streams_region && aliases.streamed_input < 0) continue;
      for (const PatchGrid& grid : ReuseGrids(skeleton.value(region.output).shape, mo.stream_input)) {
        if (work <= 0) break;
        work -= try_grid(region, grid, aliases);
      }
    }
    return out;
  }
  const int64_t max_candidates = ps.candidates_tried + MaxCandidates(before);
  for (const PatchRegion& region : regions) {
    const AliasOptions aliases = aliases_for(region);
    if (streams_region && aliases.streamed_input < 0) continue;
    for (const PatchGrid& grid : Grids(skeleton.value(region.output).shape, streams_region, mo.stream_input)) {
      if (ps.candidates_tried >= max_candidates) break;
      try_grid(region, grid, aliases);
    }
  }
  return out;
}

// The RAM limit: the plan within --max-arena, or a split over the memory map.
bool FitsLimit(const Program& p, const MemoryModel& m, const ArenaPlan& plan, const MemoryOptions& mo) {
  if (mo.fit_arena_bytes >= 0 && plan.arena_bytes > mo.fit_arena_bytes) return false;
  if (!mo.memory_map) return true;
  WorkBudget budget = mo.budgets.Budget(mo.budgets.plan / 4);
  ArenaPlan regions = plan;
  return PlanRegions(p, m, *mo.memory_map, budget, regions).fits;
}

// Applies `c` to `s.program`, reschedules and plans it; `fits` says whether
// that plan fits the RAM limit. The program is restored unless `keep`.
struct Tried {
  ScheduleReport schedule;
  PatchRewrite rewrite;
  int64_t peak = 0, arena = 0;
  bool fits = false;
};
absl::StatusOr<Tried> TryCandidate(PipelineState& s, const Candidate& c) {
  const MemoryOptions& mo = s.memory;
  Tried t;
  OC_ASSIGN_OR_RETURN(t.rewrite, ApplyPatches(s.program, c.region, c.grid));
  OC_ASSIGN_OR_RETURN(t.schedule, ScheduleProgram(s.program, ScheduleOptionsFor(mo)));
  const MemoryModel m1 = ComputeMemoryModel(s.program, mo.alignment, mo.aliases);
  WorkBudget plan1_budget = mo.budgets.Budget(mo.budgets.plan);
  const ArenaPlan plan1 = PlanArena(mo.planner, s.program, m1, plan1_budget);
  t.peak = m1.peak_bytes;
  t.arena = plan1.arena_bytes;
  if (mo.patches_fit_first) t.fits = FitsLimit(s.program, m1, plan1, mo);
  return t;
}

void Adopt(PipelineState& s, const Program& before, const Candidate& c, Tried t) {
  PatchSummary& ps = s.patches;
  AdoptRescheduled(s.schedule, std::move(t.schedule), "patches", /*certifies=*/true);
  ps.regions.push_back({c.region, c.grid, before.value(c.region.input).name, before.value(c.region.output).name,
                        std::move(t.rewrite), t.peak, t.arena});
  if (!ps.applied) {
    ps.applied = true;
    ps.region = c.region;
    ps.grid = c.grid;
    ps.input_name = ps.regions.back().input_name;
    ps.output_name = ps.regions.back().output_name;
    ps.rewrite = ps.regions.back().rewrite;
  }
  ps.peak_after = t.peak;
  ps.arena_after = t.arena;
}

// The candidate of least peak, then fewest halo MACs.
std::optional<Candidate> Best(const std::vector<Candidate>& candidates) {
  std::optional<Candidate> best;
  for (const Candidate& c : candidates) {
    if (!best || std::tie(c.peak, c.extra_macs) < std::tie(best->peak, best->extra_macs)) best = c;
  }
  return best;
}

// One more region around the peak of the patched program, within the rest of
// the MAC budget, kept when the planned arena drops (`tentative`: when the
// peak does). True when one was kept.
absl::StatusOr<bool> PatchAnotherRegion(PipelineState& s, bool tentative) {
  const MemoryOptions& mo = s.memory;
  PatchSummary& ps = s.patches;
  const Program before = s.program;
  const MemoryModel m0 = ComputeMemoryModel(before, mo.alignment, mo.aliases);
  const std::optional<Candidate> best =
      Best(PatchCandidates(before, m0, mo, ps.budget_macs - ps.extra_macs(), /*reuse_round=*/false, ps));
  if (!best || best->peak >= m0.peak_bytes) return false;
  const int64_t arena = ps.arena_after;
  OC_ASSIGN_OR_RETURN(Tried t, TryCandidate(s, *best));
  if (t.arena >= arena && !(tentative && t.peak < m0.peak_bytes)) {
    s.program = before;
    return false;
  }
  Adopt(s, before, *best, std::move(t));
  return true;
}

// Further regions, as long as one is kept (at most kMaxRegions in all).
// Streamed, a region is kept tentatively when it lowers the peak, even if the
// stage's plan of it does not drop (the pieces of band outputs that wait for
// their assembly fragment a plan that later regions may mend), and the stage
// ends with the regions of the least planned arena.
absl::Status PatchFurtherRegions(PipelineState& s) {
  const bool tentative = s.memory.stream_input;
  Program best_program = s.program;
  ScheduleReport best_schedule = s.schedule;
  PatchSummary best_patches = s.patches;
  bool more = true;
  while (more && s.patches.regions.size() < kMaxRegions) {
    OC_ASSIGN_OR_RETURN(more, PatchAnotherRegion(s, tentative));
    if (more && s.patches.arena_after < best_patches.arena_after) {
      best_program = s.program;
      best_schedule = s.schedule;
      best_patches = s.patches;
    }
  }
  if (s.patches.regions.size() != best_patches.regions.size()) {
    const int64_t tried = s.patches.candidates_tried;
    s.program = std::move(best_program);
    s.schedule = std::move(best_schedule);
    s.patches = std::move(best_patches);
    s.patches.candidates_tried = tried;
  }
  return absl::OkStatus();
}

// Fit first: the candidates whose peak is within the limit and whose largest
// buffer fits a region, fewest halo MACs first, each planned in turn until
// one fits (at most kFitTries). True when one was kept.
absl::StatusOr<bool> TakeCheapestThatFits(PipelineState& s, const Program& before,
                                          std::vector<Candidate> candidates) {
  constexpr int kFitTries = 4;
  const MemoryOptions& mo = s.memory;
  const int64_t limit = mo.fit_arena_bytes >= 0 ? mo.fit_arena_bytes : mo.memory_map->TotalBytes();
  const int64_t largest_region = mo.memory_map ? mo.memory_map->LargestRegionBytes() : limit;
  std::vector<Candidate> fitting;
  for (Candidate& c : candidates) {
    if (c.peak <= limit && c.largest_buffer <= largest_region) fitting.push_back(std::move(c));
  }
  std::stable_sort(fitting.begin(), fitting.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.extra_macs, a.peak) < std::tie(b.extra_macs, b.peak);
  });
  s.patches.fitting_candidates = static_cast<int64_t>(fitting.size());
  for (size_t k = 0; k < fitting.size() && k < kFitTries; ++k) {
    OC_ASSIGN_OR_RETURN(Tried t, TryCandidate(s, fitting[k]));
    s.patches.fit_tries.push_back({fitting[k].grid, before.value(fitting[k].region.output).name, t.peak,
                                   t.arena, fitting[k].extra_macs, t.fits});
    if (t.fits) {
      Adopt(s, before, fitting[k], std::move(t));
      return true;
    }
    s.program = before;
  }
  return false;
}

// The reuse round's first region, planned on the heuristic scheduler's order
// (no bounds, no exact search: on a program of many bands they cost most of
// a compile): worth the full schedule when that plan is below `beat` bytes
// and meets the arena's lower bound (the round keeps nothing else).
bool PromisingReuse(const PipelineState& s, const Program& before, const Candidate& c, int64_t beat) {
  const MemoryOptions& mo = s.memory;
  Program candidate = before;
  if (!ApplyPatches(candidate, c.region, c.grid).ok()) return false;
  AliasOptions aliases = mo.aliases;
  if (mo.stream_input) aliases.streamed_input = GraphInputIndex(before, c.region.input);
  ScheduleOptions quick = ScheduleOptionsFor(mo);
  quick.mode = ScheduleMode::kHeuristic;
  quick.certify = false;
  quick.aliases = aliases;
  if (!ScheduleProgram(candidate, quick).ok()) return false;
  const MemoryModel m = ComputeMemoryModel(candidate, mo.alignment, aliases);
  WorkBudget budget = mo.budgets.Budget(mo.budgets.plan);
  const int64_t arena = PlanArena(mo.planner, candidate, m, budget).arena_bytes;
  return arena < beat && arena == ArenaLowerBound(candidate, m).bytes;
}

}  // namespace

// The regions the search keeps (the program, schedule and summary of `s`
// rewritten; `before` is the program it starts from, `m0` and `plan0` its
// memory model and plan). The first region's candidates are those of the
// reuse round when `ps.reuse_round`; later regions' are plain grids (their
// programs already hold the first region's bands). True when fit first
// kept one.
absl::StatusOr<bool> SearchRegions(PipelineState& s, const Program& before, const MemoryModel& m0,
                                   const ArenaPlan& plan0, bool fit_first, int64_t beat) {
  const MemoryOptions& mo = s.memory;
  PatchSummary& ps = s.patches;
  std::vector<Candidate> candidates = PatchCandidates(before, m0, mo, ps.budget_macs, ps.reuse_round, ps);
  const std::optional<Candidate> best = Best(candidates);
  bool kept = false;
  if (fit_first) {
    OC_ASSIGN_OR_RETURN(kept, TakeCheapestThatFits(s, before, std::move(candidates)));
  }
  // Streamed, the best candidate is kept regardless: only it leaves the input out.
  const bool always = mo.patches == MemoryOptions::Patches::kAlways || mo.stream_input;
  const bool promising = !ps.reuse_round || (best && PromisingReuse(s, before, *best, beat));
  if (!kept && best && promising && (always || best->peak < m0.peak_bytes)) {
    if (mo.stream_input) s.memory.aliases.streamed_input = GraphInputIndex(before, best->region.input);
    OC_ASSIGN_OR_RETURN(Tried t, TryCandidate(s, *best));
    if (always || t.arena < plan0.arena_bytes) {
      Adopt(s, before, *best, std::move(t));
    } else {
      s.program = before;
    }
  }
  if (!kept && ps.applied) OC_RETURN_IF_ERROR(PatchFurtherRegions(s));
  return kept;
}

// The stage's plan of `s` meets the arena's lower bound: the arena it keeps
// stays certified (the bands' joins and assemblies, copies in NCHW, can
// fragment a plan that the bound then does not cover).
bool PlanMeetsArenaBound(const PipelineState& s) {
  const MemoryModel m = ComputeMemoryModel(s.program, s.memory.alignment, s.memory.aliases);
  return s.patches.arena_after == ArenaLowerBound(s.program, m).bytes;
}

absl::Status RunPatchesStage(PipelineState& s) {
  const auto t0 = std::chrono::steady_clock::now();
  const MemoryOptions& mo = s.memory;
  PatchSummary& ps = s.patches;
  ps = PatchSummary{};
  ps.enabled = mo.patches != MemoryOptions::Patches::kOff;
  if (!ps.enabled) return absl::OkStatus();
  ps.fit_first = mo.patches_fit_first;
  const Program before = s.program;
  const MemoryModel m0 = ComputeMemoryModel(before, mo.alignment, mo.aliases);
  WorkBudget plan0_budget = mo.budgets.Budget(mo.budgets.plan);
  const ArenaPlan plan0 = PlanArena(mo.planner, before, m0, plan0_budget);
  ps.model_macs = ProgramCost(before);
  ps.budget_macs = static_cast<int64_t>(static_cast<double>(ps.model_macs) *
                                        mo.recompute_mac_budget_percent / 100.0);
  ps.peak_before = ps.peak_after = m0.peak_bytes;
  ps.arena_before = ps.arena_after = plan0.arena_bytes;

  const bool fit_first = mo.patches_fit_first && !mo.stream_input && !FitsLimit(before, m0, plan0, mo);
  PipelineState with_reuse = s;
  OC_ASSIGN_OR_RETURN(const bool kept, SearchRegions(s, before, m0, plan0, fit_first, plan0.arena_bytes));
  if (!kept && mo.patches_reuse_round) {
    // Again with the reuse round, kept when its planned arena is smaller: the
    // first region of least peak may leave a worse program than another.
    with_reuse.patches.reuse_round = true;
    with_reuse.patches.candidates_tried = ps.candidates_tried;
    OC_RETURN_IF_ERROR(SearchRegions(with_reuse, before, m0, plan0, false, ps.arena_after).status());
    if (with_reuse.patches.arena_after < ps.arena_after && PlanMeetsArenaBound(with_reuse)) {
      s = std::move(with_reuse);
    } else {
      ps.candidates_tried = with_reuse.patches.candidates_tried;
    }
  }
  s.planned = false;
  ps.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return absl::OkStatus();
}

}  // namespace oc
