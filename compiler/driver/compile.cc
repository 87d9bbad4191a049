#include "compiler/driver/compile.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "compiler/driver/gates.h"
#include "compiler/import/importer.h"
#include "compiler/support/c_names.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

SearchBudgets SearchBudgetsWithinLimit(const CompileOptions& o) {
  const int64_t plan = std::max<int64_t>(o.plan_budget_ms, 0);
  const int64_t schedule = std::max<int64_t>(o.schedule_budget_ms, 0);
  SearchBudgets b{schedule, plan, plan / 4, plan / 2, o.recompute ? 2 * schedule : 0};
  const int64_t limit = std::max<int64_t>(o.time_limit_ms, 0);
  const int64_t total =
      b.schedule_ms + b.plan_ms + b.baseline_plan_ms + b.joint_plan_ms + b.recompute_ms;
  if (total > limit) {
    // Rounding down keeps the sum within the limit.
    auto scale = [&](int64_t ms) { return static_cast<int64_t>(static_cast<double>(ms) * limit / total); };
    b = {scale(b.schedule_ms), scale(b.plan_ms), scale(b.baseline_plan_ms), scale(b.joint_plan_ms),
         scale(b.recompute_ms)};
  }
  return b;
}

std::string DefaultNameForModel(const std::string& model_path) {
  std::string stem = std::filesystem::path(model_path).stem().string();
  return SanitizeCIdentifier(stem, 40);
}

std::string CertificateSummary(const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  std::string line = absl::StrCat("arena ", r.plan.arena_bytes, " bytes; peak ", s.peak,
                                  " bytes (file order ", s.file_order_peak, ", schedule ",
                                  s.chosen_by, "); lower bound ", s.bound.bytes, " bytes: ");
  const RecomputeResult& rc = r.recompute.result;
  if (!rc.clones.empty()) {
    return line + absl::StrCat("recompute: ", rc.clones.size(), " clones, peak ", rc.peak_before,
                               " -> ", s.peak, ", +", rc.extra_cost,
                               " MACs; the order bound does not bound recompute programs");
  }
  if (s.certified_optimal) return line + "certified optimal order";
  return line + absl::StrCat("gap ", s.peak - s.bound.bytes, " bytes");
}

