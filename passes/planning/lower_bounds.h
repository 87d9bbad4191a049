// Lower bounds on the peak of every order, by minimum cuts (docs/scheduling.md).
//
// Node bound: when node v runs, the nodes already run form an ideal S holding
// v's ancestors and none of its descendants, and the live bytes are what v
// writes plus its scratch plus cut(S), the buffers written in S and read
// outside. The smallest cut(S) is one s-t minimum cut; the maximum over v of
// the result bounds every order's peak.
// Pair bound: for two independent nodes u, w, one of them runs first; each
// case forces one into (or out of) the other's ideal, and the weaker case
// still bounds the peak.
#ifndef ONNX_TO_C_PASSES_PLANNING_LOWER_BOUNDS_H_
#define ONNX_TO_C_PASSES_PLANNING_LOWER_BOUNDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "passes/analysis/schedule_graph.h"
#include "passes/planning/schedulers.h"

namespace oc {

// The smallest live bytes at v's step over the ideals that contain
// `forced_in` and exclude `forced_out`; `ideal` is a minimizing S.
// Returns MaxFlow::kInfinite when no such ideal exists.
struct NodeCut {
  int64_t bytes = 0;
  std::vector<int> ideal;  // sorted node indices
};
NodeCut MinLiveBytesAt(const ScheduleGraph& g, int v, const std::vector<int>& forced_in = {},
                       const std::vector<int>& forced_out = {});

struct LowerBound {
  int64_t bytes = 0;
  std::string kind;        // "node" or "pair"
  std::vector<int> nodes;  // v, or the pair (u, w)
  // The minimizing ideals behind the bound (node: one; pair: the four cuts
  // max(w|u in, u|w out), max(u|w in, w|u out), in that order).
  std::vector<NodeCut> cuts;
  int64_t cuts_computed = 0;
  bool complete = true;  // false when the budget cut the search short
};

// The best bound found within `budget` (each minimum cut costs it one unit
// per node and buffer of `g`). `order` is the best known order (its
// per-step live bytes bound each node's cut from above and decide which nodes
// can matter); `stop_at` ends the search early once reached (the peak of that
// order: no bound can exceed it).
LowerBound ComputeLowerBound(const ScheduleGraph& g, const std::vector<int>& order,
                             int64_t stop_at, WorkBudget& budget, bool try_pairs);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PLANNING_LOWER_BOUNDS_H_
