// The state every pass of the pipeline reads and writes: the program, and
// what the memory stages derive from it (schedule, memory model, arena plan,
// baselines, recompute and kernel-scratch summaries). IR passes rewrite the
// program; the stages after them (schedule, recompute, plan, ...) fill in the
// rest. The driver is import -> RunPlanSearch(state) (plan_search.h, which
// runs the pipeline on the variants) -> emit -> report.
#ifndef ONNX_TO_C_PASSES_PIPELINE_PIPELINE_STATE_H_
#define ONNX_TO_C_PASSES_PIPELINE_PIPELINE_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "passes/planning/recompute.h"
#include "passes/planning/recompute_exact.h"
#include "passes/planning/region_plan.h"
#include "passes/planning/schedule.h"
#include "passes/transforms/concat_copy.h"
#include "passes/transforms/pass_stats.h"
#include "passes/transforms/patches.h"

namespace oc {

// What each search may spend, in work units (compiler/support/work_budget.h,
// the same bytes on any machine under any load): the schedule search (local
// search, exact search, lower bounds); one arena plan; the baselines' plans;
// the plans of other orders of equal peak (joint choice); selective recompute
// (its search, its exact search and the rescheduling of its program; 0 when
// off). `stop`: the compile's hard stop (--time-limit), or null.
struct SearchBudgets {
  int64_t schedule = kDefaultScheduleBudget;
  int64_t plan = kDefaultPlanBudget;
  int64_t baseline_plan = kDefaultPlanBudget / 4;
  int64_t joint_plan = kDefaultPlanBudget / 2;
  int64_t recompute = 0;
  std::shared_ptr<HardStop> stop;
  WorkBudget Budget(int64_t units) const { return WorkBudget(units, stop.get()); }
};

// Typed options of the memory stages.
struct MemoryOptions {
  int64_t alignment = 16;
  AliasOptions aliases;
  ScheduleMode schedule = ScheduleMode::kBest;
  Planner planner = Planner::kBest;
  SearchBudgets budgets;
  // Selective recompute (the `recompute` stage): extra runs per statement and
  // all extra MACs together as a percentage of the model's.
  int recompute_cap = 1;
  double recompute_mac_budget_percent = 1.0;
  // Patch-based execution (the `patches` stage): off, auto (kept when the
  // planned arena drops), or always (the best candidate kept regardless:
  // tests run the rewrite on every model). Its halo MACs share the recompute
  // MAC budget.
  enum class Patches { kOff, kAuto, kAlways };
  Patches patches = Patches::kOff;
  // Arena bytes the fast kernels' scratch may add (the `kernel-scratch`
  // stage); -1 (the default): none, scratch only in the plan's free bytes.
  int64_t kernel_scratch_budget = -1;
  // The board's RAM regions (the `regions` stage); null: one arena.
  std::shared_ptr<const MemoryMap> memory_map;
  // Fit first (a RAM limit: --max-arena, or the map): the patches stage takes
  // the candidate of fewest halo MACs whose plan fits the limit (-1: none),
  // or the map, instead of the least peak.
  bool patches_fit_first = false;
  int64_t fit_arena_bytes = -1;
  // The patches stage's second search, with band grids that reuse rows
  // (PatchSummary::reuse_round). The planning search runs it on the program
  // as it first plans it, not again on the variants of its aliases.
  bool patches_reuse_round = true;
  // --stream-input: the patches stage takes only regions from a graph input
  // in bands of whole rows, keeps the best regardless and streams that input
  // (aliases.streamed_input).
  bool stream_input = false;
};

// The scheduler's options under these memory options.
ScheduleOptions ScheduleOptionsFor(const MemoryOptions& memory);

// What the `recompute` stage kept (no clones when nothing paid), and the
// exact search on small programs.
struct RecomputeSummary {
  bool enabled = false;
  RecomputeResult result;
  ExactRecomputeResult exact;
  double ms = 0;
};

// What the `patches` stage chose: the region (value ids and statement ids of
// the program before it), the grid, the halo's MACs, and the peak and arena
// before and after; `applied` false when no candidate paid.
struct PatchSummary {
  bool enabled = false;
  bool applied = false;
  PatchRegion region;
  PatchGrid grid;
  std::string input_name, output_name;
  PatchRewrite rewrite;
  int64_t model_macs = 0, budget_macs = 0;
  int64_t peak_before = 0, arena_before = 0, peak_after = 0, arena_after = 0;
  int64_t candidates_tried = 0;
  // The first region came from the search's second round, band grids with
  // reuse (of every value too): the stage searches without it, then with it.
  bool reuse_round = false;
  // Fit first (MemoryOptions::patches_fit_first): the candidates within the
  // limit's peak and largest region, and those planned, fewest MACs first.
  bool fit_first = false;
  int64_t fitting_candidates = 0;
  struct FitTry {
    PatchGrid grid;
    std::string output_name;
    int64_t peak = 0, arena = 0, extra_macs = 0;
    bool fits = false;
  };
  std::vector<FitTry> fit_tries;
  // Every region patched, in turn (the first is the one above): each names
  // statements and values of the program the ones before it left.
  struct Applied {
    PatchRegion region;
    PatchGrid grid;
    std::string input_name, output_name;
    PatchRewrite rewrite;
    int64_t peak_after = 0, arena_after = 0;
  };
  std::vector<Applied> regions;
  double ms = 0;
  // The halo MACs of every region.
  int64_t extra_macs() const {
    int64_t sum = 0;
    for (const Applied& a : regions) sum += a.rewrite.patched_macs - a.rewrite.region_macs;
    return sum;
  }
  // --stream-input: why the first candidate from a graph input could not stream it.
  std::string stream_refusal;
};

// What the `kernel-scratch` stage did: the budget in force, the arena before
// any scratch was given, and the statements that got it.
struct KernelScratchSummary {
  bool ran = false;
  bool free_bytes_only = false;  // the default: scratch only in the plan's free bytes
  int64_t budget_bytes = 0;      // an explicit --kernel-scratch-budget
  int64_t arena_without_bytes = 0;
  std::vector<int32_t> statements;  // ids
};

// The arena's certificate (the `validate-plan` stage): a lower bound on the
// arena of every plan for the program as it is (its order, aliases and
// scratch), whether the plan meets it, and whether an exact packing search
// proved the plan optimal anyway.
struct ArenaClaims {
  ArenaBound bound;
  bool certified = false;       // plan.arena_bytes == bound.bytes
  bool proven_optimal = false;  // certified, or the exact search found nothing smaller
};

struct PipelineState {
  Program program;
  MemoryOptions memory;
  PassStats stats;

