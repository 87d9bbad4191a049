// Arena planning: an offset for every arena occupant (buffer or statement
// scratch, see arena_occupants.h), behind one small interface, plus an
// independent validator.
#ifndef ONNX_TO_C_PASSES_PLANNING_ARENA_PLAN_H_
#define ONNX_TO_C_PASSES_PLANNING_ARENA_PLAN_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/support/work_budget.h"
#include "passes/analysis/arena_occupants.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/interval_packing.h"

namespace oc {

// Work units of one best plan by default (about 0.3 s on a 2020s x86-64 core
// when its exact search runs to the end).
constexpr int64_t kDefaultPlanBudget = 3000000;

struct ArenaPlan {
  std::string planner;
  std::vector<int64_t> buffer_offset;   // per buffer; -1 outside the arena
  std::vector<int64_t> scratch_offset;  // per statement (program order); -1 without scratch
  int64_t arena_bytes = 0;
  // An exact search proved that no packing of these occupants (this program,
  // this order, these aliases) is smaller (see Packing::proven).
  bool proven_optimal = false;
};

// Where `occupant` (one of ArenaOccupants(program, model)) starts in the arena
// under `plan`; -1 when the plan does not place it.
int64_t OccupantOffset(const ArenaPlan& plan, const ArenaOccupant& occupant);

// The RAM a firmware pays for activations: the arena plus the caller's input
// and output buffers (just the arena with --io=arena).
int64_t TotalRamBytes(const ArenaPlan& plan, const MemoryModel& model);

// No reuse: every buffer gets its own bytes (the baseline).
ArenaPlan PlanLinear(const Program& program, const MemoryModel& model);
// Largest first, lowest offset that fits among the buffers live at the same
// time (TFLite Micro's greedy-by-size).
ArenaPlan PlanGreedyBySize(const Program& program, const MemoryModel& model);
// Best-fit over several item orders, then an exact branch and bound within
// `budget` (work units); stops as soon as the arena equals the modeled peak.
ArenaPlan PlanBest(const Program& program, const MemoryModel& model, WorkBudget& budget);
// The same within kDefaultPlanBudget.
ArenaPlan PlanBest(const Program& program, const MemoryModel& model);
// Best fit and greedy, then the exact searches on packing items alone (what
// PlanBest runs, and the region planner per region).
Packing PackBest(const std::vector<IntervalItem>& items, int64_t alignment, WorkBudget& budget);

// Overlap contracts chain their buffers at fixed offsets, so that a long
// chain (each output below its input) can pack into more than the peak. The
// statement ids of contracts worth leaving out: among the cuts of every link
// whose displacement exceeds t times its credit (t = 4, 2, 1, 1/2, 1/4, 0),
// the one whose buffers the fast packers place in the fewest bytes, if fewer
// than `arena_bytes`; empty otherwise. A cut costs the link's credit at its
// step, so the caller reruns the memory stages without those contracts and
// keeps the result only if its arena is smaller.
std::vector<int32_t> ContractCutsThatPack(const Program& program, const MemoryModel& model,
                                          int64_t arena_bytes);

// What the fast packers (best fit, greedy) give the program's occupants with
// the overlap contracts of statements `cut` (ids) left out.
int64_t QuickArenaWithout(const Program& program, const MemoryModel& model,
                          const std::vector<int32_t>& cut);

enum class Planner { kLinear, kGreedy, kBest };
absl::string_view PlannerName(Planner planner);
std::optional<Planner> ParsePlanner(absl::string_view word);

// Runs the planner (`budget` is for kBest).
ArenaPlan PlanArena(Planner planner, const Program& program, const MemoryModel& model,
                    WorkBudget& budget);

// A lower bound on the arena of every plan for this program as it is (its
// order, aliases and scratch): the modeled peak, and at every step the
// extent of each group of occupants at fixed offsets (concat parts, overlap
// chains) with what cannot fit into its holes (packing_bound.h).
struct ArenaBound {
  int64_t bytes = 0;
  int step = -1;        // a step where it is reached
  bool groups = false;  // above the peak because of a group's extent
};
ArenaBound ArenaLowerBound(const Program& program, const MemoryModel& model);

// Checks a plan without trusting the planner: every arena buffer and scratch
// lies inside the arena and is aligned, and no two that are live at the same
// step share a byte.
absl::Status ValidatePlan(const Program& program, const MemoryModel& model, const ArenaPlan& plan);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_ARENA_PLAN_H_
