#include "compiler/driver/compile.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "compiler/driver/gates.h"
#include "compiler/import/importer.h"
#include "compiler/support/c_names.h"
#include "compiler/support/status.h"
#include "passes/transforms/quantized_io.h"
#include "passes/transforms/stream_input.h"

namespace oc {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

SearchBudgets SearchBudgetsFor(const CompileOptions& o) {
  const double effort = std::max(o.search_effort, 0.0);
  auto scale = [&](int64_t units) { return static_cast<int64_t>(static_cast<double>(units) * effort); };
  SearchBudgets b;
  b.schedule = scale(kDefaultScheduleBudget);
  b.plan = scale(kDefaultPlanBudget);
  b.baseline_plan = b.plan / 4;
  b.joint_plan = b.plan / 2;
  b.recompute = o.recompute ? 2 * b.schedule : 0;
  if (o.time_limit_ms >= 0) {
    b.stop = std::make_shared<HardStop>(std::chrono::steady_clock::now() +
                                        std::chrono::milliseconds(o.time_limit_ms));
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
  m.budgets = SearchBudgetsFor(o);
  m.recompute_cap = o.recompute_cap;
  m.recompute_mac_budget_percent = o.recompute_mac_budget_percent;
  m.patches = o.patches;
  m.stream_input = o.stream_input;
  m.kernel_scratch_budget = o.kernel_scratch_budget;
  m.memory_map = o.memory_map;
  m.fit_arena_bytes = o.max_arena_bytes;
  return m;
}

std::string DefaultNameForModel(const std::string& model_path) {
  std::string stem = std::filesystem::path(model_path).stem().string();
  return SanitizeCIdentifier(stem, 40);
}

std::string ArenaClaim(const CompileResult& r) {
  const ArenaClaims& a = r.arena_claims;
  const int64_t arena = r.plan.arena_bytes;
  std::string claim = absl::StrCat("arena ", arena, " bytes: ");
  if (a.certified && arena == r.schedule.bound.bytes && r.schedule.certified_optimal) {
    return claim + "certified optimal (no order and no plan needs less)";
  }
  if (a.certified) return claim + absl::StrCat("certified optimal for this order (arena bound ", a.bound.bytes, ")");
  if (a.proven_optimal) {
    return claim + absl::StrCat("proven optimal for this order by an exhaustive packing search (arena bound ",
                                a.bound.bytes, ")");
  }
  return claim + absl::StrCat("gap ", arena - a.bound.bytes, " bytes to the arena bound ", a.bound.bytes);
}

std::string CertificateSummary(const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  std::string line = absl::StrCat(ArenaClaim(r), "; the order: peak ", s.peak, " bytes (file order ",
                                  s.file_order_peak, ", schedule ", s.chosen_by, "), lower bound ",
                                  s.bound.bytes, " bytes: ");
  const RecomputeResult& rc = r.recompute.result;
  if (!rc.clones.empty()) {
    return line + absl::StrCat("recompute: ", rc.clones.size(), " clones, peak ", rc.peak_before,
                               " -> ", s.peak, ", +", rc.extra_cost,
                               " MACs; the order bound does not bound recompute programs");
  }
  if (s.certified_optimal) return line + "certified optimal order";
  if (s.exact_search_finished) return line + "proven optimal order (exhaustive search)";
  return line + absl::StrCat("gap ", s.peak - s.bound.bytes, " bytes");
}

PlanSearchOptions PlanSearchOptionsFor(const CompileOptions& o) {
  using Until = PlanSearchOptions::Until;
  PlanSearchOptions search;
  search.passes = o.passes;
  search.recompute = o.recompute;
  search.layout = o.layout;
  search.until = o.until == CompileOptions::Until::kIr          ? Until::kIr
                 : o.until == CompileOptions::Until::kScheduled ? Until::kScheduled
                                                                : Until::kPlanned;
  search.pipeline.print_after_all = o.print_after_all;
  return search;
}

namespace {

// --stream-input: the chosen program streams a graph input, read only by its
// patches' row slices.
absl::Status CheckStreamedInput(const CompileResult& r) {
  const int index = r.memory.aliases.streamed_input;
  if (index < 0 && !r.patches.stream_refusal.empty()) {
    return absl::InvalidArgumentError(r.patches.stream_refusal);
  }
  if (index < 0) {
    return absl::InvalidArgumentError(
        r.patches.applied
            ? absl::StrCat("--stream-input: the patch region starts at '", r.patches.input_name,
                           "', not at a graph input: no input can be streamed")
            : "--stream-input: no patch region from a graph input applies (none within "
              "--recompute-mac-budget, or the input has readers outside every region)");
  }
  return CheckStreamableInput(r.program, index);
}

// Everything after the import: the planning search (IR passes, then the
// memory stages), the gates, emission.
absl::Status CompileImported(const CompileOptions& o, const std::string& name, CompileResult& r) {
  r.memory = MemoryOptionsFor(o);
  if (o.quantized_io) OC_RETURN_IF_ERROR(ConvertQuantizedIo(r.program, r.stats, &r.float_outputs));
  OC_ASSIGN_OR_RETURN(const PlanSearchResult search, RunPlanSearch(r, PlanSearchOptionsFor(o)));
  r.channels_last = search.channels_last;
  r.passes_ms = search.passes_ms;
  r.schedule_ms = search.schedule_ms;
  r.plan_ms = search.plan_ms;
  if (o.until != CompileOptions::Until::kC) return absl::OkStatus();
  if (!r.planned) {
    return absl::InvalidArgumentError("the pass list ends before the plan stage: there is no arena plan to emit");
  }
  if (o.stream_input) OC_RETURN_IF_ERROR(CheckStreamedInput(r));
  OC_RETURN_IF_ERROR(CheckGates(o, r));

  const auto t0 = std::chrono::steady_clock::now();
  EmitOptions emit;
  emit.name = name;
  emit.harness = o.emit_harness;
  emit.arena_guard = o.arena_guard;
  emit.target = o.target;
  emit.arena_section = o.arena_section;
  if (o.memory_map && r.regions.fits) {
    for (size_t k = 0; k < r.regions.regions.size(); ++k) {
      const MemoryRegion& region = o.memory_map->regions[k];
      const RegionUse& use = r.regions.regions[k];
      emit.regions.push_back({region.name, region.section, region.alignment, use.base, use.arena_bytes});
    }
  }
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
