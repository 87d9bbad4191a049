#include "passes/pipeline/plan_search.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "compiler/support/status.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "passes/transforms/concat_copy.h"

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

// A RAM limit (--max-arena, a memory map) makes the rule fit first, then
// speed: a candidate that fits beats one that does not, and among those
// that fit the least estimated cost wins (the access cost over the map's
// regions, else the MACs patches add); the arena decides the rest.
bool FitFirst(const PipelineState& s) { return s.memory.fit_arena_bytes >= 0 || s.memory.memory_map; }

bool Fits(const PipelineState& s) {
  return s.planned && (s.memory.fit_arena_bytes < 0 || s.plan.arena_bytes <= s.memory.fit_arena_bytes) &&
         (!s.memory.memory_map || s.regions.fits);
}

// -1, 0 or 1: `a` is preferred, neither, `b` (fit, then cost).
int FitThenCost(const PipelineState& a, const PipelineState& b) {
  if (!FitFirst(a) || Fits(a) != Fits(b)) return !FitFirst(a) ? 0 : Fits(a) ? -1 : 1;
  if (!Fits(a)) return 0;
  const double ca = a.memory.memory_map ? a.regions.access_cost : static_cast<double>(a.patches.extra_macs());
  const double cb = b.memory.memory_map ? b.regions.access_cost : static_cast<double>(b.patches.extra_macs());
  return ca < cb ? -1 : cb < ca ? 1 : 0;
}

// `a` is planned and fits first (FitThenCost), then has the smaller arena
// (then fewer halo MACs, then the smaller peak).
bool Better(const PipelineState& a, const PipelineState& b) {
  if (a.planned && b.planned && FitThenCost(a, b) != 0) return FitThenCost(a, b) < 0;
  return a.planned &&
         (!b.planned || std::make_tuple(ScratchFreeArena(a), a.patches.extra_macs(), a.model.peak_bytes) <
                            std::make_tuple(ScratchFreeArena(b), b.patches.extra_macs(), b.model.peak_bytes));
}

// No candidate can beat `s`: its arena equals the order lower bound of its
// aliases, which every order needs, and a candidate with fewer aliases
// (--overlap=off, contracts cut) needs at least as much at every step.
bool BeatsEveryWeakerAlias(const PipelineState& s) {
  return s.planned && s.arena_claims.certified && s.plan.arena_bytes == s.schedule.bound.bytes;
}

// The memory stages on one candidate; it replaces `best` (and `best_before`,
// the candidate before the stages) when its arena is smaller.
class Candidates {
 public:
  Candidates(const std::vector<std::string>& stages, const PipelineOptions& pipeline)
      : stages_(stages), pipeline_(pipeline) {}

  // `refine`: a refinement of an earlier candidate (contracts cut or dropped,
  // slices copied), run without the patches stage, which the candidates it
  // refines already tried.
  absl::Status Try(PipelineState before, bool refine = false) {
    PipelineState after = before;
    if (refine) {
      std::vector<std::string> stages;
      for (const std::string& stage : stages_) {
        if (stage != "patches") stages.push_back(stage);
      }
      OC_RETURN_IF_ERROR(RunPipeline(after, stages, pipeline_));
      after.patches.enabled = after.memory.patches != MemoryOptions::Patches::kOff;
    } else {
      OC_RETURN_IF_ERROR(RunPipeline(after, stages_, pipeline_));
    }
    ++tried_;
    if (after.planned && (floor_ < 0 || after.arena_claims.bound.bytes < floor_)) floor_ = after.arena_claims.bound.bytes;
    if (!after.patches.applied && (!has_unpatched_ || Better(after, unpatched_))) {
      unpatched_ = after;
      unpatched_before_ = before;
      has_unpatched_ = true;
    }
    if (!has_best_ || Better(after, best_)) {
      best_ = std::move(after);
      best_before_ = std::move(before);
      has_best_ = true;
    }
    return absl::OkStatus();
  }
  bool has_unpatched() const { return has_unpatched_; }
  const PipelineState& best_unpatched() const { return unpatched_; }
  const PipelineState& best_unpatched_before() const { return unpatched_before_; }
  const PipelineState& best() const { return best_; }
  const PipelineState& best_before() const { return best_before_; }
  PipelineState TakeBest() { return std::move(best_); }
  // The best arena meets its own modeled peak and the least arena bound of
  // every candidate tried (a candidate's bound says how low a variant of it
  // might still go: a patched program's can be above the unpatched one's), or
  // nothing planned.
  bool Settled() const {
    return !best_.planned || ScratchFreeArena(best_) <= std::min(floor_, best_.model.peak_bytes);
  }

 private:
  const std::vector<std::string>& stages_;
  const PipelineOptions& pipeline_;
  PipelineState best_, best_before_, unpatched_, unpatched_before_;
  bool has_best_ = false, has_unpatched_ = false;
  int tried_ = 0;
  int64_t floor_ = -1;  // the least arena bound of the candidates tried
};

// At most this many single contracts dropped and concat operands copied are
// tried with the full stages, the ones whose quick packing is smallest first.
constexpr int kMaxSingleDrops = 4;
constexpr int kMaxCopies = 8;