  // Set by the stages; an IR pass that runs later clears them.
  bool scheduled = false;  // `schedule` holds the certificate of the program's order
  bool planned = false;    // `model` and `plan` describe the program as it is
  ScheduleReport schedule;
  MemoryModel model;
  ArenaPlan plan;

  // Baselines (the `baselines` stage, on the file order): live arena bytes
  // per step, and a TFLite Micro-style arena (file order, activations fused,
  // no other aliasing, greedy-by-size offsets).
  std::vector<int64_t> file_order_live_bytes;
  int64_t tflite_style_arena_bytes = 0;
  // The same with the graph's inputs and outputs in its arena (as TFLite
  // Micro keeps them): the figure to compare total RAM with.
  int64_t tflite_style_io_arena_bytes = 0;
  // The `baseline-plans` stage, on the scheduled order: no reuse; views only
  // (no in-place, concat or split aliasing); every alias but input/output
  // overlap.
  int64_t linear_arena_bytes = 0;
  int64_t views_only_arena_bytes = 0;
  int64_t no_overlap_arena_bytes = 0;

  ArenaClaims arena_claims;
  // Concat operands the planning search copied into their slices instead of
  // writing them in place (concat_copy.h), in the order they were made.
  std::vector<ConcatCopy> concat_copies;
  RecomputeSummary recompute;
  PatchSummary patches;
  KernelScratchSummary kernel_scratch;
  // The `regions` stage's plan over the memory map (no regions without one).
  RegionPlan regions;

  // Milliseconds per pass and stage, by name (summed when one runs twice).
  std::map<std::string, double> pass_ms;
};

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PIPELINE_PIPELINE_STATE_H_