namespace {

// Everything after the import: passes, schedule, memory model, plan, emission.
absl::Status CompileImported(const CompileOptions& o, const std::string& name, CompileResult& r) {
  const SearchBudgets budgets = SearchBudgetsWithinLimit(o);
  auto t0 = std::chrono::steady_clock::now();
  PipelineOptions pipeline;
  pipeline.print_after_all = o.print_after_all;
  OC_RETURN_IF_ERROR(RunPipeline(r.program, o.passes.empty() ? DefaultPipeline() : o.passes,
                                 r.stats, pipeline));
  r.passes_ms = MsSince(t0);
  if (o.stop_after_passes) return absl::OkStatus();

  // Baselines, on the file order (before scheduling).
  r.file_order_live_bytes = ComputeMemoryModel(r.program, o.alignment).live_bytes;
  {
    MemoryModel plain = ComputeMemoryModel(r.program, o.alignment, AliasOptions::None());
    r.tflite_style_arena_bytes = PlanGreedyBySize(r.program, plain).arena_bytes;
  }

  t0 = std::chrono::steady_clock::now();
  ScheduleOptions sched;
  sched.mode = o.schedule;
  sched.budget_ms = budgets.schedule_ms;
  sched.alignment = o.alignment;
  sched.aliases.overlap = o.overlap;
  OC_ASSIGN_OR_RETURN(r.schedule, ScheduleProgram(r.program, sched));
  r.schedule_ms = MsSince(t0);
  if (o.recompute) OC_RETURN_IF_ERROR(RecomputeStage(o, budgets, sched, r));

  t0 = std::chrono::steady_clock::now();
  r.model = ComputeMemoryModel(r.program, o.alignment, sched.aliases);
  if (r.model.peak_bytes != r.schedule.peak) {
    return absl::InternalError("the memory model and the scheduler disagree on the peak");
  }
  r.linear_arena_bytes = PlanLinear(r.program, r.model).arena_bytes;
  {
    AliasOptions views_only = AliasOptions::None();
    views_only.views = true;
    MemoryModel m = ComputeMemoryModel(r.program, o.alignment, views_only);
    r.views_only_arena_bytes = PlanBest(r.program, m, budgets.baseline_plan_ms / 2).arena_bytes;
    AliasOptions no_overlap;
    no_overlap.overlap = false;
    m = ComputeMemoryModel(r.program, o.alignment, no_overlap);
    r.no_overlap_arena_bytes = PlanBest(r.program, m, budgets.baseline_plan_ms / 2).arena_bytes;
  }
  OC_ASSIGN_OR_RETURN(r.plan, PlanArena(o.planner, r.program, r.model, budgets.plan_ms));
  // Joint choice: among orders of equal peak, prefer one whose plan reaches
  // it (the candidates share one budget).
  const auto joint_deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(budgets.joint_plan_ms);
  for (const std::vector<int32_t>& ids : r.schedule.equal_peak_orders) {
    if (o.planner != "best" || r.plan.arena_bytes == r.model.peak_bytes) break;
    const int64_t left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                joint_deadline - std::chrono::steady_clock::now()).count();
    if (left_ms <= 0) break;
    Program candidate = r.program;
    std::map<int32_t, int> index_of_id;
    for (size_t i = 0; i < candidate.statements().size(); ++i) {
      index_of_id[candidate.statements()[i].id] = static_cast<int>(i);
    }
    std::vector<int> order;
    for (int32_t id : ids) order.push_back(index_of_id.at(id));
    ApplyOrder(candidate, order);
    MemoryModel m = ComputeMemoryModel(candidate, o.alignment, sched.aliases);
    ArenaPlan plan = PlanBest(candidate, m, left_ms);
    if (m.peak_bytes == r.model.peak_bytes && plan.arena_bytes < r.plan.arena_bytes) {
      r.program = std::move(candidate);
      r.model = std::move(m);
      r.plan = std::move(plan);
      r.schedule.order = ids;
      r.schedule.chosen_by += " (for its arena plan)";
    }
  }
  OC_RETURN_IF_ERROR(KernelScratchStage(o, budgets, sched, r));
  // A plan that fails validation is a compiler bug: report it, write nothing.
  OC_RETURN_IF_ERROR(ValidatePlan(r.program, r.model, r.plan));
  r.plan_ms = MsSince(t0);
  OC_RETURN_IF_ERROR(CheckGates(o, r));

  t0 = std::chrono::steady_clock::now();
  EmitOptions emit;
  emit.name = name;
  emit.harness = o.emit_harness;
  emit.arena_guard = o.arena_guard;
  emit.target = o.target;
  emit.arena_section = o.arena_section;
  emit.weights_section = o.weights_section;
  emit.requant_fixed = o.requant == "fixed";
  emit.provenance = absl::StrCat("onnx-to-c ", ONNX_TO_C_VERSION, "\n", o.command_line);
  emit.certificate = CertificateSummary(r);
  OC_ASSIGN_OR_RETURN(r.files, EmitC(r.program, r.model, r.plan, emit));
  r.emit_ms = MsSince(t0);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CompileResult> CompileModel(const CompileOptions& o) {
  CompileResult r;
  const std::string name = o.name.empty() ? DefaultNameForModel(o.model_path) : o.name;
  auto t0 = std::chrono::steady_clock::now();
  OC_ASSIGN_OR_RETURN(r.program, ImportOnnxFile(o.model_path, {name}));
  r.import_ms = MsSince(t0);
  OC_RETURN_IF_ERROR(CompileImported(o, name, r));
  return r;
}

absl::StatusOr<CompileResult> CompileModelBytes(const std::string& bytes, const CompileOptions& o) {
  CompileResult r;
  const std::string name = o.name.empty() ? "model" : o.name;
  auto t0 = std::chrono::steady_clock::now();
  OC_ASSIGN_OR_RETURN(r.program, ImportOnnxBytes(bytes, {name}));
  r.import_ms = MsSince(t0);
  OC_RETURN_IF_ERROR(CompileImported(o, name, r));
  return r;
}

}  // namespace oc
