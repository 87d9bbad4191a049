#include "compiler/driver/gates.h"

#include "absl/strings/str_cat.h"
#include "compiler/driver/arena_items.h"

namespace oc {
namespace {

std::string PeakStepDescription(const CompileResult& r) {
  const int step = r.model.peak_step;
  if (step < 0) return "";
  const Statement& s = r.program.statements()[step];
  return absl::StrCat("; at the peak, step ", step, " (node '", s.node_name, "', ", s.onnx_op,
                      "), the biggest live buffers are ",
                      DescribeItems(LiveItemsAt(r, step), 3));
}

absl::Status CheckMaxArena(const CompileOptions& o, const CompileResult& r) {
  const int64_t arena = r.plan.arena_bytes;
  if (o.max_arena_bytes < 0 || arena <= o.max_arena_bytes) return absl::OkStatus();
  const int64_t bound = r.schedule.bound.bytes;
  std::string verdict =
      bound > o.max_arena_bytes
          ? "so no operator order fits"
          : (r.schedule.certified_optimal ? "" : "so a better operator order might fit");
  return absl::FailedPreconditionError(absl::StrCat(
      "the arena of '", r.program.name, "' needs ", arena, " bytes, more than --max-arena ",
      o.max_arena_bytes, " bytes (", arena - o.max_arena_bytes, " too many); lower bound for any order ",
      bound, " bytes", verdict.empty() ? "" : ", ", verdict, PeakStepDescription(r)));
}

absl::Status CheckMemoryMap(const CompileOptions& o, const CompileResult& r) {
  if (!o.memory_map || r.regions.fits) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("'", r.program.name, "' does not fit the memory map (",
                                                    o.memory_map->regions.size(),
                                                    o.memory_map->regions.size() == 1 ? " region, " : " regions, ",
                                                    o.memory_map->TotalBytes(), " bytes): ", r.regions.failure));
}

absl::Status CheckCertified(const CompileOptions& o, const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  const ArenaClaims& a = r.arena_claims;
  if (!o.require_certified) return absl::OkStatus();
  if (!a.proven_optimal) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--require-certified: the arena of '", r.program.name, "' is not certified optimal: ",
        r.plan.arena_bytes, " bytes, arena lower bound ", a.bound.bytes, " bytes (gap ",
        r.plan.arena_bytes - a.bound.bytes, " bytes), and the exact packing search did not prove it",
        PeakStepDescription(r)));
  }
  if (s.certified_optimal) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "--require-certified: the operator order of '", r.program.name,
      "' is not certified optimal: peak ", s.peak, " bytes, lower bound ", s.bound.bytes,
      " bytes (gap ", s.peak - s.bound.bytes, " bytes); ",
      !r.recompute.result.clones.empty()
          ? "it recomputes statements (--recompute=on), and the order bound certifies no recompute program"
      : s.exact_search_finished ? "the exact search found no better order, but that proof has no certificate"
      : s.mode != "best"      ? "--schedule=" + s.mode + " does not search for the best order"
                              : "a larger --search-effort may find a better order or a tighter bound"));
}

}  // namespace

absl::Status CheckGates(const CompileOptions& o, const CompileResult& r) {
  if (absl::Status st = CheckMaxArena(o, r); !st.ok()) return st;
  if (absl::Status st = CheckMemoryMap(o, r); !st.ok()) return st;
  return CheckCertified(o, r);
}

}  // namespace oc
