// The pipeline state as text: the IR, then the schedule's certificate and the
// arena plan as `//` comments (the IR parser skips comments, so the text
// still parses).
#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "passes/pipeline/pass.h"

namespace oc {
namespace {

std::string Ids(const std::vector<int32_t>& ids) {
  std::string s;
  for (int32_t id : ids) absl::StrAppend(&s, s.empty() ? "" : " ", id);
  return s;
}

void PrintSchedule(const PipelineState& state, std::string& out) {
  const ScheduleReport& s = state.schedule;
  absl::StrAppend(&out, "// schedule: mode ", s.mode, ", chosen by ", s.chosen_by, "; peak ",
                  s.peak, " (file order ", s.file_order_peak, "); lower bound ", s.bound.bytes,
                  " (", s.bound.kind, "); ",
                  s.certified_optimal ? "certified optimal"
                                      : absl::StrCat("gap ", s.peak - s.bound.bytes),
                  "\n// order: ", Ids(s.order), "\n");
  const RecomputeResult& rc = state.recompute.result;
  if (state.recompute.enabled) {
    absl::StrAppend(&out, "// recompute: ", rc.clones.size(), " clones, +", rc.extra_cost,
                    " MACs; arena ", rc.arena_before, " -> ", rc.arena_after, "\n");
  }
}

void PrintPlan(const PipelineState& state, std::string& out) {
  const Program& p = state.program;
  const MemoryModel& m = state.model;
  absl::StrAppend(&out, "// plan: planner ", state.plan.planner, ", arena ", state.plan.arena_bytes,
                  " bytes, modeled peak ", m.peak_bytes, " at step ", m.peak_step, "\n");
  for (const ArenaOccupant& o : ArenaOccupants(p, m)) {
    if (o.IsBuffer()) {
      absl::StrAppend(&out, "//   buffer ", QuoteString(p.value(m.buffers[o.buffer].root).name));
    } else {
      absl::StrAppend(&out, "//   scratch of step ", o.statement, " (kernel ", o.kernel_scratch,
                      ", overlap contract ", o.contract_scratch, ")");
    }
    absl::StrAppend(&out, " offset ", OccupantOffset(state.plan, o), " bytes ", o.bytes, " steps ",
                    o.first_step, "..", o.last_step, "\n");
  }
  if (state.kernel_scratch.ran) {
    const KernelScratchSummary& ks = state.kernel_scratch;
    absl::StrAppend(&out, "// kernel scratch: ",
                    ks.free_bytes_only ? std::string("free bytes only")
                                       : absl::StrCat("budget ", ks.budget_bytes, " bytes"),
                    ", arena without ", ks.arena_without_bytes,
                    ", statements [", Ids(ks.statements), "]\n");
  }
  const ArenaClaims& a = state.arena_claims;
  if (a.bound.bytes > 0) {  // the validate-plan stage ran
    absl::StrAppend(&out, "// arena bound: ", a.bound.bytes, " bytes (",
                    a.bound.groups ? "group extent" : "peak", " at step ", a.bound.step, "); arena ",
                    a.certified        ? "certified optimal"
                    : a.proven_optimal ? "proven optimal (exhaustive packing search)"
                                       : absl::StrCat("gap ", state.plan.arena_bytes - a.bound.bytes, " bytes"),
                    "\n");
  }
}

}  // namespace

std::string PrintPipelineState(const PipelineState& state, const PrintOptions& options) {
  std::string out = PrintProgram(state.program, options);
  if (state.scheduled) PrintSchedule(state, out);
  if (state.planned) PrintPlan(state, out);
  return out;
}

}  // namespace oc