// Contracts (statement ids) whose drop alone the quick packers place in
// fewer bytes than with every contract (the exact search then has a better
// start), or in fewer than `arena`; the best first.
std::vector<int32_t> SingleContractDrops(const PipelineState& s, int64_t arena) {
  const int64_t with_all = QuickArenaWithout(s.program, s.model, {});
  std::vector<std::pair<int64_t, int32_t>> ranked;
  for (const OverlapContract& c : s.model.overlaps) {
    const int32_t id = s.program.statements()[c.statement].id;
    const int64_t size = QuickArenaWithout(s.program, s.model, {id});
    if (size < with_all || size < arena) ranked.push_back({size, id});
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<int32_t> ids;
  for (const auto& [size, id] : ranked) ids.push_back(id);
  if (ids.size() > kMaxSingleDrops) ids.resize(kMaxSingleDrops);
  return ids;
}

// Concats written in place in parts (statement ids), each with the operand
// worth copying: of the slices after the first, the one written earliest
// (a slice written before its neighbours holds the buffer's span open).
// Only concats of `before` (the program before the stages) count: the
// patches stage adds concats of its own.
std::vector<std::pair<int32_t, int>> ConcatCopyCandidates(const PipelineState& s, const Program& before) {
  std::vector<std::pair<int32_t, int>> out;
  const auto& st = s.program.statements();
  auto in_before = [&](int32_t id) {
    for (const Statement& b : before.statements()) {
      if (b.id == id) return b.op == OpKind::kConcat;
    }
    return false;
  };
  for (size_t i = 0; i < st.size(); ++i) {
    if (st[i].op != OpKind::kConcat || !s.model.elided[i] || !in_before(st[i].id)) continue;
    const int b = s.model.buffer_of_value[st[i].results[0]];
    if (b < 0 || s.model.buffers[b].parts.empty()) continue;
    int best = -1, first = 0;
    for (size_t k = 1; k < st[i].operands.size(); ++k) {
      const int64_t at = s.model.offset_in_buffer[st[i].operands[k]];
      for (const BufferPart& part : s.model.buffers[b].parts) {
        if (part.offset == at && (best < 0 || part.first_step < first)) {
          best = static_cast<int>(k);
          first = part.first_step;
        }
      }
    }
    if (best > 0) out.push_back({st[i].id, best});
  }
  return out;
}

// The memory stages on `before`, then the variants that may give a smaller
// arena, each a candidate run through the same stages; the smallest arena
// wins (then the smallest peak):
//  - where an overlap contract keeps a concat buffer whole, the buffer in
//    parts instead;
//  - every contract left out (what --overlap=off gives), unless the arena
//    already meets the order bound, which no weaker aliasing can beat;
//  - the contracts whose chains pack above the peak left out (cut), and
//    single contracts left out, where the plan misses its bound;
//  - a concat operand copied into its slice instead of written in place,
//    where the plan misses its bound (concat_copy.h).
absl::Status RunStagesAndVariants(PipelineState before, const std::vector<std::string>& stages,
                                  const PipelineOptions& pipeline, PipelineState& out) {
  Candidates c(stages, pipeline);
  OC_RETURN_IF_ERROR(c.Try(before));
  if (c.best().planned && PartsCompeteWithContracts(c.best().model)) {
    PipelineState parts = before;
    parts.memory.aliases.parts_over_contracts = true;
    parts.memory.patches_reuse_round = false;
    OC_RETURN_IF_ERROR(c.Try(parts));
  }
  if (c.best().planned && !c.best().model.overlaps.empty() && !BeatsEveryWeakerAlias(c.best())) {
    PipelineState off = before;
    off.memory.aliases.overlap = false;
    off.memory.patches_reuse_round = false;
    OC_RETURN_IF_ERROR(c.Try(off));
  }
  if (!c.Settled() && ScratchFreeArena(c.best()) > c.best().model.peak_bytes) {
    PipelineState cut = c.best_before();
    cut.memory.aliases.cut_contracts =
        ContractCutsThatPack(c.best().program, c.best().model, ScratchFreeArena(c.best()));
    if (!cut.memory.aliases.cut_contracts.empty()) OC_RETURN_IF_ERROR(c.Try(cut, /*refine=*/true));
  }
  if (!c.Settled()) {
    const PipelineState base = c.best_before();
    for (int32_t id : SingleContractDrops(c.best(), ScratchFreeArena(c.best()))) {
      PipelineState drop = base;
      drop.memory.aliases.cut_contracts.push_back(id);
      std::sort(drop.memory.aliases.cut_contracts.begin(), drop.memory.aliases.cut_contracts.end());
      OC_RETURN_IF_ERROR(c.Try(drop, /*refine=*/true));
      if (c.Settled()) break;
    }
  }
  // Copies accumulate (one slice copied may not pay until the next block's is
  // too), on the best candidate the patches stage left unpatched: a patched
  // program has concats of its own and may have lost the original ones.
  // A patched best is refined too: copies may match its arena without halo MACs.
  auto open = [&c] { return !c.Settled() || c.best().patches.applied; };
  if (open() && !c.has_unpatched()) OC_RETURN_IF_ERROR(c.Try(c.best_before(), /*refine=*/true));
  if (open() && c.has_unpatched()) {
    PipelineState copied = c.best_unpatched_before();
    int copies = 0;
    for (const auto& [concat, operand] : ConcatCopyCandidates(c.best_unpatched(), copied.program)) {
      if (!open() || copies++ == kMaxCopies) break;
      absl::StatusOr<ConcatCopy> made = CopyConcatOperand(copied.program, concat, operand);
      if (!made.ok()) continue;
      copied.concat_copies.push_back(*made);
      OC_RETURN_IF_ERROR(c.Try(copied, /*refine=*/true));
    }
  }
  out = c.TakeBest();
  return absl::OkStatus();
}

// The memory stages and their variants on `state` (the program in ONNX's
// layout, or already channels-last) and on `nhwc` when given; `state`
// becomes the better (fit first where there is a RAM limit, else the smaller
// arena).
absl::Status RunStagesOnLayouts(PipelineState& state, std::optional<PipelineState> nhwc,
                                const std::vector<std::string>& stages, const PipelineOptions& options,
                                PlanSearchResult& result) {
  {
    PipelineState chosen;
    OC_RETURN_IF_ERROR(RunStagesAndVariants(state, stages, options, chosen));
    state = std::move(chosen);
  }
  if (nhwc) {
    nhwc->pass_ms.clear();
    PipelineState variant;
    OC_RETURN_IF_ERROR(RunStagesAndVariants(*nhwc, stages, options, variant));
    const int fit = variant.planned && state.planned ? FitThenCost(variant, state) : 0;
    if (variant.planned && state.planned &&
        (fit < 0 || (fit == 0 && ScratchFreeArena(variant) < ScratchFreeArena(state)))) {
      state = std::move(variant);
      result.channels_last = true;
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
  if (state.memory.memory_map && o.until == Until::kPlanned) stages.push_back("regions");
  // Fit first: a program that misses the RAM limit, where no patches were
  // asked for, is searched again with the patches stage taking the cheapest
  // patching that fits; kept if it fits.
  const bool may_patch_to_fit = FitFirst(state) && o.passes.empty() && o.until == Until::kPlanned &&
                                state.memory.patches == MemoryOptions::Patches::kOff;
  std::optional<PipelineState> unpatched, unpatched_nhwc;
  if (may_patch_to_fit) {
    unpatched = state;
    if (nhwc) unpatched_nhwc = *nhwc;
  }
  // Recompute pays MACs: a recompute program is kept only when its arena is
  // below what the same search finds without the stage (the search's other
  // candidates may reach the recompute arena on their own).
  const auto recompute_stage = std::find(stages.begin(), stages.end(), "recompute");
  std::optional<PipelineState> ir, ir_nhwc;
  const bool forced_nhwc = result.channels_last;
  if (recompute_stage != stages.end()) {
    ir = state;
    ir_nhwc = nhwc;
  }
  OC_RETURN_IF_ERROR(RunStagesOnLayouts(state, std::move(nhwc), stages, o.pipeline, result));
  if (ir && !state.recompute.result.clones.empty()) {
    std::vector<std::string> without(stages.begin(), stages.end());
    without.erase(without.begin() + (recompute_stage - stages.begin()));
    PlanSearchResult plain;
    OC_RETURN_IF_ERROR(RunStagesOnLayouts(*ir, ir_nhwc, without, o.pipeline, plain));
    const int fit = ir->planned ? FitThenCost(*ir, state) : 0;
    if (ir->planned && (fit < 0 || (fit == 0 && ScratchFreeArena(*ir) <= ScratchFreeArena(state)))) {
      RecomputeSummary summary = std::move(state.recompute);
      summary.result.clones.clear();
      summary.result.extra_cost = 0;
      state = std::move(*ir);
      state.recompute = std::move(summary);
      result.channels_last = forced_nhwc || plain.channels_last;
    }
  }
  if (may_patch_to_fit && !Fits(state)) {
    for (PipelineState* s : {&*unpatched, unpatched_nhwc ? &*unpatched_nhwc : nullptr}) {
      if (!s) continue;
      s->memory.patches = MemoryOptions::Patches::kAuto;
      s->memory.patches_fit_first = true;
    }
    std::vector<std::string> patched_stages = DefaultMemoryStages(o.recompute, /*patches=*/true);
    if (state.memory.memory_map) patched_stages.push_back("regions");
    PlanSearchResult patched_result;
    OC_RETURN_IF_ERROR(RunStagesOnLayouts(*unpatched, unpatched_nhwc, patched_stages, o.pipeline, patched_result));
    if (Fits(*unpatched)) {
      state = std::move(*unpatched);
      result.channels_last = patched_result.channels_last;
    }
  }
  result.schedule_ms = state.pass_ms["schedule"];
  result.plan_ms = Sum(state.pass_ms) - result.schedule_ms;
  return result;
}

}  // namespace oc
