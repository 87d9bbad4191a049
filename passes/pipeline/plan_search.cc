#include "passes/pipeline/plan_search.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "compiler/support/status.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"

namespace oc {
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

// Variants are compared without the opt-in kernel scratch
// (--kernel-scratch-budget), which the NHWC convolutions do not take: layout
// and aliases are RAM decisions.
int64_t ScratchFreeArena(const PipelineState& s) {
  return s.kernel_scratch.ran ? s.kernel_scratch.arena_without_bytes : s.plan.arena_bytes;
}

// `a` is planned and has the smaller arena (then the smaller peak).
bool Better(const PipelineState& a, const PipelineState& b) {
  return a.planned && (!b.planned || std::make_pair(ScratchFreeArena(a), a.model.peak_bytes) <
                                         std::make_pair(ScratchFreeArena(b), b.model.peak_bytes));
}

// The memory stages on `before`, then the variants that can only help:
//  - where an overlap contract keeps a concat buffer whole, the buffer in
//    parts instead;
//  - where overlap chains at fixed offsets pack above the peak, without the
//    contracts whose cut packs smaller.
// Each variant reruns the stages; the smaller arena wins (then the smaller peak).
absl::Status RunStagesAndVariants(PipelineState before, const std::vector<std::string>& stages,
                                  const PipelineOptions& pipeline, PipelineState& out) {
  out = before;
  OC_RETURN_IF_ERROR(RunPipeline(out, stages, pipeline));
  if (out.planned && PartsCompeteWithContracts(out.model)) {
    PipelineState parts = before;
    parts.memory.aliases.parts_over_contracts = true;
    OC_RETURN_IF_ERROR(RunPipeline(parts, stages, pipeline));
    if (Better(parts, out)) {
      out = std::move(parts);
      before.memory.aliases.parts_over_contracts = true;
    }
  }
  if (out.planned && ScratchFreeArena(out) > out.model.peak_bytes) {
    PipelineState cut = before;
    cut.memory.aliases.cut_contracts =
        ContractCutsThatPack(out.program, out.model, ScratchFreeArena(out));
    if (!cut.memory.aliases.cut_contracts.empty()) {
      OC_RETURN_IF_ERROR(RunPipeline(cut, stages, pipeline));
      if (Better(cut, out)) out = std::move(cut);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PlanSearchResult> RunPlanSearch(PipelineState& state, const PlanSearchOptions& o) {
  using Layout = PlanSearchOptions::Layout;
  using Until = PlanSearchOptions::Until;
  PlanSearchResult result;
  // The IR passes, up to the first memory stage; a pass list with memory
  // stages is the whole pipeline, one without gets the default stages.
  std::vector<std::string> rewrites = o.passes.empty() ? DefaultPipeline() : o.passes;
  const auto first_stage = std::find_if_not(rewrites.begin(), rewrites.end(), IsIrPass);
  std::vector<std::string> stages(first_stage, rewrites.end());
  rewrites.erase(first_stage, rewrites.end());
  if (stages.empty()) {
    stages = DefaultMemoryStages(o.recompute, state.memory.patches != MemoryOptions::Patches::kOff);
  }
  OC_RETURN_IF_ERROR(RunPipeline(state, rewrites, o.pipeline));
  // The channels-last layout on a copy: taken outright with Layout::kNhwc;
  // with auto only when a convolution streams and the arena it gives is
  // smaller (the memory stages then run for both programs).
  std::optional<PipelineState> nhwc;
  if (o.passes.empty() && o.layout != Layout::kNchw) {
    nhwc = state;
    OC_RETURN_IF_ERROR(RunPipeline(*nhwc, {"channels-last"}, o.pipeline));
    const bool streams = nhwc->stats.counters.count("channels-last.streaming-convs") > 0 ||
                         nhwc->stats.counters.count("channels-last.streaming-pools") > 0;
    if (o.layout == Layout::kNhwc) {
      state = std::move(*nhwc);
      result.channels_last = true;
      nhwc.reset();
    } else if (!streams || o.until == Until::kIr) {
      nhwc.reset();
    }
  }
  result.passes_ms = Sum(state.pass_ms);
  if (o.until == Until::kIr) return result;

  if (o.until == Until::kScheduled) {
    auto after_schedule = std::find(stages.begin(), stages.end(), "schedule");
    if (after_schedule != stages.end()) stages.erase(after_schedule + 1, stages.end());
  }
  state.pass_ms.clear();
  // `state` is already the NHWC program with Layout::kNhwc.
  {
    PipelineState chosen;
    OC_RETURN_IF_ERROR(RunStagesAndVariants(state, stages, o.pipeline, chosen));
    state = std::move(chosen);
  }
  if (nhwc) {
    nhwc->pass_ms.clear();
    PipelineState variant;
    OC_RETURN_IF_ERROR(RunStagesAndVariants(*nhwc, stages, o.pipeline, variant));
    if (variant.planned && state.planned && ScratchFreeArena(variant) < ScratchFreeArena(state)) {
      state = std::move(variant);
      result.channels_last = true;
    }
  }
  result.schedule_ms = state.pass_ms["schedule"];
  result.plan_ms = Sum(state.pass_ms) - result.schedule_ms;
  return result;
}

}  // namespace oc
