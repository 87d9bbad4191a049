// Arithmetic on memory regions that both the region planner and `verify` use:
// the occupants grouped into units that must share a region (a group at fixed
// offsets: concat parts, an overlap chain), and a lower bound on the access
// cost (traffic x region cost) of every assignment of the units to regions
// that fits.
#ifndef ONNX_TO_C_PASSES_PLANNING_REGION_BOUND_H_
#define ONNX_TO_C_PASSES_PLANNING_REGION_BOUND_H_

#include <cstdint>
#include <vector>

#include "passes/planning/interval_packing.h"

namespace oc {

// What the bound needs of a region: its size and its cost per byte.
struct RegionCapacity {
  int64_t size = 0;
  double cost = 1;
};

// The items (by index) of each unit: items of one group together, every
// other item alone; units in order of their first item.
std::vector<std::vector<int>> RegionUnits(const std::vector<IntervalItem>& items);

// Bytes a unit covers at `step`: the union of its live items' spans at their
// group offsets (0 when none is live).
int64_t UnitBytesAt(const std::vector<IntervalItem>& items, const std::vector<int>& unit, int step);

// The unit's rigid height: from its lowest item's offset to its highest end.
int64_t UnitHeight(const std::vector<IntervalItem>& items, const std::vector<int>& unit);

struct AccessCostBound {
  bool feasible = true;  // false: no assignment fits (a unit taller than every region, or a step)
  double cost = 0;       // no assignment that fits costs less
  int step = -1;         // the step whose relaxation gave it (-1: the per-unit term alone)
};

// A lower bound on sum over units of traffic(unit) x cost(its region) for
// every assignment in which each region holds, at every step, the bytes its
// units cover then. Each unit costs at least its traffic times the cheapest
// region it fits in (its height); and at any one step the units live there
// obey the regions' sizes, a fractional knapsack over several bins whose
// cost per byte is (traffic / bytes) x (region cost): a product, so the
// transportation problem's greedy (densest units into the cheapest region,
// Hoffman 1963, Monge costs) is optimal for the relaxation. The bound is the
// best over steps of that relaxation plus the per-unit term of the units not
// live there, and the per-unit term of all units.
AccessCostBound AccessCostLowerBound(const std::vector<IntervalItem>& items,
                                     const std::vector<std::vector<int>>& units,
                                     const std::vector<int64_t>& unit_traffic,
                                     const std::vector<RegionCapacity>& regions);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_REGION_BOUND_H_
