// Planning across a board's RAM regions (a memory map, compiler/target/memory_map.h):
// every arena occupant lies in exactly one region (a concat buffer's parts
// and an overlap chain together, at their fixed offsets), each region is
// packed as its own arena, and among the assignments the search finds that
// fit, the one with the least estimated access cost (traffic x the region's
// cost per byte) wins, then the fewest bytes.
#ifndef ONNX_TO_C_PASSES_PLANNING_REGION_PLAN_H_
#define ONNX_TO_C_PASSES_PLANNING_REGION_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/program.h"
#include "compiler/support/work_budget.h"
#include "compiler/target/memory_map.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"

namespace oc {

// One region of the map as planned.
struct RegionUse {
  int64_t base = 0;  // where its arena starts among the plan's offsets (regions in map order)
  int64_t arena_bytes = 0;
  int64_t lower_bound_bytes = 0;  // no packing of its occupants needs fewer bytes
  bool proven_optimal = false;    // its packing meets that bound or an exact search proved it
  int64_t traffic_bytes = 0;      // bytes its values are read and written per inference
  std::vector<int> buffers;       // buffer ids, ascending
  std::vector<int> scratch;       // statements (program indices) whose scratch it holds
};

struct RegionPlan {
  bool fits = false;
  std::string failure;  // why no split fits, naming buffers and steps (when !fits)
  std::vector<RegionUse> regions;  // the map's order
  // Sums of traffic x cost: the plan's; a lower bound for every assignment
  // that fits (this program, this order); the plain baseline's (densest
  // units into the cheapest region that still packs, largest first); and
  // everything in the costliest region.
  double access_cost = 0, access_cost_lower_bound = 0, access_cost_baseline = 0, access_cost_costliest = 0;
  int improvements = 0;  // moves and swaps the search kept over the baseline
};

// How far an access cost may be above the best split, in percent of its
// lower bound (0 when the bound is 0).
inline double AccessCostGapPercent(double cost, double lower_bound) {
  return lower_bound > 0 ? 100.0 * (cost - lower_bound) / lower_bound : 0.0;
}

// Bytes each buffer's values are read and written per inference: every
// statement that runs code reads each arena operand whole and writes each
// arena result whole; with --io=arena the caller writes each input and reads
// each output once. Scratch is not counted. Per buffer id.
std::vector<int64_t> BufferTraffic(const Program& program, const MemoryModel& model);

// Assigns and packs. With `fits`, `plan` becomes the plan over all regions
// (offsets in region r are its base plus the offset in its arena; the arena
// is the regions' arenas end to end), which ValidatePlan accepts like any
// other; without, `plan` is unchanged and `failure` says why.
RegionPlan PlanRegions(const Program& program, const MemoryModel& model, const MemoryMap& map,
                       WorkBudget& budget, ArenaPlan& plan);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_REGION_PLAN_H_
