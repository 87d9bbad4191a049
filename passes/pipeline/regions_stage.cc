// The `regions` stage (passes/planning/region_plan.h): with a memory map, the
// validated one-arena plan is replaced by a plan over the map's regions, each
// occupant in one region; the plan is validated again and its claims are
// those of the regions laid end to end. Without a map it does nothing.
#include <chrono>

#include "compiler/support/status.h"
#include "passes/pipeline/pass.h"
#include "passes/planning/region_plan.h"

namespace oc {

absl::Status RunRegionsStage(PipelineState& s) {
  if (!s.memory.memory_map) return absl::OkStatus();
  const auto t0 = std::chrono::steady_clock::now();
  WorkBudget budget = s.memory.budgets.Budget(s.memory.budgets.plan);
  s.regions = PlanRegions(s.program, s.model, *s.memory.memory_map, budget, s.plan);
  if (s.regions.fits) {
    OC_RETURN_IF_ERROR(ValidatePlan(s.program, s.model, s.plan));
    ArenaClaims& c = s.arena_claims;
    if (c.bound.bytes > s.plan.arena_bytes) {
      return absl::InternalError("the regions' arenas together are below the arena's lower bound");
    }
    c.certified = s.plan.arena_bytes == c.bound.bytes;
    c.proven_optimal = c.certified;
  }
  s.pass_ms["regions"] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return absl::OkStatus();
}

}  // namespace oc
