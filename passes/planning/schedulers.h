// Operator orders that aim at a small peak of live arena bytes (see
// docs/scheduling.md). All take the schedule graph and return a topological
// order of its nodes.
#ifndef ONNX_TO_C_PASSES_PLANNING_SCHEDULERS_H_
#define ONNX_TO_C_PASSES_PLANNING_SCHEDULERS_H_

#include <cstdint>
#include <vector>

#include "compiler/support/work_budget.h"
#include "passes/analysis/schedule_graph.h"

namespace oc {

// Baselines.
std::vector<int> FileOrder(const ScheduleGraph& g);
std::vector<int> ReversePostOrder(const ScheduleGraph& g);

// Least-peak-first list scheduling: among the ready nodes, run the one whose
// step costs least (ties: the one that leaves the fewest resident bytes).
std::vector<int> GreedyLeastPeak(const ScheduleGraph& g);
// Depth-first from the outputs, running the most memory-hungry input cone
// first (Sethi-Ullman's idea for trees, applied to the DAG).
std::vector<int> MemoryAwareDfs(const ScheduleGraph& g);
// Hill climbing around the peak step: moves single nodes to other valid
// positions while the peak (then the number of steps at the peak) drops.
// Each order it scores costs the budget one unit per node.
std::vector<int> ImproveLocally(const ScheduleGraph& g, std::vector<int> order, WorkBudget& budget);

// Exact minimum-peak order by best-first search over ideals (sets of executed
// nodes), memoized per ideal and pruned by `upper_bound` (an order with that
// peak is already known). Bottleneck costs are monotone along a path, so the
// first complete ideal taken from the queue is optimal.
struct ExactSearchResult {
  bool finished = false;  // the search space was exhausted: `peak` is optimal
  bool improved = false;  // `order` beats upper_bound
  std::vector<int> order;
  int64_t peak = 0;
  int64_t states = 0;
};
// Each state it expands costs the budget one unit per node; `max_states`
// bounds its memory.
ExactSearchResult ExactMinPeakOrder(const ScheduleGraph& g, int64_t upper_bound,
                                    WorkBudget& budget, int64_t max_states = 2000000);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_SCHEDULERS_H_
