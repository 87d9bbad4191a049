#include "compiler/driver/compile.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "absl/strings/str_cat.h"
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
  SearchBudgets b{std::max<int64_t>(o.schedule_budget_ms, 0), std::max<int64_t>(o.plan_budget_ms, 0),
                  std::max<int64_t>(o.plan_budget_ms, 0) / 4};
  const int64_t limit = std::max<int64_t>(o.time_limit_ms, 0);
  const int64_t total = b.schedule_ms + b.plan_ms + b.baseline_plan_ms;
  if (total > limit) {
    // Rounding down keeps the sum within the limit.
    auto scale = [&](int64_t ms) { return static_cast<int64_t>(static_cast<double>(ms) * limit / total); };
    b = {scale(b.schedule_ms), scale(b.plan_ms), scale(b.baseline_plan_ms)};
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

  // Baselines, on the file order (before scheduling).
  {
    MemoryModel plain = ComputeMemoryModel(r.program, o.alignment, AliasOptions::None());
    r.tflite_style_arena_bytes = PlanGreedyBySize(r.program, plain).arena_bytes;
  }

  t0 = std::chrono::steady_clock::now();
  ScheduleOptions sched;
  sched.mode = o.schedule;
  sched.budget_ms = budgets.schedule_ms;
  sched.alignment = o.alignment;
  OC_ASSIGN_OR_RETURN(r.schedule, ScheduleProgram(r.program, sched));
  r.schedule_ms = MsSince(t0);

  t0 = std::chrono::steady_clock::now();
  r.model = ComputeMemoryModel(r.program, o.alignment);
  if (r.model.peak_bytes != r.schedule.peak) {
    return absl::InternalError("the memory model and the scheduler disagree on the peak");
  }
  r.linear_arena_bytes = PlanLinear(r.program, r.model).arena_bytes;
  {
    AliasOptions views_only = AliasOptions::None();
    views_only.views = true;
    MemoryModel m = ComputeMemoryModel(r.program, o.alignment, views_only);
    r.views_only_arena_bytes = PlanBest(r.program, m, budgets.baseline_plan_ms).arena_bytes;
  }
  OC_ASSIGN_OR_RETURN(r.plan, PlanArena(o.planner, r.program, r.model, budgets.plan_ms));
  // A plan that fails validation is a compiler bug: report it, write nothing.
  OC_RETURN_IF_ERROR(ValidatePlan(r.program, r.model, r.plan));
  r.plan_ms = MsSince(t0);

  t0 = std::chrono::steady_clock::now();
  EmitOptions emit;
  emit.name = name;
  emit.harness = o.emit_harness;
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
