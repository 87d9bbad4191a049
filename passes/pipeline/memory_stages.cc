// The memory stages that need no file of their own: baselines, schedule,
// baseline plans, plan, joint order/plan choice and plan validation.
#include <chrono>
#include <map>

#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"
#include "passes/pipeline/pass.h"

namespace oc {

ScheduleOptions ScheduleOptionsFor(const MemoryOptions& memory) {
  ScheduleOptions o;
  o.mode = memory.schedule;
  o.budget = memory.budgets.schedule;
  o.stop = memory.budgets.stop.get();
  o.alignment = memory.alignment;
  o.aliases = memory.aliases;
  return o;
}

absl::Status RunBaselinesStage(PipelineState& s) {
  if (s.scheduled) {
    return absl::InvalidArgumentError("the baselines are of the file order: run them before schedule");
  }
  AliasOptions file_aliases;
  file_aliases.io_in_arena = s.memory.aliases.io_in_arena;
  file_aliases.parts_over_contracts = s.memory.aliases.parts_over_contracts;
  s.file_order_live_bytes = ComputeMemoryModel(s.program, s.memory.alignment, file_aliases).live_bytes;
  // TFLite Micro's arena, with the inputs and outputs outside it and inside it.
  const MemoryModel plain = ComputeMemoryModel(s.program, s.memory.alignment, AliasOptions::None());
  s.tflite_style_arena_bytes = PlanGreedyBySize(s.program, plain).arena_bytes;
  const MemoryModel plain_io =
      ComputeMemoryModel(s.program, s.memory.alignment, AliasOptions::None(/*io_in_arena=*/true));
  s.tflite_style_io_arena_bytes = PlanGreedyBySize(s.program, plain_io).arena_bytes;
  return absl::OkStatus();
}

absl::Status RunScheduleStage(PipelineState& s) {
  OC_ASSIGN_OR_RETURN(s.schedule, ScheduleProgram(s.program, ScheduleOptionsFor(s.memory)));
  s.scheduled = true;
  s.planned = false;
  return absl::OkStatus();
}

absl::Status RunBaselinePlansStage(PipelineState& s) {
  const int64_t alignment = s.memory.alignment;
  s.linear_arena_bytes =
      PlanLinear(s.program, ComputeMemoryModel(s.program, alignment, s.memory.aliases)).arena_bytes;
  AliasOptions views_only = AliasOptions::None(s.memory.aliases.io_in_arena);
  views_only.views = true;
  const Planner planner = Planner::kBest;
  WorkBudget views_budget = s.memory.budgets.Budget(s.memory.budgets.baseline_plan / 2);
  s.views_only_arena_bytes =
      PlanArena(planner, s.program, ComputeMemoryModel(s.program, alignment, views_only), views_budget)
          .arena_bytes;
  AliasOptions no_overlap = s.memory.aliases;
  no_overlap.overlap = false;
  WorkBudget no_overlap_budget = s.memory.budgets.Budget(s.memory.budgets.baseline_plan / 2);
  s.no_overlap_arena_bytes =
      PlanArena(planner, s.program, ComputeMemoryModel(s.program, alignment, no_overlap), no_overlap_budget)
          .arena_bytes;
  return absl::OkStatus();
}

absl::Status RunPlanStage(PipelineState& s) {
  s.model = ComputeMemoryModel(s.program, s.memory.alignment, s.memory.aliases);
  if (s.scheduled && s.model.peak_bytes != s.schedule.peak) {
    return absl::InternalError("the memory model and the scheduler disagree on the peak");
  }
  WorkBudget budget = s.memory.budgets.Budget(s.memory.budgets.plan);
  s.plan = PlanArena(s.memory.planner, s.program, s.model, budget);
  s.planned = true;
  return absl::OkStatus();
}

// Among orders of equal peak, prefer one whose plan reaches it (the
// candidates share one budget). Only the best planner takes part.
absl::Status RunJointOrderStage(PipelineState& s) {
  WorkBudget budget = s.memory.budgets.Budget(s.memory.budgets.joint_plan);
  for (const std::vector<int32_t>& ids : s.schedule.equal_peak_orders) {
    if (s.memory.planner != Planner::kBest || s.plan.arena_bytes == s.model.peak_bytes) break;
    if (budget.Exhausted()) break;
    Program candidate = s.program;
    std::map<int32_t, int> index_of_id;
    for (size_t i = 0; i < candidate.statements().size(); ++i) {
      index_of_id[candidate.statements()[i].id] = static_cast<int>(i);
    }
    std::vector<int> order;
    for (int32_t id : ids) order.push_back(index_of_id.at(id));
    ApplyOrder(candidate, order);
    MemoryModel m = ComputeMemoryModel(candidate, s.memory.alignment, s.memory.aliases);
    ArenaPlan plan = PlanBest(candidate, m, budget);
    if (m.peak_bytes == s.model.peak_bytes && plan.arena_bytes < s.plan.arena_bytes) {
      s.program = std::move(candidate);
      s.model = std::move(m);
      s.plan = std::move(plan);
      TakeEqualPeakOrder(s.schedule, ids, "for its arena plan");
    }
  }
  return absl::OkStatus();
}

// A plan that fails validation is a compiler bug: report it, write nothing.
// A valid one gets its certificate.
absl::Status RunValidatePlanStage(PipelineState& s) {
  OC_RETURN_IF_ERROR(ValidatePlan(s.program, s.model, s.plan));
  ArenaClaims& c = s.arena_claims;
  c.bound = ArenaLowerBound(s.program, s.model);
  if (c.bound.bytes > s.plan.arena_bytes) {
    return absl::InternalError("the arena plan is below the arena's lower bound");
  }
  c.certified = s.plan.arena_bytes == c.bound.bytes;
  c.proven_optimal = c.certified || s.plan.proven_optimal;
  return absl::OkStatus();
}

}  // namespace oc
