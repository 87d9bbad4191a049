#include "compiler/driver/compile.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

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
         scale(b.recompute_ms), /*scaled_down=*/true};
  }
  return b;
}

MemoryOptions MemoryOptionsFor(const CompileOptions& o) {
  MemoryOptions m;
  m.alignment = o.alignment;
  m.aliases.overlap = o.overlap;
  m.aliases.io_in_arena = o.io_in_arena;
  m.schedule = o.schedule;
  m.planner = o.planner;
  m.budgets = SearchBudgetsWithinLimit(o);
  m.recompute_cap = o.recompute_cap;
  m.recompute_mac_budget_percent = o.recompute_mac_budget_percent;
  m.patches = o.patches;
  m.kernel_scratch_budget = o.kernel_scratch_budget;
  return m;
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

bool IsIrPass(const std::string& name) {
  const PassInfo* pass = FindPass(name);
  return pass && pass->kind != PassKind::kStage;
}

// A concat buffer that could have parts but takes an overlap contract.
bool PartsCompeteWithContracts(const MemoryModel& m) {
  if (!m.aliases.concat_parts || m.aliases.parts_over_contracts) return false;
  for (const Buffer& b : m.buffers) {
    if (b.parts.empty() && CanHaveParts(b, m.alignment)) return true;
  }
  return false;
}

double Sum(const std::map<std::string, double>& ms) {
  double total = 0;
  for (const auto& [name, t] : ms) total += t;
  return total;
}

// Everything after the import: the pipeline (IR passes, then the memory
// stages), the gates, emission.
absl::Status CompileImported(const CompileOptions& o, const std::string& name, CompileResult& r) {
  r.memory = MemoryOptionsFor(o);
  PipelineOptions pipeline;
  pipeline.print_after_all = o.print_after_all;
  // The IR passes, up to the first memory stage; a --passes list with memory
  // stages is the whole pipeline, one without gets the default stages.
  std::vector<std::string> rewrites = o.passes.empty() ? DefaultPipeline() : o.passes;
  const auto first_stage = std::find_if_not(rewrites.begin(), rewrites.end(), IsIrPass);
  std::vector<std::string> stages(first_stage, rewrites.end());
  rewrites.erase(first_stage, rewrites.end());
  if (stages.empty()) stages = DefaultMemoryStages(o.recompute, o.patches != MemoryOptions::Patches::kOff);
  OC_RETURN_IF_ERROR(RunPipeline(r, rewrites, pipeline));
  // The channels-last layout on a copy: taken outright with --layout=nhwc;
  // with auto only when a convolution streams and the arena it gives is
  // smaller (the memory stages then run for both programs).
  std::optional<PipelineState> nhwc;
  if (o.passes.empty() && o.layout != CompileOptions::Layout::kNchw) {
    nhwc = static_cast<const PipelineState&>(r);
    OC_RETURN_IF_ERROR(RunPipeline(*nhwc, {"channels-last"}, pipeline));
    const bool streams = nhwc->stats.counters.count("channels-last.streaming-convs") > 0 ||
                         nhwc->stats.counters.count("channels-last.streaming-pools") > 0;
    if (o.layout == CompileOptions::Layout::kNhwc) {
      static_cast<PipelineState&>(r) = std::move(*nhwc);
      r.channels_last = true;
      nhwc.reset();
    } else if (!streams || o.until == CompileOptions::Until::kIr) {
      nhwc.reset();
    }
  }
  r.passes_ms = Sum(r.pass_ms);
  if (o.until == CompileOptions::Until::kIr) return absl::OkStatus();

  if (o.until == CompileOptions::Until::kScheduled) {
    auto after_schedule = std::find(stages.begin(), stages.end(), "schedule");
    if (after_schedule != stages.end()) stages.erase(after_schedule + 1, stages.end());
  }
  r.pass_ms.clear();
  // Compared without the opt-in kernel scratch (--kernel-scratch-budget),
  // which the NHWC convolutions do not take: layout and aliases are RAM decisions.
  auto scratch_free_arena = [](const PipelineState& s) {
    return s.kernel_scratch.ran ? s.kernel_scratch.arena_without_bytes : s.plan.arena_bytes;
  };
  auto better = [&](const PipelineState& a, const PipelineState& b) {
    return a.planned && (!b.planned || std::make_pair(scratch_free_arena(a), a.model.peak_bytes) <
                                           std::make_pair(scratch_free_arena(b), b.model.peak_bytes));
  };
  // The memory stages on `before`, then the variants that can only help:
  //  - where an overlap contract keeps a concat buffer whole, the buffer in
  //    parts instead;
  //  - where overlap chains at fixed offsets pack above the peak, without the
  //    contracts whose cut packs smaller.
  // Each variant reruns the stages; the smaller arena wins (then the smaller peak).
  auto run_stages = [&](PipelineState before, PipelineState& out) -> absl::Status {
    out = before;
    OC_RETURN_IF_ERROR(RunPipeline(out, stages, pipeline));
    if (out.planned && PartsCompeteWithContracts(out.model)) {
      PipelineState parts = before;
      parts.memory.aliases.parts_over_contracts = true;
      OC_RETURN_IF_ERROR(RunPipeline(parts, stages, pipeline));
      if (better(parts, out)) {
        out = std::move(parts);
        before.memory.aliases.parts_over_contracts = true;
      }
    }
    if (out.planned && scratch_free_arena(out) > out.model.peak_bytes) {
      PipelineState cut = before;
      cut.memory.aliases.cut_contracts =
          ContractCutsThatPack(out.program, out.model, scratch_free_arena(out));
      if (!cut.memory.aliases.cut_contracts.empty()) {
        OC_RETURN_IF_ERROR(RunPipeline(cut, stages, pipeline));
        if (better(cut, out)) out = std::move(cut);
      }
    }
    return absl::OkStatus();
  };
  // `r` is already the NHWC program with --layout=nhwc.
  {
    PipelineState nchw;
    OC_RETURN_IF_ERROR(run_stages(r, nchw));
    const bool channels_last = r.channels_last;
    static_cast<PipelineState&>(r) = std::move(nchw);
    r.channels_last = channels_last;
  }
  if (nhwc) {
    nhwc->pass_ms.clear();
    PipelineState variant;
    OC_RETURN_IF_ERROR(run_stages(*nhwc, variant));
    if (variant.planned && r.planned && scratch_free_arena(variant) < scratch_free_arena(r)) {
      static_cast<PipelineState&>(r) = std::move(variant);
      r.channels_last = true;
    }
  }
  r.schedule_ms = r.pass_ms["schedule"];
  r.plan_ms = Sum(r.pass_ms) - r.schedule_ms;
  if (o.until != CompileOptions::Until::kC) return absl::OkStatus();
  if (!r.planned) {
    return absl::InvalidArgumentError("the pass list ends before the plan stage: there is no arena plan to emit");
  }
  OC_RETURN_IF_ERROR(CheckGates(o, r));

  const auto t0 = std::chrono::steady_clock::now();
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
  OC_ASSIGN_OR_RETURN(r.program, ImportOnnxFile(o.model_path, {name, o.dim_values, &r.defaulted_dims}));
  r.import_ms = MsSince(t0);
  OC_RETURN_IF_ERROR(CompileImported(o, name, r));
  return r;
}

absl::StatusOr<CompileResult> CompileModelBytes(const std::string& bytes, const CompileOptions& o) {
  CompileResult r;
  const std::string name = o.name.empty() ? "model" : o.name;
  auto t0 = std::chrono::steady_clock::now();
  OC_ASSIGN_OR_RETURN(r.program, ImportOnnxBytes(bytes, {name, o.dim_values, &r.defaulted_dims}));
  r.import_ms = MsSince(t0);
  OC_RETURN_IF_ERROR(CompileImported(o, name, r));
  return r;
}

}  // namespace oc
